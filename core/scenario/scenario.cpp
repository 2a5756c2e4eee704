#include "core/scenario/scenario.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "core/errors.hpp"
#include "core/ocean/ocean_layer.hpp"
#include "core/scenario/builtin_resources.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/incoming_keys.hpp"

namespace wb {
namespace fs = std::filesystem;
using nlohmann::json;

std::string FileRef::read() const {
  if (!builtin) return readFileBytes(path);
  if (auto bytes = builtinResource(path.generic_string())) return std::string(*bytes);
  throw InputError(describe() + ": no such builtin resource");
}

void checkGridSize(const Grid& grid, const std::string& where) {
  if (double(grid.nx) * grid.ny > double(kMaxGridCells))
    throw InputError(where + ": " + std::to_string(grid.nx) + " x " + std::to_string(grid.ny) +
                     " cells is too large (at most 4096 x 4096)");
}

int Scenario::frameCount() const {
  return int(std::llround(duration / frameDt));
}

int Scenario::ticksPerFrame() const {
  const double ticks = frameDt / tick;
  const double whole = std::round(ticks);
  if (!(whole >= 1.0) || std::fabs(ticks - whole) > 1e-6 * whole) {
    std::ostringstream why;
    why << source << ": frame_dt: " << frameDt << " s is not a whole number of ticks of " << tick
        << " s; use a multiple of the tick or set \"tick\" (docs/scenario.md)";
    throw InputError(why.str());
  }
  return int(whole);
}

namespace {

// Reads one JSON object, checking types and ranges, and reports keys nobody asked for.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string where, std::string source = {})
      : object_(object), where_(std::move(where)), source_(std::move(source)) {
    if (!object_.is_object()) fail(where_, "must be an object");
  }
  // Every reader is finished once its object is read; a reader left by an exception is not.
  ~ObjectReader() { assert(finished_ || std::uncaught_exceptions() > 0); }
  ObjectReader(const ObjectReader&) = delete;
  ObjectReader& operator=(const ObjectReader&) = delete;
  // Refuses the keys nobody asked for. Not done by the destructor: a destructor that throws
  // while its function returns leaks the value being returned (CWG 2176; GCC and Clang).
  void finish() {
    finished_ = true;
    for (const auto& [key, value] : object_.items())
      if (!used_.count(key)) fail(at(key), "unknown key");
  }
  [[noreturn]] static void fail(const std::string& where, const std::string& why) {
    throw InputError(where + ": " + why);
  }
  // "file.json: grid.nx": the file is set off from the key path by a colon.
  std::string at(const std::string& key) const {
    return where_ + (where_ == source_ ? ": " : ".") + key;
  }
  bool has(const std::string& key) {
    used_.insert(key);
    return object_.contains(key);
  }
  const json& raw(const std::string& key) {
    used_.insert(key);
    if (!object_.contains(key)) fail(at(key), "missing");
    return object_.at(key);
  }
  double number(const std::string& key, double fallback, double lo, double hi) {
    if (!has(key)) return fallback;
    return checkedNumber(object_.at(key), at(key), lo, hi);
  }
  double requiredNumber(const std::string& key, double lo, double hi) {
    return checkedNumber(raw(key), at(key), lo, hi);
  }
  // An integer: a fraction is refused as such before its range is looked at (0.5 for the only
  // body is "must be an integer", not "outside [0, 0]").
  int integer(const std::string& key, int fallback, int lo, int hi) {
    if (!has(key)) return fallback;
    return requiredInteger(key, lo, hi);
  }
  int requiredInteger(const std::string& key, int lo, int hi) {
    const double v = checkedNumber(raw(key), at(key), -kAnyNumber, kAnyNumber);
    if (v != std::floor(v)) fail(at(key), "must be an integer");
    return int(checkedNumber(raw(key), at(key), lo, hi));
  }
  std::string text(const std::string& key, const std::string& fallback) {
    if (!has(key)) return fallback;
    const json& v = object_.at(key);
    if (!v.is_string()) fail(at(key), "must be a string");
    return v.get<std::string>();
  }
  static double checkedNumber(const json& v, const std::string& where, double lo, double hi) {
    if (!v.is_number()) fail(where, "must be a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(where, "must be finite");
    if (x < lo || x > hi) {
      std::ostringstream out;
      out << x << " is outside [" << lo << ", " << hi << "]";
      fail(where, out.str());
    }
    return x;
  }

 private:
  static constexpr double kAnyNumber = std::numeric_limits<double>::max();
  const json& object_;
  std::string where_;
  std::string source_;  // set for the top-level object only
  std::set<std::string> used_;
  bool finished_ = false;
};

constexpr double kHuge = 1e12;
constexpr double kWorld = 1e6;  // m: how far a boat may sail with a travelling window
constexpr double kMinBodySize = 1e-3, kMaxBodySize = 1e4;  // m, a buoyant body's "size"

// A name that is a column of a CSV file (gauges.csv, transects.csv).
std::string csvName(ObjectReader& r, const std::string& fallback) {
  std::string name = r.text("name", fallback);
  if (name.find_first_of(",\"\n\r") != std::string::npos)
    ObjectReader::fail(r.at("name"), "must not hold a comma, a quote or a line break");
  return name;
}

// Gauges (transects) are told apart in gauges.csv (transects.csv) by their names alone: a name
// given twice in one list is refused at its second use, naming the first.
void requireUniqueName(std::map<std::string, std::size_t>& seen, const std::string& name,
                       std::size_t k, ObjectReader& r, const std::string& list) {
  const auto [first, added] = seen.try_emplace(name, k);
  if (!added)
    ObjectReader::fail(r.at("name"), "'" + name + "' is already the name of " + list + "[" +
                                         std::to_string(first->second) +
                                         "]; each needs its own (its rows are told apart by it)");
}

// A point [x, y] inside the pool.
std::pair<double, double> readPoint(const json& v, const std::string& where, const Grid& grid) {
  if (!v.is_array() || v.size() != 2) ObjectReader::fail(where, "must be [x, y]");
  return {ObjectReader::checkedNumber(v[0], where, 0, grid.width()),
          ObjectReader::checkedNumber(v[1], where, 0, grid.height())};
}

// "window": {"follow": b, "size": [w, h]}: the grid travels with the boat towing body b
// (docs/scenario.md#window). The window is the whole grid: `size`, if given, must be its extent.
OceanWindow readWindow(const json& value, const std::string& where, const Scenario& s) {
  ObjectReader r(value, where);
  OceanWindow window;
  if (s.rigidBodies.empty())
    ObjectReader::fail(r.at("follow"), "the scenario has no body to follow");
  window.follow = std::size_t(r.requiredInteger("follow", 0, int(s.rigidBodies.size() - 1)));
  if (!s.rigidBodies[window.follow].towedBy)
    ObjectReader::fail(r.at("follow"), "body " + std::to_string(window.follow) +
                                           " is not towed (towed_by): the window follows the "
                                           "boat that tows it, the same for every model");
  if (r.has("size")) {
    const json& size = r.raw("size");
    if (!size.is_array() || size.size() != 2) ObjectReader::fail(r.at("size"), "must be [w, h]");
    const double w = ObjectReader::checkedNumber(size[0], r.at("size"), 0, kHuge);
    const double h = ObjectReader::checkedNumber(size[1], r.at("size"), 0, kHuge);
    const auto refuse = [&](const char* compared, const char* advice) {
      std::ostringstream why;
      why << "[" << w << ", " << h << "] m is " << compared << " than the grid (" << s.grid.width()
          << " x " << s.grid.height() << " m): " << advice;
      ObjectReader::fail(r.at("size"), why.str());
    };
    const double slack = 0.5 * s.grid.dx;
    if (w > s.grid.width() + slack || h > s.grid.height() + slack)
      refuse("larger", "the window is the local grid");
    if (w < s.grid.width() - slack || h < s.grid.height() - slack)
      refuse("smaller", "the window is the whole local grid; size it with grid.nx and grid.ny");
  }
  r.finish();
  if (s.maskPreset != "rect" || s.mask || s.bathymetry || s.terrain)
    ObjectReader::fail(where,
                       "the window travels, so the domain must be open water of one "
                       "depth: no mask, bathymetry or terrain");
  return window;
}

std::vector<GaugeSpec> readGauges(const json& list, const std::string& where, const Grid& grid) {
  if (!list.is_array()) ObjectReader::fail(where, "must be [{\"name\", \"x\", \"y\"}, ...]");
  std::vector<GaugeSpec> gauges;
  std::map<std::string, std::size_t> names;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ObjectReader r(list[k], where + "[" + std::to_string(k) + "]");
    GaugeSpec gauge;
    gauge.name = csvName(r, "gauge " + std::to_string(k));
    requireUniqueName(names, gauge.name, k, r, "gauges");
    gauge.x = r.requiredNumber("x", 0, grid.width());
    gauge.y = r.requiredNumber("y", 0, grid.height());
    r.finish();
    gauges.push_back(gauge);
  }
  return gauges;
}

// "reference": the exact solution the comparison is measured against (docs/scenario.md).
ReferenceSpec readReference(const json& value, const std::string& where, const Grid& grid) {
  ObjectReader r(value, where);
  ReferenceSpec spec;
  const std::string kind = r.text("kind", "");
  if (kind == "lake-at-rest") {
    spec.kind = ReferenceSpec::Kind::LakeAtRest;
  } else if (kind == "standing-mode") {
    spec.kind = ReferenceSpec::Kind::StandingMode;
    spec.m = r.integer("m", spec.m, 0, std::max(grid.nx, grid.ny) / 2);
    spec.n = r.integer("n", spec.n, 0, std::max(grid.nx, grid.ny) / 2);
    if (spec.m == 0 && spec.n == 0) ObjectReader::fail(r.at("n"), "m and n are both 0: no wave");
    spec.amplitude = r.number("amplitude", spec.amplitude, -1e3, 1e3);
  } else if (kind == "dam-break") {
    spec.kind = ReferenceSpec::Kind::DamBreak;
    spec.x0 = r.requiredNumber("x0", 0.0, grid.width());
    // A dam on an end wall (or beyond the last cell centre) leaves one side without water the
    // grid holds, while the 1-D solution drains it through the wall.
    const double first = 0.5 * grid.dx, last = grid.width() - 0.5 * grid.dx;
    if (!(spec.x0 > first && spec.x0 < last)) {
      std::ostringstream why;
      why << spec.x0 << " m must lie strictly inside the strip, between its first and last cell "
          << "centres (" << first << ", " << last << ") m";
      ObjectReader::fail(r.at("x0"), why.str());
    }
    spec.hLeft = r.requiredNumber("h_left", 1e-3, kMaxFieldMetres);
    spec.hRight = r.number("h_right", 0.0, 0.0, kMaxFieldMetres);
    if (!(spec.hRight < spec.hLeft))
      ObjectReader::fail(r.at("h_right"),
                         "must be less than h_left (the dam holds the deeper water on its left)");
  } else if (kind == "thacker") {
    spec.kind = ReferenceSpec::Kind::Thacker;
    spec.a = r.number("a", spec.a, 1e-3, kMaxFieldMetres);
    spec.h0 = r.number("h0", spec.h0, 1e-4, kMaxFieldMetres);
    spec.r0 = r.number("r0", spec.r0, 1e-3, kMaxFieldMetres);
  } else if (kind == "linear") {
    spec.kind = ReferenceSpec::Kind::Linear;
    const std::string dispersion = r.text("dispersion", "finite-depth");
    if (dispersion == "shallow-water")
      spec.dispersion = LinearReference::Dispersion::ShallowWater;
    else if (dispersion != "finite-depth")
      ObjectReader::fail(r.at("dispersion"), "must be \"finite-depth\" or \"shallow-water\"");
  } else {
    ObjectReader::fail(r.at("kind"),
                       "must be \"lake-at-rest\", \"standing-mode\", "
                       "\"dam-break\", \"thacker\" or \"linear\"");
  }
  r.finish();
  return spec;
}

std::vector<TransectSpec> readTransects(const json& list, const std::string& where,
                                        const Grid& grid) {
  if (!list.is_array())
    ObjectReader::fail(where, "must be [{\"name\", \"from\", \"to\", \"samples\"}, ...]");
  std::vector<TransectSpec> transects;
  std::map<std::string, std::size_t> names;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ObjectReader r(list[k], where + "[" + std::to_string(k) + "]");
    TransectSpec t;
    t.name = csvName(r, "transect " + std::to_string(k));
    requireUniqueName(names, t.name, k, r, "transects");
    std::tie(t.x0, t.y0) = readPoint(r.raw("from"), r.at("from"), grid);
    std::tie(t.x1, t.y1) = readPoint(r.raw("to"), r.at("to"), grid);
    t.samples = r.integer("samples", t.samples, 2, 100000);
    if (t.x0 == t.x1 && t.y0 == t.y1)
      ObjectReader::fail(r.at("to"), "the transect has zero length");
    r.finish();
    transects.push_back(t);
  }
  return transects;
}

