// Buoyant rigid bodies on the water of one model, coupled both ways (Jensen & Golias 2001,
// "Buoyant rigid objects"); the passive tracers of core/forcing/floating_bodies.hpp are the
// other, one-way kind. docs/bodies.md gives the physics, the checks and their figures.
//
// Water on the body, per patch (core/forcing/body_shapes.hpp), the patch clipped at the water
// surface sampled under its centre (bilinear, Layton eq. 32):
//   displaced column   V_p = int (eta - z) (-n . e_z) dA    (J&G: V = a (P_water - P_centre) N)
//   buoyancy           F_b = rho g V_p N_water               (J&G: F = rho V N_water, per g)
//   drag               F_d = -beta a V_rel                   (J&G: F_drag = beta a V)
//   lift               F_l = -j a (n . V_rel) n,  n . V_rel > 0 (J&G: F = -j a (N . V) N)
// with a the clipped area, n the patch's outward normal and V_rel the patch's velocity
// relative to the water's (the model's depth-averaged velocity, zero where it has none); the
// column is integrated exactly over the clipped patch (its integrand is linear). The columns
// add up to the immersed volume exactly for flat water (the divergence theorem; the waterline
// cap adds nothing), and each acts at its first moment, where it stands, so the restoring
// moment of a tilted body (its metacentre) is exact too. Drag and lift act at the wetted
// area's centroid, gravity at the centre of mass.
//
// Integration: semi-implicit (symplectic) Euler, velocities first from the forces at the
// current pose, then the pose from the new velocities, the orientation by the exact rotation
// of omega dt; the drag and lift, linear in the velocities, implicitly. Each model substep is
// split into as many body substeps as keep omega_max dt <= 0.5 for the stiffest mode (heave,
// roll: a period error below 1%, (omega dt)^2 / 24) and no vertex moves more than half a cell
// (no tunnelling through a wall one cell thick). A body's displaced volume is the one at its
// pose after the step, on the water the step started from.
//
// Contact: a vertex below the bed, in a solid cell or outside the grid, or inside another body
// is pushed out along the contact normal and its approach velocity removed by an impulse
// (perfectly inelastic, frictionless).
//
// Water from the body: the change of each body's displaced volume over a substep is pushed
// into the surface around it (a smooth ring around its footprint, J&G's "change in depth ...
// fed back as direct displacement"), so water volume rises by exactly what the bodies displace;
// a body's horizontal travel moves its immersion map, volume-neutral, which gives a moving hull
// its wake (core/forcing/body_displacement.cpp); and the cells under a body get an extra damping
// rate (J&G's wave "shadow").
//
// The level a body floats on: the water surface under it, shifted so that its mean under the
// body is the mean over the ring its displaced volume goes into (RigidBodies::levelShift).
// The ring takes the volume a sinking body displaces at that level, so the heave coupling
// exchanges energy between body and water without creating any; floating on the water under
// it, which answers the body's ring a fraction of a period late, a long body's heave grew
// without bound.
#pragma once

#include <array>
#include <limits>
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

enum class BodyShape { Box, Hull, Mesh };
// The scenario's name of a shape ("box", "hull", "mesh").
inline const char* bodyShapeName(BodyShape shape) {
  return shape == BodyShape::Box ? "box" : shape == BodyShape::Hull ? "hull" : "mesh";
}

// A body as the scenario (or a click in the app) asks for it; checked by RigidBodies::add.
struct BodySpec {
  BodyShape shape = BodyShape::Box;
  Eigen::Vector3d size{1.0, 1.0, 1.0};  // box edges, or a hull's length, beam, height (m)
  // Shape Mesh: the closed mesh (parseObjMesh) scaled to `size`, and the file it came from as
  // the scenario names it, with the file's up axis ('z' or 'y').
  std::shared_ptr<const TriangleMesh> mesh;
  std::string meshFile;
  char meshUp = 'z';
  double density = 500.0;   // kg/m^3
  double x = 0.0, y = 0.0;  // centre (m)
  std::optional<double> z;  // centre of mass above the rest level (m); unset: resting
  double yawDegrees = 0.0;  // about z, counter-clockwise from +x
  double pitchDegrees = 0.0, rollDegrees = 0.0;        // then about y, then x (z-y-x convention)
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  // initial (m/s), e.g. a throw
  double drag = 100.0;                                 // beta (kg/(m^2 s))
  double lift = 100.0;                                 // j (kg/(m^2 s))
  double shadow = 2.0;  // extra damping of the water under the body (1/s)
  // Patches per triangle edge; 0: automatic, one per 1.5 cells of the longest edge (1 to 8).
  // The integrals are exact on flat water for any value, but the water under a body is
  // sampled once per patch, and patches coarser than about 1.5 cells let the body and the
  // water's grid-scale motion under it feed each other: a 1 m box dropped on a 0.25 m grid
  // settles with 3 patches per edge in every model and keeps bouncing with 1 or 2.
  int subdivision = 0;
  // Towed by this boat of the scenario's excitations (its index among the boats): the bow is
  // pulled to the boat's position by a critically damped spring (see RigidBodies::setTow).
  std::optional<int> towedBy;
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
  // Where the tow pulls the bow to, and how fast that point moves (towed bodies only).
  std::optional<Eigen::Vector3d> towPoint;
  Eigen::Vector3d towVelocity = Eigen::Vector3d::Zero();
  // Roll (about x), pitch (about y), yaw (about z), radians, z-y-x convention.
  Eigen::Vector3d rollPitchYaw() const;
};

// What the bodies read of a model's water: eta on the domain's grid and, where the model has
// one, its cell-centred depth-averaged velocity.
struct WaterSurface {
  const Field2D& eta;
  const Field2D* u = nullptr;
  const Field2D* v = nullptr;
  // Added to eta under the body: RigidBodies::levelShift, the water level around the body
  // (where its displaced volume goes) in place of the mean level under it.
  double offset = 0.0;
};

