// Bodies shaped by a Wavefront OBJ mesh (core/forcing/body_shapes.hpp, parseObjMesh and
// meshGeometry; the scenario's "shape": "mesh"): the reader's checks, the mass properties
// against closed forms, Archimedes' draft for the builtin canoe, and the scenario round trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "core/forcing/rigid_bodies.hpp"
#include "core/scenario/builtin_resources.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {
namespace {

namespace fs = std::filesystem;

// The unit cube [0, 1]^3 as six quads wound outward, in the forms exporters write.
constexpr const char* kCube = R"(# unit cube
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vn 0 0 1
f 1 4 3 2
f 5/1 6/2 7/3 8/4
f 1//1 2//1 6//1 5//1
f 2/1/1 3/1/1 7/1/1 6/1/1
f -5 -1 -2 -6
f 4 1 5 8
)";

std::string errorOf(const std::string& obj) {
  try {
    parseObjMesh(obj, "hull.obj", 'z');
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BodyMesh, CubeFromQuadsIsClosedWithUnitVolume) {
  const TriangleMesh mesh = parseObjMesh(kCube, "cube.obj", 'z');
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  const MassProperties mass = massProperties(mesh.vertices, mesh.triangles);
  EXPECT_NEAR(mass.volume, 1.0, 1e-12);
  EXPECT_NEAR((mass.centre - Eigen::Vector3d::Constant(0.5)).norm(), 0.0, 1e-12);
}

// A box a x b x c of unit density: I_xx = V (b^2 + c^2) / 12, and so on.
TEST(BodyMesh, ScaledCubeHasTheBoxInertia) {
  const TriangleMesh mesh = parseObjMesh(kCube, "cube.obj", 'z');
  const Eigen::Vector3d size(2.0, 3.0, 4.0);
  const BodyGeometry g = meshGeometry(mesh, size, 2);
  const double volume = 24.0;
  EXPECT_NEAR(g.volume, volume, 1e-12);
  EXPECT_NEAR(g.unitInertia(0, 0), volume * (9 + 16) / 12.0, 1e-9);
  EXPECT_NEAR(g.unitInertia(1, 1), volume * (4 + 16) / 12.0, 1e-9);
  EXPECT_NEAR(g.unitInertia(2, 2), volume * (4 + 9) / 12.0, 1e-9);
  EXPECT_NEAR(g.unitInertia(0, 1), 0.0, 1e-9);
  EXPECT_NEAR((g.halfExtent - size / 2).norm(), 0.0, 1e-12);
  // Patches cover the surface: 12 triangles x 2^2, total area 2 (6 + 8 + 12) = 52 m^2.
  double area = 0.0;
  for (const auto& p : g.patches)
    area += p.area;
  EXPECT_EQ(g.patches.size(), 48u);
  EXPECT_NEAR(area, 52.0, 1e-9);
}

TEST(BodyMesh, YUpFilesAreTurnedToZUp) {
  // A 1 x 3 x 2 (x, y, z) box in a y-up file is 1 long, 2 wide and 3 tall in the body frame.
  const TriangleMesh file = parseObjMesh(kCube, "cube.obj", 'z');
  std::string obj;
  for (const auto& v : file.vertices)
    obj += "v " + std::to_string(v.x()) + " " + std::to_string(3 * v.y()) + " " +
           std::to_string(2 * v.z()) + "\n";
  for (const auto& t : file.triangles)
    obj += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " +
           std::to_string(t[2] + 1) + "\n";
  const TriangleMesh turned = parseObjMesh(obj, "box.obj", 'y');
  EXPECT_NEAR((turned.extent() - Eigen::Vector3d(1, 2, 3)).norm(), 0.0, 1e-12);
  EXPECT_NEAR(massProperties(turned.vertices, turned.triangles).volume, 6.0, 1e-12);
}

TEST(BodyMesh, InwardWindingIsTurnedOutward) {
  std::string inward = kCube;
  // Reverse every face: "f a b c d" -> "f d c b a".
  std::string out;
  std::size_t start = 0;
  while (start < inward.size()) {
    const std::size_t end = inward.find('\n', start);
    std::string line = inward.substr(start, end - start);
    if (line.rfind("f ", 0) == 0) {
      std::vector<std::string> parts;
      std::size_t k = 2;
      while (k < line.size()) {
        const std::size_t space = line.find(' ', k);
        parts.push_back(line.substr(k, space == std::string::npos ? std::string::npos : space - k));
        k = space == std::string::npos ? line.size() : space + 1;
      }
      line = "f";
      for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        line += " " + *it;
    }
    out += line + "\n";
    start = end + 1;
  }
  const TriangleMesh mesh = parseObjMesh(out, "inward.obj", 'z');
  EXPECT_NEAR(massProperties(mesh.vertices, mesh.triangles).volume, 1.0, 1e-12);
}

TEST(BodyMesh, BadMeshesAreRefusedNamingFileAndWhy) {
  const std::string cube = kCube;
  const std::string lastFace = "f 4 1 5 8\n";
  const std::string holed = cube.substr(0, cube.find(lastFace));
  EXPECT_NE(errorOf(holed).find("hull.obj: not a closed surface"), std::string::npos)
      << errorOf(holed);
  EXPECT_NE(errorOf(holed).find("one face only"), std::string::npos);
  const std::string flipped = holed + "f 8 5 1 4\n";  // the last face wound the wrong way
  EXPECT_NE(errorOf(flipped).find("shared wrongly"), std::string::npos) << errorOf(flipped);
  EXPECT_EQ(errorOf("v 0 0 0\nv 1 0 0\nf 1 2 9\n"),
            "hull.obj:3: vertex 9 is not defined above this face");
  EXPECT_EQ(errorOf("v 0 0 nan\n"), "hull.obj:1: 'nan' is not a finite number");
  EXPECT_EQ(errorOf("v 0 0\n"), "hull.obj:1: a vertex needs x y z");
  EXPECT_EQ(errorOf("v 0 0 0\nf 1 1 1\n"), "hull.obj:2: a face uses the same vertex twice");
  EXPECT_EQ(errorOf("# nothing\n"), "hull.obj: needs a closed surface of at least 4 triangles");
  // A tetrahedron squashed flat: closed and wound one way, but no volume.
  EXPECT_EQ(errorOf("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n"),
            "hull.obj: encloses no volume");
}

// The builtin canoe (resources/scenarios/canoe.obj) rests at the draft where the water it
// displaces weighs what it does, and stays there on still water: the patch integrals are exact
// on flat water for any closed mesh.
TEST(BodyMesh, CanoeFloatsAtItsArchimedesDraft) {
  const auto text = builtinResource("canoe.obj");
  ASSERT_TRUE(text.has_value());
  BodySpec spec;
  spec.shape = BodyShape::Mesh;
  spec.mesh = std::make_shared<const TriangleMesh>(parseObjMesh(*text, "canoe.obj", 'z'));
  spec.size = spec.mesh->extent();
  spec.density = 350.0;
  spec.x = spec.y = 10.0;
  Domain domain(Grid{80, 80, 0.25}, 9.81, 5.0);
  Field2D eta(80, 80);
  RigidBodies bodies(domain, 1000.0);
  bodies.add(spec, 0, eta);
  const RigidBody& canoe = bodies.bodies()[0];
  EXPECT_NEAR(canoe.displacedVolume * 1000.0 / canoe.mass, 1.0, 1e-3);
  const double z0 = canoe.position.z();
  for (int k = 0; k < 120; ++k)
    bodies.advance(1.0 / 60.0, WaterSurface{eta});
  EXPECT_NEAR(canoe.position.z(), z0, 0.01 * spec.size.z());
  EXPECT_NEAR(canoe.displacedVolume * 1000.0 / canoe.mass, 1.0, 1e-2);
}

// The canoe with its keel vertex under the bow section pulled up through the deck: still closed,
// wound one way and of positive volume, but the surface passes through itself and its signed
// second moments are negative (the fuzzer's input whose rotation ran away to infinity). Pulled
// up less far, the canoe stays a solid, is accepted and floats with finite motion.
TEST(BodyMesh, ASurfaceThroughItselfIsRefusedAndASolidOneFloats) {
  const auto text = builtinResource("canoe.obj");
  ASSERT_TRUE(text.has_value());
  const auto withKeelAt = [&](const std::string& z) {
    std::string obj(*text);
    const std::string keel = "\nv -0.9 0 -0.31305\n";
    const std::size_t at = obj.find(keel);
    EXPECT_NE(at, std::string::npos) << "canoe.obj changed: choose another vertex";
    return obj.replace(at, keel.size(), "\nv -0.9 0 " + z + "\n");
  };
  EXPECT_EQ(errorOf(withKeelAt("20.3")),
            "hull.obj: its surface passes through itself (the volume's second moments are not "
            "a solid's)");
  BodySpec spec;
  spec.shape = BodyShape::Mesh;
  spec.mesh = std::make_shared<const TriangleMesh>(parseObjMesh(withKeelAt("-0.2"), "c.obj", 'z'));
  spec.size = spec.mesh->extent();
  spec.density = 500.0;
  spec.subdivision = 1;
  spec.x = spec.y = 1.6;
  Domain domain(Grid{32, 32, 0.1}, 9.81, 0.5);
  Field2D eta(32, 32);
  RigidBodies bodies(domain, 1000.0);
  bodies.add(spec, 0, eta);
  for (int k = 0; k < 60; ++k)
    bodies.advance(0.01, WaterSurface{eta});
  EXPECT_TRUE(bodies.bodies()[0].position.allFinite());
  EXPECT_TRUE(bodies.bodies()[0].orientation.coeffs().allFinite());
}

TEST(BodyMesh, ScenarioReadsSavesAndRefusesMeshBodies) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_body_mesh_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "cube.obj") << kCube;
  const std::string head = R"({"grid": {"nx": 40, "ny": 40, "dx": 0.25}, "bodies": [)";
  const auto write = [&](const std::string& name, const std::string& body) {
    std::ofstream(dir / name) << head << body << "]}";
    return dir / name;
  };
  const Scenario s = loadScenarioFile(
      write("ok.json", R"({"shape": "mesh", "mesh": "cube.obj", "x": 5, "y": 5})"));
  ASSERT_EQ(s.rigidBodies.size(), 1u);
  EXPECT_EQ(s.rigidBodies[0].shape, BodyShape::Mesh);
  EXPECT_NEAR((s.rigidBodies[0].size - Eigen::Vector3d::Ones()).norm(), 0.0, 1e-12);
  saveScenarioFile(s, dir / "saved.json");
  const Scenario again = loadScenarioFile(dir / "saved.json");
  EXPECT_EQ(scenarioToJson(s), scenarioToJson(again));

  const auto errorFor = [&](const std::string& body) {
    try {
      loadScenarioFile(write("bad.json", body));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(errorFor(R"({"shape": "mesh", "x": 5, "y": 5})").find("bodies[0].mesh: "),
            std::string::npos);
  EXPECT_NE(errorFor(R"({"shape": "mesh", "mesh": "none.obj", "x": 5, "y": 5})").find("none.obj"),
            std::string::npos);
  EXPECT_NE(errorFor(R"({"shape": "mesh", "mesh": "cube.obj", "mesh_up": "x", "x": 5, "y": 5})")
                .find("bodies[0].mesh_up: must be"),
            std::string::npos);
  EXPECT_NE(errorFor(R"({"shape": "box", "mesh": "cube.obj", "x": 5, "y": 5})")
                .find("bodies[0].mesh: only for \"shape\": \"mesh\""),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace wb
