#include "app/gui/document/scenario_document.hpp"

#include <algorithm>

#include "core/scenario/field_io.hpp"
#include "models/registry.hpp"

namespace wb::gui {

namespace {
constexpr const char* kMaskSuffix = "-mask.csv";
constexpr const char* kDepthSuffix = "-depth.csv";

// Nearest cell of `old` under the centre of cell (i, j) of `grid`, row-major.
std::size_t nearestOldCell(const Grid& old, const Grid& grid, int i, int j) {
  const int oi = std::min(old.nx - 1, int(grid.x(i) / old.dx));
  const int oj = std::min(old.ny - 1, int(grid.y(j) / old.dx));
  return std::size_t(oj) * old.nx + oi;
}
}  // namespace

ScenarioDocument::ScenarioDocument() : scratch_(std::make_unique<QTemporaryDir>()) {}

void ScenarioDocument::load(const std::string& fileOrBuiltin, std::vector<std::string> ids) {
  Scenario scenario = loadCheckedScenario(fileOrBuiltin);
  if (ids.empty()) ids = wb::modelIds();
  // Validates the model ids and the scenario's parameters before anything changes.
  createScenarioModels(scenario, ids, {}, false);
  scenario_ = std::move(scenario);
  modelIds_ = std::move(ids);
  filePath_ =
      fileOrBuiltin.rfind("builtin:", 0) == 0 ? QString() : QString::fromStdString(fileOrBuiltin);
  recomputeMask();
  recomputeDepth();
  setModified(false);
  emit loaded();
  emit rebuildNeeded();
}

void ScenarioDocument::recomputeMask() {
  Scenario withoutTerrain = scenario_;
  withoutTerrain.terrain.reset();
  try {
    mask_ = buildDomain(withoutTerrain).wetMask();
  } catch (const std::exception&) {
    mask_.assign(std::size_t(scenario_.grid.nx) * scenario_.grid.ny, 1);
  }
}

void ScenarioDocument::recomputeDepth() {
  Scenario allWater = scenario_;
  allWater.terrain.reset();
  allWater.mask.reset();
  allWater.maskPreset = "rect";
  try {
    depth_ = buildDomain(allWater).restDepth();
  } catch (const std::exception&) {
    depth_ = Field2D(scenario_.grid.nx, scenario_.grid.ny, float(scenario_.depth));
  }
}

void ScenarioDocument::setModified(bool modified) {
  if (modified_ == modified) return;
  modified_ = modified;
  emit modifiedChanged(modified);
}

void ScenarioDocument::setScenario(const Scenario& scenario) {
  const bool gridChanged =
      scenario.grid.nx != scenario_.grid.nx || scenario.grid.ny != scenario_.grid.ny;
  scenario_ = scenario;
  if (gridChanged && !scenario_.mask) recomputeMask();
  recomputeDepth();  // the water depth or the bathymetry may have changed
  setModified(true);
  emit rebuildNeeded();
}

void ScenarioDocument::setModelIds(const std::vector<std::string>& ids) {
  modelIds_ = ids;
  setModified(true);
  emit rebuildNeeded();
}

void ScenarioDocument::setModelParams(const std::string& id, const nlohmann::json& values) {
  scenario_.modelParams[id] = values;
  setModified(true);
  emit rebuildNeeded();
}

void ScenarioDocument::setExcitationsQuietly(const ExcitationSpecs& specs) {
  editExcitationsQuietly([&](ExcitationSpecs& excitations) { excitations = specs; });
}

void ScenarioDocument::editExcitationsQuietly(const std::function<void(ExcitationSpecs&)>& edit) {
  edit(scenario_.excitations);
  setModified(true);
}

std::filesystem::path ScenarioDocument::writeMaskFile(const std::filesystem::path& file) const {
  Field2D field(scenario_.grid.nx, scenario_.grid.ny);
  for (std::size_t k = 0; k < mask_.size(); ++k)
    field.data()[k] = mask_[k] ? 1.0f : 0.0f;
  writeFileAtomically(file, [&](std::ostream& out) { writeCsvField(out, field); });
  return file;
}

std::filesystem::path ScenarioDocument::writeDepthFile(const std::filesystem::path& file) const {
  writeFileAtomically(file, [&](std::ostream& out) { writeCsvField(out, depth_); });
  return file;
}

bool ScenarioDocument::inScratch(const std::optional<FieldSource>& source) const {
  return source && source->file.path.parent_path() == scratch_->path().toStdString();
}

void ScenarioDocument::storeMask(const std::vector<std::uint8_t>& wet) {
  mask_ = wet;
  const auto file = std::filesystem::path(scratch_->path().toStdString()) / "mask.csv";
  scenario_.mask = FieldSource{FileRef{writeMaskFile(file), false}, FieldFormat::Csv};
}

void ScenarioDocument::storeDepth(const Field2D& depth) {
  depth_ = depth;
  const auto file = std::filesystem::path(scratch_->path().toStdString()) / "depth.csv";
  scenario_.bathymetry = FieldSource{FileRef{writeDepthFile(file), false}, FieldFormat::Csv};
}

void ScenarioDocument::setMask(const std::vector<std::uint8_t>& wet) {
  storeMask(wet);
  setModified(true);
  emit rebuildNeeded();
}

void ScenarioDocument::setDepth(const Field2D& depth) {
  storeDepth(depth);
  setModified(true);
  emit rebuildNeeded();
}

void ScenarioDocument::setGrid(const Grid& grid) {
  const Grid old = scenario_.grid;
  std::vector<std::uint8_t> mask(std::size_t(grid.nx) * grid.ny);
  Field2D depth(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const std::size_t from = nearestOldCell(old, grid, i, j);
      mask[std::size_t(j) * grid.nx + i] = mask_[from];
      depth(i, j) = depth_.data()[from];
    }
  scenario_.grid = grid;
  if (scenario_.mask)
    storeMask(mask);
  else
    recomputeMask();
  if (scenario_.bathymetry)
    storeDepth(depth);
  else
    recomputeDepth();
  setModified(true);
  emit rebuildNeeded();
}

Scenario ScenarioDocument::savedForm(const std::filesystem::path& file) const {
  Scenario saved = scenario_;
  if (inScratch(scenario_.mask)) {
    const std::string maskName = file.stem().string() + kMaskSuffix;
    writeMaskFile(file.parent_path() / maskName);
    saved.mask->file.path = maskName;  // relative to the JSON file
  }
  if (inScratch(scenario_.bathymetry)) {
    const std::string depthName = file.stem().string() + kDepthSuffix;
    writeDepthFile(file.parent_path() / depthName);
    saved.bathymetry->file.path = depthName;
  }
  // The workbench runs the listed models: record each, with its parameters if any.
  saved.modelParams.clear();
  for (const auto& id : modelIds_) {
    auto it = scenario_.modelParams.find(id);
    saved.modelParams[id] =
        it != scenario_.modelParams.end() ? it->second : nlohmann::json::object();
  }
  return saved;
}

void ScenarioDocument::saveAs(const QString& fileName) {
  const std::filesystem::path file = fileName.toStdString();
  const bool maskInScratch = inScratch(scenario_.mask);
  const bool depthInScratch = inScratch(scenario_.bathymetry);
  const Scenario saved = savedForm(file);
  saveScenarioFile(saved, file);
  if (maskInScratch) scenario_.mask->file.path = file.parent_path() / saved.mask->file.path;
  if (depthInScratch)
    scenario_.bathymetry->file.path = file.parent_path() / saved.bathymetry->file.path;
  filePath_ = fileName;
  setModified(false);
}

void ScenarioDocument::writeCopy(const QString& fileName) const {
  const std::filesystem::path file = fileName.toStdString();
  saveScenarioFile(savedForm(file), file);
}

void ScenarioDocument::detachFromFile() {
  filePath_.clear();
  setModified(true);
}

}  // namespace wb::gui
