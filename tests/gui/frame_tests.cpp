// What the workbench's frame rate rests on, under Xvfb with Mesa's llvmpipe:
// - a frame counts when every view swapped (FrameMeter), after a warm-up;
// - new water is written in place: setEta uploads vertices but never rebuilds the index
//   buffer, and no filter stands between the mesh and its mapper;
// - the floor follows the painted depth;
// - plots fed in many small refreshes show the same points as one refresh of everything;
// - the whole window (Pi pool, three 128^2 models, plots, 1600x1000) presents frames, and
//   counts only frames that every view swapped, one per new snapshot at most;
// - 100000 tracers are dots of one actor per view, no more than the view has pixels for.
// No test here times the machine: the frame rates themselves are measured by the benchmark
// (`scripts/wavebench.sh bench`, docs/gui-performance.md), which compares them with the last
// committed figures instead of failing on a busy machine.
#include <fstream>
#include <limits>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWindow>

#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_grid.hpp"
#include "app/gui/window/frame_meter.hpp"
#include "app/gui/window/main_window.hpp"
#include "core/scenario/builtin_resources.hpp"
#include "core/scenario/scenario.hpp"
#include "tests/gui/gui_test_support.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
// Presented frames after the meter's warm-up that the window tests wait for, however long the
// machine takes to present them.
constexpr int kPresentedFrames = 10;
constexpr int kTracers = 100000;
const std::vector<std::string> kThreeModels = {"damped-wave", "advected-wave",
                                               "swe-semi-lagrangian"};

Domain piPool(int cells) {
  Scenario s = loadScenario("builtin:pi-pool");
  const double width = s.grid.width();
  s.grid.ny = int(std::lround(double(s.grid.ny) * cells / s.grid.nx));
  s.grid.nx = cells;
  s.grid.dx = width / cells;
  return buildDomain(s);
}

FrameRecord record(int frame, double value) {
  FrameRecord r;
  r.frame = frame;
  r.time = frame / 60.0;
  r.volumeDrift = value;
  r.energyPotential = 2.0 * value;
  r.energyKinetic = value * value;
  r.stepMs = 1.0 + (frame * 7) % 5;
  r.substeps = 1;
  return r;
}

std::vector<QPointF> pointsOf(const QChart* chart, int series) {
  const auto* line = qobject_cast<const QLineSeries*>(chart->series().at(series));
  const QList<QPointF> points = line->points();
  return {points.begin(), points.end()};
}

// Plays until the window has presented `frames` frames after the meter's warm-up, then stops.
void playUntilPresented(MainWindow& window, int frames) {
  window.playAction()->setChecked(true);
  QTRY_VERIFY_WITH_TIMEOUT(window.statsJson()["presented_frames"].get<int>() >= frames, kTimeoutMs);
  window.playAction()->setChecked(false);
}

// The meter counts honestly: a presented frame is one that every view swapped and one new
// snapshot at most, so the views' swaps since play began and the simulated frames shown bound
// the frames counted, warm-up included (the meter started over before play, on the comparison
// shown). Counts of one run, true on any machine at any speed.
void checkPresentedFramesAreCountedHonestly(const nlohmann::json& stats, int swaps) {
  const int presented = stats["presented_frames"].get<int>();
  const int counted = presented + stats["warm_up_frames"].get<int>();
  const int views = stats["views"].get<int>();
  QVERIFY(presented > 0);
  QVERIFY2(
      counted * views <= swaps,
      qPrintable(QString("%1 frames of %2 views, %3 swaps").arg(counted).arg(views).arg(swaps)));
  QVERIFY2(counted <= stats["simulated_frames"].get<int>(),
           qPrintable(QString::fromStdString(stats.dump())));
  QVERIFY(stats["presented_fps"].get<double>() > 0.0);
}
}  // namespace

class FrameTests : public QObject {
  Q_OBJECT

