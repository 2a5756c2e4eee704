// Buoyant rigid bodies on still water that does not respond (core/forcing/rigid_bodies.hpp):
// the body's own physics, each against a closed-form figure. The two-way coupling with every
// model is tested in tests/unit/body_coupling_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/forcing/rigid_bodies.hpp"

namespace wb {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct StillWater {
  Domain domain{Grid{80, 80, 0.25}, 9.81, 5.0};
  Field2D eta{80, 80};
  RigidBodies bodies{domain, 1000.0};
  WaterSurface water() const { return {eta}; }
  void run(double seconds, double dt = 1.0 / 60.0) {
    for (int k = 0; k < int(std::lround(seconds / dt)); ++k)
      bodies.advance(dt, water());
  }
};

BodySpec box(double lx, double ly, double lz, double density) {
  BodySpec spec;
  spec.size = {lx, ly, lz};
  spec.density = density;
  spec.x = spec.y = 10.0;
  return spec;
}

// The height of the body's lowest vertex below the still surface.
double draft(const RigidBody& body) {
  double lowest = 1e9;
  for (const auto& v : body.geometry->vertices)
    lowest = std::min(lowest, (body.orientation * v + body.position).z());
  return -lowest;
}

TEST(BodyShapes, BoxAndHullMassPropertiesMatchClosedForms) {
  const BodyGeometry boxShape = boxGeometry({2.0, 1.0, 0.5}, 3);
  EXPECT_NEAR(boxShape.volume, 1.0, 1e-12);
  // I_xx = V (ly^2 + lz^2) / 12 for a solid box of unit density.
  EXPECT_NEAR(boxShape.unitInertia(0, 0), (1.0 + 0.25) / 12.0, 1e-12);
  EXPECT_NEAR(boxShape.unitInertia(1, 1), (4.0 + 0.25) / 12.0, 1e-12);
  EXPECT_NEAR(boxShape.unitInertia(2, 2), (4.0 + 1.0) / 12.0, 1e-12);
  EXPECT_NEAR(boxShape.unitInertia(0, 1), 0.0, 1e-12);
  double area = 0.0;
  for (const auto& patch : boxShape.patches)
    area += patch.area;
  EXPECT_NEAR(area, 2 * (2.0 + 1.0 + 0.5), 1e-12);
  EXPECT_EQ(boxShape.patches.size(), 12u * 9u);
  // The hull's plan: a rectangle over 2/3 of its length and a triangle over the last third.
  const BodyGeometry hull = hullGeometry({3.0, 1.0, 0.5}, 2);
  EXPECT_NEAR(hull.volume, 5.0 / 6.0 * 3.0 * 1.0 * 0.5, 1e-12);
  const MassProperties moved = massProperties(hull.vertices, hull.triangles);
  EXPECT_NEAR(moved.centre.norm(), 0.0, 1e-12);  // the centre of mass is the frame's origin
}

TEST(RigidBodies, BoxesOfSeveralDensitiesSettleAtArchimedesDraft) {
  for (const double density : {250.0, 500.0, 750.0}) {
    StillWater still;
    BodySpec spec = box(1.0, 0.8, 0.6, density);
    spec.z = 0.5;  // dropped from above the water
    still.bodies.add(spec, 0, still.eta);
    still.run(30.0);
    const RigidBody& body = still.bodies.bodies()[0];
    EXPECT_NEAR(draft(body), density / 1000.0 * 0.6, 0.01 * 0.6) << "density " << density;
    EXPECT_NEAR(body.displacedVolume, body.mass / 1000.0, 1e-3 * body.geometry->volume);
  }
}

TEST(RigidBodies, RestingPlacementIsInEquilibrium) {
  StillWater still;
  still.bodies.add(box(1.0, 1.0, 0.5, 400.0), 0, still.eta);
  const RigidBody& body = still.bodies.bodies()[0];
  EXPECT_NEAR(draft(body), 0.2, 1e-9);
  const BodyLoads load = still.bodies.loads(body, still.water());
  EXPECT_NEAR(load.force.z(), body.mass * 9.81, 1e-6 * body.mass * 9.81);
}

// Heave without drag: m z'' = -rho g A z, T = 2 pi sqrt(m / (rho g A)). The water here does
// not move, so there is no added mass; the coupled decay is measured in docs/bodies.md.
TEST(RigidBodies, HeavePeriodMatchesWaterplaneStiffness) {
  BodySpec spec = box(1.0, 1.0, 1.0, 500.0);
  spec.drag = spec.lift = 0.0;
  StillWater resting;
  resting.bodies.add(spec, 0, resting.eta);
  const double rest = resting.bodies.bodies()[0].position.z();
  StillWater still;
  spec.z = rest + 0.05;
  still.bodies.add(spec, 0, still.eta);
  RigidBodies& bodies = still.bodies;
  const double expected = 2 * kPi * std::sqrt(500.0 / (1000.0 * 9.81 * 1.0));
  std::vector<double> upCrossings;
  const double dt = 1.0 / 240.0;
  double previous = 0.05;
  for (int k = 0; k < int(10.0 / dt); ++k) {
    bodies.advance(dt, still.water());
    const double offset = bodies.bodies()[0].position.z() - rest;
    if (previous < 0.0 && offset >= 0.0)
      upCrossings.push_back((k + previous / (previous - offset)) * dt);
    previous = offset;
  }
  ASSERT_GE(upCrossings.size(), 4u);
  const double period = (upCrossings.back() - upCrossings.front()) / (upCrossings.size() - 1);
  EXPECT_NEAR(period, expected, 0.005 * expected);
}

// Metacentric stability: GM = KB + BM - KG with BM = I_waterplane / V_immersed.
TEST(RigidBodies, TallBoxCapsizesAndFlatBoxStaysUpright) {
  const auto upright = [](const RigidBody& body) {
    return (body.orientation * Eigen::Vector3d::UnitZ()).z();
  };
  {  // 0.4 x 0.4 x 1.2 at half density: GM = 0.3 + 0.022 - 0.6 < 0
    StillWater still;
    BodySpec spec = box(0.4, 0.4, 1.2, 500.0);
    spec.rollDegrees = 2.0;
    still.bodies.add(spec, 0, still.eta);
    still.run(30.0);
    EXPECT_LT(std::fabs(upright(still.bodies.bodies()[0])), 0.05) << "it should lie on its side";
  }
  {  // 1 x 1 x 0.3 at half density: GM = 0.075 + 0.556 - 0.15 > 0
    StillWater still;
    BodySpec spec = box(1.0, 1.0, 0.3, 500.0);
    spec.pitchDegrees = 15.0;
    still.bodies.add(spec, 0, still.eta);
    still.run(30.0);
    EXPECT_GT(upright(still.bodies.bodies()[0]), 0.999);
  }
}

TEST(RigidBodies, BadBodiesAreRefusedNamingIndexAndKey) {
  StillWater still;
  const auto message = [&](const BodySpec& spec) {
    try {
      still.bodies.add(spec, 3, still.eta);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  BodySpec spec = box(1.0, 1.0, 1.0, 500.0);
  spec.size.y() = 0.0;
  EXPECT_EQ(message(spec).rfind("bodies[3].size[1]: ", 0), 0u) << message(spec);
  spec = box(1.0, 1.0, 1.0, -1.0);
  EXPECT_EQ(message(spec).rfind("bodies[3].density: ", 0), 0u) << message(spec);
  spec = box(1.0, 1.0, 1.0, std::nan(""));
  EXPECT_EQ(message(spec).rfind("bodies[3].density: ", 0), 0u) << message(spec);
  spec = box(1.0, 1.0, 1.0, 500.0);
  spec.x = 25.0;  // the grid is 20 m wide
  EXPECT_EQ(message(spec).rfind("bodies[3].x", 0), 0u) << message(spec);
  still.domain.setWet(40, 40, false);  // a wall cell under the centre
  spec = box(1.0, 1.0, 1.0, 500.0);
  spec.x = spec.y = 10.1;
  EXPECT_EQ(message(spec), "bodies[3].x, y: the centre (10.1, 10.1) m is not on a water cell");
}

TEST(RigidBodies, DenseBoxSinksToTheBedAndStaysOnIt) {
  StillWater still;
  still.bodies.add(box(1.0, 1.0, 1.0, 2000.0), 0, still.eta);
  still.run(20.0);
  const RigidBody& body = still.bodies.bodies()[0];
  EXPECT_NEAR(body.position.z(), -5.0 + 0.5, 0.01);
  EXPECT_LT(body.velocity.norm(), 1e-3);
}

TEST(RigidBodies, ThrownBoxStopsAtTheWallWithoutPassingIt) {
  StillWater still;
  BodySpec spec = box(1.0, 1.0, 0.5, 500.0);
  spec.velocity = {15.0, 0.0, 0.0};
  still.bodies.add(spec, 0, still.eta);
  still.run(5.0);
  const RigidBody& body = still.bodies.bodies()[0];
  for (const auto& v : body.geometry->vertices)
    EXPECT_LE((body.orientation * v + body.position).x(), 20.0 + 1e-9);
}

}  // namespace
}  // namespace wb