struct Context {
  std::string source;
  fs::path baseDir;
  bool builtin;
  FileRef file(const json& value, const std::string& where) const {
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
  FieldSource field(const json& value, const std::string& where) const {
    ObjectReader r(value, where);
    const bool csv = r.has("csv"), png = r.has("png");
    if (csv == png) ObjectReader::fail(where, "needs exactly one of \"csv\" or \"png\"");
    const std::string key = csv ? "csv" : "png";
    FieldSource source{file(r.raw(key), r.at(key)), csv ? FieldFormat::Csv : FieldFormat::Png};
    r.finish();
    return source;
  }
};

// A mesh body's OBJ file, resolved like every file of the scenario, read and checked
// (parseObjMesh); the body takes the mesh's own size unless the scenario gives "size".
void loadBodyMesh(const json& value, const std::string& where, const Context& context,
                  BodySpec& body) {
  const FileRef file = context.file(json(body.meshFile), where + ".mesh");
  body.meshFile = file.describe();  // as written back: resolves from any folder
  body.mesh = std::make_shared<const TriangleMesh>(
      parseObjMesh(file.read(), where + ".mesh (" + file.describe() + ")", body.meshUp));
  if (value.contains("size")) return;
  // The mesh's own extent is the body's size: it obeys the size key's range.
  body.size = body.mesh->extent();
  for (int a = 0; a < 3; ++a)
    if (!(body.size[a] >= kMinBodySize && body.size[a] <= kMaxBodySize)) {
      std::ostringstream why;
      why << "is " << body.size[a] << " m along "
          << "xyz"[a] << ", outside the size key's [" << kMinBodySize << ", " << kMaxBodySize
          << "] m; give \"size\" to scale it";
      ObjectReader::fail(where + ".mesh (" + file.describe() + ")", why.str());
    }
}

SurfaceEvent readDrop(const json& value, const std::string& where, const Grid& grid, bool timed) {
  ObjectReader r(value, where);
  SurfaceEvent drop;
  drop.x = r.requiredNumber("x", 0, grid.width());
  drop.y = r.requiredNumber("y", 0, grid.height());
  drop.radius = r.number("radius", 2 * grid.dx, 1e-6, kHuge);
  drop.amplitude = r.number("amplitude", -0.1, -kHuge, kHuge);
  if (timed) drop.time = r.number("time", 0, 0, kHuge);
  if (timed) r.text("type", "drop");
  r.finish();
  return drop;
}

// A mask stroke: {"type": "mask", "time": t, "solid": true | false, "dabs": [{x, y, radius}]}.
MaskStroke readStroke(ObjectReader& r, const std::string& where, const Grid& grid) {
  MaskStroke stroke;
  stroke.time = r.number("time", 0, 0, kHuge);
  if (r.has("solid")) {
    const json& solid = r.raw("solid");
    if (!solid.is_boolean()) ObjectReader::fail(r.at("solid"), "must be true or false");
    stroke.solid = solid.get<bool>();
  }
  const json& dabs = r.raw("dabs");
  if (!dabs.is_array() || dabs.empty())
    ObjectReader::fail(r.at("dabs"), "must be [{\"x\", \"y\", \"radius\"}, ...]");
  for (std::size_t k = 0; k < dabs.size(); ++k) {
    ObjectReader d(dabs[k], where + ".dabs[" + std::to_string(k) + "]");
    stroke.dabs.push_back({d.requiredNumber("x", 0, grid.width()),
                           d.requiredNumber("y", 0, grid.height()),
                           d.number("radius", 0, 0, std::max(grid.width(), grid.height()))});
    d.finish();
  }
  return stroke;
}

// A boat's recorded steering: [{"time": t, "target": [x, y]}, ...] in time order.
std::vector<BoatSteer> readSteering(const json& list, const std::string& where, const Grid& grid) {
  if (!list.is_array()) ObjectReader::fail(where, "must be [{\"time\", \"target\": [x, y]}, ...]");
  std::vector<BoatSteer> steering;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ObjectReader r(list[k], where + "[" + std::to_string(k) + "]");
    BoatSteer steer;
    steer.time = r.requiredNumber("time", 0, kHuge);
    if (!steering.empty() && steer.time < steering.back().time)
      ObjectReader::fail(r.at("time"), "must not be earlier than the entry before it");
    const json& target = r.raw("target");
    if (!target.is_array() || target.size() != 2)
      ObjectReader::fail(r.at("target"), "must be [x, y]");
    steer.x = ObjectReader::checkedNumber(target[0], r.at("target"), 0, grid.width());
    steer.y = ObjectReader::checkedNumber(target[1], r.at("target"), 0, grid.height());
    r.finish();
    steering.push_back(steer);
  }
  return steering;
}

