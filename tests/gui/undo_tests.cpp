// Undo and redo of every edit of the scenario document (offscreen platform): each edit is one
// command on the document's stack, named in Edit > Undo; undo brings back exactly the state
// before (scenario, models, mask and depth layers) and redo the state after, the layers on
// disk agree with the layers shown, and each undo or redo asks the comparison to rebuild.
#include <algorithm>
#include <functional>

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "app/gui/document/scenario_document.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "core/grid/domain.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

using namespace wb;
using namespace wb::gui;

namespace {
// What an undo must bring back: everything the document shows and saves.
struct Seen {
  nlohmann::json scenario;
  std::vector<std::string> modelIds;
  Mask mask;
  Depth depth;
};
Seen seen(const ScenarioDocument& document) {
  return {scenarioToJson(document.scenario()), document.modelIds(), document.mask(),
          document.depth()};
}
bool same(const Seen& a, const Seen& b) {
  return a.scenario == b.scenario && a.modelIds == b.modelIds && a.mask == b.mask &&
         sameField(a.depth, b.depth);
}

// The domain the comparison builds from the scenario (files read from disk) has the
// document's layers.
void checkLayersOnDisk(const ScenarioDocument& document) {
  Scenario withoutTerrain = document.scenario();
  withoutTerrain.terrain.reset();
  Scenario allWater = withoutTerrain;
  allWater.mask.reset();
  allWater.maskPreset = "rect";
  try {
    QCOMPARE(buildDomain(withoutTerrain).wetMask(), document.mask());
    QVERIFY(sameField(buildDomain(allWater).restDepth(), document.depth()));
  } catch (const std::exception& error) {
    QFAIL(error.what());  // a layer file missing or unreadable
  }
}

// `edit` pushes one command named `text` that changes the document; undo, redo and undo
// again each restore the state on their side of it and ask for one rebuild.
void checkUndoRedo(ScenarioDocument& document, const QString& text,
                   const std::function<void()>& edit) {
  QUndoStack& stack = *document.undoStack();
  const int commands = stack.count();
  const Seen before = seen(document);
  edit();
  QCOMPARE(stack.count(), commands + 1);
  QCOMPARE(stack.undoText(), text);
  QVERIFY(document.isModified());
  const Seen after = seen(document);
  QVERIFY2(!same(before, after), "the edit changed nothing");
  checkLayersOnDisk(document);
  QSignalSpy rebuilds(&document, &ScenarioDocument::rebuildNeeded);
  stack.undo();
  QVERIFY2(same(seen(document), before), "undo did not restore the state before the edit");
  checkLayersOnDisk(document);
  QCOMPARE(stack.redoText(), text);
  stack.redo();
  QVERIFY2(same(seen(document), after), "redo did not restore the state after the edit");
  checkLayersOnDisk(document);
  stack.undo();
  QVERIFY(same(seen(document), before));
  checkLayersOnDisk(document);
  QCOMPARE(rebuilds.count(), 3);
  stack.redo();  // the next edit starts from this one
}

Mask withWallRow(Mask mask, int nx, int row) {
  for (int i = 0; i < nx; ++i)
    mask[std::size_t(row) * nx + i] = 0;
  return mask;
}
}  // namespace

class UndoTests : public QObject {
  Q_OBJECT

 private slots:
  void init() { document_.load("builtin:pi-pool"); }

  void loadingStartsAnEmptyHistory() {
    document_.setWater(9.0, 0.7);
    document_.load("builtin:pi-pool");
    QCOMPARE(document_.undoStack()->count(), 0);
    QVERIFY(!document_.isModified());
  }

  void grid() {
    const int cells = document_.scenario().grid.nx / 2;
    checkUndoRedo(document_, "grid 32 × 32", [&] { document_.setGridCells(cells); });
  }

  // A painted mask and depth are resampled by a new grid; undo brings back the fine layers.
  void gridOverEditedLayers() {
    const Grid grid = document_.scenario().grid;
    document_.setMask(withWallRow(document_.mask(), grid.nx, 5), "wall");
    Depth deeper = document_.depth();
    deeper(3, 3) += 0.5f;
    document_.setDepth(deeper, "deeper");
    checkUndoRedo(document_, "grid 128 × 128", [&] { document_.setGridCells(2 * grid.nx); });
  }

  void water() {
    checkUndoRedo(document_, "water: g = 9.5 m/s², depth 0.35 m",
                  [&] { document_.setWater(9.5, 0.35); });
  }

  void parameters() {
    checkUndoRedo(document_, "parameters of damped-wave", [&] {
      document_.setModelParams("damped-wave", {{"k", 0.5}, {"boundary", "zero"}});
    });
  }

  // Linked parameters applied to several models are one command.
  void parametersOfSeveralModels() {
    std::vector<std::string> ids = modelIds();
    QVERIFY(ids.size() >= 2);
    std::sort(ids.begin(), ids.end());  // the command names them in order
    checkUndoRedo(
        document_,
        QString("parameters of %1, %2")
            .arg(QString::fromStdString(ids[0]), QString::fromStdString(ids[1])),
        [&] {
          document_.setModelParamsOf({{ids[0], {{"dt", "auto"}}}, {ids[1], {{"dt", "auto"}}}});
        });
  }

