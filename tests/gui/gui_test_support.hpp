// What the GUI tests share: the hang guard of their waits, stepping and running the window's
// comparison to a frame, the wait for the last snapshot to be shown, and CSV columns.
//
// The tests never time the machine: every wait is for a state of the window (QTRY_*), and
// kTimeoutMs only turns a hang into a failure that names the state awaited. It stays below the
// ctest TIMEOUT of the Xvfb tests (tests/gui/CMakeLists.txt) so that QTest, not ctest, reports.
// The helpers that wait report through QTest: callers check QTest::currentTestFailed().
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include <QString>
#include <QTest>

#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"

namespace wb::gui {

inline constexpr int kTimeoutMs = 300000;

// The worker's newest snapshot is the one the views show: every frame the worker published
// has reached the scenes (ViewGrid::show writes them synchronously).
inline bool lastSnapshotShown(MainWindow& window) {
  const auto shown = window.shownSnapshot();
  return shown && shown == window.worker().latest();
}

// Steps the paused comparison one frame at a time until the worker's frame is `frame`.
inline void stepTo(MainWindow& window, int frame) {
  while (window.worker().latest()->frame < frame) {
    const int before = window.worker().latest()->frame;
    window.worker().stepOnce();
    QTRY_VERIFY_WITH_TIMEOUT(window.worker().latest()->frame > before, kTimeoutMs);
  }
}

// Plays until the worker stops at `frames` and the views show that frame; then lifts the limit
// (a click steps the frame it enters in).
inline void runFrames(MainWindow& window, int frames) {
  window.playAction()->setChecked(false);  // the last limit paused the worker, not the action
  window.worker().setFrameLimit(frames);
  window.playAction()->setChecked(true);
  QTRY_VERIFY_WITH_TIMEOUT(!window.worker().playing() && lastSnapshotShown(window) &&
                               window.shownSnapshot()->frame >= frames,
                           kTimeoutMs);
  QCOMPARE(window.shownSnapshot()->frame, frames);
  window.worker().setFrameLimit(-1);
}

// Opens `scenario` (with `models`, or the scenario's own) in a 1600 x 1000 window and waits
// until the window is on screen.
inline bool openShown(MainWindow& window, const QString& scenario,
                      const std::vector<std::string>& models = {}) {
  window.resize(1600, 1000);
  if (!window.openScenario(scenario, models)) return false;
  window.show();
  return QTest::qWaitForWindowExposed(&window);
}

// Every view's native window is mapped and visible: a grab paints what it renders.
inline bool viewsOnScreen(const MainWindow& window) {
  for (const SurfaceView* view : window.views())
    if (!view->isOnScreen()) return false;
  return !window.views().empty();
}

// The comma-separated fields of one CSV line (an empty last field included).
inline std::vector<std::string> csvColumns(const std::string& line) {
  std::vector<std::string> columns;
  std::stringstream split(line);
  for (std::string column; std::getline(split, column, ',');)
    columns.push_back(column);
  if (!line.empty() && line.back() == ',') columns.push_back("");
  return columns;
}

}  // namespace wb::gui