// A checked value of one body key (its kind and range) as JSON.
json checkedBodyValue(const BodyKey& key, const json& value, const std::string& where, double hi) {
  switch (key.kind) {
    case BodyKey::Kind::Choice: {
      const auto& c = key.choices;
      if (!value.is_string() ||
          std::find(c.begin(), c.end(), value.get<std::string>()) == c.end()) {
        std::string list = c.front();
        for (std::size_t k = 1; k < c.size(); ++k)
          list += (k + 1 == c.size() ? " or " : ", ") + c[k];
        ObjectReader::fail(where, "must be " + list);
      }
      return value;
    }
    case BodyKey::Kind::Triple: {
      if (!value.is_array() || value.size() != 3) ObjectReader::fail(where, "must be [x, y, z]");
      json out = json::array();
      for (int a = 0; a < 3; ++a)
        out.push_back(ObjectReader::checkedNumber(value[a], where + "[" + std::to_string(a) + "]",
                                                  key.lo, hi));
      return out;
    }
    case BodyKey::Kind::Integer: {
      const double v = ObjectReader::checkedNumber(value, where, key.lo, hi);
      if (v != std::floor(v)) ObjectReader::fail(where, "must be an integer");
      return int(v);
    }
    case BodyKey::Kind::Number:
      break;
  }
  return ObjectReader::checkedNumber(value, where, key.lo, hi);
}

