// QTest widget tests of the workbench (offscreen platform, no OpenGL): the generated
// parameter panels, the controls, the mask editor on the document's undo stack, the scenario
// open/save round trip and the exports.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "app/gui/document/scenario_document.hpp"
#include "app/gui/editors/controls_dock.hpp"
#include "app/gui/editors/edges_panel.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/editors/ocean_panel.hpp"
#include "app/gui/editors/param_panel.hpp"
#include "app/gui/export/export_actions.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/view_settings_menu.hpp"
#include "app/gui/window/autosave.hpp"
#include "core/errors.hpp"
#include "core/grid/domain.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
constexpr int kSide = 16;
Mask allWater() {
  return Mask(kSide * kSide, 1);
}
// A kSide x kSide pool of water kPoolDepth deep, every cell wet, no bathymetry.
constexpr double kPoolDepth = 1.0;
void loadOpenPool(ScenarioDocument& document) {
  Scenario pool;
  pool.grid = Grid{kSide, kSide, 0.1};
  pool.depth = kPoolDepth;
  document.load(pool);
}
int solidCount(const Mask& m) {
  return int(std::count(m.begin(), m.end(), 0));
}
QByteArray head(const QString& file, int bytes) {
  QFile f(file);
  return f.open(QIODevice::ReadOnly) ? f.read(bytes) : QByteArray();
}
}  // namespace

class WidgetTests : public QObject {
  Q_OBJECT

 private slots:
  // A saved colour mode the comparison cannot show (the error without a reference) is drawn as
  // the surface, and the menu checks what is drawn; the saved mode returns with a reference.
  void aColourModeTheComparisonCannotShowIsCheckedAsTheSurface() {
    QMenu view;
    ViewSettingsMenu menu(&view, nullptr, false);
    ViewSettings settings = menu.settings();
    settings.mode = ColourMode::Error;
    menu.setSettings(settings);
    menu.setComparison({"damped-wave", "swe-adi"}, false);
    QVERIFY(!menu.modeAction(ColourMode::Error)->isEnabled());
    QVERIFY(!menu.modeAction(ColourMode::Error)->isChecked());
    QVERIFY(menu.modeAction(ColourMode::Surface)->isChecked());
    QVERIFY(menu.settings().mode == ColourMode::Error);  // kept for a comparison that can
    menu.setComparison({"damped-wave", "swe-adi"}, true);
    QVERIFY(menu.modeAction(ColourMode::Error)->isChecked());
  }

  // One editor per declared parameter, with the declared range, unit and doc as tooltip.
  void parameterPanelsFollowTheDeclarations() {
    for (const auto& id : modelIds()) {
      auto model = createModel(id);
      ParamPanel panel(id, model->params());
      for (const auto& spec : model->params().specs()) {
        QWidget* editor = panel.editor(spec.name);
        QVERIFY2(editor, spec.name.c_str());
        QVERIFY(editor->toolTip().contains(QString::fromStdString(spec.doc)));
        if (auto* real = qobject_cast<QDoubleSpinBox*>(editor)) {
          QCOMPARE(spec.kind, ParamKind::Real);
          QCOMPARE(real->minimum(), spec.min);
          QCOMPARE(real->maximum(), spec.max);
          if (!spec.unit.empty())
            QVERIFY(real->suffix().contains(QString::fromStdString(spec.unit)));
        }
        if (auto* choice = qobject_cast<QComboBox*>(editor))
          QCOMPARE(choice->count(), int(spec.choices.size()));
      }
      // The panel's JSON is accepted by the scenario reader and gives the same values.
      ParamValues reread(model->params().specs());
      applyParamJson(reread, panel.valuesJson(), id);
      for (const auto& spec : model->params().specs())
        QCOMPARE(reread.text(spec.name), model->params().text(spec.name));
    }
  }

  void parameterPanelAppliesEditedValues() {
    auto model = createModel("damped-wave");
    ParamPanel panel("damped-wave", model->params());
    QSignalSpy applied(&panel, &ParamPanel::applied);
    qobject_cast<QDoubleSpinBox*>(panel.editor("k"))->setValue(0.75);
    QTest::mouseClick(panel.findChild<QPushButton*>("apply"), Qt::LeftButton);
    QCOMPARE(applied.count(), 1);
    const auto values = applied.at(0).at(1).value<nlohmann::json>();
    QCOMPARE(values.at("k").get<double>(), 0.75);
  }

