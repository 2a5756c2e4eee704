#include "app/gui/document/scenario_document.hpp"

#include <algorithm>
#include <cmath>

#include <QUndoStack>

#include "app/gui/document/edit_commands.hpp"
#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/terrain_file_keys.hpp"
#include "models/registry.hpp"

namespace wb::gui {

namespace {
constexpr const char* kMaskSuffix = "-mask.csv";
constexpr const char* kDepthSuffix = "-depth.csv";
constexpr const char* kScratchMask = "mask.csv";
constexpr const char* kScratchDepth = "depth.csv";

// Nearest cell of `old` under the centre of cell (i, j) of `grid`, row-major.
std::size_t nearestOldCell(const Grid& old, const Grid& grid, int i, int j) {
  const int oi = std::min(old.nx - 1, int(grid.x(i) / old.dx));
  const int oj = std::min(old.ny - 1, int(grid.y(j) / old.dx));
  return std::size_t(oj) * old.nx + oi;
}

// The mask layer the scenario describes, before terrain; all water if it cannot be built.
std::shared_ptr<const Mask> maskOf(const Scenario& scenario) {
  Scenario withoutTerrain = scenario;
  withoutTerrain.terrain.reset();
  withoutTerrain.terrainFile.reset();
  try {
    return std::make_shared<const Mask>(buildDomain(withoutTerrain).wetMask());
  } catch (const std::exception&) {
    return std::make_shared<const Mask>(std::size_t(scenario.grid.nx) * scenario.grid.ny, 1);
  }
}

// The rest depth the scenario describes, before mask and terrain.
std::shared_ptr<const Depth> depthOf(const Scenario& scenario) {
  Scenario allWater = scenario;
  allWater.terrain.reset();
  allWater.terrainFile.reset();
  allWater.mask.reset();
  allWater.maskPreset = "rect";
  try {
    return std::make_shared<const Depth>(buildDomain(allWater).restDepth());
  } catch (const std::exception&) {
    return std::make_shared<const Depth>(scenario.grid.nx, scenario.grid.ny, float(scenario.depth));
  }
}

QString joined(const std::vector<std::string>& ids) {
  QStringList names;
  for (const auto& id : ids)
    names << QString::fromStdString(id);
  return names.join(", ");
}
}  // namespace

ScenarioDocument::ScenarioDocument()
    : undo_(new QUndoStack(this)), scratch_(std::make_unique<QTemporaryDir>()) {
  state_.mask = std::make_shared<const Mask>();
  state_.depth = std::make_shared<const Depth>();
}

ScenarioDocument::~ScenarioDocument() {
  // The commands refer to the document: delete them while it is whole.
  undo_->clear();
}

void ScenarioDocument::load(const std::string& fileOrBuiltin, std::vector<std::string> ids) {
  load(loadCheckedScenario(fileOrBuiltin), std::move(ids));
  filePath_ =
      fileOrBuiltin.rfind("builtin:", 0) == 0 ? QString() : QString::fromStdString(fileOrBuiltin);
}

void ScenarioDocument::load(Scenario scenario, std::vector<std::string> ids) {
  // The workbench runs the models the scenario names, as wavebench-cli does (a dam break on a
  // dry bed names only the shallow-water models), and every model of the default set when it
  // names none; in catalogue order.
  if (ids.empty())
    for (const auto& entry : modelCatalogue())
      if (scenario.modelParams.empty() ? entry.inDefaultSet : scenario.modelParams.count(entry.id))
        ids.push_back(entry.id);
  // Validates the model ids and the scenario's parameters before anything changes.
  createScenarioModels(scenario, ids, {}, false);
  undo_->clear();
  state_.mask = maskOf(scenario);
  state_.depth = depthOf(scenario);
  state_.scenario = std::move(scenario);
  state_.modelIds = std::move(ids);
  filePath_.clear();
  inStroke_ = false;
  setModified(false);
  emit loaded();
  emit layersChanged();
  emit rebuildNeeded();
}

std::optional<TerrainSetting> ScenarioDocument::terrain() const {
  const Scenario& s = state_.scenario;
  if (!s.terrain) return std::nullopt;
  return TerrainSetting{QString::fromStdString(s.terrain->path.string()), s.seaLevel,
                        s.terrainHeightScale};
}

void ScenarioDocument::setModified(bool modified) {
  if (modified_ == modified) return;
  modified_ = modified;
  emit modifiedChanged(modified);
}

void ScenarioDocument::restore(const DocumentState& state, bool excitations) {
  ExcitationSpecs recorded = std::move(state_.scenario.excitations);
  state_ = state;
  if (!excitations) state_.scenario.excitations = std::move(recorded);
  emit layersChanged();
  if (inStroke_)
    changedInStroke_ = true;
  else
    commit();
}

void ScenarioDocument::commit() {
  // The scratch CSVs hold the layers of the state shown: an undo may bring back an older one.
  if (inScratch(state_.scenario.mask)) writeMaskFile(scratchFile(kScratchMask));
  if (inScratch(state_.scenario.bathymetry)) writeDepthFile(scratchFile(kScratchDepth));
  setModified(true);
  emit rebuildNeeded();
}

void ScenarioDocument::push(const QString& text, DocumentState after) {
  undo_->push(new DocumentCommand(*this, text, std::move(after)));
}

DocumentState ScenarioDocument::withScenario(const Scenario& scenario) const {
  DocumentState after = state_;
  const Grid& old = state_.scenario.grid;
  const bool gridChanged = scenario.grid.nx != old.nx || scenario.grid.ny != old.ny;
  after.scenario = scenario;
  if (gridChanged && !scenario.mask) after.mask = maskOf(scenario);
  // The water depth or the bathymetry may have changed; an edited depth stays as painted.
  if (!inScratch(scenario.bathymetry)) after.depth = depthOf(scenario);
  return after;
}

void ScenarioDocument::setScenario(const Scenario& scenario, const QString& text) {
  push(text, withScenario(scenario));
}

void ScenarioDocument::setModelIds(const std::vector<std::string>& ids) {
  if (ids == state_.modelIds) return;
  DocumentState after = state_;
  after.modelIds = ids;
  push(tr("models: %1").arg(joined(ids)), std::move(after));
}

void ScenarioDocument::setWater(double g, double depth) {
  if (g == scenario().g && depth == scenario().depth) return;
  Scenario s = scenario();
  s.g = g;
  s.depth = depth;
  setScenario(s, tr("water: g = %1 m/s², depth %2 m").arg(g).arg(depth));
}

void ScenarioDocument::setModelParams(const std::string& id, const nlohmann::json& values) {
  setModelParamsOf({{id, values}});
}

void ScenarioDocument::setModelParamsOf(const std::map<std::string, nlohmann::json>& byModel) {
  DocumentState after = state_;
  std::vector<std::string> changed;
  for (const auto& [id, values] : byModel) {
    auto [it, added] = after.scenario.modelParams.try_emplace(id, values);
    if (!added && it->second == values) continue;
    it->second = values;
    changed.push_back(id);
  }
  if (changed.empty()) return;
  push(tr("parameters of %1").arg(joined(changed)), std::move(after));
}

void ScenarioDocument::setTerrain(const std::optional<TerrainSetting>& terrain) {
  Scenario s = scenario();
  s.terrain.reset();
  s.terrainFile.reset();
  if (terrain) {
    s.terrain = FileRef{terrain->file.toStdString(), false};
    s.seaLevel = terrain->seaLevel;
    s.terrainHeightScale = terrain->heightScale;
  }
  setScenario(s, terrain ? tr("import heightmap") : tr("remove heightmap"));
}

void ScenarioDocument::setTerrainFile(const TerrainFile& terrain, double seaLevel,
                                      Domain::Coast coast) {
  Scenario s = scenario();
  s.terrain.reset();
  s.seaLevel = seaLevel;
  s.coast = coast;
  wb::setTerrainFile(s, terrain);
  const Grid& old = scenario().grid;
  if (s.grid.nx != old.nx || s.grid.ny != old.ny || s.grid.dx != old.dx) {
    s.mask.reset();
    s.maskPreset = "rect";
    s.bathymetry.reset();
  }
  setScenario(s, tr("import elevation file %1")
                     .arg(QString::fromStdString(terrain.file.path.filename().string())));
}

void ScenarioDocument::setEdges(const Edges& edges) {
  if (edges == scenario().edges) return;
  Scenario s = scenario();
  s.edges = edges;
  QStringList sides;
  for (Side side : kSides)
    sides << QString("%1 %2").arg(sideName(side), edgeKindName(edges.kind(side)));
  setScenario(s, tr("edges: %1").arg(sides.join(", ")));
}

void ScenarioDocument::setOcean(const std::optional<nlohmann::json>& ocean) {
  if (ocean == scenario().ocean) return;
  Scenario s = scenario();
  s.ocean = ocean;
  if (!ocean || !ocean->contains("window")) s.oceanWindow.reset();
  oceanParams(s);
  setScenario(s,
              ocean ? tr("ocean: %1").arg(QString::fromStdString(ocean->dump())) : tr("ocean off"));
}

void ScenarioDocument::addBoatIfNone() {
  if (!scenario().excitations.boats.empty()) return;
  Scenario s = scenario();
  BoatSpec boat;
  boat.startX = 0.5 * s.grid.width();
  boat.startY = 0.5 * s.grid.height();
  boat.waypoints = {{boat.startX, boat.startY}};
  boat.wakeRadius = 2.0 * s.grid.dx;
  boat.arriveRadius = 2.0 * s.grid.dx;
  s.excitations.boats.push_back(boat);
  undo_->push(new DocumentCommand(*this, tr("add boat"), withScenario(s),
                                  DocumentCommand::Excitations::Restored));
}

namespace {
QString describeBody(const BodySpec& body) {
  return QString("%1 %2 × %3 × %4 m")
      .arg(bodyShapeName(body.shape))
      .arg(body.size.x(), 0, 'g', 3)
      .arg(body.size.y(), 0, 'g', 3)
      .arg(body.size.z(), 0, 'g', 3);
}
}  // namespace

void ScenarioDocument::addBody(const BodySpec& body) {
  Scenario s = scenario();
  s.rigidBodies.push_back(body);
  setScenario(s, tr("add %1").arg(describeBody(body)));
}

void ScenarioDocument::setBody(int index, const BodySpec& body) {
  if (index < 0 || index >= int(scenario().rigidBodies.size())) return;
  if (bodyJson(body) == bodyJson(scenario().rigidBodies[std::size_t(index)])) return;
  Scenario s = scenario();
  s.rigidBodies[std::size_t(index)] = body;
  setScenario(s, tr("edit body %1").arg(index));
}

void ScenarioDocument::setBodyKeys(int index, const nlohmann::json& keys) {
  const Scenario& s = scenario();
  const std::string where = "bodies[" + std::to_string(index) + "]";
  const BodySpec& old = s.rigidBodies.at(std::size_t(index));
  nlohmann::json withFile = keys;
  if (old.shape == BodyShape::Mesh && withFile.value("shape", "") == "mesh")
    withFile["mesh"] = old.meshFile, withFile["mesh_up"] = std::string(1, old.meshUp);
  BodySpec body = parseBody(withFile, where, s.grid, s.excitations.boats.size());
  if (body.shape == BodyShape::Mesh && old.shape != BodyShape::Mesh)
    throw InputError(where + ".shape: a mesh body's OBJ file is named in the scenario file");
  if (body.shape == BodyShape::Mesh) body.mesh = old.mesh;
  setBody(index, body);
}

void ScenarioDocument::removeBody(int index) {
  if (index < 0 || index >= int(scenario().rigidBodies.size())) return;
  Scenario s = scenario();
  s.rigidBodies.erase(s.rigidBodies.begin() + index);
  setScenario(s, tr("remove body %1").arg(index));
}

void ScenarioDocument::setExcitationsQuietly(const ExcitationSpecs& specs) {
  editExcitationsQuietly([&](ExcitationSpecs& excitations) { excitations = specs; });
}

void ScenarioDocument::editExcitationsQuietly(const std::function<void(ExcitationSpecs&)>& edit) {
  edit(state_.scenario.excitations);
  setModified(true);
}

std::filesystem::path ScenarioDocument::scratchFile(const char* name) const {
  return std::filesystem::path(scratch_->path().toStdString()) / name;
}

std::filesystem::path ScenarioDocument::writeMaskFile(const std::filesystem::path& file) const {
  Field2D field(scenario().grid.nx, scenario().grid.ny);
  for (std::size_t k = 0; k < mask().size(); ++k)
    field.data()[k] = mask()[k] ? 1.0f : 0.0f;
  writeFileAtomically(file, [&](std::ostream& out) { writeCsvField(out, field); });
  return file;
}

std::filesystem::path ScenarioDocument::writeDepthFile(const std::filesystem::path& file) const {
  writeFileAtomically(file, [&](std::ostream& out) { writeCsvField(out, depth()); });
  return file;
}

bool ScenarioDocument::inScratch(const std::optional<FieldSource>& source) const {
  return source && source->file.path.parent_path() == scratch_->path().toStdString();
}

namespace {
// The state with this mask layer, kept in the scratch folder.
DocumentState withMask(DocumentState state, const Mask& wet, std::filesystem::path file) {
  state.mask = std::make_shared<const Mask>(wet);
  state.scenario.mask = FieldSource{FileRef{std::move(file), false}, FieldFormat::Csv};
  return state;
}
DocumentState withDepth(DocumentState state, const Depth& depth, std::filesystem::path file) {
  state.depth = std::make_shared<const Depth>(depth);
  state.scenario.bathymetry = FieldSource{FileRef{std::move(file), false}, FieldFormat::Csv};
  return state;
}
}  // namespace

void ScenarioDocument::setMask(const Mask& wet, const QString& text) {
  push(text, withMask(state_, wet, scratchFile(kScratchMask)));
}

void ScenarioDocument::setDepth(const Depth& depth, const QString& text) {
  push(text, withDepth(state_, depth, scratchFile(kScratchDepth)));
}

void ScenarioDocument::beginStroke() {
  ++stroke_;
  inStroke_ = true;
  changedInStroke_ = false;
}

void ScenarioDocument::paintMask(const Mask& wet, const QString& text) {
  undo_->push(
      new StrokeCommand(*this, text, stroke_, withMask(state_, wet, scratchFile(kScratchMask))));
}

void ScenarioDocument::paintDepth(const Depth& depth, const QString& text) {
  undo_->push(new StrokeCommand(*this, text, stroke_,
                                withDepth(state_, depth, scratchFile(kScratchDepth))));
}

void ScenarioDocument::endStroke() {
  if (!inStroke_) return;
  inStroke_ = false;
  if (changedInStroke_) commit();
}

void ScenarioDocument::setGrid(const Grid& grid) {
  const Grid old = scenario().grid;
  Mask mask(std::size_t(grid.nx) * grid.ny);
  Depth depth(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const std::size_t from = nearestOldCell(old, grid, i, j);
      mask[std::size_t(j) * grid.nx + i] = this->mask()[from];
      depth(i, j) = this->depth().data()[from];
    }
  DocumentState after = state_;
  after.scenario.grid = grid;
  if (after.scenario.mask)
    after = withMask(std::move(after), mask, scratchFile(kScratchMask));
  else
    after.mask = maskOf(after.scenario);
  if (after.scenario.bathymetry)
    after = withDepth(std::move(after), depth, scratchFile(kScratchDepth));
  else
    after.depth = depthOf(after.scenario);
  push(tr("grid %1 × %2").arg(grid.nx).arg(grid.ny), std::move(after));
}

void ScenarioDocument::setGridCells(int cells) {
  const Grid old = scenario().grid;
  if (cells == old.nx) return;
  Grid grid;
  grid.nx = cells;
  grid.ny = std::max(1, int(std::lround(double(old.ny) * cells / old.nx)));
  grid.dx = old.width() / cells;
  setGrid(grid);
}

Scenario ScenarioDocument::savedForm(const std::filesystem::path& file) const {
  Scenario saved = scenario();
  if (inScratch(saved.mask)) {
    const std::string maskName = file.stem().string() + kMaskSuffix;
    writeMaskFile(file.parent_path() / maskName);
    saved.mask->file.path = maskName;  // relative to the JSON file
  }
  if (inScratch(saved.bathymetry)) {
    const std::string depthName = file.stem().string() + kDepthSuffix;
    writeDepthFile(file.parent_path() / depthName);
    saved.bathymetry->file.path = depthName;
  }
  // The workbench runs the listed models: record each, with its parameters if any.
  saved.modelParams.clear();
  for (const auto& id : modelIds()) {
    auto it = scenario().modelParams.find(id);
    saved.modelParams[id] =
        it != scenario().modelParams.end() ? it->second : nlohmann::json::object();
  }
  return saved;
}

// The edited layers stay in the scratch folder after a save (the saved CSVs are copies): the
// states on the undo stack point there, and a later save rewrites the copies.
void ScenarioDocument::saveAs(const QString& fileName) {
  const std::filesystem::path file = fileName.toStdString();
  saveScenarioFile(savedForm(file), file);
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