json triple(const Eigen::Vector3d& v) {
  return json::array({v.x(), v.y(), v.z()});
}
Eigen::Vector3d tripleOf(const json& v) {
  return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
}

BodyKey makeKey(std::string name, BodyKey::Kind kind, double lo, double hi, std::string unit,
                std::string doc) {
  BodyKey key;
  key.name = std::move(name);
  key.kind = kind;
  key.lo = lo;
  key.hi = hi;
  key.unit = std::move(unit);
  key.doc = std::move(doc);
  return key;
}

// A number key of BodySpec's member `member`.
BodyKey numberKey(std::string name, double BodySpec::*member, double lo, double hi,
                  std::string unit, std::string doc) {
  BodyKey key =
      makeKey(std::move(name), BodyKey::Kind::Number, lo, hi, std::move(unit), std::move(doc));
  key.get = [member](const BodySpec& b) { return json(b.*member); };
  key.set = [member](BodySpec& b, const json& v) { b.*member = v.get<double>(); };
  return key;
}

std::vector<BodyKey> declareBodyKeys() {
  using Kind = BodyKey::Kind;
  using Extent = BodyKey::Extent;
  std::vector<BodyKey> keys;
  BodyKey shape = makeKey("shape", Kind::Choice, 0, 0, "",
                          "a box, the built-in hull (a punt with a pointed bow), or a closed "
                          "triangle mesh from the Wavefront OBJ file of the key mesh");
  shape.choices = {"box", "hull", "mesh"};
  shape.get = [](const BodySpec& b) { return json(bodyShapeName(b.shape)); };
  shape.set = [](BodySpec& b, const json& v) {
    b.shape = v == "box" ? BodyShape::Box : v == "hull" ? BodyShape::Hull : BodyShape::Mesh;
  };
  keys.push_back(shape);
  BodyKey size = makeKey("size", Kind::Triple, kMinBodySize, kMaxBodySize, "m",
                         "box edges, or the hull's length, beam and height");
  size.get = [](const BodySpec& b) { return triple(b.size); };
  size.set = [](BodySpec& b, const json& v) { b.size = tripleOf(v); };
  keys.push_back(size);
  keys.push_back(numberKey("density", &BodySpec::density, 1.0, 1e5, "kg/m³",
                           "heavier than the water's density sinks to the bed"));
  for (const char* axis : {"x", "y"}) {
    BodyKey key = numberKey(axis, axis[0] == 'x' ? &BodySpec::x : &BodySpec::y, 0.0, 0.0, "m",
                            "the centre; must be on a water cell");
    key.extent = axis[0] == 'x' ? Extent::Width : Extent::Height;
    key.required = true;
    keys.push_back(key);
  }
  BodyKey z = makeKey("z", Kind::Number, -1e4, 1e4, "m",
                      "the centre of mass above the rest level; unset: placed where it floats");
  z.optional = true;
  z.get = [](const BodySpec& b) { return b.z ? json(*b.z) : json(); };
  z.set = [](BodySpec& b, const json& v) {
    b.z = v.is_null() ? std::nullopt : std::optional(v.get<double>());
  };
  keys.push_back(z);
  keys.push_back(numberKey("yaw", &BodySpec::yawDegrees, -360.0, 360.0, "°",
                           "about z, counter-clockwise from +x (first)"));
  keys.push_back(
      numberKey("pitch", &BodySpec::pitchDegrees, -360.0, 360.0, "°", "about y (after the yaw)"));
  keys.push_back(numberKey("roll", &BodySpec::rollDegrees, -360.0, 360.0, "°", "about x (last)"));
  BodyKey velocity =
      makeKey("velocity", Kind::Triple, -1e3, 1e3, "m/s", "initial velocity, e.g. a throw");
  velocity.get = [](const BodySpec& b) { return triple(b.velocity); };
  velocity.set = [](BodySpec& b, const json& v) { b.velocity = tripleOf(v); };
  keys.push_back(velocity);
  keys.push_back(numberKey("drag", &BodySpec::drag, 0.0, 1e6, "kg/(m² s)",
                           "β of F = -β a V_rel per wetted patch"));
  keys.push_back(numberKey("lift", &BodySpec::lift, 0.0, 1e6, "kg/(m² s)",
                           "j of F = -j a (n·V_rel) n on faces meeting the water"));
  keys.push_back(numberKey("shadow", &BodySpec::shadow, 0.0, 1e4, "1/s",
                           "extra damping of the water under the body"));
  BodyKey patches = makeKey("patches", Kind::Integer, 0, 16, "",
                            "patches per triangle edge; 0: automatic, one per 1.5 cells");
  patches.get = [](const BodySpec& b) { return json(b.subdivision); };
  patches.set = [](BodySpec& b, const json& v) { b.subdivision = v.get<int>(); };
  keys.push_back(patches);
  BodyKey towedBy = makeKey("towed_by", Kind::Integer, 0, 0, "",
                            "the bow is pulled to this boat of the excitations (its index)");
  towedBy.extent = Extent::Boats;
  towedBy.optional = true;
  towedBy.get = [](const BodySpec& b) { return b.towedBy ? json(*b.towedBy) : json(); };
  towedBy.set = [](BodySpec& b, const json& v) {
    b.towedBy = v.is_null() ? std::nullopt : std::optional(v.get<int>());
  };
  keys.push_back(towedBy);
  return keys;
}