  void controlsShowTheScenarioAndEmitEdits() {
    QAction play("play"), step("step"), reset("reset");
    ControlsDock dock(Transport{&play, &step, &reset});
    const Scenario pi = loadScenario("builtin:pi-pool");
    dock.showScenario(pi, modelIds());
    QCOMPARE(dock.gridBox()->currentData().toInt(), pi.grid.nx);
    QCOMPARE(dock.modelList()->count(), int(modelIds().size()));
    for (const auto& id : modelIds())
      QVERIFY(dock.panel(id));
    QSignalSpy models(&dock, &ControlsDock::modelsChanged);
    QSignalSpy grid(&dock, &ControlsDock::gridChanged);
    QSignalSpy rain(&dock, &ControlsDock::rainChanged);
    if (modelIds().size() > 1) {
      dock.modelList()->item(0)->setCheckState(Qt::Unchecked);
      QCOMPARE(models.count(), 1);
      const auto ids = models.at(0).at(0).value<std::vector<std::string>>();
      QCOMPARE(ids.size(), modelIds().size() - 1);
    }
    emit dock.gridBox()->activated(dock.gridBox()->findData(128));
    QCOMPARE(grid.count(), 1);
    QCOMPARE(grid.at(0).at(0).toInt(), 128);
    dock.rainBox()->setChecked(true);
    QCOMPARE(rain.count(), 1);
    QCOMPARE(rain.at(0).at(0).toBool(), true);
  }

  // The dabs of one stroke are one undo step and announce the mask once, at the release.
  void brushStrokeIsOneUndoStep() {
    ScenarioDocument document;
    loadOpenPool(document);
    MaskEditor editor(document);
    QCOMPARE(editor.mask(), allWater());
    editor.setBrushRadius(1);
    QSignalSpy edited(&document, &ScenarioDocument::rebuildNeeded);
    editor.beginStroke();
    for (int i = 2; i < 12; ++i)
      editor.dab(i, 8, false);
    QCOMPARE(edited.count(), 0);
    editor.endStroke();
    QCOMPARE(edited.count(), 1);
    QCOMPARE(editor.undoStack()->count(), 1);
    const Mask stroke = editor.mask();
    QVERIFY(solidCount(stroke) >= 10 * 3);
    editor.beginStroke();
    editor.dab(3, 3, false);
    editor.endStroke();
    QCOMPARE(editor.undoStack()->count(), 2);
    editor.undoStack()->undo();
    QCOMPARE(editor.mask(), stroke);
    editor.undoStack()->undo();
    QCOMPARE(editor.mask(), allWater());
    editor.undoStack()->redo();
    QCOMPARE(editor.mask(), stroke);
  }

  // A deepen stroke changes the depth under each dab's centre by the step, with a cosine
  // falloff that is 0 beyond the brush; it is one undo step and undo restores the depth.
  void depthStrokeIsOneUndoStep() {
    constexpr float kDepth = float(kPoolDepth), kStep = 0.25f;
    constexpr int kRadius = 2;
    const QPoint centres[] = {{4, 8}, {11, 8}};  // 7 cells apart: the dabs do not overlap
    const Depth flat(kSide, kSide, kDepth);
    ScenarioDocument document;
    loadOpenPool(document);
    MaskEditor editor(document);
    QVERIFY(sameField(editor.depth(), flat));
    editor.setBrushRadius(kRadius);
    editor.setDepthStep(kStep);
    QSignalSpy depthEdited(&document, &ScenarioDocument::rebuildNeeded);
    editor.beginStroke();
    for (QPoint c : centres)
      editor.dabDepth(c.x(), c.y(), true);
    QCOMPARE(depthEdited.count(), 0);
    editor.endStroke();
    QCOMPARE(depthEdited.count(), 1);
    QCOMPARE(editor.mask(), allWater());
    QCOMPARE(editor.undoStack()->count(), 1);

    const Depth stroke = editor.depth();
    for (int j = 0; j < kSide; ++j)
      for (int i = 0; i < kSide; ++i) {
        bool underBrush = false;
        for (QPoint c : centres)
          underBrush |= std::max(std::abs(i - c.x()), std::abs(j - c.y())) <= kRadius;
        if (!underBrush) QCOMPARE(stroke(i, j), kDepth);  // far cells exactly unchanged
        QVERIFY(stroke(i, j) >= kDepth && stroke(i, j) <= kDepth + kStep);
      }
    for (QPoint c : centres) {
      QCOMPARE(stroke(c.x(), c.y()), kDepth + kStep);
      // One cell off centre, reach radius + 1 = 3: 0.5 (1 + cos(pi / 3)) = 0.75 of the step.
      QVERIFY(std::abs(stroke(c.x() + 1, c.y()) - (kDepth + 0.75f * kStep)) < 1e-6f);
    }

    editor.setDepthStep(10 * kDepth);  // a shallow dab deeper than the pool stops at kMinDepth
    editor.beginStroke();
    editor.dabDepth(8, 3, false);
    editor.endStroke();
    QCOMPARE(editor.undoStack()->count(), 2);
    QCOMPARE(editor.depth()(8, 3), float(Domain::kMinDepth));
    editor.undoStack()->undo();
    QVERIFY(sameField(editor.depth(), stroke));
    editor.undoStack()->undo();
    QVERIFY(sameField(editor.depth(), flat));
    editor.undoStack()->redo();
    QVERIFY(sameField(editor.depth(), stroke));
  }