// One wetted patch's water column (J&G's V = a (P_water - P_centre) N, signed: negative under a
// face looking up) and where it stands; together a body's columns are its immersion per area.
struct BodyColumn {
  double x = 0.0, y = 0.0, volume = 0.0;
};

// Cells i0..i1 x j0..j1 (inclusive) of the grid, empty when i1 < i0.
struct CellBox {
  int i0 = 0, i1 = -1, j0 = 0, j1 = -1;
};

// The resultant of the water's forces on one body at one pose.
struct BodyLoads {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();  // about the centre of mass
  double displacedVolume = 0.0;
  double dragCoefficient = 0.0;         // sum of (beta + j) a over wetted patches (kg/s)
  double angularDragCoefficient = 0.0;  // sum of (beta + j) a |r|^2 (kg m^2/s), a bound
};

class RigidBodies {
 public:
  RigidBodies() = default;
  RigidBodies(const Domain& domain, double waterDensity);

  // Checks and places one body on the water `eta`; returns its id. Throws InputError naming
  // the body's index in the scenario's list and the key ("bodies[2].density: must be > 0").
  int add(const BodySpec& spec, int index, const Field2D& eta);

  // Advances every body by dt on the given water; stampDisplacement then pushes the change of
  // their displaced volumes into it.
  void advance(double dt, const WaterSurface& water);
  // Adds, into `delta` (m, on the grid), the surface displacement that puts each body's change
  // of displaced volume since the last stamp around it (core/forcing/body_displacement.cpp);
  // its sum times the cell area is that change.
  // Only the cells around the bodies are written; clearStamped zeroes them again.
  void stampDisplacement(Field2D& delta);
  void clearStamped(Field2D& delta) const;
  // Sets the point (and its velocity) that body k's tow pulls its bow to: horizontally, with
  // F = m (w^2 (p - bow) + 2 w (v - v_bow)), w = kTowRate, applied at the bow (the foremost
  // point on the body's x axis), so a hull trails its tow and turns with it.
  void setTow(std::size_t k, const Eigen::Vector3d& point, const Eigen::Vector3d& velocity);
  // Moves every body, and what it remembers of where it stood, by (dx, dy) m (the travelling
  // window re-centring under it).
  void translate(double dx, double dy);
  static constexpr double kTowRate = 2.0;  // 1/s
  // Sets `rate` (1/s) to each body's shadow damping on the cells under it, 0 elsewhere; `rate`
  // is zero or the field of the last call (only the cells that call wrote are cleared).
  void stampShadow(Field2D& rate) const;

  // Water forces on `body` at its current pose, without gravity; patches wholly above
  // `ceiling` (the highest water around the body, when known) are dry without a look.
  BodyLoads loads(const RigidBody& body, const WaterSurface& water,
                  double ceiling = std::numeric_limits<double>::infinity()) const;
  // The displaced volume alone (the loads' displacedVolume on eta + offset), each wetted
  // patch's column listed in `columns`.
  double immersion(const RigidBody& body, const Field2D& eta, double offset, double ceiling,
                   std::vector<BodyColumn>& columns) const;

  const std::vector<RigidBody>& bodies() const { return bodies_; }
  std::size_t size() const { return bodies_.size(); }
  double waterDensity() const { return waterDensity_; }
  double displacedVolume() const;  // of every body (m^3)
  // The body-substep count for dt (see the top of this file).
  int substepsFor(const RigidBody& body, double dt) const;

 private:
  void step(RigidBody& body, double dt, const WaterSurface& water) const;
  struct Ring {
    CellBox cells;
    std::vector<double> weights;  // per cell of `cells`, row by row
    double total = 0.0;
  };
  void ringAround(const RigidBody& body, const Eigen::Vector3d& centre, bool underToo,
                  Ring& ring) const;
  void addRing(const Ring& ring, double volume, Field2D& delta);
  void stampRing(std::size_t k, double change, Field2D& delta);
  void stampWake(std::size_t k, Field2D& delta);
  CellBox cellsAround(const Eigen::Vector3d& centre, double reach) const;
  void resolveContacts(RigidBody& body) const;
  double highestWaterUnder(const RigidBody& body, const Field2D& eta) const;
  void separateAll();
  void separate(RigidBody& a, RigidBody& b) const;
  double restingHeight(const RigidBody& body, const WaterSurface& still) const;
  // The offset that puts the displacement ring's mean level under the body
  // (core/forcing/body_displacement.cpp).
  double levelShift(const RigidBody& body, const Field2D& eta);

  const Domain* domain_ = nullptr;
  double waterDensity_ = 1000.0;
  std::vector<std::unique_ptr<BodyGeometry>> geometries_;
  std::vector<RigidBody> bodies_;
  std::vector<double> stampedVolume_;  // each body's displaced volume at its last stamp
  Ring ring_, ringBefore_;             // scratch of ringAround (levelShift, stampRing, stampWake)
  // Each body's columns at its present pose, the position they were taken at, and that
  // position at the last wake stamp (the wake moves the columns by the difference).
  std::vector<std::vector<BodyColumn>> columns_;
  std::vector<Eigen::Vector3d> columnPosition_, stampedPosition_;
  // The cells the last stampDisplacement and stampShadow wrote, which the next clears.
  std::vector<CellBox> displacementCells_;
  mutable std::vector<CellBox> shadowCells_;
};

// Geometry of a spec's shape (box or hull) on a grid of spacing dx.
BodyGeometry makeGeometry(const BodySpec& spec, double dx);

}  // namespace wb