// With a travelling window (`worldPaths`) a boat's path may run anywhere on the open sea.
void readExcitation(const json& value, const std::string& where, const Grid& grid,
                    ExcitationSpecs& out, bool worldPaths) {
  if (!value.is_object() || !value.contains("type") || !value["type"].is_string())
    ObjectReader::fail(where, "needs a \"type\": drop, rain, boat, wind, stir, body or mask");
  const std::string type = value["type"].get<std::string>();
  if (type == "drop") {
    out.drops.push_back(readDrop(value, where, grid, true));
    return;
  }
  if (type == "body") {  // a body that enters the water at `time` (a recorded throw)
    json keys = value;
    keys.erase("type");
    TimedBody body;
    if (keys.contains("time"))
      body.time = ObjectReader::checkedNumber(keys["time"], where + ".time", 0, kHuge);
    keys.erase("time");
    body.spec = parseBody(keys, where, grid, out.boats.size());
    if (body.spec.shape == BodyShape::Mesh)
      ObjectReader::fail(where + ".shape", "a body thrown in during the run is a box or a hull");
    out.bodies.push_back(body);
    return;
  }
  ObjectReader r(value, where);
  r.text("type", "");
  if (type == "rain") {
    RainSpec rain;
    rain.rate = r.number("rate", rain.rate, 0, 1e6);
    rain.count = r.integer("count", 0, 0, 10000000);
    rain.radius = r.number("radius", 2 * grid.dx, 1e-6, kHuge);
    rain.amplitude = r.number("amplitude", rain.amplitude, -kHuge, kHuge);
    rain.start = r.number("start", 0, 0, kHuge);
    rain.end = r.number("end", 1e300, 0, 1e300);
    if (rain.end < rain.start) ObjectReader::fail(r.at("end"), "is before \"start\"");
    if (rain.count > 0 && rain.end >= 1e300)
      ObjectReader::fail(where + ".end", "rain with a count needs an end time");
    out.rain.push_back(rain);
  } else if (type == "boat") {
    BoatSpec boat;
    if (r.has("target")) {
      const json& t = r.raw("target");
      if (!t.is_array() || t.size() != 2) ObjectReader::fail(r.at("target"), "must be [x, y]");
      boat.waypoints.push_back(
          {ObjectReader::checkedNumber(t[0], r.at("target"), 0, grid.width()),
           ObjectReader::checkedNumber(t[1], r.at("target"), 0, grid.height())});
    }
    if (r.has("path")) {
      const json& path = r.raw("path");
      if (!path.is_array() || path.empty())
        ObjectReader::fail(r.at("path"), "must be [[x, y], ...]");
      for (std::size_t k = 0; k < path.size(); ++k) {
        const std::string at = r.at("path") + "[" + std::to_string(k) + "]";
        if (!path[k].is_array() || path[k].size() != 2) ObjectReader::fail(at, "must be [x, y]");
        const double lo = worldPaths ? -kWorld : 0.0, far = worldPaths ? kWorld : 0.0;
        boat.waypoints.push_back(
            {ObjectReader::checkedNumber(path[k][0], at, lo, far + grid.width()),
             ObjectReader::checkedNumber(path[k][1], at, lo, far + grid.height())});
      }
    }
    if (boat.waypoints.empty())
      ObjectReader::fail(where, "a boat needs a \"target\" or a \"path\"");
    if (r.has("steer")) boat.steering = readSteering(r.raw("steer"), r.at("steer"), grid);
    boat.startX = r.number("x", grid.width() / 2, 0, grid.width());
    boat.startY = r.number("y", grid.height() / 2, 0, grid.height());
    boat.acceleration = r.number("acceleration", boat.acceleration, 0, kHuge);
    boat.maxSpeed = r.number("max_speed", boat.maxSpeed, 0, kHuge);
    boat.wakeRadius = r.number("wake_radius", 2 * grid.dx, 1e-6, kHuge);
    boat.wakeAmplitude = r.number("wake_amplitude", boat.wakeAmplitude, -kHuge, kHuge);
    boat.tiltGain = r.number("tilt_gain", boat.tiltGain, -kHuge, kHuge);
    boat.arriveRadius = r.number("arrive_radius", 4 * grid.dx, 0, kHuge);
    boat.step = r.number("step", boat.step, 1e-5, 10);
    out.boats.push_back(boat);
  } else if (type == "stir") {
    StirImpulse stir;
    stir.start = r.number("time", 0, 0, kHuge);
    stir.x = r.requiredNumber("x", 0, grid.width());
    stir.y = r.requiredNumber("y", 0, grid.height());
    stir.radius = r.number("radius", 2 * grid.dx, 1e-6, kHuge);
    // The range of a wind's strength: both are accelerations of the water.
    stir.ax = r.number("ax", 0, -1e4, 1e4);
    stir.ay = r.number("ay", 0, -1e4, 1e4);
    stir.duration = r.number("duration", stir.duration, 0, kHuge);
    out.stirs.push_back(stir);
  } else if (type == "mask") {
    MaskStroke stroke = readStroke(r, where, grid);
    recordStroke(out, stroke.time, std::move(stroke));
  } else if (type == "wind") {
    WindSpec wind;
    wind.direction = r.number("direction", wind.direction, -360, 360);
    wind.strength = r.number("strength", wind.strength, 0, 1e4);
    wind.start = r.number("start", 0, 0, kHuge);
    wind.end = r.number("end", 1e300, 0, 1e300);
    if (wind.end < wind.start) ObjectReader::fail(r.at("end"), "is before \"start\"");
    if (r.has("region")) {
      ObjectReader region(r.raw("region"), r.at("region"));
      wind.hasRegion = true;
      wind.x0 = region.requiredNumber("x0", -kHuge, kHuge);
      wind.y0 = region.requiredNumber("y0", -kHuge, kHuge);
      wind.x1 = region.requiredNumber("x1", -kHuge, kHuge);
      wind.y1 = region.requiredNumber("y1", -kHuge, kHuge);
      if (wind.x1 < wind.x0) ObjectReader::fail(region.at("x1"), "is less than x0");
      if (wind.y1 < wind.y0) ObjectReader::fail(region.at("y1"), "is less than y0");
      region.finish();
    }
    out.wind.push_back(wind);
  } else {
    ObjectReader::fail(
        where + ".type",
        "unknown excitation '" + type + "' (expected drop, rain, boat, wind, stir, body or mask)");
  }
  r.finish();
}

