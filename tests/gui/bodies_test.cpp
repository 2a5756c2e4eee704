// The buoyant bodies in the real window under Xvfb (docs/bodies.md, "In the workbench"):
// - builtin:crates runs some frames; every view holds one actor per body of its model, and
//   each actor's drawn bounds are the body's mesh turned by the snapshot's quaternion and moved
//   to its centre, lifted by (verticalScale - 1) times the drawn water under it, so the body's
//   height above the drawn water is its true height above the model's water;
// - the meshes are built once: later frames move the same actors, their meshes untouched,
//   and the snapshots share one mesh set;
// - a Ctrl + click drops a 0.6 m crate into every model's water 0.5 m above it, a Ctrl + drag
//   throws one at twice the drag per second, and a click off the water is refused in the
//   status bar while the session goes on;
// - the Bodies toolbar and the bodies panel edit the scenario's bodies, each edit undoable;
// - a crate clicked into a pool without bodies lowers the water's exaggeration so that a wave
//   of the colour range's height stays below its freeboard.
#include <vtkActor.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWindow>

#include "app/gui/editors/bodies_panel.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"
#include "core/grid/interpolation.hpp"
#include "tests/gui/gui_test_support.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
constexpr int kFrames = 60;
constexpr int kMoreFrames = 30;
constexpr std::size_t kCrates = 6;      // bodies of builtin:crates
constexpr double kPointMetres = 1e-5;   // the actors' float points, a few metres from 0
constexpr double kDroppedEdge = 0.6;    // m, the crate a click drops
constexpr double kDropHeight = 0.5;     // m, its bottom above the highest water
constexpr double kThrowRate = 2.0;      // 1/s, throw speed per metre of drag
constexpr double kMaxThrowSpeed = 4.0;  // m/s

// Every vertex of each view's body actors, through the actor's whole matrix, stands where the
// body's pose puts it: rotate() of the ParaView writer (independent of the actors' matrix)
// turns the mesh, the centre moves it, and the centre is lifted by (verticalScale - 1) times
// the drawn water under it. The views show the models in order while none is hidden and
// there is no difference view.
void checkViewsHoldTheBodies(MainWindow& window) {
  const auto snapshot = window.shownSnapshot();
  QCOMPARE(window.views().size(), snapshot->models.size());
  for (std::size_t k = 0; k < snapshot->models.size(); ++k) {
    const ModelSnapshot& model = snapshot->models[k];
    SurfaceScene& scene = window.views()[k]->scene();
    QCOMPARE(scene.bodies().size(), model.rigidBodies.size());
    for (std::size_t b = 0; b < model.rigidBodies.size(); ++b) {
      const RigidBodyFrame& body = model.rigidBodies[b];
      vtkActor* actor = scene.bodies().actor(b);
      QVERIFY(actor->GetVisibility());
      const double lift =
          (scene.verticalScale() - 1.0) * scene.drawnEta(body.centre[0], body.centre[1]);
      vtkPoints* points = vtkPolyData::SafeDownCast(actor->GetMapper()->GetInput())->GetPoints();
      QCOMPARE(std::size_t(points->GetNumberOfPoints()), body.mesh->vertices.size());
      double worst = 0.0;
      for (vtkIdType p = 0; p < points->GetNumberOfPoints(); ++p) {
        double local[4] = {0.0, 0.0, 0.0, 1.0}, drawn[4];
        points->GetPoint(p, local);
        actor->GetMatrix()->MultiplyPoint(local, drawn);
        const auto r = rotate(body.orientation, body.mesh->vertices[std::size_t(p)]);
        for (int c = 0; c < 3; ++c)
          worst =
              std::max(worst, std::abs(drawn[c] - (body.centre[c] + r[c] + (c == 2 ? lift : 0.0))));
      }
      QVERIFY2(worst < kPointMetres, qPrintable(QString("%1, body %2: a vertex %3 m off its pose")
                                                    .arg(QString::fromStdString(model.id))
                                                    .arg(b)
                                                    .arg(worst)));
    }
  }
}

// Waits until every model's snapshot holds `count` bodies and the views show them.
void waitForBodies(MainWindow& window, std::size_t count) {
  QTRY_VERIFY_WITH_TIMEOUT(lastSnapshotShown(window) &&
                               window.shownSnapshot()->models.front().rigidBodies.size() == count,
                           kTimeoutMs);
  for (const auto& model : window.shownSnapshot()->models)
    QCOMPARE(model.rigidBodies.size(), count);
  checkViewsHoldTheBodies(window);
}
}  // namespace

class BodiesTest : public QObject {
  Q_OBJECT

