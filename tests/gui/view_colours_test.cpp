// The views as a scientist reads them, under Xvfb: the colour bar follows the data (automatic
// range) or a typed range that survives a restart; the error against the scenario's reference
// and the difference to a chosen model are what the views colour.
#include <algorithm>
#include <array>
#include <cmath>

#include <vtkCamera.h>
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "app/gui/views/colour_range.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_grid.hpp"
#include "app/gui/views/view_settings_menu.hpp"
#include "app/gui/window/main_window.hpp"
#include "tests/gui/gui_test_support.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
// The largest |eta| over the wet cells of the shown snapshot's models.
double shownMaxAbsEta(const MainWindow& window) {
  const Snapshot& snapshot = *window.shownSnapshot();
  double largest = 0.0;
  for (const auto& m : snapshot.models)
    for (int j = 0; j < m.eta.ny(); ++j)
      for (int i = 0; i < m.eta.nx(); ++i)
        if (snapshot.domain->isWet(i, j))
          largest = std::max(largest, std::abs(double(m.eta(i, j))));
  return largest;
}

// The index of the model view showing model `id`.
int viewOf(const MainWindow& window, const std::string& id) {
  const auto& models = window.shownSnapshot()->models;
  for (std::size_t k = 0; k < models.size(); ++k)
    if (models[k].id == id) return int(k);  // every model has a view (none hidden)
  return -1;
}

void setMode(MainWindow& window, ColourMode mode, const std::string& subtracted = {}) {
  ViewSettings s = window.viewSettingsMenu()->settings();
  s.mode = mode;
  s.subtractedModel = subtracted;
  window.viewSettingsMenu()->setSettings(s);
}
}  // namespace

class ViewColoursTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { QSettings().clear(); }

  // The automatic range: nice numbers, at once upwards, downwards only once the data stayed
  // below half the range for a while, and no toggling for data at a nice number's edge.
  void automaticRangeGrowsAtOnceAndShrinksSlowly() {
    QCOMPARE(niceCeil(0.03), 0.03);
    QCOMPARE(niceCeil(0.031), 0.04);
    QCOMPARE(niceCeil(0.7), 0.8);
    QCOMPARE(niceCeil(0.9), 1.0);
    AutoRange range;
    const double dt = 1.0 / 60.0;  // s between frames
    double now = 0.0;
    QCOMPARE(range.update(0.18, now), 0.2);
    QCOMPARE(range.update(0.9, now += dt), 1.0);  // grows at once
    // Below half the range for less than kShrinkAfterSeconds: it stays.
    const double start = now + dt;  // the first update below half the range
    while (now + dt - start < AutoRange::kShrinkAfterSeconds)
      QCOMPARE(range.update(0.02, now += dt), 1.0);
    QCOMPARE(range.update(0.02, now += dt), 0.02);  // then shrinks to the data
    // Few frames (a slow renderer): at least kShrinkAfterUpdates frames too.
    QCOMPARE(range.update(0.9, now += 10.0), 1.0);
    for (int k = 1; k < AutoRange::kShrinkAfterUpdates; ++k)
      QCOMPARE(range.update(0.02, now += 10.0), 1.0);
    QCOMPARE(range.update(0.02, now += 10.0), 0.02);
    // Data at a nice number's edge do not toggle the bar.
    for (int k = 0; k < 600; ++k)
      QCOMPARE(range.update(k % 2 ? 0.0199 : 0.0201, now += dt), 0.03);
  }

  // builtin:ocean rings out to waves of a few cm: the bar follows them (it read ±0.1 m,
  // set by the drop, before), within a factor 2.5 of the largest |eta|. The bar's clock is the
  // simulated time of the frame shown (at speed 1 what the user's clock reads) and every frame
  // is shown: frame by frame, the bar is AutoRange's rule (shrink after half a second and
  // three frames) on those times, whatever this machine's speed.
  void automaticRangeFollowsTheOcean() {
    constexpr int kFrames = 300;
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:ocean", {"fft-ocean", "swe-adi", "damped-wave"}));
    window.viewGrid()->setClock(
        [&window] { return window.shownSnapshot() ? window.shownSnapshot()->time : 0.0; });
    QTRY_VERIFY_WITH_TIMEOUT(lastSnapshotShown(window), kTimeoutMs);
    AutoRange expected;
    expected.update(shownMaxAbsEta(window), window.shownSnapshot()->time);
    for (int frame = 1; frame <= kFrames; ++frame) {
      window.worker().stepOnce();
      QVERIFY2(
          QTest::qWaitFor(
              [&] { return lastSnapshotShown(window) && window.shownSnapshot()->frame == frame; },
              kTimeoutMs),
          qPrintable(QString("frame %1 not shown").arg(frame)));
      const double rule = expected.update(shownMaxAbsEta(window), window.shownSnapshot()->time);
      QVERIFY2(window.viewGrid()->colourRange() == rule,
               qPrintable(QString("frame %1: the bar reads %2 m, the rule %3 m")
                              .arg(frame)
                              .arg(window.viewGrid()->colourRange())
                              .arg(rule)));
    }
    const double largest = shownMaxAbsEta(window);
    const double range = window.viewGrid()->colourRange();
    qInfo("builtin:ocean at t = %.2f s: max |eta| %.4f m, colour range %.4f m",
          window.shownSnapshot()->time, largest, range);
    QVERIFY(range >= largest);
    QVERIFY(range <= 2.5 * largest);
    for (auto* view : window.views())
      QCOMPARE(view->scene().colourRange(), range);
    QTRY_VERIFY_WITH_TIMEOUT(viewsOnScreen(window), kTimeoutMs);
    window.grab().save(QDir::temp().filePath("wavebench_ocean_auto_range.png"));
    window.document().setModified(false);
  }

  // builtin:ritter: eta runs from -1 m (the dry bed) to 0; the symmetric bar covers it.
  void automaticRangeCoversTheDamBreak() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:ritter"));
    runFrames(window, 10);
    const double range = window.viewGrid()->colourRange();
    qInfo("builtin:ritter: max |eta| %.3f m, colour range %.3f m", shownMaxAbsEta(window), range);
    QVERIFY(range >= 1.0 && range <= 1.5);
    window.document().setModified(false);
  }

  // A fixed range is used as typed, saved, and a user's next window starts with it; a scripted
  // window (no restored layout) leaves the user's settings alone.
  void fixedRangeSurvivesARestart() {
    constexpr double kFixed = 0.3;
    {
      MainWindow window(true);
      QVERIFY(openShown(window, "builtin:pi-pool"));
      ViewSettings s = window.viewSettingsMenu()->settings();
      QVERIFY(s.range(ColourMode::Surface).automatic);
      s.range(ColourMode::Surface) = {false, kFixed};
      s.exaggeration = 7.0;
      window.viewSettingsMenu()->setSettings(s);
      runFrames(window, 5);
      QCOMPARE(window.viewGrid()->colourRange(), kFixed);
      for (auto* view : window.views()) {
        QCOMPARE(view->scene().colourRange(), kFixed);
        QCOMPARE(view->scene().verticalScale(), 7.0);
      }
      window.document().setModified(false);
      window.close();
    }
    {
      MainWindow window(true);
      const ViewSettings s = window.viewSettingsMenu()->settings();
      QVERIFY(!s.range(ColourMode::Surface).automatic);
      QCOMPARE(s.range(ColourMode::Surface).fixed, kFixed);
      QCOMPARE(s.exaggeration.value_or(0.0), 7.0);
      QVERIFY(!window.viewSettingsMenu()->automaticRangeAction()->isChecked());
      QVERIFY(openShown(window, "builtin:pi-pool"));
      runFrames(window, 5);
      QCOMPARE(window.viewGrid()->colourRange(), kFixed);
      window.document().setModified(false);
      window.close();
    }
    MainWindow scripted(false);
    QVERIFY(scripted.viewSettingsMenu()->settings().range(ColourMode::Surface).automatic);
    scripted.document().setModified(false);
  }

  // builtin:standing-wave in the error mode: a view's values are its model's eta minus the
  // standing mode A cos(pi x / 16) cos(pi y / 8) cos(omega t) at the frame's time, and the
  // drawn corner is the mean of its four cells.
  void errorModeShowsModelMinusReference() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:standing-wave"));
    QTRY_VERIFY(window.viewSettingsMenu()->modeAction(ColourMode::Error)->isEnabled());
    setMode(window, ColourMode::Error);
    runFrames(window, 25);
    QCOMPARE(window.viewGrid()->shownMode(), ColourMode::Error);
    const Snapshot& snapshot = *window.shownSnapshot();
    const double g = 9.81, depth = 0.5, lx = 16.0, ly = 8.0, amplitude = 0.01;
    const double omega = std::sqrt(g * depth) * M_PI * std::hypot(1.0 / lx, 1.0 / ly);
    const auto exact = [&](int i, int j) {
      const double x = (i + 0.5) * 0.25, y = (j + 0.5) * 0.25;
      return amplitude * std::cos(M_PI * x / lx) * std::cos(M_PI * y / ly) *
             std::cos(omega * snapshot.time);
    };
    constexpr int kI = 9, kJ = 5;
    double largestError = 0.0;
    for (std::size_t v = 0; v < window.views().size(); ++v) {
      const Field2D& eta = snapshot.models[v].eta;
      const Field2D& shown = window.viewGrid()->colourValues(v);
      for (int j = kJ - 1; j <= kJ; ++j)
        for (int i = kI - 1; i <= kI; ++i)
          QVERIFY(std::abs(shown(i, j) - (eta(i, j) - exact(i, j))) < 1e-6);
      largestError = std::max(largestError, std::abs(double(shown(kI, kJ))));
      SurfaceScene& scene = window.views()[v]->scene();
      QCOMPARE(scene.colourTitle(), std::string("eta - reference (m)"));
      QCOMPARE(scene.meshStride(), 1);
      vtkDataArray* colours = scene.waterMesh()->GetPointData()->GetScalars();
      QCOMPARE(std::string(colours->GetName()), std::string("colour"));
      const int cornersPerRow = eta.nx() + 1;
      double mean = 0.0;
      for (int j = kJ - 1; j <= kJ; ++j)
        for (int i = kI - 1; i <= kI; ++i)
          mean += 0.25 * (eta(i, j) - exact(i, j));
      QVERIFY(std::abs(colours->GetTuple1(kJ * cornersPerRow + kI) - mean) < 1e-6);
    }
    qInfo("t = %.2f s: largest error at cell (%d, %d): %.2e m", snapshot.time, kI, kJ,
          largestError);
    QVERIFY(largestError > 0.0);  // the models are not the exact solution
    window.document().setModified(false);
  }

  // "Own waves": each view shows its model's eta minus the open sea's, which is the model's
  // own surface: the hull's wake, a small fraction of the sea it rides.
  void localModeShowsEachModelsOwnWaves() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:open-sea", {"damped-wave", "swe-adi"}));
    QTRY_VERIFY(window.viewSettingsMenu()->modeAction(ColourMode::Local)->isEnabled());
    setMode(window, ColourMode::Local);
    runFrames(window, 120);
    QCOMPARE(window.viewGrid()->shownMode(), ColourMode::Local);
    const Snapshot& snapshot = *window.shownSnapshot();
    QVERIFY(snapshot.seaEta);
    const Field2D& sea = *snapshot.seaEta;
    for (std::size_t v = 0; v < window.views().size(); ++v) {
      const Field2D& eta = snapshot.models[v].eta;
      const Field2D& shown = window.viewGrid()->colourValues(v);
      for (std::size_t k = 0; k < shown.size(); ++k)
        QCOMPARE(shown.data()[k], eta.data()[k] - sea.data()[k]);
      const double wake = shown.maxAbs(), surface = eta.maxAbs();
      qInfo("%s: largest own wave %.3g m on a surface of %.3g m", snapshot.models[v].id.c_str(),
            wake, surface);
      QVERIFY(wake > 1e-3);           // the hull's wake
      QVERIFY(wake < 0.3 * surface);  // without the sea
      QCOMPARE(window.views()[v]->scene().colourTitle(), std::string("eta - sea (m)"));
    }
    window.document().setModified(false);
    MainWindow calm(false);
    QVERIFY(openShown(calm, "builtin:pi-pool"));
    QTRY_VERIFY(calm.shownSnapshot());
    QVERIFY(!calm.viewSettingsMenu()->modeAction(ColourMode::Local)->isEnabled());
  }

  // With a travelling window the shared camera rides with the boat: between two frames its
  // focal point moves exactly as far as the boat moved in the window's coordinates (whole-cell
  // jumps of the window included), while the window itself has moved on across the sea.
  void cameraRidesWithTheTravellingWindow() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:open-sea", {"damped-wave"}));
    const auto boatInWindow = [&window] {
      const Snapshot& snapshot = *window.shownSnapshot();
      const BoatState& boat = snapshot.boats[*snapshot.windowBoat];
      return std::array<double, 2>{boat.x - snapshot.windowOrigin[0],
                                   boat.y - snapshot.windowOrigin[1]};
    };
    runFrames(window, 60);
    QVERIFY(window.shownSnapshot()->windowBoat.has_value());
    QVERIFY(!window.views().empty());
    vtkCamera* camera = window.views()[0]->scene().renderer()->GetActiveCamera();
    const auto boatBefore = boatInWindow();
    const double originBefore = window.shownSnapshot()->windowOrigin[0];
    double focalBefore[3];
    camera->GetFocalPoint(focalBefore);
    runFrames(window, 420);
    const auto boatAfter = boatInWindow();
    double focalAfter[3];
    camera->GetFocalPoint(focalAfter);
    const double travelled = window.shownSnapshot()->windowOrigin[0] - originBefore;
    qInfo("the window moved %.1f m; the boat %.3f m within it, the camera %.3f m", travelled,
          boatAfter[0] - boatBefore[0], focalAfter[0] - focalBefore[0]);
    QVERIFY(travelled > 10.0);
    for (int axis = 0; axis < 2; ++axis)
      QVERIFY(std::abs((focalAfter[axis] - focalBefore[axis]) -
                       (boatAfter[axis] - boatBefore[axis])) < 1e-6);
    window.document().setModified(false);
  }

  // "A − B": every view shows its model's eta minus the chosen model's; the chosen one's view
  // is zero, the others are not (builtin:pi-pool's drop runs differently in every model).
  void differenceModeShowsZeroOnTheChosenModel() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:pi-pool"));
    QTRY_VERIFY(window.shownSnapshot());
    const std::string subtracted = window.shownSnapshot()->models[1].id;
    setMode(window, ColourMode::Difference, subtracted);
    runFrames(window, 30);
    QCOMPARE(window.viewGrid()->shownMode(), ColourMode::Difference);
    const int chosen = viewOf(window, subtracted);
    QVERIFY(chosen >= 0);
    for (std::size_t v = 0; v < window.views().size(); ++v) {
      const Field2D& shown = window.viewGrid()->colourValues(v);
      const double largest = shown.maxAbs();
      if (int(v) == chosen)
        QCOMPARE(largest, 0.0);
      else
        QVERIFY(largest > 0.0);
      QCOMPARE(window.views()[v]->scene().colourTitle(), "eta - " + subtracted + " (m)");
    }
    window.document().setModified(false);
  }
};

int main(int argc, char** argv) {
  SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);  // QSettings and autosave in a test location
  QApplication::setOrganizationName("WavebenchTests");
  QApplication::setApplicationName("ViewColoursTest");
  ViewColoursTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "view_colours_test.moc"