 private slots:
  void aFrameIsPresentedWhenEveryViewSwapped() {
    FrameMeter meter;
    for (int f = 0; f < FrameMeter::kWarmUpFrames; ++f) {
      meter.frameRequested(1.0, 2);
      meter.viewSwapped(1.0, 1.0);
      meter.viewSwapped(1.0, 1.0);
    }
    QCOMPARE(meter.summary().presentedFrames, 0);  // the warm-up does not count
    meter.frameRequested(1.0, 2);
    QVERIFY(meter.framePending());
    meter.viewSwapped(3.0, 0.5);
    QCOMPARE(meter.summary().presentedFrames, 0);  // one of two views on screen
    QVERIFY(meter.framePending());
    meter.viewSwapped(4.0, 0.5);
    QVERIFY(!meter.framePending());
    const FrameSummary s = meter.summary();
    QCOMPARE(s.presentedFrames, 1);
    QCOMPARE(s.meanStages.renderMs, 7.0);
    QCOMPARE(s.meanStages.presentMs, 1.0);
    meter.viewSwapped(5.0, 5.0);  // a camera move's swap: not a frame
    QCOMPARE(meter.summary().presentedFrames, 1);
    QCOMPARE(meter.summary().meanStages.renderMs, 7.0);
  }

  void setEtaUpdatesInPlaceWithoutRebuildingTheIndexBuffer() {
    vtkNew<vtkCamera> camera;
    SurfaceView view(camera);
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const Domain domain = piPool(64);
    SurfaceScene& scene = view.scene();
    scene.setDomain(domain, 0.05);
    scene.resetCamera(400.0 / 300.0);
    Field2D eta(domain.nx(), domain.ny());
    QVERIFY(!view.renderToImage().isNull());
    const int indexBuilds = scene.waterIndexBuilds(), vertexBuilds = scene.waterVertexBuilds();
    QVERIFY(indexBuilds >= 1);
    vtkPolyData* mesh = scene.waterMesh();
    vtkDataArray* normals = mesh->GetPointData()->GetNormals();
    const vtkMTimeType cellsTime = mesh->GetPolys()->GetMTime();
    for (int frame = 1; frame <= 3; ++frame) {
      for (int j = 0; j < eta.ny(); ++j)
        for (int i = 0; i < eta.nx(); ++i)
          eta(i, j) = float(0.02 * std::sin(0.3 * i + frame) * std::cos(0.2 * j));
      scene.setEta(eta);
      QVERIFY(!view.renderToImage().isNull());
      QCOMPARE(scene.waterVertexBuilds(), vertexBuilds + frame);  // new heights uploaded
    }
    QCOMPARE(scene.waterIndexBuilds(), indexBuilds);
    QCOMPARE(mesh->GetPolys()->GetMTime(), cellsTime);
    QVERIFY(scene.waterMapperReadsMesh());
    QCOMPARE(mesh->GetPointData()->GetNormals(), normals);  // the same array, rewritten
    // The heights reached the mesh, and the normals lean against the slope.
    const int probeI = 10, probeJ = 30;  // a wet cell of the pool's lower arm
    QVERIFY(domain.isWet(probeI, probeJ) && domain.isWet(probeI - 1, probeJ - 1));
    const vtkIdType id = vtkIdType(probeJ) * (domain.nx() + 1) + probeI;
    double point[3], normal[3];
    mesh->GetPoints()->GetPoint(id, point);
    normals->GetTuple(id, normal);
    QVERIFY(std::abs(point[2]) > 0.0);
    const double slopeX =
        0.25 * (eta(probeI, probeJ) + eta(probeI, probeJ - 1) - eta(probeI - 1, probeJ) -
                eta(probeI - 1, probeJ - 1));  // d eta across the corner, one cell
    QVERIFY(slopeX * normal[0] <= 0.0);
    QVERIFY(normal[2] > 0.9);
  }

  // The views are native windows: a click on one still reaches the view as a drop point.
  void aClickOnTheNativeWindowPicksThePool() {
    vtkNew<vtkCamera> camera;
    SurfaceView view(camera);
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const Domain domain = piPool(64);
    view.scene().setDomain(domain, 0.05);
    view.scene().resetCamera(400.0 / 300.0);
    QVERIFY(!view.renderToImage().isNull());
    QSignalSpy clicks(&view, &SurfaceView::surfaceClicked);
    QWindow* window = view.renderWindow();
    // The camera looks at the pool's centre: the middle of the width the colour bar leaves.
    const int middle = (window->width() - SurfaceScene::kColourBarStripPixels) / 2;
    QTest::mouseClick(window, Qt::LeftButton, {}, QPoint(middle, window->height() / 2));
    QTRY_COMPARE(clicks.count(), 1);
    const QPointF point = clicks.at(0).at(0).toPointF();
    const double w = domain.grid().width(), h = domain.grid().height();
    QVERIFY(std::abs(point.x() - 0.5 * w) < 0.1 * w);
    QVERIFY(std::abs(point.y() - 0.5 * h) < 0.1 * h);
  }

