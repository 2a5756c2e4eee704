// libFuzzer target: the Wavefront OBJ reader and the buoyant bodies' stamping. Any text must
// either give a closed mesh or an InputError. An accepted mesh, at its own size (refused when
// beyond the pool, as the scenario refuses it) or squeezed into the pool, is placed on a small
// pool and stepped a few times: its loads, its displacement stamps and its shadow stay on the
// grid and finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "core/forcing/body_shapes.hpp"
#include "core/forcing/rigid_bodies.hpp"
#include "core/grid/domain.hpp"

namespace {

constexpr int kCells = 32;
constexpr double kDx = 0.1, kDepth = 0.5;

void stepOnPool(const std::shared_ptr<const wb::TriangleMesh>& mesh, bool squeeze) {
  const wb::Domain domain(wb::Grid{kCells, kCells, kDx}, 9.81, kDepth);
  wb::Field2D eta(kCells, kCells), delta(kCells, kCells), shadow(kCells, kCells);
  wb::BodySpec spec;
  spec.shape = wb::BodyShape::Mesh;
  spec.mesh = mesh;
  spec.size = mesh->extent();
  if (squeeze) spec.size = spec.size.cwiseMin(Eigen::Vector3d::Constant(1.0));
  spec.density = 500.0;
  // One patch per triangle: the automatic subdivision (up to 8 x 8 per triangle) makes a large
  // mesh's steps too slow for thousands of inputs a second under the sanitizers.
  spec.subdivision = 1;
  spec.x = spec.y = kCells * kDx / 2;
  wb::RigidBodies bodies(domain, 1000.0);
  try {
    bodies.add(spec, 0, eta);
  } catch (const wb::InputError&) {
    return;  // refused, naming the key
  }
  const wb::WaterSurface water{eta};
  for (int step = 0; step < 4; ++step) {
    bodies.advance(0.01, water);
    bodies.stampDisplacement(delta);
    bodies.stampShadow(shadow);
    if (!delta.allFinite() || !shadow.allFinite()) std::abort();
    bodies.clearStamped(delta);
  }
  for (const wb::RigidBody& body : bodies.bodies())
    if (!body.position.allFinite()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<const wb::TriangleMesh> mesh;
  try {
    mesh = std::make_shared<const wb::TriangleMesh>(wb::parseObjMesh(text, "fuzz.obj", 'z'));
  } catch (const wb::InputError&) {
    return 0;
  }
  stepOnPool(mesh, false);
  stepOnPool(mesh, true);
  return 0;
}
