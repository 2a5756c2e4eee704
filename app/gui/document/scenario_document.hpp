// The scenario being edited. The document owns every edit of the workbench: each user action
// (grid, water, parameters, model set, mask, depth, heightmap, boat, bodies) is a command on the
// document's one undo stack (edit_commands.hpp, Qt's undoframework), and every change, done,
// undone or redone, is announced by `rebuildNeeded`, which the main window turns into a
// rebuild of the Comparison. Interactions recorded while the models run (drops, stirs, rain,
// wind: session_recorder.hpp) are not edits: they change the excitation list quietly. Holds the
// file it came from and the unsaved-changes flag. An edited mask or depth lives in a CSV beside
// the scenario (in a temporary folder until saved). docs/undo.md describes the undo model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include "core/grid/field2d.hpp"
#include "core/scenario/scenario.hpp"

class QUndoStack;

namespace wb::gui {

using Mask = std::vector<std::uint8_t>;  // 1 = water, row-major nx x ny
using Depth = Field2D;                   // rest depth (m) of every cell, before mask and terrain

inline bool sameField(const Field2D& a, const Field2D& b) {
  return a.nx() == b.nx() && a.ny() == b.ny() &&
         std::equal(a.data(), a.data() + a.size(), b.data());
}

// A heightmap coast (terrain PNG, sea level, height scale).
struct TerrainSetting {
  QString file;
  double seaLevel = 0.5;
  double heightScale = 1.0;
};

// Everything one undo step restores. The layers are shared between the states that did not
// change them, so a command costs the layers it edited.
struct DocumentState {
  Scenario scenario;
  std::vector<std::string> modelIds;
  std::shared_ptr<const Mask> mask;    // before terrain is applied
  std::shared_ptr<const Depth> depth;  // before mask and terrain
};

class ScenarioDocument : public QObject {
  Q_OBJECT

 public:
  ScenarioDocument();
  ~ScenarioDocument() override;

  // "builtin:NAME" or a path; the models `modelIds` names run, else those the scenario names,
  // else the default set.
  // Clears the undo history. Throws InputError.
  void load(const std::string& fileOrBuiltin, std::vector<std::string> modelIds = {});
  // The same for a scenario already read (it belongs to no file).
  void load(Scenario scenario, std::vector<std::string> modelIds = {});
  // Writes the scenario JSON (and its mask and depth CSVs beside it when they were edited).
  void saveAs(const QString& file);
  // The same, as a copy (the autosave): the document keeps its file and modified flag.
  void writeCopy(const QString& file) const;
  // After restoring an autosave: the document belongs to no file and has unsaved changes.
  void detachFromFile();

  const Scenario& scenario() const { return state_.scenario; }
  const std::vector<std::string>& modelIds() const { return state_.modelIds; }
  // The mask layer (1 = water) before terrain is applied; row-major nx x ny.
  const Mask& mask() const { return *state_.mask; }
  // The rest depth (m) of every cell before mask and terrain: the constant depth or the
  // bathymetry field.
  const Depth& depth() const { return *state_.depth; }
  std::optional<TerrainSetting> terrain() const;
  QString filePath() const { return filePath_; }
  bool isModified() const { return modified_; }
  void setModified(bool modified);
  // The one undo stack of the workbench: Edit > Undo / Redo and the domain editor's buttons.
  QUndoStack* undoStack() const { return undo_; }