  void rectanglePresetsAndUndo() {
    ScenarioDocument document;
    loadOpenPool(document);
    MaskEditor editor(document);
    editor.fillRect(0, 0, 3, 1, false);
    QCOMPARE(solidCount(editor.mask()), 4 * 2);
    editor.applyPreset(MaskPresetKind::Pi);
    Domain pi(Grid{kSide, kSide, 1.0}, 9.81, 1.0);
    pi.applyPreset(MaskPreset::Pi);
    QCOMPARE(editor.mask(), pi.wetMask());
    editor.applyPreset(MaskPresetKind::Obstacles);
    QVERIFY(solidCount(editor.mask()) > 0);
    QCOMPARE(editor.undoStack()->count(), 3);
    editor.undoStack()->undo();
    editor.undoStack()->undo();
    QCOMPARE(solidCount(editor.mask()), 4 * 2);
  }

  // A wall/open choice per side: one command per change, shown again on undo and redo, and the
  // open side's layer marked in the picture (its band is blue over the wall-coloured border).
  void edgeChoicesEditTheDocumentsEdges() {
    ScenarioDocument document;
    loadOpenPool(document);
    Edges narrow;
    narrow.layerCells = 4;
    document.setEdges(narrow);  // no change of kinds: only the layer's width
    MaskEditor editor(document);
    editor.fillRect(kSide - narrow.layerCells, 0, kSide - 1, kSide - 1, false);  // under the band
    editor.resize(400, 500);
    const int pushed = editor.undoStack()->count();
    QComboBox* east = editor.edgeChoice(Side::East);
    QCOMPARE(east->currentIndex(), int(EdgeKind::Wall));

    // The pixel at the middle of the east layer's band, in the canvas.
    const auto eastBandPixel = [&] {
      MaskCanvas* canvas = editor.canvas();
      const QImage shot = canvas->grab().toImage();
      const double cell = std::min(canvas->width(), canvas->height()) / double(kSide);
      const double right = (canvas->width() + kSide * cell) / 2;
      return QColor(shot.pixel(int(right - 2 * cell), canvas->height() / 2));
    };
    const QColor wall = eastBandPixel();

    east->setCurrentIndex(int(EdgeKind::Open));  // as a user's choice
    emit east->activated(int(EdgeKind::Open));
    QCOMPARE(editor.undoStack()->count(), pushed + 1);
    QVERIFY(document.scenario().edges.isOpen(Side::East));
    for (Side side : {Side::West, Side::South, Side::North})
      QVERIFY(!document.scenario().edges.isOpen(side));
    QCOMPARE(document.scenario().edges.layerCells, 4);
    const QColor open = eastBandPixel();
    QVERIFY2(open.blue() > wall.blue() + 40 && open.blue() > open.green(),
             qPrintable(QString("band %1, wall %2").arg(open.name(), wall.name())));

    editor.undoStack()->undo();
    QCOMPARE(east->currentIndex(), int(EdgeKind::Wall));
    QVERIFY(!document.scenario().edges.anyOpen());
    QCOMPARE(eastBandPixel(), wall);
    editor.undoStack()->redo();
    QCOMPARE(east->currentIndex(), int(EdgeKind::Open));
  }