// domain.edges: "wall" | "open" | {"west": ..., "east": ..., "south": ..., "north": ...,
// "layer_cells": N}; a side not named is a wall.
Edges readEdges(const json& value, const std::string& where, const Grid& grid,
                const Context& context) {
  Edges edges;
  if (value.is_string()) {
    edges = Edges::all(parseEdgeKind(value.get<std::string>(), where));
  } else {
    if (!value.is_object())
      ObjectReader::fail(where, "must be \"wall\", \"open\" or an object of sides");
    ObjectReader r(value, where);
    for (Side side : kSides)
      if (r.has(sideName(side))) {
        const json& kind = r.raw(sideName(side));
        if (kind.is_object()) {  // {"incoming": {...}}: core/scenario/incoming_keys.hpp
          edges.set(side, EdgeKind::Incoming);
          edges.incoming[std::size_t(side)] = readIncomingEdge(
              kind, r.at(sideName(side)),
              [&](const json& v, const std::string& w) { return context.file(v, w); });
          continue;
        }
        if (!kind.is_string()) ObjectReader::fail(r.at(sideName(side)), "must be a string");
        edges.set(side, parseEdgeKind(kind.get<std::string>(), r.at(sideName(side))));
      }
    edges.layerCells = r.integer("layer_cells", edges.layerCells, 1, 1 << 15);
    r.finish();
  }
  checkEdgesFit(edges, grid, where);
  return edges;
}

// Refuses a key given twice in one object, which nlohmann's parser takes silently (the last
// wins): the first value a user wrote would be dropped without a word. Follows the parse to
// name the key's path ("s.json: bodies[1].density: given twice").
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(std::string source) : source_(std::move(source)) {}
  bool operator()(int, json::parse_event_t event, json& parsed) {
    using Event = json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        frames_.push_back({event == Event::array_start, {}, 0, {}});
        break;
      case Event::key:
        frames_.back().key = parsed.get<std::string>();
        if (!frames_.back().keys.insert(frames_.back().key).second)
          throw InputError(source_ + ": " + path() + ": given twice");
        break;
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        [[fallthrough]];
      case Event::value:
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool array = false;
    std::string key;
    int index = 0;
    std::set<std::string> keys;
  };
  std::string path() const {
    std::string out;
    // Appended piece by piece: GCC 12 warns falsely of an overlapping copy in "[" + string.
    for (const Frame& frame : frames_) {
      if (frame.array) {
        out.push_back('[');
        out.append(std::to_string(frame.index));
        out.push_back(']');
        continue;
      }
      if (!out.empty()) out.push_back('.');
      out.append(frame.key);
    }
    return out;
  }
  std::string source_;
  std::vector<Frame> frames_;
};

}  // namespace

double BodyKey::upper(const Grid& grid, std::size_t boats) const {
  switch (extent) {
    case Extent::Width:
      return grid.width();
    case Extent::Height:
      return grid.height();
    case Extent::Boats:
      return double(boats) - 1.0;
    case Extent::None:
      break;
  }
  return hi;
}

