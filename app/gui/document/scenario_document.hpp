// The scenario being edited: every edit of the workbench (mask, water, grid, parameters,
// excitations, the list of models) changes this document, which the main window turns into
// a rebuild of the Comparison. Holds the file it came from and the unsaved-changes flag. An
// edited mask or depth lives in a CSV beside the scenario (in a temporary folder until saved).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include "core/grid/field2d.hpp"
#include "core/scenario/scenario.hpp"

namespace wb::gui {

class ScenarioDocument : public QObject {
  Q_OBJECT

 public:
  ScenarioDocument();

  // "builtin:NAME" or a path; every registered model runs unless `modelIds` names some.
  // Throws InputError.
  void load(const std::string& fileOrBuiltin, std::vector<std::string> modelIds = {});
  // Writes the scenario JSON (and its mask and depth CSVs beside it when they were edited).
  void saveAs(const QString& file);
  // The same, as a copy (the autosave): the document keeps its file and modified flag.
  void writeCopy(const QString& file) const;
  // After restoring an autosave: the document belongs to no file and has unsaved changes.
  void detachFromFile();

  const Scenario& scenario() const { return scenario_; }
  const std::vector<std::string>& modelIds() const { return modelIds_; }
  // The mask layer (1 = water) before terrain is applied; row-major nx x ny.
  const std::vector<std::uint8_t>& mask() const { return mask_; }
  // The rest depth (m) of every cell before mask and terrain: the constant depth or the
  // bathymetry field.
  const Field2D& depth() const { return depth_; }
  QString filePath() const { return filePath_; }
  bool isModified() const { return modified_; }
  void setModified(bool modified);

  // Edits: each marks the document modified and asks for a rebuild.
  void setScenario(const Scenario& scenario);
  void setModelIds(const std::vector<std::string>& ids);
  void setMask(const std::vector<std::uint8_t>& wet);
  // Sets the bathymetry to this rest depth (a CSV in the scratch folder).
  void setDepth(const Field2D& depth);
  // A new grid over the same pool; an edited mask or bathymetry is resampled (nearest cell).
  void setGrid(const Grid& grid);
  // Parameter values of one model as JSON ({"k": 0.1, "dt": "auto"}).
  void setModelParams(const std::string& id, const nlohmann::json& values);
  // Edits that the running comparison applies by itself (rain, wind): no rebuild.
  void setExcitationsQuietly(const ExcitationSpecs& specs);
  // The same, editing the list in place (a recorded session entry, session_recorder.hpp).
  void editExcitationsQuietly(const std::function<void(ExcitationSpecs&)>& edit);

 signals:
  void rebuildNeeded();
  void modifiedChanged(bool modified);
  void loaded();

 private:
  void recomputeMask();
  void recomputeDepth();
  // Keep the layer and point the scenario at its CSV in the scratch folder.
  void storeMask(const std::vector<std::uint8_t>& wet);
  void storeDepth(const Field2D& depth);
  bool inScratch(const std::optional<FieldSource>& source) const;
  std::filesystem::path writeMaskFile(const std::filesystem::path& file) const;
  std::filesystem::path writeDepthFile(const std::filesystem::path& file) const;
  // The scenario as saved to `file`: the edited mask and depth written beside it, every
  // listed model.
  Scenario savedForm(const std::filesystem::path& file) const;

  Scenario scenario_;
  std::vector<std::string> modelIds_;
  std::vector<std::uint8_t> mask_;
  Field2D depth_;
  QString filePath_;
  bool modified_ = false;
  std::unique_ptr<QTemporaryDir> scratch_;
};

}  // namespace wb::gui