  // The layer's width in cells and as a fraction of the longest wave: one command each, both
  // shown again on undo; the fraction rounds to whole cells.
  void layerWidthIsEditedInCellsOrAsAFraction() {
    ScenarioDocument document;
    loadOpenPool(document);  // 16 x 16 cells of 0.1 m: the longest wave is 3.2 m
    MaskEditor editor(document);
    EdgesPanel* panel = editor.edgesPanel();
    const int pushed = editor.undoStack()->count();
    panel->layerCellsBox()->setValue(4);  // as a user types it
    emit panel->layerCellsBox()->editingFinished();
    QCOMPARE(document.scenario().edges.layerCells, 4);
    QCOMPARE(editor.undoStack()->count(), pushed + 1);
    QCOMPARE(panel->layerFractionBox()->value(), 0.125);  // 4 * 0.1 m / 3.2 m

    panel->layerFractionBox()->setValue(0.19);  // 0.19 * 3.2 m = 6.08 cells -> 6
    emit panel->layerFractionBox()->editingFinished();
    QCOMPARE(document.scenario().edges.layerCells, 6);
    QCOMPARE(panel->layerCellsBox()->value(), 6);
    QCOMPARE(panel->layerFractionBox()->value(), 0.188);  // shown to 3 decimals
    QCOMPARE(editor.undoStack()->count(), pushed + 2);

    editor.undoStack()->undo();
    QCOMPARE(document.scenario().edges.layerCells, 4);
    QCOMPARE(panel->layerCellsBox()->value(), 4);
    QCOMPARE(panel->layerFractionBox()->value(), 0.125);
  }

  // The Domain tab imports an elevation file through core's reader: an ESRI grid of depths
  // whose samples become the grid (one undo step, the old grid back on undo); a bad file is
  // refused naming it, and nothing changes.
  void elevationFileImportSetsTheGroundAndGrid() {
    ScenarioDocument document;
    loadOpenPool(document);
    MaskEditor editor(document);
    QTemporaryDir dir;
    const QString asc = dir.filePath("bay.asc");
    QFile out(asc);
    QVERIFY(out.open(QIODevice::WriteOnly));
    // Row 0 is the northern one: the south-east corner is land 0.2 m above the still water.
    out.write(
        "ncols 5\nnrows 4\nxllcenter 0\nyllcenter 0\ncellsize 0.5\n"
        "1 1 1 1 1\n1 1 1 1 1\n1 1 1 0.5 0\n1 1 1 0.5 -0.2\n");
    out.close();
    const int pushed = editor.undoStack()->count();
    editor.importElevationFile(asc, ElevationValues::Depth, 0.0, true, Domain::Coast::Ground);
    QCOMPARE(editor.undoStack()->count(), pushed + 1);
    QCOMPARE(editor.nx(), 5);
    QCOMPARE(editor.ny(), 4);
    QCOMPARE(document.scenario().grid.dx, 0.5);
    const Domain domain = buildDomain(document.scenario());
    QCOMPARE(domain.restDepth()(0, 3), 1.0f);
    QCOMPARE(domain.restDepth()(4, 0), -0.2f);
    QCOMPARE(editor.depth().size(), std::size_t(20));  // the layers follow the grid
    QCOMPARE(editor.mask().size(), std::size_t(20));
    editor.undoStack()->undo();
    QCOMPARE(editor.nx(), kSide);
    QVERIFY(!document.scenario().terrainFile);

    const QString bad = dir.filePath("bad.tif");
    QFile garbage(bad);
    QVERIFY(garbage.open(QIODevice::WriteOnly));
    garbage.write(QByteArray(100, '\x07'));
    garbage.close();
    try {
      editor.importElevationFile(bad, ElevationValues::Elevation, 0.0, true, Domain::Coast::Walls);
      QFAIL("a file that is no elevation grid was taken");
    } catch (const InputError& error) {
      QVERIFY2(QString(error.what()).startsWith(bad + ": "), error.what());
    }
    QCOMPARE(editor.undoStack()->count(), pushed + 1);  // the undone import, nothing new
    QCOMPARE(editor.nx(), kSide);
  }

