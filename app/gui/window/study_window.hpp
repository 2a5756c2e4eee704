// File > Run study…: a study file (docs/studies.md) run in the background by `wavebench-cli
// study run FILE --out DIR --jobs N`, the same program and the same folder layout as on the
// command line (so a study started here resumes there and the other way round). The window
// shows the runs done of all, the last run's line and, when the study is over, opens its
// report.html. Stop ends the study (SIGINT: the finished runs stay, a rerun does the rest).
#pragma once

#include <QProcess>
#include <QString>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace wb::gui {

class StudyWindow : public QWidget {
  Q_OBJECT

 public:
  explicit StudyWindow(QWidget* parent = nullptr);
  ~StudyWindow() override;

  // wavebench-cli beside this program (installed side by side, or app/ of the build tree
  // above app/gui/), else on PATH; empty when there is none.
  static QString findCli();
  void setCli(const QString& path) { cli_ = path; }

  void setStudyFile(const QString& file);
  void setOutputFolder(const QString& folder);
  // Starts the study; false (and the reason in the status line) when it cannot start.
  bool run();
  void stop();
  bool running() const { return process_.state() != QProcess::NotRunning; }
  // Whether a finished study opens its report in the browser (off for tests).
  void setOpensReport(bool opens) { opensReport_ = opens; }

  QProgressBar* progress() const { return progress_; }
  QLabel* status() const { return status_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* reportButton() const { return reportButton_; }
  QString reportFile() const;

 signals:
  // The study's process ended: its exit code (0 every run ok, 3 a run blew up or failed, 2 bad
  // input, 128 + signal when stopped).
  void finished(int exitCode);

 private:
  void browseStudy();
  void browseFolder();
  void readProgress();
  void onFinished(int exitCode, QProcess::ExitStatus status);

  QString cli_;
  QProcess process_;
  QString pendingLine_;
  QLineEdit* studyFile_ = nullptr;
  QLineEdit* folder_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* stopButton_ = nullptr;
  QPushButton* reportButton_ = nullptr;
  bool opensReport_ = true;
};

}  // namespace wb::gui