const std::vector<BodyKey>& bodyKeys() {
  static const std::vector<BodyKey> keys = declareBodyKeys();
  return keys;
}

// The placement on water is checked by RigidBodies::add when the body enters the comparison.
BodySpec parseBody(const json& value, const std::string& where, const Grid& grid,
                   std::size_t boats) {
  ObjectReader r(value, where);
  BodySpec body;
  for (const BodyKey& key : bodyKeys()) {
    if (key.required) r.raw(key.name);  // "missing"
    if (!r.has(key.name)) continue;
    if (key.extent == BodyKey::Extent::Boats && boats == 0)
      ObjectReader::fail(r.at(key.name), "the scenario has no boat to tow it");
    key.set(body, checkedBodyValue(key, r.raw(key.name), r.at(key.name), key.upper(grid, boats)));
  }
  // A mesh body's file, named as the scenario names it (loadBodyMesh reads it: it needs the
  // scenario's folder).
  const bool mesh = body.shape == BodyShape::Mesh;
  for (const char* key : {"mesh", "mesh_up"})
    if (r.has(key) && !mesh) ObjectReader::fail(r.at(key), "only for \"shape\": \"mesh\"");
  if (mesh) {
    if (!r.has("mesh")) ObjectReader::fail(r.at("mesh"), "a mesh body needs a Wavefront OBJ file");
    body.meshFile = r.text("mesh", "");
    if (body.meshFile.empty()) ObjectReader::fail(r.at("mesh"), "must be a file name");
    const std::string up = r.text("mesh_up", "z");
    if (up != "z" && up != "y") ObjectReader::fail(r.at("mesh_up"), "must be \"z\" or \"y\"");
    body.meshUp = up[0];
  }
  r.finish();
  return body;
}

json bodyJson(const BodySpec& body) {
  json out = json::object();
  for (const BodyKey& key : bodyKeys())
    if (json value = key.get(body); !value.is_null()) out[key.name] = value;
  if (body.shape == BodyShape::Mesh)
    out["mesh"] = body.meshFile, out["mesh_up"] = std::string(1, body.meshUp);
  return out;
}

Scenario parseScenario(const json& root, const std::string& source, const fs::path& baseDir,
                       bool builtin) {
  Context context{source, baseDir, builtin};
  Scenario s;
  s.source = source;
  ObjectReader top(root, source, source);
  s.name = top.text("name", s.name);
  s.description = top.text("description", "");
  {
    ObjectReader grid(top.raw("grid"), top.at("grid"));
    s.grid.nx = grid.integer("nx", s.grid.nx, 4, 1 << 16);
    s.grid.ny = grid.integer("ny", s.grid.ny, 4, 1 << 16);
    s.grid.dx = grid.number("dx", s.grid.dx, 1e-6, 1e6);
    checkGridSize(s.grid, top.at("grid"));
    grid.finish();
  }
  if (top.has("water")) {
    ObjectReader water(top.raw("water"), top.at("water"));
    s.g = water.number("g", s.g, 1e-3, 1e3);
    s.depth = water.number("depth", s.depth, Domain::kMinDepth, kMaxFieldMetres);
    s.waterDensity = water.number("density", s.waterDensity, 1.0, 1e5);
    if (water.has("bathymetry")) {
      s.bathymetry = context.field(water.raw("bathymetry"), water.at("bathymetry"));
      s.bathymetryMinDepth = water.number("min_depth", s.bathymetryMinDepth, -kMaxFieldMetres,
                                          kMaxFieldMetres);  // < 0: land
      s.bathymetryMaxDepth = water.number("max_depth", s.depth, Domain::kMinDepth, kMaxFieldMetres);
    }
    water.finish();
  }
  if (top.has("domain")) {
    ObjectReader domain(top.raw("domain"), top.at("domain"));
    if (domain.has("mask")) {
      const json& mask = domain.raw("mask");
      if (mask.is_string()) {
        s.maskPreset = mask.get<std::string>();
        parseMaskPreset(s.maskPreset, domain.at("mask"));
      } else {
        s.mask = context.field(mask, domain.at("mask"));
      }
    }
    if (domain.has("edges"))
      s.edges = readEdges(domain.raw("edges"), domain.at("edges"), s.grid, context);
    domain.finish();
  }
  if (top.has("terrain")) {
    ObjectReader terrain(top.raw("terrain"), top.at("terrain"));
    s.terrain = context.file(terrain.raw("png"), terrain.at("png"));
    s.terrainHeightScale = terrain.number("height_scale", s.terrainHeightScale, 0, 1e5);
    s.seaLevel = terrain.number("sea_level", s.seaLevel, -1e5, 1e5);
    s.coast = parseCoast(terrain.text("coast", "walls"), terrain.at("coast"));
    terrain.finish();
  }
  if (top.has("initial")) {
    ObjectReader initial(top.raw("initial"), top.at("initial"));
    if (initial.has("eta")) s.initialEta = context.field(initial.raw("eta"), initial.at("eta"));
    if (initial.has("drops")) {
      const json& drops = initial.raw("drops");
      if (!drops.is_array()) ObjectReader::fail(initial.at("drops"), "must be an array");
      for (std::size_t k = 0; k < drops.size(); ++k)
        s.initialDrops.push_back(
            readDrop(drops[k], initial.at("drops") + "[" + std::to_string(k) + "]", s.grid, false));
    }
    initial.finish();
  }
  const bool travels =
      top.has("ocean") && top.raw("ocean").is_object() && top.raw("ocean").contains("window");
  if (top.has("excitations")) {
    const json& list = top.raw("excitations");
    if (!list.is_array()) ObjectReader::fail(top.at("excitations"), "must be an array");
    for (std::size_t k = 0; k < list.size(); ++k)
      readExcitation(list[k], top.at("excitations") + "[" + std::to_string(k) + "]", s.grid,
                     s.excitations, travels);
  }
  if (top.has("bodies") && top.raw("bodies").is_array()) {  // buoyant rigid bodies
    const json& list = top.raw("bodies");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string where = top.at("bodies") + "[" + std::to_string(k) + "]";
      BodySpec body = parseBody(list[k], where, s.grid, s.excitations.boats.size());
      if (body.shape == BodyShape::Mesh) loadBodyMesh(list[k], where, context, body);
      s.rigidBodies.push_back(std::move(body));
    }
  } else if (top.has("bodies")) {  // passive tracers
    ObjectReader bodies(top.raw("bodies"), top.at("bodies"));
    s.bodies.count = bodies.integer("count", 0, 0, 100000);
    s.bodies.size = bodies.number("size", 2 * s.grid.dx, 1e-6, kHuge);
    bodies.finish();
  }
  if (top.has("models")) {
    const json& models = top.raw("models");
    if (!models.is_object()) ObjectReader::fail(top.at("models"), "must be an object");
    for (const auto& [id, params] : models.items()) {
      if (!params.is_object()) ObjectReader::fail(top.at("models") + "." + id, "must be an object");
      s.modelParams[id] = params;
    }
  }
  if (top.has("ocean")) {
    const json& ocean = top.raw("ocean");
    if (!ocean.is_object()) ObjectReader::fail(top.at("ocean"), "must be an object");
    s.ocean = ocean;
    if (travels) s.oceanWindow = readWindow(ocean.at("window"), top.at("ocean") + ".window", s);
    oceanParams(s);  // refuses an unknown key or a bad value now, naming it
  }
  if (top.has("gauges")) s.gauges = readGauges(top.raw("gauges"), top.at("gauges"), s.grid);
  if (top.has("transects"))
    s.transects = readTransects(top.raw("transects"), top.at("transects"), s.grid);
  if (top.has("reference")) {
    s.reference = readReference(top.raw("reference"), top.at("reference"), s.grid);
    const bool setsSurface = s.reference->kind != ReferenceSpec::Kind::Linear;
    if (setsSurface && (s.initialEta || !s.initialDrops.empty()))
      ObjectReader::fail(top.at("initial"),
                         "a reference sets the initial surface; give one or the other");
  }
  s.tick = top.number("tick", s.tick, 1e-5, 60);
  s.frameDt = top.number("frame_dt", s.frameDt, 1e-5, 60);
  s.duration = top.number("duration", s.duration, 0, 1e7);
  if (s.duration / s.frameDt > kMaxFrames)
    ObjectReader::fail(top.at("duration"),
                       "is more than " + std::to_string(kMaxFrames) + " frames of frame_dt");
  s.seed = std::uint64_t(top.number("seed", double(s.seed), 0, 9007199254740992.0));
  top.finish();
  s.ticksPerFrame();  // refuses a frame_dt that is not a whole number of ticks
  return s;
}

