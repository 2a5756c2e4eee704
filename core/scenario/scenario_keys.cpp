// The scenario's key table: every top-level key in reading order, each section an Object of its
// keys. parseScenario and scenarioToJson walk it; docs/scenario.md's tables are generated from
// it (scenarioKeyTables). Adding a key: docs/architecture.md, "Adding a scenario key".
#include "core/scenario/scenario_keys.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/ocean/ocean_layer.hpp"
#include "core/scenario/gauge_record_keys.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/scenario_sections.hpp"
#include "core/scenario/terrain_file_keys.hpp"

namespace wb {
namespace fs = std::filesystem;
using nlohmann::json;

FileRef ScenarioFiles::file(const json& value, const std::string& where) const {
  if (!value.is_string() || value.get<std::string>().empty())
    ObjectReader::fail(where, "must be a file name");
  const std::string name = value.get<std::string>(), prefix = "builtin:";
  // "builtin:NAME" names an embedded resource from any scenario (a saved copy of a builtin
  // one, the GUI's autosave); a builtin scenario's bare names are its own resources.
  if (name.starts_with(prefix)) return {name.substr(prefix.size()), true};
  fs::path path = name;
  if (builtin) return {path, true};
  return {path.is_absolute() ? path : baseDir / path, false};
}

FieldSource ScenarioFiles::field(const json& value, const std::string& where) const {
  ObjectReader r(value, where);
  const bool csv = r.has("csv"), png = r.has("png");
  if (csv == png) ObjectReader::fail(where, "needs exactly one of \"csv\" or \"png\"");
  const std::string key = csv ? "csv" : "png";
  FieldSource source{file(r.raw(key), r.at(key)), csv ? FieldFormat::Csv : FieldFormat::Png};
  r.finish();
  return source;
}

json checkedKeyValue(KeyKind kind, const std::vector<std::string>& choices, double lo, double hi,
                     const json& value, const std::string& where, bool quoted) {
  switch (kind) {
    case KeyKind::Choice: {
      // A quoted choice (Key::quoted) is a string first: a value that is none is told so, as
      // the readers of text keys told it.
      if (quoted && !value.is_string()) ObjectReader::fail(where, "must be a string");
      if (!value.is_string() ||
          std::find(choices.begin(), choices.end(), value.get<std::string>()) == choices.end()) {
        const auto name = [quoted](const std::string& c) { return quoted ? "\"" + c + "\"" : c; };
        std::string list = name(choices.front());
        for (std::size_t k = 1; k < choices.size(); ++k)
          list += (k + 1 == choices.size() ? " or " : ", ") + name(choices[k]);
        ObjectReader::fail(where, "must be " + list);
      }
      return value;
    }
    case KeyKind::Triple: {
      if (!value.is_array() || value.size() != 3) ObjectReader::fail(where, "must be [x, y, z]");
      json out = json::array();
      for (int a = 0; a < 3; ++a)
        out.push_back(
            ObjectReader::checkedNumber(value[a], where + "[" + std::to_string(a) + "]", lo, hi));
      return out;
    }
    case KeyKind::Integer:
      return int(ObjectReader::checkedInteger(value, where, lo, hi));
    case KeyKind::Text:
      return ObjectReader::checkedText(value, where);
    case KeyKind::Number:
      return ObjectReader::checkedNumber(value, where, lo, hi);
    case KeyKind::Object:
    case KeyKind::Custom:
      break;
  }
  return value;
}

namespace {

// A key of the scenario's open-ended values: what `read` gives it, written by `write` (null: not
// written).
ScenarioKey custom(ScenarioKey key,
                   std::function<void(Scenario&, const json&, const KeyContext&)> read,
                   std::function<json(const Scenario&)> write) {
  key.kind = KeyKind::Custom;
  key.set = std::move(read);
  key.get = std::move(write);
  return key;
}

std::vector<ScenarioKey> gridKeys() {
  using K = KeyKind;
  return {
      memberKey<Scenario>(
          {.name = "nx",
           .kind = K::Integer,
           .lo = 4,
           .hi = 1 << 16,
           .unit = "cells",
           .doc = "cells along x"},
          [](auto& s) -> auto& { return s.grid.nx; }),
      memberKey<Scenario>(
          {.name = "ny",
           .kind = K::Integer,
           .lo = 4,
           .hi = 1 << 16,
           .unit = "cells",
           .doc = "cells along y"},
          [](auto& s) -> auto& { return s.grid.ny; }),
      memberKey<Scenario>(
          {.name = "dx",
           .lo = 1e-6,
           .hi = 1e6,
           .unit = "m",
           .doc = "the cells' side, equal in x and y"},
          [](auto& s) -> auto& { return s.grid.dx; }),
  };
}

// A key written only with water.bathymetry.
ScenarioKey withBathymetry(ScenarioKey key, double Scenario::*member) {
  key.onlyWith = "bathymetry";
  key.get = [member](const Scenario& s) { return s.bathymetry ? json(s.*member) : json(); };
  key.set = [member](Scenario& s, const json& v, const KeyContext&) {
    s.*member = v.get<double>();
  };
  return key;
}

std::vector<ScenarioKey> waterKeys() {
  return {
      memberKey<Scenario>(
          {.name = "g", .lo = 1e-3, .hi = 1e3, .unit = "m/s²", .doc = "gravity"},
          [](auto& s) -> auto& { return s.g; }),
      memberKey<Scenario>(
          {.name = "depth",
           .lo = Domain::kMinDepth,
           .hi = kMaxFieldMetres,
           .unit = "m",
           .doc = "rest depth where no bathymetry is given"},
          [](auto& s) -> auto& { return s.depth; }),
      memberKey<Scenario>(
          {.name = "density",
           .lo = 1.0,
           .hi = 1e5,
           .unit = "kg/m³",
           .doc = "the water's, for buoyant bodies"},
          [](auto& s) -> auto& { return s.waterDensity; }),
      custom(
          {.name = "bathymetry",
           .doc = "rest depth per cell: CSV in m, or PNG mapped from black = `min_depth` to "
                  "white = `max_depth`; negative: ground above the rest level. A domain with no "
                  "water anywhere (the ground at or above the surface on every cell) gives "
                  "`<file>: water: no water anywhere: ...`",
           .typeDoc = "field file"},
          [](Scenario& s, const json& v, const KeyContext& at) {
            s.bathymetry = at.files->field(v, at.where);
          },
          [](const Scenario& s) { return s.bathymetry ? fieldJson(*s.bathymetry) : json(); }),
      withBathymetry({.name = "min_depth",
                      .lo = -kMaxFieldMetres,
                      .hi = kMaxFieldMetres,
                      .unit = "m",
                      .doc = "PNG black (negative: land)",
                      .defaultDoc = "0.1",
                      .rangeDoc = "only with `bathymetry`"},
                     &Scenario::bathymetryMinDepth),
      [] {
        ScenarioKey key = withBathymetry({.name = "max_depth",
                                          .lo = Domain::kMinDepth,
                                          .hi = kMaxFieldMetres,
                                          .unit = "m",
                                          .doc = "PNG white",
                                          .defaultDoc = "`depth`",
                                          .rangeDoc = "only with `bathymetry`"},
                                         &Scenario::bathymetryMaxDepth);
        key.fallback = [](Scenario& s, const KeyContext&) { s.bathymetryMaxDepth = s.depth; };
        return key;
      }(),
  };
}

std::vector<ScenarioKey> domainKeys() {
  return {
      custom(
          {.name = "mask",
           .doc = "`\"rect\"`: the whole grid is water inside a wall; `\"pi\"`: the Π-shaped "
                  "pool of Nishidate & Nikishkov, Fig. 5; a CSV (1 = water, 0 = solid) or PNG "
                  "(white = water, black = solid; a cell is water at 0.5 or more)",
           .typeDoc = "`\"rect\"`, `\"pi\"` or field file",
           .defaultDoc = "`\"rect\"`"},
          [](Scenario& s, const json& mask, const KeyContext& at) {
            if (!mask.is_string()) {
              s.mask = at.files->field(mask, at.where);
              return;
            }
            s.maskPreset = mask.get<std::string>();
            parseMaskPreset(s.maskPreset, at.where);
          },
          [](const Scenario& s) { return s.mask ? fieldJson(*s.mask) : json(s.maskPreset); }),
      custom(
          {.name = "edges",
           .doc = "which sides of the grid absorb outgoing waves; a side not named is a wall; "
                  "`layer_cells` (default 24) is the absorbing layer's width "
                  "([open-edges.md](open-edges.md)); a side may also be `{\"incoming\": "
                  "{...}}`, where a prescribed wave enters ([Incoming edges](#incoming-edges))",
           .typeDoc = "`\"wall\"`, `\"open\"` or `{\"west\", \"east\", \"south\", \"north\", "
                      "\"layer_cells\"}`",
           .defaultDoc = "`\"wall\"`"},
          [](Scenario& s, const json& v, const KeyContext& at) { s.edges = readEdges(v, at); },
          [](const Scenario& s) { return s.edges.anyOpen() ? edgesJson(s.edges) : json(); }),
  };
}

// Bressler's setHeightMap: written only with a heightmap.
std::vector<ScenarioKey> terrainKeys() {
  const auto ifTerrain = [](double Scenario::*member) {
    return [member](const Scenario& s) { return s.terrain ? json(s.*member) : json(); };
  };
  ScenarioKey heightScale{.name = "height_scale",
                          .lo = 0,
                          .hi = 1e5,
                          .unit = "m",
                          .doc = "ground height = grey level x `height_scale`",
                          .defaultDoc = "1"};
  heightScale = memberKey<Scenario>(
      heightScale, [](auto& s) -> auto& { return s.terrainHeightScale; });
  heightScale.get = ifTerrain(&Scenario::terrainHeightScale);
  ScenarioKey seaLevel{.name = "sea_level",
                       .lo = -1e5,
                       .hi = 1e5,
                       .unit = "m",
                       .doc =
                           "cells with ground below it get depth `sea_level - ground` (at "
                           "least 0.01 m); the others are land (`coast`)",
                       .defaultDoc = "0.5"};
  seaLevel = memberKey<Scenario>(
      seaLevel, [](auto& s) -> auto& { return s.seaLevel; });
  seaLevel.get = ifTerrain(&Scenario::seaLevel);
  return {
      custom(
          {.name = "png", .doc = "greyscale heightmap", .required = true, .typeDoc = "file name"},
          [](Scenario& s, const json& v, const KeyContext& at) {
            s.terrain = at.files->file(v, at.where);
          },
          [](const Scenario& s) { return s.terrain ? fileJson(*s.terrain) : json(); }),
      heightScale,
      seaLevel,
      custom(
          {.name = "coast",
           .doc = "`\"walls\"`: land turns solid; `\"ground\"`: land is ground `ground - "
                  "sea_level` above the rest level, dry until water reaches it (floodable by "
                  "swe-semi-lagrangian and swe-adi, a wall to damped-wave and advected-wave)",
           .typeDoc = "`\"walls\"` or `\"ground\"`",
           .defaultDoc = "`\"walls\"`"},
          [](Scenario& s, const json& v, const KeyContext& at) {
            s.coast = parseCoast(ObjectReader::checkedText(v, at.where), at.where);
          },
          [](const Scenario& s) {
            return s.terrain && s.coast == Domain::Coast::Ground ? json("ground") : json();
          }),
  };
}

std::vector<ScenarioKey> initialKeys() {
  return {
      custom(
          {.name = "eta",
           .doc = "the initial surface elevation (m above rest)",
           .typeDoc = "field file"},
          [](Scenario& s, const json& v, const KeyContext& at) {
            s.initialEta = at.files->field(v, at.where);
          },
          [](const Scenario& s) { return s.initialEta ? fieldJson(*s.initialEta) : json(); }),
      custom(
          {.name = "drops",
           .doc = "Gaussian bumps added to it (fields below, without `time`)",
           .typeDoc = "array of drops"},
          [](Scenario& s, const json& drops, const KeyContext& at) {
            s.initialDrops = readItems(drops, at, dropKeys(), "an array");
          },
          [](const Scenario& s) { return writeItems(dropKeys(), s.initialDrops); }),
  };
}

// Written only when not 0: scenarios without friction are written as before.
std::vector<ScenarioKey> frictionKeys() {
  ScenarioKey manning = memberKey<Scenario>(
      {.name = "manning",
       .lo = 0,
       .hi = kMaxManning,
       .unit = "s m^-1/3",
       .doc = "Manning's n of the bed; 0 is no friction (every result as without the key)"},
      [](auto& s) -> auto& { return s.friction.manning; });
  manning.get = [](const Scenario& s) {
    return s.friction.manning == 0.0 ? json() : json(s.friction.manning);
  };
  manning.defaultDoc = "0";
  // The range's message names the unit, as a model parameter's does.
  manning.read = [](const json& v, const KeyContext& at) {
    const double n = ObjectReader::checkedNumber(v, at.where, -HUGE_VAL, HUGE_VAL);
    if (!(n >= 0.0 && n <= kMaxManning)) {
      std::ostringstream why;
      why << n << " is outside [0, " << kMaxManning << "] s m^-1/3";
      ObjectReader::fail(at.where, why.str());
    }
    return json(n);
  };
  return {manning};
}

ScenarioKey section(ScenarioKey key, std::vector<ScenarioKey> children) {
  key.kind = KeyKind::Object;
  key.typeDoc = "object";
  key.children = std::move(children);
  return key;
}

std::vector<ScenarioKey> declareScenarioKeys() {
  using K = KeyKind;
  std::vector<ScenarioKey> keys;
  keys.push_back(memberKey<Scenario>(
      {.name = "name",
       .kind = K::Text,
       .doc = "the scenario's name, kept and written back on save"},
      [](auto& s) -> auto& { return s.name; }));
  keys.push_back(
      {.name = "description",
       .kind = K::Text,
       .doc = "one sentence, shown by `wavebench-cli list`",
       .defaultDoc = "`\"\"`",
       .get =
           [](const Scenario& s) { return s.description.empty() ? json() : json(s.description); },
       .set = [](Scenario& s, const json& v,
                 const KeyContext&) { s.description = v.get<std::string>(); }});
  ScenarioKey grid = section({.name = "grid",
                              .doc = "the cells (below)",
                              .defaultDoc = "required, unless `terrain` gives it"},
                             gridKeys());
  // An elevation file is read right after the grid, before the keys the grid bounds: with
  // "grid": "file" it is the grid; else it must cover the grid given.
  const auto readTerrainFile = [](Scenario& s, const KeyContext& at, bool gridGiven) {
    if (!at.terrainFile) return;
    KeyContext section = at;
    section.where = at.terrainWhere;
    readTerrainFileKeys(*at.terrainFile, section, gridGiven, s);
  };
  grid.check = [](const Scenario& s, const KeyContext& at) { checkGridSize(s.grid, at.where); };
  grid.then = [readTerrainFile](Scenario& s, const KeyContext& at) {
    readTerrainFile(s, at, true);
  };
  grid.fallback = [readTerrainFile](Scenario& s, const KeyContext& at) {
    if (!at.terrainFile || !terrainGivesGrid(json{{"terrain", *at.terrainFile}}))
      ObjectReader::fail(at.where, "missing");
    readTerrainFile(s, at, false);
  };
  keys.push_back(grid);
  keys.push_back(section(
      {.name = "water", .doc = "gravity, rest depth or bathymetry", .defaultDoc = "see below"},
      waterKeys()));
  keys.push_back(section(
      {.name = "domain", .doc = "which cells are water", .defaultDoc = "`{\"mask\": \"rect\"}`"},
      domainKeys()));
  // A PNG heightmap (the keys below) or an elevation file, read with the grid (above).
  ScenarioKey terrain = custom(
      {.name = "terrain",
       .doc = "a heightmap coast, or the ground from an elevation file (below)",
       .typeDoc = "object",
       .defaultDoc = "none"},
      [](Scenario& s, const json& v, const KeyContext& at) {
        if (s.terrainFile) return;
        ObjectReader section(v, at.where);
        readKeys(section, terrainKeys(), s, at);
        section.finish();
      },
      [](const Scenario& s) {
        if (s.terrainFile) return terrainFileJson(s);
        return s.terrain ? writeKeys(terrainKeys(), s) : json();
      });
  terrain.children = terrainKeys();
  keys.push_back(terrain);
  keys.push_back(
      section({.name = "initial", .doc = "the initial surface", .defaultDoc = "flat water"},
              initialKeys()));
  // Read before the bodies: a body's towed_by names one of the boats.
  keys.push_back(custom(
      {.name = "excitations",
       .doc = "drops, rain, boats, wind during the run",
       .typeDoc = "array",
       .defaultDoc = "`[]`"},
      [](Scenario& s, const json& v, const KeyContext& at) {
        readExcitations(v, at, s.excitations);
      },
      [](const Scenario& s) { return excitationsJson(s.excitations); }));
  keys.push_back(custom(
      {.name = "bodies",
       .doc = "passive floating boxes (object) or buoyant rigid bodies (array)",
       .typeDoc = "object or array"},
      [](Scenario& s, const json& v, const KeyContext& at) { readBodies(v, at, s); }, bodiesJson));
  keys.push_back(custom(
      {.name = "models",
       .doc = "which models run, with which parameters",
       .typeDoc = "object",
       .defaultDoc = "every model, defaults"},
      [](Scenario& s, const json& models, const KeyContext& at) {
        if (!models.is_object()) ObjectReader::fail(at.where, "must be an object");
        for (const auto& [id, params] : models.items()) {
          if (!params.is_object()) ObjectReader::fail(at.where + "." + id, "must be an object");
          s.modelParams[id] = params;
        }
      },
      [](const Scenario& s) {
        json out;
        for (const auto& [id, params] : s.modelParams)
          out[id] = params;
        return out;
      }));
  // Read after the bodies: ocean.window follows one of them.
  keys.push_back(custom(
      {.name = "ocean",
       .doc = "the open sea under every model: each model's surface is its own "
              "plus one FFT sea (below)",
       .typeDoc = "object"},
      [](Scenario& s, const json& v, const KeyContext& at) { readOcean(v, at, s); },
      [](const Scenario& s) { return s.ocean ? *s.ocean : json(); }));
  keys.push_back(custom(
      {.name = "gauges",
       .doc = "points where every model is recorded at every step (below)",
       .typeDoc = "array"},
      [](Scenario& s, const json& v, const KeyContext& at) { s.gauges = readGauges(v, at); },
      [](const Scenario& s) { return writeItems(gaugeKeys(), s.gauges); }));
  keys.push_back(custom(
      {.name = "transects",
       .doc = "lines along which every model is sampled at frame times (below)",
       .typeDoc = "array"},
      [](Scenario& s, const json& v, const KeyContext& at) { s.transects = readTransects(v, at); },
      [](const Scenario& s) { return writeItems(transectKeys(), s.transects); }));
  // Read after initial: a reference other than the linear one sets the initial surface.
  keys.push_back(custom(
      {.name = "reference",
       .doc = "the exact solution every model is measured against; it sets the initial surface "
              "(below)",
       .typeDoc = "object"},
      [](Scenario& s, const json& v, const KeyContext& at) {
        s.reference = readReference(v, at);
        const bool setsSurface = s.reference->kind != ReferenceSpec::Kind::Linear;
        if (setsSurface && (s.initialEta || !s.initialDrops.empty()))
          ObjectReader::fail(s.source + ": initial",
                             "a reference sets the initial surface; give one or the other");
      },
      [](const Scenario& s) {
        return s.reference ? writeKeys(referenceKeys(), *s.reference) : json();
      }));
  keys.push_back(section({.name = "friction",
                          .doc = "bottom friction by Manning's n, one value for every model "
                                 "(below)",
                          .defaultDoc = "no friction"},
                         frictionKeys()));
  keys.push_back(memberKey<Scenario>(
      {.name = "tick",
       .lo = 1e-5,
       .hi = 60,
       .unit = "s",
       .doc = "the simulation's clock: every model reaches each tick in steps of its own rules, "
              "no step is longer, and bodies entering and mask strokes act at the start of the "
              "tick that holds their time ([architecture.md](architecture.md), \"Time\")",
       .defaultDoc = "1/60"},
      [](auto& s) -> auto& { return s.tick; }));
  keys.push_back(memberKey<Scenario>(
      {.name = "frame_dt",
       .lo = 1e-5,
       .hi = 60,
       .unit = "s",
       .doc = "how often the run is sampled (series.csv rows, dumps, the GUI's frames); it "
              "never changes the physics",
       .defaultDoc = "1/60",
       .rangeDoc = "a whole number of ticks"},
      [](auto& s) -> auto& { return s.frameDt; }));
  ScenarioKey duration = memberKey<Scenario>(
      {.name = "duration",
       .lo = 0,
       .hi = 1e7,
       .unit = "s",
       .doc = "the run's length (`--duration`, `--frames` override it)",
       .rangeDoc = "at most 1e8 frames"},
      [](auto& s) -> auto& { return s.duration; });
  duration.check = [](const Scenario& s, const KeyContext& at) {
    if (s.duration / s.frameDt > kMaxFrames)
      ObjectReader::fail(at.where,
                         "is more than " + std::to_string(kMaxFrames) + " frames of frame_dt");
  };
  keys.push_back(duration);
  keys.push_back({.name = "seed",
                  .lo = 0,
                  .hi = 9007199254740992.0,
                  .doc = "seeds the one random stream (rain)",
                  .rangeDoc = "a fraction is dropped",
                  .get = [](const Scenario& s) { return json(s.seed); },
                  .set = [](Scenario& s, const json& v,
                            const KeyContext&) { s.seed = std::uint64_t(v.get<double>()); }});
  return keys;
}

std::vector<ScenarioKey> declareTracerKeys() {
  return {
      memberKey<Scenario>(
          {.name = "count",
           .kind = KeyKind::Integer,
           .lo = 0,
           .hi = 100000,
           .doc = "how many boxes"},
          [](auto& s) -> auto& { return s.bodies.count; }),
      [] {
        ScenarioKey size = memberKey<Scenario>(
            {.name = "size",
             .lo = 1e-6,
             .hi = kHuge,
             .unit = "m",
             .doc = "edge of a box",
             .defaultDoc = "2 dx"},
            [](auto& s) -> auto& { return s.bodies.size; });
        size.fallback = [](Scenario& s, const KeyContext&) { s.bodies.size = 2 * s.grid.dx; };
        return size;
      }(),
  };
}

}  // namespace

const std::vector<ScenarioKey>& scenarioKeys() {
  static const std::vector<ScenarioKey> keys = declareScenarioKeys();
  return keys;
}

const std::vector<ScenarioKey>& sectionKeys(const std::string& name) {
  for (const ScenarioKey& key : scenarioKeys())
    if (key.name == name && !key.children.empty()) return key.children;
  throw std::logic_error("no scenario section " + name);
}

const std::vector<ScenarioKey>& tracerKeys() {
  static const std::vector<ScenarioKey> keys = declareTracerKeys();
  return keys;
}

}  // namespace wb
