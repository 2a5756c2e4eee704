// Tools > Verification: the cases of one model run in the background, one after another, each
// row getting its tolerance, measured figure and verdict; Cancel stops the run between cases
// while the window stays responsive.
#include <atomic>
#include <future>
#include <utility>

#include <QApplication>
#include <QComboBox>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "app/gui/window/verification_window.hpp"
#include "tests/gui/gui_test_support.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
// The model whose cases run in seconds.
constexpr const char* kFastModel = FAST_MODEL;

// A gate the test opens: cases wait at it until then, and it counts the cases that reached it.
// It outlives the window, whose destructor waits for the case under way.
struct Gate {
  std::promise<void> opener;
  std::shared_future<void> opened = opener.get_future().share();
  std::atomic<int> reached{0};
  bool open = false;
  void openNow() {
    if (!std::exchange(open, true)) opener.set_value();
  }
};

// The first case returns at once; every later one waits at the gate, so that the test can
// cancel while the second is under way, however fast or slow the machine.
std::vector<VerifyCase> gatedCases(int count, Gate& gate) {
  std::vector<VerifyCase> cases;
  for (int k = 0; k < count; ++k)
    cases.push_back({"gated", "case " + std::to_string(k), [k, &gate] {
                       if (k > 0) {
                         ++gate.reached;
                         gate.opened.wait();
                       }
                       return VerifyResult{"gated", "case " + std::to_string(k), 0.5, 1.0, "rel",
                                           true,    "waited at the gate"};
                     }});
  return cases;
}
}  // namespace

class VerificationWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void runsTheCasesOfOneModel() {
    VerificationWindow window;
    window.show();
    window.setModelFilter(kFastModel);
    QTableWidget* table = window.table();
    const int rows = table->rowCount();
    QVERIFY(rows >= 2);
    QVERIFY(rows < int(verificationCases().size()));
    for (int row = 0; row < rows; ++row)
      QCOMPARE(table->item(row, VerificationWindow::ModelColumn)->text(), QString(kFastModel));
    QSignalSpy finished(&window, &VerificationWindow::runFinished);
    QTest::mouseClick(window.runButton(), Qt::LeftButton);
    QVERIFY(window.running());
    QVERIFY(window.cancelButton()->isEnabled());
    QVERIFY(!window.runButton()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QCOMPARE(finished.front().front().toBool(), false);  // not cancelled
    QCOMPARE(window.casesRun(), rows);
    QCOMPARE(window.progress()->value(), rows);
    for (int row = 0; row < rows; ++row) {
      const QString verdict = table->item(row, VerificationWindow::ResultColumn)->text();
      QVERIFY2(verdict == "pass" || verdict == "FAIL", qPrintable(verdict));
      QVERIFY(!table->item(row, VerificationWindow::MeasuredColumn)->text().isEmpty());
      QVERIFY(!table->item(row, VerificationWindow::CaseColumn)->toolTip().isEmpty());
    }
  }

  // Cancel while the second case is under way: it finishes, no other starts, the rest are
  // marked cancelled; the GUI thread kept running meanwhile (the clicks were processed).
  void cancelStopsBetweenCases() {
    constexpr int kCases = 8;
    Gate gate;
    VerificationWindow window(nullptr, gatedCases(kCases, gate));
    // Opened whatever happens, before the window waits for the case under way.
    const auto openAtExit = qScopeGuard([&gate] { gate.openNow(); });
    window.show();
    QSignalSpy caseDone(&window, &VerificationWindow::caseFinished);
    QSignalSpy finished(&window, &VerificationWindow::runFinished);
    QTest::mouseClick(window.runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(caseDone.count(), 1, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(gate.reached.load(), 1, kTimeoutMs);  // the second under way
    QVERIFY(window.running());
    QTest::mouseClick(window.cancelButton(), Qt::LeftButton);
    gate.openNow();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY(!window.running());
    // runFinished follows the end of the run's thread (finish() joins it) and every result it
    // sent: nothing more can arrive.
    QCOMPARE(window.casesRun(), 2);
    QCOMPARE(caseDone.count(), 2);
    QCOMPARE(window.table()->item(1, VerificationWindow::ResultColumn)->text(), QString("pass"));
    QCOMPARE(window.table()->item(2, VerificationWindow::ResultColumn)->text(),
             QString("cancelled"));
    QCOMPARE(window.table()->item(kCases - 1, VerificationWindow::ResultColumn)->text(),
             QString("cancelled"));
    QVERIFY(window.runButton()->isEnabled());
  }

  // The builtin scenarios with a reference are offered, and Ritter's rows open builtin:ritter.
  void referenceScenariosAreOffered() {
    VerificationWindow window;
    QStringList offered;
    for (int k = 0; k < window.referenceScenarios()->count(); ++k)
      offered << window.referenceScenarios()->item(k)->data(Qt::UserRole).toString();
    QVERIFY(offered.contains("builtin:ritter"));
    QVERIFY(offered.contains("builtin:standing-wave"));
    QCOMPARE(VerificationWindow::scenarioOfCase({"swe-semi-lagrangian", "ritter depth", {}}),
             QString("builtin:ritter"));
    window.setModelFilter("swe-semi-lagrangian");
    QSignalSpy asked(&window, &VerificationWindow::openScenarioAsked);
    for (int row = 0; row < window.table()->rowCount(); ++row)
      if (auto* open = qobject_cast<QPushButton*>(
              window.table()->cellWidget(row, VerificationWindow::OpenColumn))) {
        QTest::mouseClick(open, Qt::LeftButton);
        break;
      }
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.front().front().toString(), QString("builtin:ritter"));
  }
};

QTEST_MAIN(VerificationWindowTest)
#include "verification_window_test.moc"