  void modelSet() {
    const std::vector<std::string> first{modelIds().front()};
    checkUndoRedo(document_, QString("models: %1").arg(QString::fromStdString(first.front())),
                  [&] { document_.setModelIds(first); });
  }

  void mask() {
    const int nx = document_.scenario().grid.nx;
    checkUndoRedo(document_, "wall",
                  [&] { document_.setMask(withWallRow(document_.mask(), nx, 7), "wall"); });
    // A second mask edit: the undo must rewrite the layer file the first one left.
    checkUndoRedo(document_, "wall",
                  [&] { document_.setMask(withWallRow(document_.mask(), nx, 9), "wall"); });
  }

  void depth() {
    Depth deeper = document_.depth();
    deeper(10, 10) += 0.25f;
    checkUndoRedo(document_, "deepen", [&] { document_.setDepth(deeper, "deepen"); });
    deeper(12, 10) += 0.25f;
    checkUndoRedo(document_, "deepen", [&] { document_.setDepth(deeper, "deepen"); });
  }

  void terrain() {
    QTemporaryDir dir;
    const Grid grid = document_.scenario().grid;
    QImage heights(grid.nx, grid.ny, QImage::Format_Grayscale8);
    heights.fill(Qt::black);
    for (int y = 0; y < grid.ny / 4; ++y)
      for (int x = 0; x < grid.nx; ++x)
        heights.setPixel(x, y, qRgb(255, 255, 255));  // a shore along one side
    const QString file = dir.filePath("coast.png");
    QVERIFY(heights.save(file));
    checkUndoRedo(document_, "import heightmap", [&] {
      document_.setTerrain(TerrainSetting{file, 0.5, 1.0});
    });
    QVERIFY(document_.terrain().has_value());
    checkUndoRedo(document_, "remove heightmap", [&] { document_.setTerrain(std::nullopt); });
  }

  void edges() {
    Edges edges;
    edges.set(Side::East, EdgeKind::Open);
    edges.layerCells = 8;
    checkUndoRedo(document_, "edges: west wall, east open, south wall, north wall",
                  [&] { document_.setEdges(edges); });
  }

  void boat() {
    QVERIFY(document_.scenario().excitations.boats.empty());
    checkUndoRedo(document_, "add boat", [&] { document_.addBoatIfNone(); });
  }

  // Interactions recorded while the models run are not edits: undoing an edit made before
  // them keeps them (a saved session still replays them).
  void undoKeepsRecordedInteractions() {
    document_.setWater(9.5, 0.35);
    SurfaceEvent drop;
    drop.time = 1.25;
    drop.x = drop.y = 2.0;
    document_.editExcitationsQuietly([&](ExcitationSpecs& list) { list.drops.push_back(drop); });
    const std::size_t recorded = document_.scenario().excitations.drops.size();
    document_.undoStack()->undo();
    QCOMPARE(document_.scenario().depth, loadScenario("builtin:pi-pool").depth);
    QCOMPARE(document_.scenario().excitations.drops.size(), recorded);
    QCOMPARE(document_.scenario().excitations.drops.back().time, 1.25);
    document_.undoStack()->redo();
    QCOMPARE(document_.scenario().depth, 0.35);
    QCOMPARE(document_.scenario().excitations.drops.size(), recorded);
  }

  // The editor's tools are document edits: a whole stroke is one command, undone at once.
  void editorTools() {
    MaskEditor editor(document_);
    editor.setBrushRadius(1);
    checkUndoRedo(document_, "paint wall", [&] {
      editor.beginStroke();
      for (int i = 10; i < 20; ++i)
        editor.dab(i, 12, false);
      editor.endStroke();
    });
    editor.setDepthStep(0.1);
    checkUndoRedo(document_, "deepen", [&] {
      editor.beginStroke();
      editor.dabDepth(12, 12, true);
      editor.dabDepth(16, 12, true);
      editor.endStroke();
    });
    checkUndoRedo(document_, "fill water", [&] { editor.fillRect(0, 0, 63, 63, true); });
    checkUndoRedo(document_, "obstacles preset",
                  [&] { editor.applyPreset(MaskPresetKind::Obstacles); });
  }

  // The editor shows the document's layers, whoever changed them.
  void editorShowsTheDocumentsLayers() {
    MaskEditor editor(document_);
    const Mask loaded = document_.mask();
    document_.setMask(withWallRow(loaded, document_.scenario().grid.nx, 3), "wall");
    QCOMPARE(editor.mask(), document_.mask());
    document_.undoStack()->undo();
    QCOMPARE(editor.mask(), loaded);
  }

 private:
  ScenarioDocument document_;
};

QTEST_MAIN(UndoTests)
#include "undo_tests.moc"