  void decimatedMeshKeepsEveryStrideCorner() {
    vtkNew<vtkCamera> camera;
    SurfaceScene scene(camera);
    const Domain domain = piPool(128);
    scene.setDomain(domain, 0.05, 4);
    QCOMPARE(scene.waterMesh()->GetNumberOfPoints(), vtkIdType(33 * 33));
    double last[3];
    scene.waterMesh()->GetPoints()->GetPoint(33 * 33 - 1, last);
    constexpr double kFloatMetres = 1e-5;  // the mesh stores float coordinates
    QVERIFY(std::abs(last[0] - domain.grid().width()) < kFloatMetres);
    QVERIFY(std::abs(last[1] - domain.grid().height()) < kFloatMetres);
  }

  void floorFollowsThePaintedDepth() {
    vtkNew<vtkCamera> camera;
    SurfaceScene scene(camera);
    Domain domain(Grid{16, 16, 0.1}, 9.81, 0.5);
    Field2D depth = domain.restDepth();
    for (int j = 0; j < 16; ++j)
      for (int i = 8; i < 16; ++i)
        depth(i, j) = 0.1f;  // a shelf in the east half
    domain.setRestDepth(depth);
    scene.setDomain(domain, 0.05);
    vtkPolyData* floor = scene.floorMesh();
    QVERIFY(floor);
    // The floor's corners at (0.4 m, 0.8 m), in the deep half, and (1.2 m, 0.8 m), on the shelf.
    const auto floorAt = [&](double x, double y, double(&point)[3]) {
      for (vtkIdType p = 0; p < floor->GetNumberOfPoints(); ++p) {
        floor->GetPoints()->GetPoint(p, point);
        if (std::abs(point[0] - x) < 1e-6 && std::abs(point[1] - y) < 1e-6) return true;
      }
      return false;
    };
    double west[3], east[3];
    QVERIFY(floorAt(0.4, 0.8, west) && floorAt(1.2, 0.8, east));
    // The floor lies depth-proportionally below rest: the shelf at a fifth of the deep part.
    QVERIFY(west[2] < 0.0 && east[2] < 0.0);
    QCOMPARE(east[2] / west[2], 0.2);
  }

  // A wall side gets a rim, an open side a band over its layer (as wide as the layer) and a
  // line at the layer's inner side; a side of land cells gets neither (land has its walls).
  void wallRimsAndOpenLayersAreDrawnApart() {
    vtkNew<vtkCamera> camera;
    SurfaceScene scene(camera);
    constexpr int kCells = 32, kLayer = 8;
    constexpr double kDx = 0.1;
    Domain domain(Grid{kCells, kCells, kDx}, 9.81, 0.5);
    Edges edges;
    edges.layerCells = kLayer;
    edges.set(Side::West, EdgeKind::Open);
    domain.setEdges(edges);
    scene.setDomain(domain, 0.05);
    const auto polys = [](vtkActor* actor) {
      return vtkPolyData::SafeDownCast(actor->GetMapper()->GetInput());
    };
    EdgeActors& drawn = scene.edges();
    constexpr int kRimQuads = 3;  // outer face, top, inner face per run of wet edge cells
    QCOMPARE(polys(drawn.rims())->GetNumberOfPolys(), vtkIdType(3 * kRimQuads));
    QCOMPARE(polys(drawn.layers())->GetNumberOfPolys(), vtkIdType(2));  // curtain and band
    QCOMPARE(polys(drawn.layerLines())->GetNumberOfLines(), vtkIdType(1));
    double bounds[6];
    polys(drawn.layers())->GetBounds(bounds);
    constexpr double kFloatMetres = 1e-6;
    QVERIFY(std::abs(bounds[0]) < kFloatMetres);
    QVERIFY(std::abs(bounds[1] - kLayer * kDx) < kFloatMetres);
    polys(drawn.layerLines())->GetBounds(bounds);
    QVERIFY(std::abs(bounds[0] - kLayer * kDx) < kFloatMetres);
    QVERIFY(drawn.layers()->GetVisibility() && drawn.rims()->GetVisibility());

    // Land along the south side: no rim there; all walls: no layer drawn.
    for (int i = 0; i < kCells; ++i)
      domain.setWet(i, 0, false);
    domain.setEdges(Edges{});
    scene.setDomain(domain, 0.05);
    QCOMPARE(polys(drawn.rims())->GetNumberOfPolys(), vtkIdType(3 * kRimQuads));
    QVERIFY(!drawn.layers()->GetVisibility() && !drawn.layerLines()->GetVisibility());
  }

