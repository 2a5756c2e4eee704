#include "core/scenario/terrain_file_keys.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/scenario/scenario_sections.hpp"

namespace wb {
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw InputError(where + ": " + why);
}

double finiteNumber(const json& value, const std::string& where, double lo, double hi) {
  if (!value.is_number()) fail(where, "must be a number");
  const double x = value.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) {
    std::ostringstream why;
    why << x << " is outside [" << lo << ", " << hi << "]";
    fail(where, why.str());
  }
  return x;
}

std::string choice(const json& value, const std::string& where,
                   std::initializer_list<const char*> choices) {
  std::string expected;
  for (const char* c : choices)
    expected += std::string(expected.empty() ? "\"" : " or \"") + c + "\"";
  if (value.is_string())
    for (const char* c : choices)
      if (value.get<std::string>() == c) return c;
  fail(where, "must be " + expected);
}

constexpr double kMaxCoordinate = 1e12;  // m: file coordinates (UTM, national grids) fit

// The elevation file's keys, in reading order: "origin" reads what "grid" set. Each reads into
// s.terrainFile (begun by readTerrainFileKeys), s.seaLevel or s.coast.
TerrainFile& spec(Scenario& s) {
  return *s.terrainFile;
}

// A grid from the file that has since been changed (the workbench's grid edit) resamples.
bool gridIsFiles(const Scenario& s) {
  const TerrainFile& t = *s.terrainFile;
  if (!t.gridFromFile || !t.data) return t.gridFromFile;
  const Grid own = gridOfElevation(*t.data);
  return own.nx == s.grid.nx && own.ny == s.grid.ny && own.dx == s.grid.dx;
}

// The functions are set after the designated initializers: GCC 12 fails on lambdas among them
// in a list of keys.
std::vector<ScenarioKey> declareTerrainFileKeys() {
  ScenarioKey file{.name = "file",
                   .kind = KeyKind::Custom,
                   .doc = "the elevation file (a builtin resource as `builtin:NAME`)",
                   .required = true,
                   .typeDoc = "file name"};
  file.get = [](const Scenario& s) {
    return s.terrainFile ? fileJson(s.terrainFile->file) : json();
  };
  file.set = [](Scenario& s, const json& v, const KeyContext& at) {
    spec(s).file = at.files->file(v, at.where);
  };
  ScenarioKey values{
      .name = "values",
      .kind = KeyKind::Custom,
      .doc =
          "`\"elevation\"`: ground height above the file's datum, positive up (GeoTIFF and "
          "NetCDF DEMs, GeoClaw topography); `\"depth\"`: water depth below it, positive "
          "down (the Monai Valley bathymetry). No default: read the wrong way, land and sea "
          "swap",
      .typeDoc = "`\"depth\"` or `\"elevation\"`",
      .defaultDoc = "**required**"};
  values.get = [](const Scenario& s) {
    if (!s.terrainFile) return json();
    return json(s.terrainFile->values == ElevationValues::Depth ? "depth" : "elevation");
  };
  values.set = [](Scenario& s, const json& v, const KeyContext& at) {
    spec(s).values = choice(v, at.where, {"elevation", "depth"}) == "depth"
                         ? ElevationValues::Depth
                         : ElevationValues::Elevation;
  };
  // No default: a depth file read as elevations (or the reverse) swaps land and sea.
  values.fallback = [](Scenario&, const KeyContext& at) {
    fail(at.where, "missing: \"depth\" (below the still water) or \"elevation\"");
  };
  ScenarioKey seaLevel{
      .name = "sea_level",
      .lo = -1e5,
      .hi = 1e5,
      .unit = "m",
      .doc =
          "the still water's level in the file's datum (GeoClaw's `sea_level`; a tide or a "
          "datum offset): the rest depth is `sea_level - elevation`, or `depth + sea_level`",
      .defaultDoc = "0"};
  seaLevel.get = [](const Scenario& s) { return s.terrainFile ? json(s.seaLevel) : json(); };
  seaLevel.set = [](Scenario& s, const json& v, const KeyContext&) {
    s.seaLevel = v.get<double>();
  };
  seaLevel.read = [](const json& v, const KeyContext& at) {
    return json(finiteNumber(v, at.where, -1e5, 1e5));
  };
  seaLevel.fallback = [](Scenario& s, const KeyContext&) { s.seaLevel = 0.0; };
  ScenarioKey grid{
      .name = "grid",
      .kind = KeyKind::Custom,
      .doc =
          "`\"resample\"`: the scenario's `grid` is sampled from the file, bilinearly "
          "between the four samples around each cell centre; `\"file\"`: the file's samples "
          "are the cells (`nx`, `ny` and `dx` from the file, square samples needed), and "
          "`grid` may be left out (if given it must be the same)",
      .typeDoc = "`\"resample\"` or `\"file\"`",
      .defaultDoc = "`\"resample\"`"};
  grid.get = [](const Scenario& s) {
    return s.terrainFile ? json(gridIsFiles(s) ? "file" : "resample") : json();
  };
  grid.set = [](Scenario& s, const json& v, const KeyContext& at) {
    spec(s).gridFromFile = choice(v, at.where, {"resample", "file"}) == "file";
  };
  ScenarioKey origin{
      .name = "origin",
      .kind = KeyKind::Custom,
      .doc =
          "with `\"resample\"`: the file coordinates of the grid's corner (0, 0), so a grid "
          "can cut a part of a large file; the default is the south-west corner of the "
          "file's samples' cells",
      .typeDoc = "`[x, y]`",
      .defaultDoc = "the file's corner",
      .rangeDoc = "±1e12 m"};
  origin.get = [](const Scenario& s) {
    if (!s.terrainFile || !s.terrainFile->origin || gridIsFiles(s)) return json();
    const auto& corner = *s.terrainFile->origin;
    return json::array({corner[0], corner[1]});
  };
  origin.set = [](Scenario& s, const json& v, const KeyContext& at) {
    if (spec(s).gridFromFile)
      fail(at.where, "only with \"grid\": \"resample\" (a grid from the file is the file's)");
    if (!v.is_array() || v.size() != 2) fail(at.where, "must be [x, y]");
    spec(s).origin = {finiteNumber(v[0], at.where, -kMaxCoordinate, kMaxCoordinate),
                      finiteNumber(v[1], at.where, -kMaxCoordinate, kMaxCoordinate)};
  };
  ScenarioKey coast{
      .name = "coast",
      .kind = KeyKind::Custom,
      .doc =
          "as for the heightmap: ground at or above `sea_level` turns solid, or stays ground "
          "above the rest level (`\"ground\"`, what a run-up needs)",
      .typeDoc = "`\"walls\"` or `\"ground\"`",
      .defaultDoc = "`\"walls\"`"};
  coast.get = [](const Scenario& s) {
    if (!s.terrainFile) return json();
    return json(s.coast == Domain::Coast::Ground ? "ground" : "walls");
  };
  coast.set = [](Scenario& s, const json& v, const KeyContext& at) {
    if (!v.is_string()) fail(at.where, "must be \"walls\" or \"ground\"");
    s.coast = parseCoast(v.get<std::string>(), at.where);
  };
  coast.fallback = [](Scenario& s, const KeyContext&) { s.coast = Domain::Coast::Walls; };
  return {file, values, seaLevel, grid, origin, coast};
}

}  // namespace

