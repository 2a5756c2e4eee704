// The "Highest so far" colour mode under Xvfb: each view colours its water by its model's
// eta_max, the highest surface every cell has had since the run started (the maximum map of
// core/measure/max_map.hpp, sampled every step), and Reset starts it again.
#include <algorithm>
#include <cmath>

#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_grid.hpp"
#include "app/gui/views/view_settings_menu.hpp"
#include "app/gui/window/main_window.hpp"
#include "tests/gui/gui_test_support.hpp"

using namespace wb;
using namespace wb::gui;

class HighestSoFarTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { QSettings().clear(); }

  // builtin:pi-pool starts with a drop: after 60 frames every view's colours are its model's
  // eta_max (a corner the mean of its four cells), at least eta everywhere, and as high as the
  // drop was; after Reset they start again from the surface at rest with the drop.
  void coloursAreEachModelsHighestSurfaceSoFar() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:pi-pool"));
    QTRY_VERIFY(window.shownSnapshot());
    const double drop = [&] {
      double highest = 0.0;
      for (const ModelSnapshot& m : window.shownSnapshot()->models)
        for (std::size_t c = 0; c < m.eta.size(); ++c)
          highest = std::max(highest, double(m.eta.data()[c]));
      return highest;
    }();
    QVERIFY(drop > 0.01);
    QVERIFY(window.viewSettingsMenu()->modeAction(ColourMode::Highest)->isEnabled());
    ViewSettings s = window.viewSettingsMenu()->settings();
    s.mode = ColourMode::Highest;
    window.viewSettingsMenu()->setSettings(s);
    runFrames(window, 60);
    QCOMPARE(window.viewGrid()->shownMode(), ColourMode::Highest);
    // Held: the window replaces its shown snapshot (and the domain with it) while Reset is
    // awaited below, and the checks after it still read this domain.
    const std::shared_ptr<const Snapshot> shown = window.shownSnapshot();
    const Snapshot& snapshot = *shown;
    const std::shared_ptr<const Domain> held = snapshot.domain;
    const Domain& domain = *held;
    for (std::size_t v = 0; v < window.views().size(); ++v) {
      const ModelSnapshot& m = snapshot.models[v];
      QVERIFY(m.etaMax);
      const Field2D& highest = *m.etaMax;
      double top = 0.0;
      for (int j = 0; j < domain.ny(); ++j)
        for (int i = 0; i < domain.nx(); ++i)
          if (domain.isWet(i, j)) {
            QVERIFY(highest(i, j) >= m.eta(i, j));  // the current step is among the samples
            top = std::max(top, double(highest(i, j)));
          }
      QCOMPARE(top, drop);  // the drop at t = 0 is the highest surface of a pool at rest
      SurfaceScene& scene = window.views()[v]->scene();
      QCOMPARE(scene.colourTitle(), std::string("eta_max (m)"));
      QCOMPARE(scene.meshStride(), 1);
      vtkDataArray* colours = scene.waterMesh()->GetPointData()->GetScalars();
      QCOMPARE(std::string(colours->GetName()), std::string("colour"));
      constexpr int kI = 20, kJ = 50;  // an open cell of the pool's left arm
      QVERIFY(domain.isWet(kI, kJ) && domain.isWet(kI - 1, kJ - 1));
      double mean = 0.0;
      for (int j = kJ - 1; j <= kJ; ++j)
        for (int i = kI - 1; i <= kI; ++i)
          mean += 0.25 * highest(i, j);
      QVERIFY(std::abs(colours->GetTuple1(kJ * (domain.nx() + 1) + kI) - mean) < 1e-6);
      QVERIFY(mean > 0.0);  // the drop's rings passed there
    }
    // Reset: a new run, whose highest surface so far is the surface at rest with the drop.
    QAction* reset = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
      if (action->text() == "Reset") reset = action;
    QVERIFY(reset);
    const auto generation = snapshot.generation;
    reset->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(
        window.shownSnapshot()->generation > generation && window.shownSnapshot()->frame == 0,
        kTimeoutMs);
    for (const ModelSnapshot& m : window.shownSnapshot()->models)
      for (int j = 0; j < domain.ny(); ++j)
        for (int i = 0; i < domain.nx(); ++i)
          if (domain.isWet(i, j)) QCOMPARE((*m.etaMax)(i, j), m.eta(i, j));
    window.document().setModified(false);
  }
};

int main(int argc, char** argv) {
  SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);  // QSettings and autosave in a test location
  QApplication::setOrganizationName("WavebenchTests");
  QApplication::setApplicationName("HighestSoFarTest");
  HighestSoFarTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "highest_so_far_test.moc"