  // A body is placed by its pose alone (the mesh stays as built): a quarter turn about z
  // swaps its extents in x and y; its height above the water under it stays true while the
  // water is drawn verticalScale times higher.
  void bodiesArePlacedByTheirPose() {
    vtkNew<vtkCamera> camera;
    SurfaceScene scene(camera);
    BodyActors& bodies = scene.bodies();
    bodies.setMeshes(std::make_shared<const std::vector<BodyMesh>>(1, boxMesh(0.4, 0.2, 0.1)));
    vtkPolyData* mesh = vtkPolyData::SafeDownCast(bodies.actor(0)->GetMapper()->GetInput());
    const vtkMTimeType built = mesh->GetMTime();
    const double half = std::sqrt(0.5);
    BodyPose pose;
    pose.centre = {1.0, 2.0, 0.05};
    pose.orientation = {half, 0.0, 0.0, half};  // 90 degrees about z
    pose.waterUnder = 0.01;
    constexpr double kScale = 10.0;
    bodies.setPoses({pose}, kScale);
    double b[6];
    bodies.actor(0)->GetBounds(b);
    constexpr double kTolerance = 1e-6;  // float points
    QVERIFY(std::abs(b[0] - 0.9) < kTolerance && std::abs(b[1] - 1.1) < kTolerance);
    QVERIFY(std::abs(b[2] - 1.8) < kTolerance && std::abs(b[3] - 2.2) < kTolerance);
    const double drawnCentre = 0.05 + (kScale - 1.0) * 0.01;
    QVERIFY(std::abs(0.5 * (b[4] + b[5]) - drawnCentre) < kTolerance);
    QVERIFY(bodies.actor(0)->GetVisibility());
    QCOMPARE(mesh->GetMTime(), built);
    bodies.setPoses({}, kScale);
    QVERIFY(!bodies.actor(0)->GetVisibility());
    // A model that blew up: its bodies' poses are not finite and they are not drawn.
    pose.waterUnder = std::numeric_limits<double>::quiet_NaN();
    bodies.setPoses({pose}, kScale);
    QVERIFY(!bodies.actor(0)->GetVisibility());
  }

  void plotsAppendedInPiecesMatchOneRefresh() {
    PlotsDock pieces, whole;
    const std::vector<std::string> ids = {"a", "b"};
    pieces.reset(ids);
    whole.reset(ids);
    std::vector<std::vector<FrameRecord>> all(2);
    // Enough frames that the plots thin the history (more than kMaxPlotPoints).
    for (int f = 0; f < 4000; f += 25) {
      std::vector<std::vector<FrameRecord>> batch(2);
      for (int k = f; k < f + 25; ++k) {
        batch[0].push_back(record(k, std::sin(0.01 * k)));
        batch[1].push_back(record(k, std::cos(0.02 * k)));
      }
      all[0].insert(all[0].end(), batch[0].begin(), batch[0].end());
      all[1].insert(all[1].end(), batch[1].begin(), batch[1].end());
      pieces.append(batch);
      pieces.refresh();
    }
    whole.append(all);
    whole.refresh();
    QCOMPARE(pieces.chartCount(), whole.chartCount());
    const auto piecesCharts = pieces.plotsWidget()->findChildren<QChartView*>();
    const auto wholeCharts = whole.plotsWidget()->findChildren<QChartView*>();
    QCOMPARE(piecesCharts.size(), wholeCharts.size());
    for (int c = 0; c < piecesCharts.size(); ++c) {
      const QChart* a = piecesCharts[c]->chart();
      const QChart* b = wholeCharts[c]->chart();
      QCOMPARE(a->series().size(), b->series().size());
      for (int k = 0; k < a->series().size(); ++k) {
        const auto pa = pointsOf(a, k), pb = pointsOf(b, k);
        QVERIFY(!pa.empty());
        QVERIFY(pa.size() <= 1500);
        QCOMPARE(pa, pb);
      }
    }
  }