const std::vector<ScenarioKey>& terrainFileKeys() {
  static const std::vector<ScenarioKey> keys = declareTerrainFileKeys();
  return keys;
}

bool namesTerrainFile(const json& terrain) {
  return terrain.is_object() && terrain.contains("file");
}

bool terrainGivesGrid(const json& root) {
  if (!root.is_object() || !root.contains("terrain")) return false;
  const json& terrain = root.at("terrain");
  return namesTerrainFile(terrain) && terrain.contains("grid") && terrain.at("grid") == "file";
}

void readTerrainFileKeys(const json& terrain, const KeyContext& context, bool gridGiven,
                         Scenario& s) {
  const std::string& where = context.where;
  // Before any value: a heightmap's key says which of the two sections this is not.
  for (const auto& item : terrain.items()) {
    const std::string& key = item.key();  // a name, not a binding: clang 14 cannot capture those
    if (key == "png") fail(where, "give \"png\" (a heightmap) or \"file\" (elevations), not both");
    const auto& keys = terrainFileKeys();
    if (std::none_of(keys.begin(), keys.end(), [&](const ScenarioKey& k) { return k.name == key; }))
      fail(where + "." + key, "unknown key");
  }
  const Grid given = s.grid;
  s.terrainFile = TerrainFile{};
  ObjectReader r(terrain, where);
  readKeys(r, terrainFileKeys(), s, context);
  r.finish();
  TerrainFile spec = std::move(*s.terrainFile);
  s.terrainFile.reset();
  setTerrainFile(s, std::move(spec));
  const Grid& read = s.grid;
  if (gridGiven && s.terrainFile->gridFromFile &&
      (given.nx != read.nx || given.ny != read.ny ||
       std::fabs(given.dx - read.dx) > 1e-9 * read.dx)) {
    std::ostringstream why;
    why << "the grid is " << given.nx << " x " << given.ny << " cells of " << given.dx
        << " m; the file's is " << read.nx << " x " << read.ny << " of " << read.dx
        << " m: leave \"grid\" out or use \"resample\"";
    fail(where + ".grid", why.str());
  }
}

void setTerrainFile(Scenario& s, TerrainFile spec) {
  const std::string name = spec.file.describe();
  spec.data = std::make_shared<const ElevationGrid>(readElevationBytes(spec.file.read(), name));
  if (spec.gridFromFile) {
    s.grid = gridOfElevation(*spec.data);
    checkGridSize(s.grid, name);
  }
  s.terrainFile = std::move(spec);
  terrainFileHeight(s);  // refuses now a file that does not cover the grid, or has holes in it
}

json terrainFileJson(const Scenario& s) {
  return writeKeys(terrainFileKeys(), s);
}

Field2D terrainFileHeight(const Scenario& s) {
  const TerrainFile& t = *s.terrainFile;
  const ElevationGrid& file = *t.data;
  // The default corner is the file's own: a grid of its spacing then has its samples as
  // cell centres.
  const double originX = t.origin ? (*t.origin)[0] : file.west();
  const double originY = t.origin ? (*t.origin)[1] : file.south();
  Field2D height = sampleElevation(file, s.grid, originX, originY);
  const float sign = t.values == ElevationValues::Depth ? -1.0f : 1.0f;
  for (int j = 0; j < height.ny(); ++j)
    for (int i = 0; i < height.nx(); ++i) {
      height(i, j) *= sign;
      if (std::fabs(height(i, j)) <= kMaxFieldMetres) continue;
      std::ostringstream why;
      why << "cell (" << i << ", " << j << "): " << height(i, j) << " m is outside [-"
          << kMaxFieldMetres << ", " << kMaxFieldMetres << "] (terrain.file)";
      fail(file.name, why.str());
    }
  return height;
}

}  // namespace wb