 private slots:
  void cratesAreDrawnAtTheirPosesAndClicksAddBodies() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:crates"));
    runFrames(window, kFrames);
    if (QTest::currentTestFailed()) return;
    for (const auto& model : window.shownSnapshot()->models) {
      QVERIFY(!model.failure);
      QCOMPARE(model.rigidBodies.size(), kCrates);
    }
    checkViewsHoldTheBodies(window);
    if (QTest::currentTestFailed()) return;

    // The drawn water under a body is the render mesh's: at a mesh corner, its height there.
    SurfaceScene& first = window.views().front()->scene();
    vtkPolyData* water = first.waterMesh();
    for (vtkIdType p = 0; p < water->GetNumberOfPoints(); p += 97) {
      double point[3];
      water->GetPoint(p, point);
      QVERIFY(std::abs(first.drawnEta(point[0], point[1]) * first.verticalScale() - point[2]) <
              kPointMetres);
    }

    // Later frames move the same actors; their meshes are neither rebuilt nor touched.
    const auto before = window.shownSnapshot();
    std::vector<vtkActor*> actors;
    std::vector<vtkMTimeType> meshTimes;
    for (std::size_t b = 0; b < kCrates; ++b) {
      actors.push_back(first.bodies().actor(b));
      meshTimes.push_back(actors.back()->GetMapper()->GetInput()->GetMTime());
    }
    runFrames(window, kFrames + kMoreFrames);
    if (QTest::currentTestFailed()) return;
    const auto after = window.shownSnapshot();
    QVERIFY(after->models.front().rigidMeshes == before->models.front().rigidMeshes);
    QVERIFY(after->models.front().rigidBodies[0].centre !=
            before->models.front().rigidBodies[0].centre);
    for (std::size_t b = 0; b < kCrates; ++b) {
      QCOMPARE(first.bodies().actor(b), actors[b]);
      QCOMPARE(actors[b]->GetMapper()->GetInput()->GetMTime(), meshTimes[b]);
    }
    checkViewsHoldTheBodies(window);
    if (QTest::currentTestFailed()) return;

    // Ctrl + click in the middle of the first view: a crate 0.5 m above the water there,
    // recorded as a body entering at the next frame's time, which the paused window steps.
    SurfaceView* view = window.views().front();
    QWindow* native = view->renderWindow();
    const QPoint middle((native->width() - SurfaceScene::kColourBarStripPixels) / 2,
                        native->height() / 2);
    const auto clicked = view->pickRestPlane(middle);
    QVERIFY(clicked);
    const auto beforeClick = window.shownSnapshot();
    QTest::mouseClick(native, Qt::LeftButton, Qt::ControlModifier, middle);
    waitForBodies(window, kCrates + 1);
    if (QTest::currentTestFailed()) return;
    double highest = -1e300;
    for (const auto& model : beforeClick->models)
      highest = std::max<double>(highest, sampleBilinear(model.eta, beforeClick->domain->grid(),
                                                         clicked->x(), clicked->y()));
    // The document takes up the recorded throw on the GUI thread.
    const auto& thrown = window.document().scenario().excitations.bodies;
    QTRY_COMPARE_WITH_TIMEOUT(thrown.size(), std::size_t(1), kTimeoutMs);
    QCOMPARE(thrown[0].time, beforeClick->time);
    QVERIFY(std::abs(*thrown[0].spec.z - (highest + kDropHeight + 0.5 * kDroppedEdge)) < 1e-9);
    QVERIFY(thrown[0].spec.velocity.isZero());
    for (const auto& model : window.shownSnapshot()->models) {
      const RigidBodyFrame& body = model.rigidBodies.back();
      QVERIFY(std::abs(body.centre[0] - clicked->x()) < 1e-9);  // falling straight down
      QVERIFY(std::abs(body.centre[1] - clicked->y()) < 1e-9);
      QVERIFY(body.centre[2] < *thrown[0].spec.z);
      double lo = 1e300, hi = -1e300;
      for (const auto& v : body.mesh->vertices) {
        lo = std::min(lo, v[0]);
        hi = std::max(hi, v[0]);
      }
      QVERIFY(std::abs(hi - lo - kDroppedEdge) < 1e-12);
    }

