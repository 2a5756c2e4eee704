#include "core/scenario/terrain_file_keys.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "core/errors.hpp"

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

std::string choice(const json& section, const std::string& key, const std::string& where,
                   std::initializer_list<const char*> choices) {
  const json& value = section.at(key);
  std::string expected;
  for (const char* c : choices)
    expected += std::string(expected.empty() ? "\"" : " or \"") + c + "\"";
  if (value.is_string())
    for (const char* c : choices)
      if (value.get<std::string>() == c) return c;
  fail(where + "." + key, "must be " + expected);
}

constexpr double kMaxCoordinate = 1e12;  // m: file coordinates (UTM, national grids) fit

}  // namespace

bool namesTerrainFile(const json& terrain) {
  return terrain.is_object() && terrain.contains("file");
}

bool terrainGivesGrid(const json& root) {
  if (!root.is_object() || !root.contains("terrain")) return false;
  const json& terrain = root.at("terrain");
  return namesTerrainFile(terrain) && terrain.contains("grid") && terrain.at("grid") == "file";
}

void readTerrainFileKeys(const json& terrain, const std::string& where, const FileRef& file,
                         bool gridGiven, Scenario& s) {
  static const std::set<std::string> known = {"file", "values", "sea_level",
                                              "grid", "origin", "coast"};
  for (const auto& [key, value] : terrain.items()) {
    if (key == "png") fail(where, "give \"png\" (a heightmap) or \"file\" (elevations), not both");
    if (!known.count(key)) fail(where + "." + key, "unknown key");
  }
  TerrainFile spec;
  spec.file = file;
  // No default: a depth file read as elevations (or the reverse) swaps land and sea.
  if (!terrain.contains("values"))
    fail(where + ".values", "missing: \"depth\" (below the still water) or \"elevation\"");
  spec.values = choice(terrain, "values", where, {"elevation", "depth"}) == "depth"
                    ? ElevationValues::Depth
                    : ElevationValues::Elevation;
  s.seaLevel = terrain.contains("sea_level")
                   ? finiteNumber(terrain.at("sea_level"), where + ".sea_level", -1e5, 1e5)
                   : 0.0;
  if (terrain.contains("grid"))
    spec.gridFromFile = choice(terrain, "grid", where, {"resample", "file"}) == "file";
  if (terrain.contains("origin")) {
    if (spec.gridFromFile)
      fail(where + ".origin",
           "only with \"grid\": \"resample\" (a grid from the file is the file's)");
    const json& origin = terrain.at("origin");
    if (!origin.is_array() || origin.size() != 2) fail(where + ".origin", "must be [x, y]");
    spec.origin = {finiteNumber(origin[0], where + ".origin", -kMaxCoordinate, kMaxCoordinate),
                   finiteNumber(origin[1], where + ".origin", -kMaxCoordinate, kMaxCoordinate)};
  }
  s.coast = terrain.contains("coast") && terrain.at("coast").is_string()
                ? parseCoast(terrain.at("coast").get<std::string>(), where + ".coast")
                : Domain::Coast::Walls;
  if (terrain.contains("coast") && !terrain.at("coast").is_string())
    fail(where + ".coast", "must be \"walls\" or \"ground\"");
  const Grid given = s.grid;
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

json terrainFileJson(const Scenario& s, const std::string& file) {
  const TerrainFile& t = *s.terrainFile;
  // A grid from the file that has since been changed (the workbench's grid edit) resamples.
  bool fromFile = t.gridFromFile;
  if (fromFile && t.data) {
    const Grid own = gridOfElevation(*t.data);
    fromFile = own.nx == s.grid.nx && own.ny == s.grid.ny && own.dx == s.grid.dx;
  }
  json out = {{"file", file},
              {"values", t.values == ElevationValues::Depth ? "depth" : "elevation"},
              {"sea_level", s.seaLevel},
              {"grid", fromFile ? "file" : "resample"},
              {"coast", s.coast == Domain::Coast::Ground ? "ground" : "walls"}};
  if (t.origin && !fromFile) out["origin"] = {(*t.origin)[0], (*t.origin)[1]};
  return out;
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
