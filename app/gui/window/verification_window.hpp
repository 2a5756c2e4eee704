// Tools > Verification: every built-in verification case (models/verification, the cases of
// `wavebench-cli verify`) as a row: model, case, tolerance, measured figure, pass or fail, and
// what was measured against what in the row's tooltip. The cases run one after another on a
// thread of their own, so the window never blocks and Cancel takes effect between cases (a
// case under way finishes). Rows whose case is a builtin scenario (Ritter's dam break) open it
// in the workbench, as do the builtin scenarios with an exact reference listed below them.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <QWidget>

#include "models/verification/verification.hpp"

class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace wb::gui {

class VerificationWindow : public QWidget {
  Q_OBJECT

 public:
  enum Column {
    ModelColumn,
    CaseColumn,
    ToleranceColumn,
    MeasuredColumn,
    ResultColumn,
    OpenColumn,
    ColumnCount
  };

  explicit VerificationWindow(QWidget* parent = nullptr,
                              std::vector<VerifyCase> cases = verificationCases());
  // Cancels the run and waits for the case under way.
  ~VerificationWindow() override;

  // Shows the cases of one model ("" for all) as rows not yet run.
  void setModelFilter(const QString& model);
  // Runs the rows shown, one case at a time; cancel() stops before the next.
  void run();
  void cancel();
  bool running() const { return running_; }
  int casesRun() const { return casesRun_; }

  QComboBox* modelFilter() const { return filter_; }
  QTableWidget* table() const { return table_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QProgressBar* progress() const { return progress_; }
  QListWidget* referenceScenarios() const { return scenarios_; }

  // The builtin scenario that is the case's setup ("builtin:ritter"), or "".
  static QString scenarioOfCase(const VerifyCase& verifyCase);

 signals:
  void openScenarioAsked(const QString& scenario);
  void caseFinished(int row);
  void runFinished(bool cancelled);

 private:
  void buildReferenceList();
  void showRows();
  void showResult(int row, const VerifyResult& result);
  void finish();
  void updateStatus(const QString& current = {});
  void joinWorker();

  std::vector<VerifyCase> cases_;
  std::vector<std::size_t> shown_;  // indices into cases_ of the rows
  QComboBox* filter_ = nullptr;
  QTableWidget* table_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QListWidget* scenarios_ = nullptr;
  std::thread worker_;
  std::atomic<bool> cancelRequested_{false};
  bool running_ = false;
  int casesRun_ = 0, casesFailed_ = 0;
};

}  // namespace wb::gui