    // Ctrl + drag to the right: a crate thrown along the drag, at 2 1/s times its length,
    // at most 4 m/s (in the air for its first frame: its horizontal velocity stays).
    const QPoint end = middle + QPoint(native->width() / 8, 0);
    const auto released = view->pickRestPlane(end);
    QVERIFY(released);
    QTest::mousePress(native, Qt::LeftButton, Qt::ControlModifier, middle);
    QTest::mouseMove(native, middle + QPoint(10, 0));
    QTest::mouseMove(native, end);
    QTest::mouseRelease(native, Qt::LeftButton, Qt::ControlModifier, end);
    waitForBodies(window, kCrates + 2);
    if (QTest::currentTestFailed()) return;
    const double dragX = released->x() - clicked->x(), dragY = released->y() - clicked->y();
    const double length = std::hypot(dragX, dragY);
    const double speed = std::min(kMaxThrowSpeed, kThrowRate * length);
    const auto& throws = window.document().scenario().excitations.bodies;
    QTRY_COMPARE_WITH_TIMEOUT(throws.size(), std::size_t(2), kTimeoutMs);
    QVERIFY(std::abs(throws[1].spec.velocity.z()) == 0.0);
    for (const auto& model : window.shownSnapshot()->models) {
      const auto& velocity = model.rigidBodies.back().velocity;
      QVERIFY(std::abs(velocity[0] - speed * dragX / length) < 1e-9);
      QVERIFY(std::abs(velocity[1] - speed * dragY / length) < 1e-9);
      QVERIFY(velocity[2] < 0.0);  // falling
    }

