// The "bodies" key: buoyant rigid bodies (an array, each object read with bodyKeys(), which the
// workbench's Bodies tab is generated from) or passive tracers (an object, tracerKeys()).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/scenario/scenario_sections.hpp"

namespace wb {
using nlohmann::json;

namespace {

constexpr double kMinBodySize = 1e-3, kMaxBodySize = 1e4;  // m, a buoyant body's "size"

// A mesh body's OBJ file, resolved like every file of the scenario, read and checked
// (parseObjMesh); the body takes the mesh's own size unless the scenario gives "size".
void loadBodyMesh(const json& value, const std::string& where, const ScenarioFiles& context,
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

json triple(const Eigen::Vector3d& v) {
  return json::array({v.x(), v.y(), v.z()});
}
Eigen::Vector3d tripleOf(const json& v) {
  return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
}

std::vector<BodyKey> declareBodyKeys() {
  using Kind = KeyKind;
  std::vector<BodyKey> keys;
  keys.push_back({.name = "shape",
                  .kind = Kind::Choice,
                  .doc = "a box, the built-in hull (a punt with a pointed bow), or a closed "
                         "triangle mesh from the Wavefront OBJ file of the key mesh",
                  .choices = {"box", "hull", "mesh"},
                  .get = [](const BodySpec& b) { return json(bodyShapeName(b.shape)); },
                  .set =
                      [](BodySpec& b, const json& v, const KeyContext&) {
                        b.shape = v == "box"    ? BodyShape::Box
                                  : v == "hull" ? BodyShape::Hull
                                                : BodyShape::Mesh;
                      }});
  keys.push_back(
      {.name = "size",
       .kind = Kind::Triple,
       .lo = kMinBodySize,
       .hi = kMaxBodySize,
       .unit = "m",
       .doc = "box edges, or the hull's length, beam and height",
       .get = [](const BodySpec& b) { return triple(b.size); },
       .set = [](BodySpec& b, const json& v, const KeyContext&) { b.size = tripleOf(v); }});
  keys.push_back(memberKey<BodySpec>(
      {.name = "density",
       .lo = 1.0,
       .hi = 1e5,
       .unit = "kg/m³",
       .doc = "heavier than the water's density sinks to the bed"},
      [](auto& b) -> auto& { return b.density; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "x",
       .extent = KeyExtent::Width,
       .unit = "m",
       .doc = "the centre; must be on a water cell",
       .required = true,
       .rangeDoc = "inside the grid, m"},
      [](auto& b) -> auto& { return b.x; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "y",
       .extent = KeyExtent::Height,
       .unit = "m",
       .doc = "the centre; must be on a water cell",
       .required = true,
       .rangeDoc = "inside the grid, m"},
      [](auto& b) -> auto& { return b.y; }));
  keys.push_back({.name = "z",
                  .lo = -1e4,
                  .hi = 1e4,
                  .unit = "m",
                  .doc = "the centre of mass above the rest level; unset: placed where it floats",
                  .optional = true,
                  .defaultDoc = "resting",
                  .get = [](const BodySpec& b) { return b.z ? json(*b.z) : json(); },
                  .set =
                      [](BodySpec& b, const json& v, const KeyContext&) {
                        b.z = v.is_null() ? std::nullopt : std::optional(v.get<double>());
                      }});
  keys.push_back(memberKey<BodySpec>(
      {.name = "yaw",
       .lo = -360.0,
       .hi = 360.0,
       .unit = "°",
       .doc = "about z, counter-clockwise from +x (first)"},
      [](auto& b) -> auto& { return b.yawDegrees; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "pitch", .lo = -360.0, .hi = 360.0, .unit = "°", .doc = "about y (after the yaw)"},
      [](auto& b) -> auto& { return b.pitchDegrees; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "roll", .lo = -360.0, .hi = 360.0, .unit = "°", .doc = "about x (last)"},
      [](auto& b) -> auto& { return b.rollDegrees; }));
  keys.push_back(
      {.name = "velocity",
       .kind = Kind::Triple,
       .lo = -1e3,
       .hi = 1e3,
       .unit = "m/s",
       .doc = "initial velocity, e.g. a throw",
       .get = [](const BodySpec& b) { return triple(b.velocity); },
       .set = [](BodySpec& b, const json& v, const KeyContext&) { b.velocity = tripleOf(v); }});
  keys.push_back(memberKey<BodySpec>(
      {.name = "drag",
       .lo = 0.0,
       .hi = 1e6,
       .unit = "kg/(m² s)",
       .doc = "β of F = -β a V_rel per wetted patch"},
      [](auto& b) -> auto& { return b.drag; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "lift",
       .lo = 0.0,
       .hi = 1e6,
       .unit = "kg/(m² s)",
       .doc = "j of F = -j a (n·V_rel) n on faces meeting the water"},
      [](auto& b) -> auto& { return b.lift; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "shadow",
       .lo = 0.0,
       .hi = 1e4,
       .unit = "1/s",
       .doc = "extra damping of the water under the body"},
      [](auto& b) -> auto& { return b.shadow; }));
  keys.push_back(memberKey<BodySpec>(
      {.name = "patches",
       .kind = Kind::Integer,
       .lo = 0,
       .hi = 16,
       .doc = "patches per triangle edge; 0: automatic, one per 1.5 cells"},
      [](auto& b) -> auto& { return b.subdivision; }));
  keys.push_back({.name = "towed_by",
                  .kind = Kind::Integer,
                  .extent = KeyExtent::Boats,
                  .doc = "the bow is pulled to this boat of the excitations (its index)",
                  .optional = true,
                  .rangeDoc = "a boat's index among the scenario's boats",
                  .get = [](const BodySpec& b) { return b.towedBy ? json(*b.towedBy) : json(); },
                  .set =
                      [](BodySpec& b, const json& v, const KeyContext&) {
                        b.towedBy = v.is_null() ? std::nullopt : std::optional(v.get<int>());
                      }});
  return keys;
}

// A mesh body's file, named as the scenario names it (loadBodyMesh reads it: it needs the
// scenario's folder), and the file's up axis. Not in bodyKeys(): the Bodies tab keeps a mesh
// body's file.
std::vector<BodyKey> declareMeshKeys() {
  const auto onlyForMesh = [](const BodySpec& b, const KeyContext& at) {
    if (b.shape != BodyShape::Mesh) ObjectReader::fail(at.where, "only for \"shape\": \"mesh\"");
  };
  std::vector<BodyKey> keys;
  keys.push_back(
      {.name = "mesh",
       .kind = KeyKind::Custom,
       .doc = "a Wavefront OBJ file (relative to the scenario's folder; `builtin:canoe` uses the "
              "embedded `canoe.obj`): `v` and `f` records, polygons fanned, other records "
              "ignored; one closed surface wound one way, in one piece (two shells are refused), "
              "at most 20000 triangles; x is the bow, z up, the centre of mass is found",
       .typeDoc = "file name",
       .defaultDoc = "none",
       .rangeDoc = "shape `\"mesh\"` only",
       .get =
           [](const BodySpec& b) { return b.shape == BodyShape::Mesh ? json(b.meshFile) : json(); },
       .set =
           [onlyForMesh](BodySpec& b, const json& v, const KeyContext& at) {
             onlyForMesh(b, at);
             b.meshFile = ObjectReader::checkedText(v, at.where);
             if (b.meshFile.empty()) ObjectReader::fail(at.where, "must be a file name");
           },
       .fallback =
           [](BodySpec& b, const KeyContext& at) {
             if (b.shape == BodyShape::Mesh)
               ObjectReader::fail(at.where, "a mesh body needs a Wavefront OBJ file");
           }});
  keys.push_back(
      {.name = "mesh_up",
       .kind = KeyKind::Custom,
       .doc = "`\"y\"` reads a y-up file (Blender's default export) turned by (x, y, z) -> (x, "
              "-z, y)",
       .typeDoc = "`\"z\"` or `\"y\"`",
       .defaultDoc = "`\"z\"`",
       .rangeDoc = "shape `\"mesh\"` only",
       .get =
           [](const BodySpec& b) {
             return b.shape == BodyShape::Mesh ? json(std::string(1, b.meshUp)) : json();
           },
       .set =
           [onlyForMesh](BodySpec& b, const json& v, const KeyContext& at) {
             onlyForMesh(b, at);
             const std::string up = ObjectReader::checkedText(v, at.where);
             if (up != "z" && up != "y") ObjectReader::fail(at.where, "must be \"z\" or \"y\"");
             b.meshUp = up[0];
           }});
  return keys;
}

}  // namespace

const std::vector<BodyKey>& bodyKeys() {
  static const std::vector<BodyKey> keys = declareBodyKeys();
  return keys;
}

const std::vector<BodyKey>& meshBodyKeys() {
  static const std::vector<BodyKey> keys = declareMeshKeys();
  return keys;
}

// The placement on water is checked by RigidBodies::add when the body enters the comparison.
BodySpec parseBody(const json& value, const std::string& where, const Grid& grid,
                   std::size_t boats) {
  ObjectReader r(value, where);
  BodySpec body;
  const KeyContext context{.where = where, .grid = &grid, .boats = boats};
  readKeys(r, bodyKeys(), body, context);
  readKeys(r, meshBodyKeys(), body, context);
  r.finish();
  return body;
}

json bodyJson(const BodySpec& body) {
  json out = writeKeys(bodyKeys(), body);
  out.update(writeKeys(meshBodyKeys(), body));
  return out;
}

void readBodies(const json& value, const KeyContext& context, Scenario& s) {
  if (value.is_array()) {  // buoyant rigid bodies
    for (std::size_t k = 0; k < value.size(); ++k) {
      const std::string where = context.where + "[" + std::to_string(k) + "]";
      BodySpec body = parseBody(value[k], where, s.grid, s.excitations.boats.size());
      if (body.shape == BodyShape::Mesh) loadBodyMesh(value[k], where, *context.files, body);
      s.rigidBodies.push_back(std::move(body));
    }
    return;
  }
  ObjectReader tracers(value, context.where);  // passive tracers
  readKeys(tracers, tracerKeys(), s, context);
  tracers.finish();
}

json bodiesJson(const Scenario& s) {
  if (!s.rigidBodies.empty()) {
    json out = json::array();
    for (const BodySpec& body : s.rigidBodies)
      out.push_back(bodyJson(body));
    return out;
  }
  if (s.bodies.count > 0) return writeKeys(tracerKeys(), s);
  return json();
}

}  // namespace wb
