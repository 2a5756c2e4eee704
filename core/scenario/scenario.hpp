// Scenario: the small const description every model and runner reads (TUM SWE style).
// Its JSON keys are declared once, in core/scenario/scenario_keys.cpp (scenarioKeys(), read in
// that order; docs/scenario.md's tables are generated from it): grid {nx, ny, dx};
// water {g, depth} or water {g, bathymetry: {csv: F} | {png: F}, min_depth, max_depth};
// domain {mask: "rect" | "pi" | {csv: F} | {png: F}, edges: "wall" | "open" | {west, east,
// south, north: "wall" | "open", layer_cells}} (1 = water, 0 = solid; edges default to walls:
// docs/open-edges.md); terrain {png, sea_level, height_scale, coast: "walls" | "ground"};
// initial {eta: {csv: F}, drops: [{x, y, radius, amplitude}]}; excitations [{type: drop |
// rain | boat | wind | stir | body | mask, ...}] (a recorded session adds timed drops, stirs,
// rain and wind intervals, a boat's "steer" list, bodies thrown in and mask strokes {time,
// solid, dabs: [{x, y, radius}]}: docs/exports.md); bodies
// {count, size} (tracers) or bodies [{shape, size, density, x, y, z, yaw, pitch, roll,
// velocity, drag, lift, shadow, patches, towed_by}] (buoyant, bodyKeys() below;
// docs/bodies.md); water {density}; models {id: {param: value}}; gauges [{name, x, y}]; transects
// [{name, from: [x, y], to: [x, y], samples}]; ocean {spectrum, wind_speed, ...} (the open sea
// under every model: core/ocean/ocean_layer.hpp); tick; frame_dt; duration; seed. Relative paths
// are relative to the JSON file; builtin scenarios read the files embedded with them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/forcing/excitations.hpp"
#include "core/forcing/rigid_bodies.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/measure/gauges.hpp"
#include "core/measure/references.hpp"
#include "core/model/parameters.hpp"
#include "core/scenario/scenario_keys.hpp"

namespace wb {

// A file named by a scenario: on disk (resolved against the scenario's folder) or embedded.
struct FileRef {
  std::filesystem::path path;
  bool builtin = false;
  std::string describe() const { return builtin ? "builtin:" + path.string() : path.string(); }
  std::string read() const;  // throws InputError naming the file
};

enum class FieldFormat { Csv, Png };

struct FieldSource {
  FileRef file;
  FieldFormat format = FieldFormat::Csv;
};

struct BodiesSpec {
  int count = 0;
  double size = 1.0;  // m, edge of a box
};

// The travelling window: the grid re-centres by whole cells on the boat that tows body
// `follow` (the same for every model), across the periodic open sea.
struct OceanWindow {
  std::size_t follow = 0;
};

struct Scenario {
  std::string name = "untitled";
  std::string description;
  std::string source;  // where it was read from, for messages ("builtin:pi-pool", a path)

  Grid grid;
  double g = 9.81;               // m/s^2
  double depth = 1;              // m, rest depth where no bathymetry is given
  double waterDensity = 1000.0;  // kg/m^3, for the buoyant bodies
  std::optional<FieldSource> bathymetry;
  double bathymetryMinDepth = 0.1, bathymetryMaxDepth = 1.0;  // PNG black / white (m)

  std::string maskPreset = "rect";
  std::optional<FieldSource> mask;
  Edges edges;  // domain.edges

  std::optional<FileRef> terrain;
  double seaLevel = 0.5, terrainHeightScale = 1.0;  // m
  Domain::Coast coast = Domain::Coast::Walls;       // land above sea level: walls or ground

  std::optional<FieldSource> initialEta;
  std::vector<SurfaceEvent> initialDrops;

  ExcitationSpecs excitations;
  BodiesSpec bodies;                  // passive tracers: "bodies": {count, size}
  std::vector<BodySpec> rigidBodies;  // buoyant bodies: "bodies": [{shape, size, density, ...}]
  std::map<std::string, nlohmann::json> modelParams;  // per model id, as written
  std::vector<GaugeSpec> gauges;                      // "gauges": [{name, x, y}]
  std::vector<TransectSpec> transects;                // "transects": [{name, from, to, samples}]
  std::optional<ReferenceSpec> reference;             // "reference": {kind, ...}: exact solution
  // "ocean": {spectrum, wind_speed, ...}: the open sea under every model, as written (the wind
  // sea's keys, core/ocean/wind_sea_params.hpp; core/ocean/ocean_layer.hpp).
  std::optional<nlohmann::json> ocean;
  // "ocean": {"window": {...}}: the grid travels with a towed body's boat
  // (docs/scenario.md#window).
  std::optional<OceanWindow> oceanWindow;