    // Off the water: refused in the status bar; the worker keeps running.
    emit view->bodyPlaced(QPointF(-5.0, -5.0), QPointF(-5.0, -5.0));
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains("not on a water cell"),
                             kTimeoutMs);
    QVERIFY(window.statusBar()->currentMessage().startsWith("Body not placed: "));
    runFrames(window, kFrames + kMoreFrames + 10);
    if (QTest::currentTestFailed()) return;
    for (const auto& model : window.shownSnapshot()->models)
      QCOMPARE(model.rigidBodies.size(), kCrates + 2);
    QCOMPARE(window.document().scenario().excitations.bodies.size(), std::size_t(2));
    checkViewsHoldTheBodies(window);
    if (QTest::currentTestFailed()) return;
    window.document().setModified(false);
  }

  // A crate clicked into a pool without buoyant bodies (builtin:wind: 12.8 m, 1 cm rain): its
  // splash, the 0.108 m^3 it displaces afloat spread over its footprint's circle widened by two
  // cells (docs/bodies.md), is about 9 cm; half of it becomes the wave height the automatic
  // vertical scale is made for, and the water's exaggeration drops so that a wave of that
  // height stays below the crate's freeboard (0.3 m). (The colours follow the data:
  // view_settings_test.cpp.)
  void aClickedCrateSetsTheExaggeration() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:wind"));
    runFrames(window, kMoreFrames);
    if (QTest::currentTestFailed()) return;
    SurfaceView* view = window.views().front();
    const double scaleBefore = view->scene().verticalScale();
    const Grid& grid = window.shownSnapshot()->domain->grid();
    const double radius = kDroppedEdge * std::sqrt(0.5) + 2.0 * grid.dx;
    const double splash =
        0.5 * kDroppedEdge * kDroppedEdge * kDroppedEdge / (M_PI * radius * radius);
    const double freeboard = kDroppedEdge * (1.0 - 0.5);  // density 500 in water of 1000
    QVERIFY(1.0 + freeboard / (0.5 * splash) < scaleBefore);
    QWindow* native = view->renderWindow();
    const QPoint middle((native->width() - SurfaceScene::kColourBarStripPixels) / 2,
                        native->height() / 2);
    QTest::mouseClick(native, Qt::LeftButton, Qt::ControlModifier, middle);
    waitForBodies(window, 1);
    if (QTest::currentTestFailed()) return;
    for (auto* v : window.views()) {
      QVERIFY(std::abs(v->scene().verticalScale() - (1.0 + freeboard / (0.5 * splash))) < 1e-9);
    }
    window.document().setModified(false);
  }

  // The Bodies toolbar adds a body where the user clicks next, the controls' bodies panel
  // (generated from the scenario's declaration of the body keys) edits and removes it; each is
  // one undoable command of the document, the comparison runs what the document holds, and
  // Save writes it in the scenario's "bodies" form.
  void toolbarAndPanelEditTheScenariosBodies() {
    MainWindow window(false);
    QVERIFY(openShown(window, "builtin:wind"));
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot() && !window.views().empty(), kTimeoutMs);
    BodiesPanel* panel = window.bodiesPanel();
    const Grid grid = window.document().scenario().grid;
    for (const BodyKey& key : bodyKeys()) {
      QWidget* editor = panel->editor(key.name);
      QVERIFY2(editor, key.name.c_str());
      QVERIFY(editor->toolTip().contains(QString::fromStdString(key.doc)));
      if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor)) {
        QCOMPARE(spin->minimum(), key.lo);
        QCOMPARE(spin->maximum(), key.upper(grid, 0));
      }
    }
    QCOMPARE(panel->list()->count(), 0);
    SurfaceView* view = window.views().front();

    // A drop clicked just beyond the pool's edge lands on its outermost cells: the session
    // (and its autosave) records only what the scenario loader accepts.
    emit view->surfaceClicked(QPointF(2.0, grid.height() + 0.21));
    QTRY_COMPARE_WITH_TIMEOUT(window.document().scenario().excitations.drops.size(), std::size_t(1),
                              kTimeoutMs);
    QCOMPARE(window.document().scenario().excitations.drops[0].y, grid.height() - 0.5 * grid.dx);
    QCOMPARE(window.document().scenario().excitations.drops[0].x, 2.0);

    // Off the water: refused, nothing added, the tool stays in hand.
    window.addHullAction()->setChecked(true);
    emit view->surfaceClicked(QPointF(-1.0, 2.0));
    QVERIFY(window.statusBar()->currentMessage().startsWith("Body not placed: "));
    QVERIFY(window.document().scenario().rigidBodies.empty());
    QVERIFY(window.addHullAction()->isChecked());

    window.bodySizeBox()->setValue(1.5);
    window.bodyDensityBox()->setValue(300.0);
    emit view->surfaceClicked(QPointF(4.0, 5.0));
    QVERIFY(!window.addHullAction()->isChecked());
    QCOMPARE(window.document().scenario().rigidBodies.size(), std::size_t(1));
    const BodySpec hull = window.document().scenario().rigidBodies[0];
    QVERIFY(hull.shape == BodyShape::Hull);
    QVERIFY(hull.size == Eigen::Vector3d(1.5, 0.5, 0.25));
    QCOMPARE(hull.density, 300.0);
    QCOMPARE(hull.x, 4.0);
    QVERIFY(!hull.z);  // rests afloat
    QUndoStack* undo = window.document().undoStack();
    QCOMPARE(undo->undoText(), QString("add hull 1.5 × 0.5 × 0.25 m"));
    waitForBodies(window, 1);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(panel->list()->count(), 1);
    QCOMPARE(panel->selected(), 0);
    QVERIFY2(panel->shownJson() == bodyJson(hull), panel->shownJson().dump().c_str());

    // Edit in the panel: density and yaw, Apply.
    panel->setShown("density", 700.0);
    panel->setShown("yaw", 30.0);
    panel->setShown("z", 0.4);
    QTest::mouseClick(panel->findChild<QPushButton*>("bodyApply"), Qt::LeftButton);
    const BodySpec edited = window.document().scenario().rigidBodies[0];
    QCOMPARE(edited.density, 700.0);
    QCOMPARE(edited.yawDegrees, 30.0);
    QCOMPARE(*edited.z, 0.4);
    QCOMPARE(undo->undoText(), QString("edit body 0"));
    QTRY_COMPARE_WITH_TIMEOUT(window.shownSnapshot()->models.front().rigidBodies.size(),
                              std::size_t(1), kTimeoutMs);
    QCOMPARE(window.worker().latest()->frame, 0);  // the comparison restarted with the edit

    // The editors keep a value inside the declared range.
    panel->setShown("x", -1.0);
    QCOMPARE(panel->shownJson()["x"].get<double>(), 0.0);
    panel->setShown("x", 4.0);

    undo->undo();
    QCOMPARE(window.document().scenario().rigidBodies[0].density, 300.0);
    QCOMPARE(panel->shownJson()["density"].get<double>(), 300.0);
    undo->redo();
    QCOMPARE(window.document().scenario().rigidBodies[0].density, 700.0);

    // Save writes the scenario's "bodies" form; the CLI's parser reads it back.
    QTemporaryDir dir;
    const QString file = dir.filePath("bodies.json");
    QVERIFY(window.saveScenarioAs(file));
    const Scenario saved = loadScenarioFile(file.toStdString());
    QCOMPARE(saved.rigidBodies.size(), std::size_t(1));
    QVERIFY(bodyJson(saved.rigidBodies[0]) == bodyJson(edited));

    // Remove, undo brings it back.
    QTest::mouseClick(panel->findChild<QPushButton*>("bodyRemove"), Qt::LeftButton);
    QVERIFY(window.document().scenario().rigidBodies.empty());
    QCOMPARE(panel->list()->count(), 0);
    QCOMPARE(undo->undoText(), QString("remove body 0"));
    undo->undo();
    QCOMPARE(window.document().scenario().rigidBodies.size(), std::size_t(1));
    QCOMPARE(panel->list()->count(), 1);
    window.document().setModified(false);
  }
};

int main(int argc, char** argv) {
  SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("WavebenchTests");
  BodiesTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "bodies_test.moc"