  // An incoming side (docs/open-edges.md, "Incoming waves") read from a scenario shows as
  // such; it cannot be chosen in the panel, since its wave comes from the scenario file.
  void incomingSideShowsAndCannotBeChosen() {
    ScenarioDocument document;
    Scenario pool;
    pool.grid = Grid{kSide, kSide, 0.1};
    pool.depth = kPoolDepth;
    pool.edges.layerCells = 4;
    pool.edges.set(Side::West, EdgeKind::Incoming);
    pool.edges.incoming[std::size_t(Side::West)].form = IncomingWave::Form::Sine;
    pool.edges.incoming[std::size_t(Side::West)].amplitude = 0.01;
    pool.edges.incoming[std::size_t(Side::West)].period = 2.0;
    document.load(pool);
    MaskEditor editor(document);
    QComboBox* west = editor.edgesPanel()->choice(Side::West);
    QCOMPARE(west->currentIndex(), int(EdgeKind::Incoming));
    QCOMPARE(west->currentText(), QString("incoming"));
    const auto* items = qobject_cast<QStandardItemModel*>(west->model());
    QVERIFY(items && !items->item(int(EdgeKind::Incoming))->isEnabled());
    QVERIFY(items->item(int(EdgeKind::Open))->isEnabled());
  }

  // The check that the grid holds its layers runs again when the grid changes (and on undo).
  void edgesFitCheckFollowsTheGrid() {
    ScenarioDocument document;
    loadOpenPool(document);
    MaskEditor editor(document);
    EdgesPanel* panel = editor.edgesPanel();
    panel->setLayerCells(6);
    panel->setEdge(Side::West, EdgeKind::Open);
    QVERIFY(panel->fitError().empty());  // 16 cells hold a layer of 6 and 6 of water
    document.setGridCells(8);
    QVERIFY(!panel->fitError().empty());
    QVERIFY2(panel->fitLabel()->text().contains("domain.edges") &&
                 panel->fitLabel()->text().contains("west"),
             qPrintable(panel->fitLabel()->text()));
    document.undoStack()->undo();
    QVERIFY(panel->fitError().empty());
  }

  // The open sea's switch and parameters: each an undo step; the label says the sea they
  // make (Pierson-Moskowitz: Hs = 0.21 U19.5^2 / g, U19.5 = 1.026 U10: 0.56 m at 5 m/s) and
  // follows undo and redo.
  void oceanPanelEditsTheSeaUndoably() {
    ScenarioDocument document;
    loadOpenPool(document);  // an even grid of one depth
    OceanPanel panel(document);
    QVERIFY(!panel.switchBox()->isChecked());
    QVERIFY(panel.seaLabel()->text().startsWith("No sea"));
    const int pushed = document.undoStack()->count();
    panel.switchBox()->setChecked(true);  // as a click does
    QVERIFY(document.scenario().ocean.has_value());
    QCOMPARE(document.undoStack()->count(), pushed + 1);
    nlohmann::json values = panel.params()->valuesJson();
    values["wind_speed"] = 5.0;
    values["swell_height"] = 0.4;
    emit panel.params()->applied("ocean", values);  // Apply
    QCOMPARE(document.undoStack()->count(), pushed + 2);
    QCOMPARE(document.scenario().ocean->at("wind_speed").get<double>(), 5.0);
    const QString sea = panel.seaLabel()->text();
    QVERIFY2(sea.contains("Hs 0.56 m") && sea.contains("swell 0.40 m"), qPrintable(sea));
    QVERIFY2(panel.seaLabel()->text().contains("peak period"), qPrintable(sea));
    document.undoStack()->undo();
    QVERIFY(!panel.seaLabel()->text().contains("Hs 0.56 m"));
    QVERIFY(panel.switchBox()->isChecked());
    document.undoStack()->undo();
    QVERIFY(!document.scenario().ocean);
    QVERIFY(!panel.switchBox()->isChecked());
    document.undoStack()->redo();
    document.undoStack()->redo();
    QCOMPARE(panel.seaLabel()->text(), sea);
    // A value the sea refuses is named and changes nothing.
    values["wind_speed"] = -1.0;
    emit panel.params()->applied("ocean", values);
    QCOMPARE(document.undoStack()->count(), pushed + 2);
    QVERIFY2(panel.seaLabel()->text().contains("wind_speed"), qPrintable(panel.seaLabel()->text()));
    // Turning the sea off drops a travelling window with it; undo brings both back.
    ScenarioDocument sailing;
    sailing.load("builtin:open-sea");
    OceanPanel sailingPanel(sailing);
    QVERIFY(sailing.scenario().oceanWindow.has_value());
    sailingPanel.switchBox()->setChecked(false);
    QVERIFY(!sailing.scenario().ocean && !sailing.scenario().oceanWindow);
    sailing.undoStack()->undo();
    QVERIFY(sailing.scenario().oceanWindow.has_value());
    QVERIFY(sailingPanel.switchBox()->isChecked());
  }

