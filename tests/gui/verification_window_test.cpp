// Tools > Verification: the cases of one model run in the background, one after another, each
// row getting its tolerance, measured figure and verdict; Cancel stops the run between cases
// while the window stays responsive.
#include <chrono>
#include <thread>

#include <QApplication>
#include <QComboBox>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "app/gui/window/verification_window.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
constexpr int kTimeoutMs = 600000;
// The model whose cases run in seconds.
constexpr const char* kFastModel = FAST_MODEL;

// Cases that take a while each, so that a Cancel lands between them.
std::vector<VerifyCase> slowCases(int count) {
  std::vector<VerifyCase> cases;
  for (int k = 0; k < count; ++k)
    cases.push_back({"slow", "case " + std::to_string(k), [k] {
                       std::this_thread::sleep_for(std::chrono::milliseconds(300));
                       return VerifyResult{
                           "slow",        "case " + std::to_string(k), 0.5, 1.0, "rel", true,
                           "slept 300 ms"};
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

  // Cancel after the first case: the case under way finishes, no other starts, the rest are
  // marked cancelled; the GUI thread kept running meanwhile (the clicks were processed).
  void cancelStopsBetweenCases() {
    constexpr int kCases = 8;
    VerificationWindow window(nullptr, slowCases(kCases));
    window.show();
    QSignalSpy caseDone(&window, &VerificationWindow::caseFinished);
    QSignalSpy finished(&window, &VerificationWindow::runFinished);
    QTest::mouseClick(window.runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(caseDone.count(), 1, kTimeoutMs);
    QTest::mouseClick(window.cancelButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY(!window.running());
    QVERIFY(window.casesRun() <= 2);
    QTest::qWait(1000);  // nothing more arrives
    QVERIFY(window.casesRun() <= 2);
    QCOMPARE(caseDone.count(), window.casesRun());
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
