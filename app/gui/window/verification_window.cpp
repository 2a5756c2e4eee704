#include "app/gui/window/verification_window.hpp"

#include <exception>
#include <set>

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/scenario/scenario.hpp"

namespace wb::gui {

namespace {
const QColor kPassed(200, 240, 200), kFailed(250, 200, 200);

QString figure(double value) {
  return QString::number(value, 'g', 3);
}

QTableWidgetItem* cell(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return item;
}
}  // namespace

VerificationWindow::VerificationWindow(QWidget* parent, std::vector<VerifyCase> cases)
    : QWidget(parent, Qt::Window), cases_(std::move(cases)) {
  setObjectName("verificationWindow");
  setWindowTitle(tr("Verification"));
  resize(980, 640);
  filter_ = new QComboBox;
  filter_->addItem(tr("All models"), QString());
  std::set<std::string> seen;
  for (const VerifyCase& c : cases_)
    if (seen.insert(c.model).second)
      filter_->addItem(QString::fromStdString(c.model), QString::fromStdString(c.model));
  runButton_ = new QPushButton(tr("Run"));
  cancelButton_ = new QPushButton(tr("Cancel"));
  cancelButton_->setEnabled(false);
  progress_ = new QProgressBar;
  status_ = new QLabel;
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Model:")));
  controls->addWidget(filter_);
  controls->addWidget(runButton_);
  controls->addWidget(cancelButton_);
  controls->addWidget(progress_, 1);

  table_ = new QTableWidget(0, ColumnCount);
  table_->setHorizontalHeaderLabels(
      {tr("Model"), tr("Case"), tr("Tolerance"), tr("Measured"), tr("Result"), QString()});
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(CaseColumn, QHeaderView::Stretch);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setWordWrap(false);

  auto* references = new QGroupBox(tr("Builtin scenarios with an exact reference"));
  scenarios_ = new QListWidget;
  scenarios_->setMaximumHeight(90);
  auto* openScenario = new QPushButton(tr("Open in workbench"));
  auto* referencesLayout = new QHBoxLayout(references);
  referencesLayout->addWidget(scenarios_, 1);
  referencesLayout->addWidget(openScenario, 0, Qt::AlignTop);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(status_);
  layout->addWidget(table_, 1);
  layout->addWidget(references);

  connect(filter_, &QComboBox::currentIndexChanged, this,
          [this] { setModelFilter(filter_->currentData().toString()); });
  connect(runButton_, &QPushButton::clicked, this, &VerificationWindow::run);
  connect(cancelButton_, &QPushButton::clicked, this, &VerificationWindow::cancel);
  const auto openSelected = [this] {
    if (QListWidgetItem* item = scenarios_->currentItem())
      emit openScenarioAsked(item->data(Qt::UserRole).toString());
  };
  connect(openScenario, &QPushButton::clicked, this, openSelected);
  connect(scenarios_, &QListWidget::itemDoubleClicked, this, openSelected);
  buildReferenceList();
  showRows();
}

VerificationWindow::~VerificationWindow() {
  cancelRequested_ = true;
  joinWorker();
}

void VerificationWindow::joinWorker() {
  if (worker_.joinable()) worker_.join();
}

// The builtin scenarios that name a `reference`: a run of them shows the error against it
// (View > Colour by > Error against the reference).
void VerificationWindow::buildReferenceList() {
  for (const std::string& name : builtinScenarioNames()) {
    try {
      const Scenario scenario = loadScenario("builtin:" + name);
      if (!scenario.reference) continue;
      auto* item = new QListWidgetItem(QString("%1 — %2").arg(
          QString::fromStdString(name), referenceKindName(scenario.reference->kind)));
      item->setData(Qt::UserRole, QString::fromStdString("builtin:" + name));
      item->setToolTip(QString::fromStdString(scenario.description));
      scenarios_->addItem(item);
    } catch (const std::exception&) {
      // A builtin that does not load is the unit tests' business, not this list's.
    }
  }
  if (scenarios_->count() > 0) scenarios_->setCurrentRow(0);
}

QString VerificationWindow::scenarioOfCase(const VerifyCase& verifyCase) {
  // The Ritter cases of swe-semi-lagrangian run builtin:ritter's strip: 1 m behind a dam at
  // 15 m, 50 m at 20 cells/m, dry bed (models/verification/swe_wet_dry_cases.cpp).
  if (verifyCase.model == "swe-semi-lagrangian" && verifyCase.name.rfind("ritter", 0) == 0)
    return "builtin:ritter";
  return {};
}

void VerificationWindow::setModelFilter(const QString& model) {
  if (running_) return;
  const int index = filter_->findData(model);
  if (index >= 0 && index != filter_->currentIndex()) {
    filter_->setCurrentIndex(index);  // comes back here through currentIndexChanged
    return;
  }
  showRows();
}

void VerificationWindow::showRows() {
  const std::string model = filter_->currentData().toString().toStdString();
  shown_.clear();
  for (std::size_t k = 0; k < cases_.size(); ++k)
    if (model.empty() || cases_[k].model == model) shown_.push_back(k);
  table_->setRowCount(0);
  table_->setRowCount(int(shown_.size()));
  for (int row = 0; row < int(shown_.size()); ++row) {
    const VerifyCase& c = cases_[shown_[std::size_t(row)]];
    table_->setItem(row, ModelColumn, cell(QString::fromStdString(c.model)));
    table_->setItem(row, CaseColumn, cell(QString::fromStdString(c.name)));
    for (int column : {ToleranceColumn, MeasuredColumn})
      table_->setItem(row, column, cell(QString()));
    table_->setItem(row, ResultColumn, cell(tr("not run")));
    const QString scenario = scenarioOfCase(c);
    if (!scenario.isEmpty()) {
      auto* open = new QPushButton(tr("Open in workbench"));
      open->setToolTip(tr("Open %1, the case's setup, with its reference").arg(scenario));
      connect(open, &QPushButton::clicked, this,
              [this, scenario] { emit openScenarioAsked(scenario); });
      table_->setCellWidget(row, OpenColumn, open);
    }
  }
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setSectionResizeMode(CaseColumn, QHeaderView::Stretch);
  progress_->setRange(0, std::max<int>(1, int(shown_.size())));
  progress_->setValue(0);
  casesRun_ = casesFailed_ = 0;
  updateStatus();
}

void VerificationWindow::run() {
  if (running_ || shown_.empty()) return;
  joinWorker();  // the last run's thread has ended: its finish() was delivered
  showRows();
  running_ = true;
  cancelRequested_ = false;
  runButton_->setEnabled(false);
  filter_->setEnabled(false);
  cancelButton_->setEnabled(true);
  std::vector<VerifyCase> selected;
  for (std::size_t k : shown_)
    selected.push_back(cases_[k]);
  updateStatus(QString::fromStdString(selected.front().name));
  worker_ = std::thread([this, selected = std::move(selected)] {
    for (std::size_t row = 0; row < selected.size() && !cancelRequested_; ++row) {
      VerifyResult result;
      try {
        result = selected[row].run();
      } catch (const std::exception& error) {
        result = {selected[row].model,
                  selected[row].name,
                  0.0,
                  0.0,
                  "",
                  false,
                  std::string("threw: ") + error.what()};
      }
      const QString next =
          row + 1 < selected.size() ? QString::fromStdString(selected[row + 1].name) : QString();
      // Queued to the window's thread; dropped if the window is gone.
      QMetaObject::invokeMethod(
          this,
          [this, row, result, next] {
            showResult(int(row), result);
            if (!cancelRequested_) updateStatus(next);
          },
          Qt::QueuedConnection);
    }
    QMetaObject::invokeMethod(
        this, [this] { finish(); }, Qt::QueuedConnection);
  });
}

void VerificationWindow::cancel() {
  if (!running_) return;
  cancelRequested_ = true;
  cancelButton_->setEnabled(false);
  status_->setText(tr("Cancelling: the case under way finishes first…"));
}

void VerificationWindow::showResult(int row, const VerifyResult& result) {
  ++casesRun_;
  if (!result.passed) ++casesFailed_;
  const QString unit = QString::fromStdString(result.unit);
  table_->item(row, ToleranceColumn)->setText(figure(result.tolerance) + " " + unit);
  table_->item(row, MeasuredColumn)->setText(figure(result.measured));
  QTableWidgetItem* verdict = table_->item(row, ResultColumn);
  verdict->setText(result.passed ? tr("pass") : tr("FAIL"));
  verdict->setBackground(result.passed ? kPassed : kFailed);
  const QString detail = QString::fromStdString(result.detail);
  for (int column = 0; column < OpenColumn; ++column)
    table_->item(row, column)->setToolTip(detail);
  progress_->setValue(casesRun_);
  for (int column : {ToleranceColumn, MeasuredColumn, ResultColumn})
    table_->resizeColumnToContents(column);
  emit caseFinished(row);
}

void VerificationWindow::finish() {
  joinWorker();
  running_ = false;
  runButton_->setEnabled(true);
  filter_->setEnabled(true);
  cancelButton_->setEnabled(false);
  const bool cancelled = casesRun_ < int(shown_.size());
  if (cancelled)
    for (int row = casesRun_; row < int(shown_.size()); ++row)
      table_->item(row, ResultColumn)->setText(tr("cancelled"));
  updateStatus();
  emit runFinished(cancelled);
}

void VerificationWindow::updateStatus(const QString& current) {
  const int total = int(shown_.size());
  if (running_) {
    status_->setText(tr("Running case %1 of %2: %3").arg(casesRun_ + 1).arg(total).arg(current));
  } else if (casesRun_ == 0) {
    status_->setText(tr("%n case(s); Run runs them one after another.", "", total));
  } else {
    status_->setText(tr("%1 of %2 cases run: %3 passed, %4 failed%5")
                         .arg(casesRun_)
                         .arg(total)
                         .arg(casesRun_ - casesFailed_)
                         .arg(casesFailed_)
                         .arg(casesRun_ < total ? tr(" (cancelled)") : QString()));
  }
}

}  // namespace wb::gui