  void scenarioSaveAndOpenRoundTrip() {
    QTemporaryDir dir;
    ScenarioDocument document;
    document.load("builtin:pi-pool");
    QVERIFY(!document.isModified());
    Mask mask = document.mask();
    const int nx = document.scenario().grid.nx;
    for (int i = 0; i < nx; ++i)
      mask[std::size_t(5) * nx + i] = 0;  // a wall across row 5
    document.setMask(mask, "wall");
    document.setModelParams("damped-wave", {{"k", 0.5}, {"boundary", "zero"}});
    QVERIFY(document.isModified());
    const QString file = dir.filePath("edited.json");
    document.saveAs(file);
    QVERIFY(!document.isModified());
    QVERIFY(QFile::exists(dir.filePath("edited-mask.csv")));

    ScenarioDocument reopened;
    reopened.load(file.toStdString());
    QCOMPARE(reopened.mask(), mask);
    QCOMPARE(reopened.scenario().grid.nx, nx);
    QCOMPARE(reopened.scenario().initialDrops.size(), document.scenario().initialDrops.size());
    const auto& params = reopened.scenario().modelParams.at("damped-wave");
    QCOMPARE(params.at("k").get<double>(), 0.5);
    QCOMPARE(params.at("boundary").get<std::string>(), std::string("zero"));
    QVERIFY(scenarioToJson(reopened.scenario())["water"] ==
            scenarioToJson(document.scenario())["water"]);
  }

  // A painted depth becomes the scenario's bathymetry, saved beside the JSON and read back.
  void paintedDepthSurvivesSaveAndOpen() {
    QTemporaryDir dir;
    ScenarioDocument document;
    document.load("builtin:pi-pool");
    const Scenario& s = document.scenario();
    const int ci = s.grid.nx / 6, cj = s.grid.ny / 4;  // in the left leg of the Π
    const Field2D before = buildDomain(s).restDepth();
    QVERIFY(before(ci, cj) > 0.0f);
    MaskEditor editor(document);
    editor.setDepthStep(0.1 * s.depth);
    editor.beginStroke();
    editor.dabDepth(ci, cj, true);
    editor.endStroke();
    QVERIFY(document.isModified());
    QVERIFY(s.bathymetry.has_value());
    const Field2D painted = buildDomain(s).restDepth();
    QCOMPARE(painted(ci, cj), float(before(ci, cj) + editor.depthStep()));

    const QString file = dir.filePath("deep.json");
    document.saveAs(file);
    QVERIFY(QFile::exists(dir.filePath("deep-depth.csv")));
    ScenarioDocument reopened;
    reopened.load(file.toStdString());
    QVERIFY(sameField(buildDomain(reopened.scenario()).restDepth(), painted));
    QVERIFY(sameField(reopened.depth(), document.depth()));
    QCOMPARE(reopened.mask(), document.mask());
  }

  void autosaveKeepsAnEditedScenarioUntilACleanExit() {
    QTemporaryDir dir;
    const Autosave autosave(dir.path());
    ScenarioDocument document;
    document.load("builtin:pi-pool");
    QVERIFY(autosave.write(document));  // nothing to keep: not modified
    QVERIFY(!autosave.exists());
    Mask mask = document.mask();
    const int nx = document.scenario().grid.nx;
    for (int i = 0; i < nx; ++i)
      mask[std::size_t(7) * nx + i] = 0;
    document.setMask(mask, "wall");
    QVERIFY(autosave.write(document));
    QVERIFY(autosave.exists());
    QVERIFY(document.isModified());  // a copy: the document still has unsaved changes
    QVERIFY(document.filePath().isEmpty());

    // "After the crash": a new session restores the copy as an unsaved, file-less scenario.
    ScenarioDocument restored;
    restored.load(autosave.file().toStdString());
    restored.detachFromFile();
    QCOMPARE(restored.mask(), mask);
    QCOMPARE(restored.modelIds(), document.modelIds());
    QVERIFY(restored.isModified());
    QVERIFY(restored.filePath().isEmpty());

    // A failed open keeps the scenario being edited.
    QVERIFY_THROWS_EXCEPTION(InputError, restored.load(dir.filePath("missing.json").toStdString()));
    QCOMPARE(restored.mask(), mask);
    QVERIFY(restored.isModified());

    autosave.clear();  // a clean exit
    QVERIFY(!autosave.exists());
    QVERIFY(!QFile::exists(dir.filePath("autosave-mask.csv")));
  }