  void piPoolPresentsFramesCountedHonestly() {
    MainWindow window(false);
    window.resize(1600, 1000);
    QVERIFY(window.openScenario("builtin:pi-pool", kThreeModels));
    Grid grid = window.document().scenario().grid;
    const double width = grid.width();
    grid.ny = int(std::lround(double(grid.ny) * 128 / grid.nx));
    grid.nx = 128;
    grid.dx = width / 128;
    window.document().setGrid(grid);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY_WITH_TIMEOUT(
        lastSnapshotShown(window) && window.shownSnapshot()->domain->grid().nx == 128, kTimeoutMs);
    QSignalSpy swaps(window.viewGrid(), &ViewGrid::frameSwapped);
    playUntilPresented(window, kPresentedFrames);
    if (QTest::currentTestFailed()) return;
    const nlohmann::json stats = window.statsJson();
    qInfo("%s", stats.dump().c_str());
    QCOMPARE(stats["grid"]["nx"].get<int>(), 128);
    QCOMPARE(stats["views"].get<int>(), 3);
    checkPresentedFramesAreCountedHonestly(stats, int(swaps.count()));
    if (QTest::currentTestFailed()) return;

    // The user hides a model: its view goes, the others keep their models; the difference
    // view subtracts the pair picked in the toolbar.
    window.setModelShown("advected-wave", false);
    QCOMPARE(int(window.views().size()), 2);
    window.differenceAction()->setChecked(true);
    QCOMPARE(int(window.views().size()), 3);
    window.setModelShown("advected-wave", true);
    QCOMPARE(int(window.views().size()), 4);  // two by two
    const auto corner = [&](int view) { return window.views()[view]->mapTo(&window, QPoint()); };
    // New views are shown and laid out by the event loop.
    QTRY_VERIFY(corner(3).y() > corner(0).y() && corner(3).x() > corner(0).x());
    QCOMPARE(corner(2).x(), corner(0).x());
    window.document().setModified(false);
  }

  void hundredThousandTracersAreDotsOfOneActorPerView() {
    QTemporaryDir folder;
    nlohmann::json scenario = nlohmann::json::parse(*builtinResource("pi-pool.json"));
    scenario["bodies"] = {{"count", kTracers}, {"size", 0.02}};
    const QString path = folder.filePath("tracers.json");
    std::ofstream(path.toStdString()) << scenario.dump();
    MainWindow window(false);
    window.resize(1600, 1000);
    QVERIFY(window.openScenario(path, kThreeModels));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY_WITH_TIMEOUT(lastSnapshotShown(window), kTimeoutMs);
    QSignalSpy swaps(window.viewGrid(), &ViewGrid::frameSwapped);
    playUntilPresented(window, kPresentedFrames);
    if (QTest::currentTestFailed()) return;
    const nlohmann::json stats = window.statsJson();
    qInfo("%s", stats.dump().c_str());
    checkPresentedFramesAreCountedHonestly(stats, int(swaps.count()));
    if (QTest::currentTestFailed()) return;
    for (SurfaceView* view : window.views()) {
      const SurfaceScene& scene = view->scene();
      const int* size = const_cast<SurfaceScene&>(scene).renderer()->GetSize();
      const std::size_t pixels = std::size_t(size[0]) * std::size_t(size[1]);
      // Every tracer is accounted for: dots times the stride cover them all ...
      QVERIFY(scene.tracerDotCount() * scene.tracerDotStride() >= std::size_t(kTracers));
      QVERIFY(scene.tracerDotCount() * (scene.tracerDotStride() - 1) < std::size_t(kTracers));
      // ... and no more are drawn than the view has pixels for.
      QVERIFY(scene.tracerDotCount() <=
              std::max(SurfaceScene::kMinTracerDots, pixels / SurfaceScene::kPixelsPerTracerDot));
    }
    window.document().setModified(false);
  }
};

int main(int argc, char** argv) {
  SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("WavebenchTests");
  FrameTests test;
  return QTest::qExec(&test, argc, argv);
}

#include "frame_tests.moc"
