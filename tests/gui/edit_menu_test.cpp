// The Edit menu of the real window (Xvfb): its Undo and Redo name the document's commands,
// and undoing an edit made in the controls brings the comparison back to the grid before it.
// With WAVEBENCH_EDIT_MENU_PNG set, the open menu is saved there as a screenshot.
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTest>
#include <QUndoStack>

#include "app/gui/window/main_window.hpp"
#include "tests/gui/gui_test_support.hpp"

namespace {
using wb::gui::kTimeoutMs;

QMenu* editMenu(QMainWindow& window) {
  for (QAction* action : window.menuBar()->actions())
    if (action->text() == QObject::tr("&Edit")) return action->menu();
  return nullptr;
}
}  // namespace

class EditMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void undoAndRedoNameTheCommands() {
    wb::gui::MainWindow window(false);
    window.resize(1200, 800);
    QVERIFY(window.openScenario("builtin:pi-pool"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const int cells = window.document().scenario().grid.nx;
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot(), kTimeoutMs);
    QMenu* edit = editMenu(window);
    QVERIFY(edit);
    QAction* undo = edit->actions().value(0);
    QAction* redo = edit->actions().value(1);
    QVERIFY(undo && redo);
    QVERIFY(!undo->isEnabled());

    window.document().setGridCells(cells / 2);
    window.document().setWater(9.81, 0.4);
    QCOMPARE(undo->text(), QString("&Undo water: g = 9.81 m/s², depth 0.4 m"));
    undo->trigger();
    QCOMPARE(undo->text(), QString("&Undo grid %1 × %1").arg(cells / 2));
    QCOMPARE(redo->text(), QString("&Redo water: g = 9.81 m/s², depth 0.4 m"));
    // The comparison follows the undo: it runs on the coarse grid, then on the grid before.
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->domain->grid().nx == cells / 2, kTimeoutMs);

    const QString screenshot = qEnvironmentVariable("WAVEBENCH_EDIT_MENU_PNG");
    if (!screenshot.isEmpty()) {
      edit->popup(
          window.mapToGlobal(window.menuBar()->actionGeometry(edit->menuAction()).bottomLeft()));
      QVERIFY(QTest::qWaitForWindowExposed(edit));
      edit->repaint();  // painted and flushed to the screen now, before the screen is grabbed
      QVERIFY(window.screen()->grabWindow(0).save(screenshot));
      edit->hide();
    }

    undo->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->domain->grid().nx == cells, kTimeoutMs);
    QVERIFY(!undo->isEnabled());
    window.document().setModified(false);
  }
};

QTEST_MAIN(EditMenuTest)
#include "edit_menu_test.moc"