  // The simulation tick (s): every model reaches each tick boundary in steps of its own rules,
  // and events that change what every model sees (bodies entering, mask strokes) act there.
  // Frames sample the run every ticksPerFrame() ticks (docs/architecture.md, time).
  double tick = 1.0 / 60.0;
  double frameDt = 1.0 / 60.0;  // s, a whole number of ticks
  double duration = 10.0;       // s
  std::uint64_t seed = 1;

  int frameCount() const;
  // frame_dt in ticks; throws InputError naming frame_dt when it is not a whole number of
  // ticks (within 1e-6 of one, so that a written 0.0166666666667 is 1/60).
  int ticksPerFrame() const;
};

// The keys of a buoyant body ("bodies": [{...}], and the "body" excitation), declared once: the
// parser reads them, the writer writes them, and the workbench's bodies panel is generated from
// them (docs/scenario.md, bodies). Numbers lie in [lo, hi], hi being the pool's width or height,
// or the last boat's index, where `extent` says so.
using BodyKey = Key<BodySpec>;
const std::vector<BodyKey>& bodyKeys();
// A mesh body's keys (mesh, mesh_up): read and written after bodyKeys(), not in the Bodies tab.
const std::vector<BodyKey>& meshBodyKeys();
// Reads one body's object with bodyKeys(); `where` names it in errors ("s.json: bodies[2]").
// Throws InputError naming the key.
BodySpec parseBody(const nlohmann::json& value, const std::string& where, const Grid& grid,
                   std::size_t boats);
// The body's object, every set key written.
nlohmann::json bodyJson(const BodySpec& body);

// Parses a scenario; `source` names it in messages and relative paths resolve against
// baseDir (or the embedded resources when builtin). Throws InputError on anything invalid,
// naming the source, the key and the reason.
Scenario parseScenario(const nlohmann::json& json, const std::string& source,
                       const std::filesystem::path& baseDir, bool builtin = false);
Scenario parseScenarioText(const std::string& text, const std::string& source,
                           const std::filesystem::path& baseDir, bool builtin = false);
Scenario loadScenarioFile(const std::filesystem::path& file);
// "builtin:NAME" or a path.
Scenario loadScenario(const std::string& fileOrBuiltin);
std::vector<std::string> builtinScenarioNames();

nlohmann::json scenarioToJson(const Scenario& scenario);
void saveScenarioFile(const Scenario& scenario, const std::filesystem::path& file);

// The domain and the initial surface elevation that every model of the scenario starts from.
Domain buildDomain(const Scenario& scenario);
Field2D buildInitialEta(const Scenario& scenario, const Domain& domain);

// Applies a JSON object of parameter values ({"k": 0.1, "boundary": "zero", "dt": "auto"}).
void applyParamJson(ParamValues& params, const nlohmann::json& values, const std::string& where);
// The "ocean" section's values over the wind sea's declarations (defaults when it has none).
// Throws InputError naming "SOURCE: ocean.KEY" for an unknown key or a bad value.
ParamValues oceanParams(const Scenario& scenario);

// Largest grid the program accepts: keeps every model's state well inside memory.
constexpr long long kMaxGridCells = 4096LL * 4096LL;
// Refuses a grid of more than kMaxGridCells cells: InputError "WHERE: NX x NY cells is too
// large (at most 4096 x 4096)". The scenario reader and the workbench's --grid both ask it.
void checkGridSize(const Grid& grid, const std::string& where);
// Longest run, in frames, that a scenario may ask for (keeps frame counts in an int).
constexpr int kMaxFrames = 100000000;
// The largest depth, ground height or surface elevation a scenario may give (m): the range of
// water.depth, min_depth and max_depth, and of the fields read from files in their place.
constexpr double kMaxFieldMetres = 1e5;
// The initial surface is a wave on the pool's water: |eta| at most this many times its deepest
// rest depth (a 1000 m spike on 1 m of water is no wave any model here can carry, and the
// explicit ones would take hours of substeps for it).
constexpr double kMaxEtaDepths = 10.0;

}  // namespace wb