Scenario parseScenarioText(const std::string& text, const std::string& source,
                           const fs::path& baseDir, bool builtin) {
  json root;
  try {
    root = json::parse(text, DuplicateKeyCheck(source));
  } catch (const json::exception& e) {
    // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep where and why.
    std::string why = e.what();
    if (auto tag = why.find("] "); why.starts_with("[json.") && tag != std::string::npos)
      why = why.substr(tag + 2);
    throw InputError(source + ": malformed JSON: " + why);
  }
  return parseScenario(root, source, baseDir, builtin);
}

Scenario loadScenarioFile(const fs::path& file) {
  return parseScenarioText(readFileBytes(file), file.string(), fs::absolute(file).parent_path());
}

Scenario loadScenario(const std::string& fileOrBuiltin) {
  const std::string prefix = "builtin:";
  if (fileOrBuiltin.rfind(prefix, 0) == 0) {
    const std::string name = fileOrBuiltin.substr(prefix.size());
    auto text = builtinResource(name + ".json");
    if (!text) {
      std::string known;
      for (const auto& n : builtinScenarioNames())
        known += (known.empty() ? "" : ", ") + n;
      throw InputError(fileOrBuiltin + ": no such builtin scenario (known: " + known + ")");
    }
    return parseScenarioText(std::string(*text), fileOrBuiltin, {}, true);
  }
  return loadScenarioFile(fileOrBuiltin);
}

std::vector<std::string> builtinScenarioNames() {
  std::vector<std::string> names;
  for (const auto& file : builtinResourceNames())
    if (file.size() > 5 && file.ends_with(".json"))
      names.push_back(file.substr(0, file.size() - 5));
  return names;
}

ParamValues oceanParams(const Scenario& s) {
  ParamValues values(oceanParameterSpecs());
  if (!s.ocean) return values;
  json sea = *s.ocean;
  sea.erase("window");  // not the sea's: Scenario::oceanWindow
  applyParamJson(values, sea, s.source + ": ocean");
  return values;
}

void applyParamJson(ParamValues& params, const json& values, const std::string& where) {
  for (const auto& [name, value] : values.items()) {
    const std::string at = where + "." + name;
    if (!params.has(name)) throw InputError(at + ": unknown parameter");
    if (value.is_string())
      params.setFromText(name, value.get<std::string>(), at);
    else if (value.is_boolean())
      params.set(name, value.get<bool>() ? 1 : 0, at);
    else if (value.is_number() && params.spec(name).kind == ParamKind::Choice)
      params.setFromText(name, value.dump(), at);
    else if (value.is_number())
      params.set(name, value.get<double>(), at);
    else
      throw InputError(at + ": must be a number or a string");
  }
}

}  // namespace wb