  // The crash round trip for builtins whose files are embedded (harbour's terrain, the canoe's
  // hull): the autosave names them "builtin:...", so the copy, read from the autosave folder
  // as a restarted session does after kill -9, has the same coast and hull. One that cannot be
  // read is moved aside, not lost.
  void autosaveOfABuiltinWithResourcesRestoresIt() {
    for (const char* name : {"builtin:harbour", "builtin:canoe"}) {
      QTemporaryDir dir;
      const Autosave autosave(dir.path());
      ScenarioDocument document;
      document.load(name);
      Mask mask = document.mask();
      mask[0] = mask[0] ? 0 : 1;  // an edit: the corner cell toggled
      document.setMask(mask, "wall");
      QVERIFY(autosave.write(document));
      // No clean exit: a new session finds the copy and restores it.
      ScenarioDocument restored;
      restored.load(autosave.file().toStdString());
      QCOMPARE(restored.mask(), mask);
      QCOMPARE(restored.scenario().rigidBodies.size(), document.scenario().rigidBodies.size());
      QCOMPARE(bool(restored.scenario().terrain), bool(document.scenario().terrain));
      QCOMPARE(restored.modelIds(), document.modelIds());
    }
    QTemporaryDir dir;
    const Autosave autosave(dir.path());
    {
      QFile broken(autosave.file());
      QVERIFY(broken.open(QIODevice::WriteOnly));
      broken.write("{\"grid\": ");
    }
    const QString kept = autosave.keepAside();
    QVERIFY(!kept.isEmpty());
    QVERIFY(!autosave.exists());
    QCOMPARE(head(kept, 9), QByteArray("{\"grid\": "));
  }

  void frameExportDialogKeepsOptions() {
    FrameExportDialog dialog;
    FrameExportOptions options{"/tmp/frames", 37, QSize(640, 360), true, true, true};
    dialog.setOptions(options);
    const FrameExportOptions shown = dialog.options();
    QCOMPARE(shown.directory, options.directory);
    QCOMPARE(shown.frames, 37);
    QCOMPARE(shown.size, QSize(640, 360));
    QVERIFY(shown.png && shown.paraview);
    QCOMPARE(shown.mp4, !ffmpegPath().isEmpty());  // offered only where ffmpeg exists
  }

  void plotsExportImagesAndCsv() {
    PlotsDock plots;
    plots.resize(900, 300);
    plots.reset({"a", "b"});
    std::vector<std::vector<FrameRecord>> records(2);
    for (int f = 1; f <= 10; ++f)
      for (int m = 0; m < 2; ++m) {
        FrameRecord r;
        r.frame = f;
        r.time = f / 60.0;
        r.model.assign(1, m ? 'b' : 'a');  // not operator= (a GCC 12 -Wrestrict false positive)
        r.energyPotential = 1.0 / f;
        r.stepMs = 0.1 * (m + 1);
        records[m].push_back(r);
      }
    plots.append(records);
    plots.refresh();
    QTemporaryDir dir;
    plots.exportPlots(dir.filePath("p.png"));
    plots.exportPlots(dir.filePath("p.svg"));
    plots.exportPlots(dir.filePath("p.pdf"));
    QCOMPARE(head(dir.filePath("p.png"), 4), QByteArray("\x89PNG"));
    QVERIFY(head(dir.filePath("p.svg"), 200).contains("<svg"));
    QCOMPARE(head(dir.filePath("p.pdf"), 4), QByteArray("%PDF"));
    plots.exportCsv(dir.filePath("series.csv"));
    QFile csv(dir.filePath("series.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 2 * 10);
    QVERIFY(lines[0].contains("time,model,volume,"));
    QVERIFY(lines[0].contains("energy_total,step_ms"));
  }
};

Q_DECLARE_METATYPE(nlohmann::json)
Q_DECLARE_METATYPE(std::vector<std::string>)

QTEST_MAIN(WidgetTests)
#include "widget_tests.moc"
