#include "app/gui/window/study_window.hpp"

#include <signal.h>

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QThread>
#include <QUrl>
#include <QVBoxLayout>

namespace wb::gui {

namespace {
// The log keeps this many of the study's lines.
constexpr int kLogLines = 500;
}  // namespace

StudyWindow::StudyWindow(QWidget* parent) : QWidget(parent, Qt::Window), cli_(findCli()) {
  setWindowTitle(tr("Run study"));
  auto* form = new QFormLayout;
  studyFile_ = new QLineEdit;
  studyFile_->setPlaceholderText(tr("study.json or builtin:NAME"));
  auto* browseStudyButton = new QPushButton(tr("Browse…"));
  auto* studyRow = new QHBoxLayout;
  studyRow->addWidget(studyFile_);
  studyRow->addWidget(browseStudyButton);
  form->addRow(tr("Study"), studyRow);
  folder_ = new QLineEdit;
  folder_->setPlaceholderText(tr("a new folder, or the folder of this study to resume"));
  auto* browseFolderButton = new QPushButton(tr("Browse…"));
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(folder_);
  folderRow->addWidget(browseFolderButton);
  form->addRow(tr("Results in"), folderRow);
  jobs_ = new QSpinBox;
  jobs_->setRange(1, 256);
  jobs_->setValue(std::max(1, QThread::idealThreadCount()));
  jobs_->setToolTip(tr("Runs at once, each a process of its own"));
  form->addRow(tr("Runs at once"), jobs_);

  progress_ = new QProgressBar;
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_ = new QLabel(cli_.isEmpty() ? tr("wavebench-cli was not found beside wavebench or on "
                                           "PATH: studies cannot run")
                                      : tr("Pick a study file and a folder for its results."));
  status_->setWordWrap(true);
  log_ = new QPlainTextEdit;
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(kLogLines);
  runButton_ = new QPushButton(tr("Run"));
  stopButton_ = new QPushButton(tr("Stop"));
  stopButton_->setEnabled(false);
  reportButton_ = new QPushButton(tr("Open report"));
  reportButton_->setEnabled(false);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch();
  buttons->addWidget(runButton_);
  buttons->addWidget(stopButton_);
  buttons->addWidget(reportButton_);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(progress_);
  layout->addWidget(status_);
  layout->addWidget(log_, 1);
  layout->addLayout(buttons);
  resize(640, 420);

  connect(browseStudyButton, &QPushButton::clicked, this, &StudyWindow::browseStudy);
  connect(browseFolderButton, &QPushButton::clicked, this, &StudyWindow::browseFolder);
  connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
  connect(stopButton_, &QPushButton::clicked, this, &StudyWindow::stop);
  connect(reportButton_, &QPushButton::clicked, this,
          [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(reportFile())); });
  process_.setProcessChannelMode(QProcess::MergedChannels);
  connect(&process_, &QProcess::readyReadStandardOutput, this, &StudyWindow::readProgress);
  connect(&process_, &QProcess::finished, this, &StudyWindow::onFinished);
}

StudyWindow::~StudyWindow() {
  if (!running()) return;
  process_.disconnect(this);
  stop();
  if (!process_.waitForFinished(5000)) process_.kill();
  process_.waitForFinished(1000);
}

QString StudyWindow::findCli() {
  const QString here = QCoreApplication::applicationDirPath();
  for (const QString& candidate : {here + "/wavebench-cli", here + "/../wavebench-cli"})
    if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
  return QStandardPaths::findExecutable("wavebench-cli");
}

void StudyWindow::setStudyFile(const QString& file) {
  studyFile_->setText(file);
}
void StudyWindow::setOutputFolder(const QString& folder) {
  folder_->setText(folder);
}

QString StudyWindow::reportFile() const {
  return QDir(folder_->text()).filePath("report.html");
}

void StudyWindow::browseStudy() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Study file"), studyFile_->text(),
                                                    tr("Studies (*.json *.study);;All files (*)"));
  if (file.isEmpty()) return;
  studyFile_->setText(file);
  if (folder_->text().isEmpty()) {
    const QFileInfo info(file);
    folder_->setText(info.dir().filePath(info.completeBaseName() + "-results"));
  }
}

void StudyWindow::browseFolder() {
  const QString folder =
      QFileDialog::getExistingDirectory(this, tr("Folder for the results"), folder_->text());
  if (!folder.isEmpty()) folder_->setText(folder);
}

bool StudyWindow::run() {
  if (running()) return false;
  QString problem;
  if (cli_.isEmpty())
    problem = tr("wavebench-cli was not found beside wavebench or on PATH");
  else if (studyFile_->text().trimmed().isEmpty())
    problem = tr("Pick a study file first");
  else if (folder_->text().trimmed().isEmpty())
    problem = tr("Pick a folder for the results first");
  if (!problem.isEmpty()) {
    status_->setText(problem);
    return false;
  }
  log_->clear();
  pendingLine_.clear();
  progress_->setRange(0, 0);  // busy until the first run reports the count
  status_->setText(tr("Planning the runs (a calibration run times each model)…"));
  reportButton_->setEnabled(false);
  runButton_->setEnabled(false);
  stopButton_->setEnabled(true);
  process_.start(cli_, {"study", "run", studyFile_->text().trimmed(), "--out",
                        folder_->text().trimmed(), "--jobs", QString::number(jobs_->value())});
  return true;
}

void StudyWindow::stop() {
  if (running()) ::kill(pid_t(process_.processId()), SIGINT);  // the runner stops its runs
}

// "study: [3/12] swe-adi_grid64_dt0.5x: ok (0.05 s)": runs done of all, and the run's line.
void StudyWindow::readProgress() {
  static const QRegularExpression count(R"(\[(\d+)/(\d+)\])");
  pendingLine_ += QString::fromUtf8(process_.readAllStandardOutput());
  qsizetype end = 0;
  while ((end = pendingLine_.indexOf('\n')) >= 0) {
    const QString line = pendingLine_.left(end).trimmed();
    pendingLine_.remove(0, end + 1);
    if (line.isEmpty()) continue;
    log_->appendPlainText(line);
    const auto match = count.match(line);
    if (match.hasMatch()) {
      progress_->setRange(0, match.captured(2).toInt());
      progress_->setValue(match.captured(1).toInt());
    }
    status_->setText(line);
  }
}

void StudyWindow::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
  readProgress();
  runButton_->setEnabled(true);
  stopButton_->setEnabled(false);
  const bool report = QFileInfo::exists(reportFile());
  reportButton_->setEnabled(report);
  if (progress_->maximum() == 0) progress_->setRange(0, 1);
  const int code = exitStatus == QProcess::NormalExit ? exitCode : 128 + SIGKILL;
  if (code == 0 || code == 3) {
    progress_->setValue(progress_->maximum());
    status_->setText(code == 0 ? tr("Every run is done; the report is %1").arg(reportFile())
                               : tr("Done, but a run blew up or failed (see its row in the "
                                    "report, %1)")
                                     .arg(reportFile()));
    if (opensReport_ && report) QDesktopServices::openUrl(QUrl::fromLocalFile(reportFile()));
  } else if (code > 128) {
    status_->setText(tr("Stopped: the finished runs are kept; Run again does the rest."));
  } else {
    // The runner's own one-line reason (bad input: exit 2) is its last line.
    const QStringList lines = log_->toPlainText().split('\n', Qt::SkipEmptyParts);
    status_->setText(lines.isEmpty() ? tr("The study stopped with exit code %1").arg(code)
                                     : lines.last());
  }
  emit finished(code);
}

}  // namespace wb::gui
