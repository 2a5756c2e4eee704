// Buoyant rigid bodies on the water of one model, coupled both ways (Jensen & Golias 2001,
// "Buoyant rigid objects"); the passive tracers of core/forcing/floating_bodies.hpp are the
// other, one-way kind. docs/bodies.md gives the physics, the checks and their figures.
//
// Water on the body, per patch (core/forcing/body_shapes.hpp), the patch clipped at the water
// surface sampled under its centre (bilinear, Layton eq. 32):
//   displaced column   V_p = a (eta - z_c) (-n . e_z)       (J&G: V = a (P_water - P_centre) N)
//   buoyancy           F_b = rho g V_p N_water               (J&G: F = rho V N_water, per g)
//   drag               F_d = -beta a V_rel                   (J&G: F_drag = beta a V)
//   lift               F_l = -j a (n . V_rel) n,  n . V_rel > 0 (J&G: F = -j a (N . V) N)
// with a the clipped area, z_c its centroid's height, n the patch's outward normal and V_rel
// the patch's velocity relative to the water's (the model's depth-averaged velocity, zero
// where it has none). The columns add up to the immersed volume exactly for flat water (the
// divergence theorem; the waterline cap adds nothing), and their vertical forces act where
// the columns stand, so the restoring moment of a tilted body (its metacentre) comes out of
// the same sum. Gravity acts at the centre of mass.
//
// Integration: semi-implicit (symplectic) Euler, velocities first from the forces at the
// current pose, then the pose from the new velocities, the orientation by the exact rotation
// of omega dt. Each model substep is split into as many body substeps as keep omega_max dt
// <= 0.2 for the stiffest mode (heave, roll) and drag dt / m <= 0.5, and no vertex moves more
// than half a cell (no tunnelling through a wall one cell thick).
//
// Contact: a vertex below the bed, in a solid cell or outside the grid, or inside another body
// is pushed out along the contact normal and its approach velocity removed by an impulse
// (perfectly inelastic, frictionless).
//
// Water from the body: the change of each body's displaced volume over a substep is pushed
// into the surface around it (a smooth bump over its footprint, J&G's "change in depth ...
// fed back as direct displacement"), so water volume rises by exactly what the bodies displace;
// and the cells under a body get an extra damping rate (J&G's wave "shadow").
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/forcing/body_shapes.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

enum class BodyShape { Box, Hull };

// A body as the scenario (or a click in the app) asks for it; checked by RigidBodies::add.
struct BodySpec {
  BodyShape shape = BodyShape::Box;
  Eigen::Vector3d size{1.0, 1.0, 1.0};  // box edges, or a hull's length, beam, height (m)
  double density = 500.0;               // kg/m^3
  double x = 0.0, y = 0.0;              // centre (m)
  std::optional<double> z;              // centre of mass above the rest level (m); unset: resting
  double yawDegrees = 0.0;              // about z, counter-clockwise from +x
  double pitchDegrees = 0.0, rollDegrees = 0.0;        // then about y, then x (z-y-x convention)
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  // initial (m/s), e.g. a throw
  double drag = 100.0;                                 // beta (kg/(m^2 s))
  double lift = 100.0;                                 // j (kg/(m^2 s))
  double shadow = 2.0;  // extra damping of the water under the body (1/s)
  int subdivision = 3;  // patches per triangle edge
};

struct RigidBody {
  int id = 0;
  BodySpec spec;
  const BodyGeometry* geometry = nullptr;  // owned by RigidBodies
  double mass = 0.0;                       // kg
  Eigen::Matrix3d inertia;                 // body frame, about the centre of mass (kg m^2)
  Eigen::Vector3d position;                // centre of mass (m), z above the rest level
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  // body -> world
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();               // m/s
  Eigen::Vector3d angularVelocity = Eigen::Vector3d::Zero();        // world frame (rad/s)
  double displacedVolume = 0.0;  // immersed volume at the current pose (m^3)
  // Roll (about x), pitch (about y), yaw (about z), radians, z-y-x convention.
  Eigen::Vector3d rollPitchYaw() const;
};

// What the bodies read of a model's water: eta on the domain's grid and, where the model has
// one, its cell-centred depth-averaged velocity.
struct WaterSurface {
  const Field2D& eta;
  const Field2D* u = nullptr;
  const Field2D* v = nullptr;
};

// The resultant of the water's forces on one body at one pose.
struct BodyLoads {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();  // about the centre of mass
  double displacedVolume = 0.0;
  double dragCoefficient = 0.0;  // sum of beta a over wetted patches (kg/s)
};

class RigidBodies {
 public:
  RigidBodies() = default;
  RigidBodies(const Domain& domain, double waterDensity);

  // Checks and places one body on the water `eta`; returns its id. Throws InputError naming
  // the body's index in the scenario's list and the key ("bodies[2].density: must be > 0").
  int add(const BodySpec& spec, int index, const Field2D& eta);

  // Advances every body by dt on the given water and measures each one's displaced volume at
  // its new pose; stampDisplacement then pushes the change into the water.
  void advance(double dt, const WaterSurface& water);
  // Adds, into `delta` (m, on the grid), the surface displacement that puts each body's change
  // of displaced volume since the last stamp around it; its sum times the cell area is that
  // change on wet cells.
  void stampDisplacement(Field2D& delta);
  // Sets `rate` (1/s) to each body's shadow damping on the cells under it, 0 elsewhere.
  void stampShadow(Field2D& rate) const;

  // Water forces on `body` at its current pose, without gravity.
  BodyLoads loads(const RigidBody& body, const WaterSurface& water) const;

  const std::vector<RigidBody>& bodies() const { return bodies_; }
  std::size_t size() const { return bodies_.size(); }
  double waterDensity() const { return waterDensity_; }
  double displacedVolume() const;  // of every body (m^3)
  // The body-substep count for dt (see the top of this file).
  int substepsFor(const RigidBody& body, double dt) const;

 private:
  void step(RigidBody& body, double dt, const WaterSurface& water) const;
  void resolveContacts(RigidBody& body) const;
  void separate(RigidBody& a, RigidBody& b) const;
  double restingHeight(const RigidBody& body, const Field2D& eta) const;

  const Domain* domain_ = nullptr;
  double waterDensity_ = 1000.0;
  std::vector<std::unique_ptr<BodyGeometry>> geometries_;
  std::vector<RigidBody> bodies_;
  std::vector<double> stampedVolume_;  // each body's displaced volume at its last stamp
};

// Geometry of a spec's shape (box or hull).
BodyGeometry makeGeometry(const BodySpec& spec);

}  // namespace wb