  // Edits: each pushes one command (docs/undo.md).
  void setScenario(const Scenario& scenario, const QString& text);
  void setModelIds(const std::vector<std::string>& ids);
  // Gravity (m/s^2) and the rest depth (m) where no bathymetry is given.
  void setWater(double g, double depth);
  // A new grid over the same pool; an edited mask or bathymetry is resampled (nearest cell).
  void setGrid(const Grid& grid);
  // The same with `cells` across, the rows in proportion.
  void setGridCells(int cells);
  // Parameter values of one model as JSON ({"k": 0.1, "dt": "auto"}).
  void setModelParams(const std::string& id, const nlohmann::json& values);
  // The same for several models at once (linked parameters): one command.
  void setModelParamsOf(const std::map<std::string, nlohmann::json>& valuesByModel);
  void setMask(const Mask& wet, const QString& text);
  // Sets the bathymetry to this rest depth (a CSV in the scratch folder).
  void setDepth(const Depth& depth, const QString& text);
  void setTerrain(const std::optional<TerrainSetting>& terrain);
  // The ground from an elevation file (scenario "terrain": {"file": ...}; core's setTerrainFile
  // reads and checks it first: throws InputError naming the file, and nothing changes). A grid
  // taken from the file replaces the grid, and with it a mask or bathymetry file of the old one.
  void setTerrainFile(const TerrainFile& terrain, double seaLevel, Domain::Coast coast);
  // Wall or open per side, and the absorbing layer's width (docs/open-edges.md).
  void setEdges(const Edges& edges);
  // The open sea under every model (scenario "ocean"), or none; checked first (oceanParams:
  // throws InputError naming the key). Without a sea there is no travelling window either.
  void setOcean(const std::optional<nlohmann::json>& ocean);
  // A boat in the middle of the pool, unless the scenario has one (the mouse steers it).
  void addBoatIfNone();
  // The scenario's buoyant bodies ("bodies": [...]): add one, replace body `index`, remove it.
  void addBody(const BodySpec& body);
  void setBody(int index, const BodySpec& body);
  // Body `index` with the keys the Bodies tab edits (bodyKeys()); a mesh body keeps its OBJ
  // file, which only a scenario file names. Throws InputError naming the key.
  void setBodyKeys(int index, const nlohmann::json& keys);
  void removeBody(int index);

  // A brush stroke: its dabs (one command each, merged into one undo step) redraw the editor
  // through `layersChanged`; the comparison rebuilds once, at the end of the stroke.
  void beginStroke();
  void paintMask(const Mask& wet, const QString& text);
  void paintDepth(const Depth& depth, const QString& text);
  void endStroke();

  // Edits that the running comparison applies by itself (rain, wind): no rebuild, no undo.
  void setExcitationsQuietly(const ExcitationSpecs& specs);
  // The same, editing the list in place (a recorded session entry, session_recorder.hpp).
  void editExcitationsQuietly(const std::function<void(ExcitationSpecs&)>& edit);

  // The state a command restores (edit_commands.hpp): announces the change and, outside a
  // stroke, asks for a rebuild. The excitation list stays as recorded unless `excitations`.
  const DocumentState& state() const { return state_; }
  void restore(const DocumentState& state, bool excitations);

 signals:
  void rebuildNeeded();
  // The mask, depth or grid shown by the domain editor changed (also during a stroke).
  void layersChanged();
  void modifiedChanged(bool modified);
  void loaded();

 private:
  void push(const QString& text, DocumentState after);
  // The state after `scenario` replaces the current one: the layers that follow from it
  // recomputed unless they were edited.
  DocumentState withScenario(const Scenario& scenario) const;
  // Writes the edited layers to the scratch folder, marks the document modified and asks for
  // a rebuild.
  void commit();
  bool inScratch(const std::optional<FieldSource>& source) const;
  std::filesystem::path scratchFile(const char* name) const;
  std::filesystem::path writeMaskFile(const std::filesystem::path& file) const;
  std::filesystem::path writeDepthFile(const std::filesystem::path& file) const;
  // The scenario as saved to `file`: the edited mask and depth written beside it, every
  // listed model.
  Scenario savedForm(const std::filesystem::path& file) const;

  DocumentState state_;
  QString filePath_;
  bool modified_ = false;
  int stroke_ = 0;
  bool inStroke_ = false;
  bool changedInStroke_ = false;
  QUndoStack* undo_ = nullptr;
  std::unique_ptr<QTemporaryDir> scratch_;
};

}  // namespace wb::gui
