#include "core/forcing/rigid_bodies.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "core/errors.hpp"
#include "core/grid/interpolation.hpp"

namespace wb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxBodySubsteps = 1000;

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string bodyKey(int index, const std::string& key) {
  return "bodies[" + std::to_string(index) + "]." + key;
}

// The part of the triangle below the plane z = level (Sutherland-Hodgman, one plane), as a
// convex polygon of 0, 3 or 4 corners.
struct Polygon {
  std::array<Vector3d, 4> corners;
  int count = 0;
};
Polygon clipBelow(const std::array<Vector3d, 3>& corners, double level) {
  Polygon out;
  for (int k = 0; k < 3; ++k) {
    const Vector3d &p = corners[k], &q = corners[(k + 1) % 3];
    const bool pIn = p.z() <= level, qIn = q.z() <= level;
    if (pIn) out.corners[out.count++] = p;
    if (pIn != qIn) out.corners[out.count++] = p + (q - p) * ((level - p.z()) / (q.z() - p.z()));
  }
  return out;
}

// Integrals over the wetted polygon: its area and centroid, and the water column above it,
// f = (level - z) (-n_z), linear over the polygon: V = int f dA and its first moment
// M = int f p dA, exact per fan triangle: int f dA = A (f0 + f1 + f2) / 3 and
// int f p dA = A / 12 (sum f_i p_i + (sum f_i)(sum p_i)).
struct WettedPatch {
  double area = 0.0, column = 0.0;
  Vector3d centroid = Vector3d::Zero(), columnMoment = Vector3d::Zero();
};
WettedPatch integrate(const Polygon& wet, double level, double downward) {
  WettedPatch out;
  const auto& c = wet.corners;
  for (int k = 1; k + 1 < wet.count; ++k) {
    const Vector3d &p0 = c[0], &p1 = c[k], &p2 = c[k + 1];
    const double area = 0.5 * (p1 - p0).cross(p2 - p0).norm();
    const double f0 = (level - p0.z()) * downward, f1 = (level - p1.z()) * downward,
                 f2 = (level - p2.z()) * downward;
    out.area += area;
    out.centroid += area * (p0 + p1 + p2) / 3.0;
    out.column += area * (f0 + f1 + f2) / 3.0;
    out.columnMoment +=
        area / 12.0 * (f0 * p0 + f1 * p1 + f2 * p2 + (f0 + f1 + f2) * (p0 + p1 + p2));
  }
  if (out.area > 0.0) out.centroid /= out.area;
  return out;
}
// The same for a triangle wholly below the level, whose area is known: no clip, no square root.
WettedPatch immersed(const std::array<Vector3d, 3>& p, const Vector3d& centre, double area,
                     double level, double downward) {
  const double f0 = (level - p[0].z()) * downward, f1 = (level - p[1].z()) * downward,
               f2 = (level - p[2].z()) * downward;
  return {area, area * (f0 + f1 + f2) / 3.0, centre,
          area / 12.0 * (f0 * p[0] + f1 * p[1] + f2 * p[2] + (f0 + f1 + f2) * 3.0 * centre)};
}

// One contact: push the body by depth along normal, stop its approach at point.
struct Contact {
  Vector3d point = Vector3d::Zero(), normal = Vector3d::Zero();
  double depth = 0.0;
};

// One projected Gauss-Seidel update of a contact's accumulated impulse (kept >= 0): after it
// the contact point neither approaches nor is pulled apart by this contact.
void updateImpulse(RigidBody& body, const Matrix3d& inverseInertia, const Contact& contact,
                   double& accumulated) {
  const Vector3d r = contact.point - body.position;
  const double approach = (body.velocity + body.angularVelocity.cross(r)).dot(contact.normal);
  const Vector3d rn = r.cross(contact.normal);
  const double effective = 1.0 / body.mass + rn.dot(inverseInertia * rn);
  const double total = std::max(0.0, accumulated - approach / effective);
  const double impulse = total - accumulated;
  accumulated = total;
  body.velocity += impulse / body.mass * contact.normal;
  body.angularVelocity += inverseInertia * (r.cross(impulse * contact.normal));
}

Matrix3d worldInverseInertia(const RigidBody& body) {
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  return rotation * body.inertia.inverse() * rotation.transpose();
}

}  // namespace

Vector3d RigidBody::rollPitchYaw() const {
  const auto& q = orientation;
  const double roll =
      std::atan2(2 * (q.w() * q.x() + q.y() * q.z()), 1 - 2 * (q.x() * q.x() + q.y() * q.y()));
  const double pitch = std::asin(std::clamp(2 * (q.w() * q.y() - q.z() * q.x()), -1.0, 1.0));
  const double yaw =
      std::atan2(2 * (q.w() * q.z() + q.x() * q.y()), 1 - 2 * (q.y() * q.y() + q.z() * q.z()));
  return {roll, pitch, yaw};
}

BodyGeometry makeGeometry(const BodySpec& spec, double dx) {
  // The longest triangle edge: a box's or hull's is about its longest side; a mesh's, scaled.
  const double longestEdge =
      spec.shape == BodyShape::Mesh
          ? spec.mesh->longestEdge() * spec.size.cwiseQuotient(spec.mesh->extent()).maxCoeff()
          : spec.size.maxCoeff();
  const int subdivision = spec.subdivision > 0
                              ? spec.subdivision
                              : int(std::clamp(std::ceil(longestEdge / (1.5 * dx)), 1.0, 8.0));
  switch (spec.shape) {
    case BodyShape::Box:
      return boxGeometry(spec.size, subdivision);
    case BodyShape::Hull:
      return hullGeometry(spec.size, subdivision);
    case BodyShape::Mesh:
      return meshGeometry(*spec.mesh, spec.size, subdivision);
  }
  return {};
}

RigidBodies::RigidBodies(const Domain& domain, double waterDensity)
    : domain_(&domain), waterDensity_(waterDensity) {}

int RigidBodies::add(const BodySpec& spec, int index, const Field2D& eta) {
  static const char* axes[3] = {"size[0]", "size[1]", "size[2]"};
  for (int a = 0; a < 3; ++a)
    if (!(spec.size[a] > 0.0) || !std::isfinite(spec.size[a]))
      throw InputError(bodyKey(index, axes[a]) + ": must be a finite number > 0");
  const auto positive = [&](double value, const char* key) {
    if (!(value > 0.0) || !std::isfinite(value))
      throw InputError(bodyKey(index, key) + ": must be a finite number > 0");
  };
  positive(spec.density, "density");
  if (spec.shape == BodyShape::Mesh && !spec.mesh)
    throw InputError(bodyKey(index, "mesh") + ": a mesh body needs its mesh file");
  if (!(spec.drag >= 0.0) || !(spec.lift >= 0.0) || !(spec.shadow >= 0.0))
    throw InputError(bodyKey(index, "drag/lift/shadow") + ": must be >= 0");
  const Grid& grid = domain_->grid();
  const double across = std::max(spec.size.x(), spec.size.y()),
               pool = std::max(grid.width(), grid.height());
  if (across > pool)
    throw InputError(bodyKey(index, "size") + ": the body is " + formatNumber(across) +
                     " m across, more than the pool's " + formatNumber(pool) + " m");
  const double dx = grid.dx;
  // Clamped as doubles (off the grid is -1 or n): an int cannot hold every double.
  const auto cell = [&](double coordinate, int count) {
    return int(std::clamp(std::floor(coordinate / dx), -1.0, double(count)));
  };
  const bool finite = std::isfinite(spec.x) && std::isfinite(spec.y);
  const int i = finite ? cell(spec.x, domain_->nx()) : -1;
  const int j = finite ? cell(spec.y, domain_->ny()) : -1;
  if (!finite || i < 0 || j < 0 || i >= domain_->nx() || j >= domain_->ny() ||
      !domain_->isWet(i, j))
    throw InputError(bodyKey(index, "x") + ", y: the centre (" + formatNumber(spec.x) + ", " +
                     formatNumber(spec.y) + ") m is not on a water cell");

  geometries_.push_back(std::make_unique<BodyGeometry>(makeGeometry(spec, domain_->grid().dx)));
  RigidBody body;
  body.id = int(bodies_.size());
  body.spec = spec;
  body.geometry = geometries_.back().get();
  body.mass = spec.density * body.geometry->volume;
  body.inertia = spec.density * body.geometry->unitInertia;
  const double degree = kPi / 180.0;
  body.orientation = Eigen::AngleAxisd(spec.yawDegrees * degree, Vector3d::UnitZ()) *
                     Eigen::AngleAxisd(spec.pitchDegrees * degree, Vector3d::UnitY()) *
                     Eigen::AngleAxisd(spec.rollDegrees * degree, Vector3d::UnitX());
  body.velocity = spec.velocity;
  body.position = {spec.x, spec.y, 0.0};
  WaterSurface around{eta};
  around.offset = levelShift(body, eta);  // depends on the body's x, y and turn, not on z
  body.position.z() = spec.z ? *spec.z : restingHeight(body, around);
  body.displacedVolume = loads(body, around).displacedVolume;
  bodies_.push_back(body);
  stampedVolume_.push_back(body.displacedVolume);
  columns_.emplace_back();
  columnPosition_.push_back(body.position);
  stampedPosition_.push_back(body.position);
  return body.id;
}

// The height at which the displaced water weighs what the body does (bisection on the same
// patch sum the dynamics uses, so a resting body starts in equilibrium); a body denser than
// water is placed just immersed and sinks from there.
double RigidBodies::restingHeight(const RigidBody& body, const WaterSurface& still) const {
  const double target = std::min(body.mass / waterDensity_, body.geometry->volume);
  const double reach = body.geometry->halfExtent.norm();
  RigidBody probe = body;
  double low = -reach, high = reach;  // fully immersed .. clear of the water
  for (int k = 0; k < 60; ++k) {
    probe.position.z() = 0.5 * (low + high);
    (loads(probe, still).displacedVolume > target ? low : high) = probe.position.z();
  }
  return 0.5 * (low + high);
}

namespace {

// One patch at the body's pose on the water: its wetted part (area 0 when dry), the surface
// sampled under its centre, and its outward normal in the world.
struct PatchOnWater {
  WettedPatch wet;
  BilinearSample surface;
  Vector3d normal;
};
// offset: added to the sampled surface (RigidBodies::levelShift).
PatchOnWater onWater(const BodyPatch& patch, const Matrix3d& rotation, const Vector3d& position,
                     const Field2D& eta, double offset, double dx, double ceiling) {
  PatchOnWater out;
  std::array<Vector3d, 3> corners;
  for (int k = 0; k < 3; ++k)
    corners[k] = rotation * patch.corners[k] + position;
  const double lowest = std::min({corners[0].z(), corners[1].z(), corners[2].z()});
  if (lowest >= ceiling) return out;  // above all the water around the body
  const Vector3d centre = (corners[0] + corners[1] + corners[2]) / 3.0;
  out.surface = sampleBilinearWithSlope(eta, dx, centre.x(), centre.y());
  out.surface.value += offset;
  const double level = out.surface.value;
  if (lowest >= level) return out;
  out.normal = rotation * patch.normal;
  const double highest = std::max({corners[0].z(), corners[1].z(), corners[2].z()});
  out.wet = highest <= level ? immersed(corners, centre, patch.area, level, -out.normal.z())
                             : integrate(clipBelow(corners, level), level, -out.normal.z());
  return out;
}

}  // namespace

double RigidBodies::immersion(const RigidBody& body, const Field2D& eta, double offset,
                              double ceiling, std::vector<BodyColumn>& columns) const {
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  columns.clear();
  double volume = 0.0;
  for (const BodyPatch& patch : body.geometry->patches) {
    const WettedPatch wet =
        onWater(patch, rotation, body.position, eta, offset, domain_->grid().dx, ceiling).wet;
    if (wet.area <= 0.0) continue;
    columns.push_back({wet.centroid.x(), wet.centroid.y(), wet.column});
    volume += wet.column;
  }
  return volume;
}

BodyLoads RigidBodies::loads(const RigidBody& body, const WaterSurface& water,
                             double ceiling) const {
  const double dx = domain_->grid().dx, g = domain_->g();
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  const double buoyancy = waterDensity_ * g;
  BodyLoads out;
  for (const BodyPatch& patch : body.geometry->patches) {
    const auto [wet, surface, normal] =
        onWater(patch, rotation, body.position, water.eta, water.offset, dx, ceiling);
    if (wet.area <= 0.0) continue;
    // J&G: V = a (P_water - P_centre) N, the water column over the wetted patch, along the
    // water's normal, acting where the column stands (its first moment).
    const Vector3d waterNormal = Vector3d(-surface.slopeX, -surface.slopeY, 1.0).normalized();
    out.force += buoyancy * wet.column * waterNormal;
    out.torque += (buoyancy * (wet.columnMoment - wet.column * body.position)).cross(waterNormal);
    out.displacedVolume += wet.column;
    const double resistance = body.spec.drag + body.spec.lift;
    if (resistance == 0.0) continue;
    Vector3d waterVelocity = Vector3d::Zero();
    if (water.u && water.v)
      waterVelocity = {sampleBilinear(*water.u, dx, wet.centroid.x(), wet.centroid.y()),
                       sampleBilinear(*water.v, dx, wet.centroid.x(), wet.centroid.y()), 0.0};
    const Vector3d arm = wet.centroid - body.position;
    const Vector3d relative = body.velocity + body.angularVelocity.cross(arm) - waterVelocity;
    // J&G: F_drag = beta a V, F_lift = -j a (N . V) N on the faces meeting the water.
    Vector3d force = -body.spec.drag * wet.area * relative;
    const double facing = normal.dot(relative);
    if (facing > 0.0) force -= body.spec.lift * wet.area * facing * normal;
    out.force += force;
    out.torque += arm.cross(force);
    out.dragCoefficient += resistance * wet.area;
    out.angularDragCoefficient += resistance * wet.area * arm.squaredNorm();
  }
  return out;
}

int RigidBodies::substepsFor(const RigidBody& body, double dt) const {
  // Heave rho g A / m and roll or pitch rho g I_waterplane / I, I_waterplane = A (2h)^2 / 12
  // for the larger half-width h of the bounding box: the stiffest modes of a floating body.
  const Vector3d& half = body.geometry->halfExtent;
  const double waterplane = 4.0 * half.x() * half.y();
  const double stiffness = waterDensity_ * domain_->g() * waterplane;
  const double widest = std::max(half.x(), half.y());
  const double omegaSquared =
      std::max(stiffness / body.mass,
               stiffness * widest * widest / 3.0 / body.inertia.diagonal().minCoeff());
  const double speed = body.velocity.norm() + body.angularVelocity.norm() * half.norm();
  const double needed =
      std::max(dt * std::sqrt(omegaSquared) / 0.5, dt * speed / (0.5 * domain_->grid().dx));
  // Compared as a double: a body gone NaN or infinitely fast takes the most (its water stops it).
  if (!(needed < kMaxBodySubsteps)) return kMaxBodySubsteps;
  return std::max(1, int(std::ceil(needed)));
}

void RigidBodies::translate(double dx, double dy) {
  const Eigen::Vector3d shift(dx, dy, 0.0);
  for (RigidBody& body : bodies_) {
    body.position += shift;
    if (body.towPoint) *body.towPoint += shift;
  }
  for (auto& columns : columns_)
    for (BodyColumn& column : columns)
      column.x += dx, column.y += dy;
  for (auto* positions : {&columnPosition_, &stampedPosition_})
    for (Eigen::Vector3d& p : *positions)
      p += shift;
}

void RigidBodies::setTow(std::size_t k, const Vector3d& point, const Vector3d& velocity) {
  bodies_[k].towPoint = point;
  bodies_[k].towVelocity = velocity;
}

namespace {

// The tow's pull on the bow, horizontal, as a force at the bow (RigidBodies::setTow).
BodyLoads towLoads(const RigidBody& body) {
  BodyLoads out;
  if (!body.towPoint) return out;
  double foremost = 0.0;
  for (const Vector3d& v : body.geometry->vertices)
    foremost = std::max(foremost, v.x());
  const Vector3d arm = body.orientation * Vector3d(foremost, 0.0, 0.0);
  const Vector3d bow = body.position + arm;
  const Vector3d bowVelocity = body.velocity + body.angularVelocity.cross(arm);
  const double w = RigidBodies::kTowRate;
  Vector3d pull =
      body.mass * (w * w * (*body.towPoint - bow) + 2 * w * (body.towVelocity - bowVelocity));
  pull.z() = 0.0;
  out.force = pull;
  out.torque = arm.cross(pull);
  return out;
}

}  // namespace

void RigidBodies::advance(double dt, const WaterSurface& water) {
  std::vector<WaterSurface> around(bodies_.size(), water);
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    RigidBody& body = bodies_[b];
    around[b].offset = levelShift(body, water.eta);
    const int substeps = substepsFor(body, dt);
    for (int k = 0; k < substeps; ++k)
      step(body, dt / substeps, around[b]);
  }
  separateAll();
  // The displaced volume at the end pose: stamped a substep late (from the volume the last
  // substep started from), the change lags the motion and pumps the heave (a box of density 250
  // still heaves 0.1 m after 20 s on swe-semi-lagrangian's water, instead of settling).
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    RigidBody& body = bodies_[b];
    body.displacedVolume =
        immersion(body, water.eta, around[b].offset,
                  highestWaterUnder(body, water.eta) + around[b].offset, columns_[b]);
    columnPosition_[b] = body.position;
  }
}

// Clamped as doubles (a body far off the grid must not overflow the conversion to int); a body
// whose reach misses the grid gets the empty box {0, -1, 0, -1}, which every loop over a box
// (and clearStamped's row fill) skips: a box with i0 > i1 but j0 <= j1 would fill rows of
// negative length.
CellBox RigidBodies::cellsAround(const Vector3d& centre, double reach) const {
  const Grid& grid = domain_->grid();
  if (!centre.allFinite() || !std::isfinite(reach)) return CellBox{};
  const auto cell = [&](double x, int n) {
    return int(std::clamp(std::floor(x / grid.dx), -1.0, double(n)));
  };
  const CellBox box{std::max(0, cell(centre.x() - reach, grid.nx)),
                    std::min(grid.nx - 1, cell(centre.x() + reach, grid.nx)),
                    std::max(0, cell(centre.y() - reach, grid.ny)),
                    std::min(grid.ny - 1, cell(centre.y() + reach, grid.ny))};
  if (box.i0 > box.i1 || box.j0 > box.j1 || !std::isfinite(reach)) return CellBox{};
  return box;
}

double RigidBodies::highestWaterUnder(const RigidBody& body, const Field2D& eta) const {
  const CellBox box =
      cellsAround(body.position, body.geometry->halfExtent.norm() + domain_->grid().dx);
  float highest = -std::numeric_limits<float>::infinity();
  for (int j = box.j0; j <= box.j1; ++j)
    for (int i = box.i0; i <= box.i1; ++i)
      highest = std::max(highest, eta(i, j));
  return highest;
}

// Symplectic Euler: v^{n+1} = v^n + dt F(x^n)/m, omega^{n+1} = omega^n + dt I^-1 (tau - omega x
// I omega), x^{n+1} = x^n + dt v^{n+1}, q^{n+1} = exp(dt omega^{n+1}) q^n.
void RigidBodies::step(RigidBody& body, double dt, const WaterSurface& water) const {
  BodyLoads load = loads(body, water, highestWaterUnder(body, water.eta) + water.offset);
  const BodyLoads tow = towLoads(body);
  load.force += tow.force;
  load.torque += tow.torque;
  const Vector3d weight(0.0, 0.0, -body.mass * domain_->g());
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  const Matrix3d worldInertia = rotation * body.inertia * rotation.transpose();
  // Drag and lift are linear in the velocities: their part -C v (and -C_w omega) is taken
  // implicitly, v^{n+1} = (v^n + dt (F + C v^n) / m) / (1 + dt C / m), so that no drag
  // coefficient limits the step.
  const double linearRate = dt * load.dragCoefficient / body.mass;
  body.velocity = (body.velocity * (1.0 + linearRate) + dt * (load.force + weight) / body.mass) /
                  (1.0 + linearRate);
  const Vector3d& omega = body.angularVelocity;
  const double angularRate = dt * load.angularDragCoefficient / body.inertia.diagonal().minCoeff();
  body.angularVelocity =
      (omega * (1.0 + angularRate) +
       dt * worldInertia.inverse() * (load.torque - omega.cross(worldInertia * omega))) /
      (1.0 + angularRate);
  body.position += dt * body.velocity;
  const double angle = body.angularVelocity.norm() * dt;
  if (angle > 0.0)
    body.orientation =
        Eigen::Quaterniond(Eigen::AngleAxisd(angle, body.angularVelocity.normalized())) *
        body.orientation;
  body.orientation.normalize();
  resolveContacts(body);
}

// Every vertex below the bed, in a solid cell or outside the grid is a contact; the body is
// pushed out by the deepest, then projected Gauss-Seidel over their impulses (each >= 0) stops
// every contact point's approach, so a body resting on several corners comes to rest.
void RigidBodies::resolveContacts(RigidBody& body) const {
  const Grid& grid = domain_->grid();
  const double width = grid.width(), height = grid.height();
  std::vector<Contact> contacts;
  Contact deepest;
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  for (const Vector3d& local : body.geometry->vertices) {
    const Vector3d p = rotation * local + body.position;
    Contact worst{p, Vector3d::Zero(), 0.0};
    const auto consider = [&](const Vector3d& normal, double depth) {
      if (depth > worst.depth) worst = {p, normal, depth};
    };
    // The grid's edges.
    consider(Vector3d::UnitX(), -p.x());
    consider(-Vector3d::UnitX(), p.x() - width);
    consider(Vector3d::UnitY(), -p.y());
    consider(-Vector3d::UnitY(), p.y() - height);
    if (!p.allFinite()) continue;  // a body gone NaN has no contact; its water reports it
    // Clamped as doubles: a vertex far off the grid is beyond int's range.
    const int i = int(std::clamp(std::floor(p.x() / grid.dx), 0.0, grid.nx - 1.0));
    const int j = int(std::clamp(std::floor(p.y() / grid.dx), 0.0, grid.ny - 1.0));
    consider(Vector3d::UnitZ(), -domain_->restDepth()(i, j) - p.z());  // the bed
    if (!domain_->isWet(i, j)) {  // a solid cell: out through the nearest face to water
      double best = grid.dx;
      Vector3d out = Vector3d::Zero();
      const auto face = [&](int ni, int nj, const Vector3d& normal, double depth) {
        if (ni < 0 || nj < 0 || ni >= grid.nx || nj >= grid.ny || !domain_->isWet(ni, nj)) return;
        if (depth < best) best = depth, out = normal;
      };
      face(i - 1, j, -Vector3d::UnitX(), p.x() - i * grid.dx);
      face(i + 1, j, Vector3d::UnitX(), (i + 1) * grid.dx - p.x());
      face(i, j - 1, -Vector3d::UnitY(), p.y() - j * grid.dx);
      face(i, j + 1, Vector3d::UnitY(), (j + 1) * grid.dx - p.y());
      if (out.squaredNorm() > 0.0) consider(out, best);
    }
    if (worst.depth <= 0.0) continue;
    contacts.push_back(worst);
    if (worst.depth > deepest.depth) deepest = worst;
  }
  if (contacts.empty()) return;
  body.position += deepest.depth * deepest.normal;
  const Matrix3d inverseInertia = worldInverseInertia(body);
  std::vector<double> impulses(contacts.size(), 0.0);
  for (int sweep = 0; sweep < 24; ++sweep)
    for (std::size_t c = 0; c < contacts.size(); ++c)
      updateImpulse(body, inverseInertia, contacts[c], impulses[c]);
}

// Sweep and prune along x: only bodies whose reaches (the half-diagonals of their bounding
// boxes) overlap in x are tested, so 200 bodies spread over a pool cost a sort, not 19900 pairs.
void RigidBodies::separateAll() {
  thread_local std::vector<std::pair<double, std::size_t>> order;
  order.clear();
  for (std::size_t k = 0; k < bodies_.size(); ++k)
    order.emplace_back(bodies_[k].position.x() - bodies_[k].geometry->halfExtent.norm(), k);
  std::sort(order.begin(), order.end());
  for (std::size_t a = 0; a < order.size(); ++a) {
    RigidBody& first = bodies_[order[a].second];
    const double end = first.position.x() + first.geometry->halfExtent.norm();
    for (std::size_t b = a + 1; b < order.size() && order[b].first < end; ++b)
      separate(first, bodies_[order[b].second]);
  }
}

// Bodies against bodies: the vertices of each inside the other's bounding box (in its frame)
// are pushed out through the nearest face, the push shared by inverse mass.
void RigidBodies::separate(RigidBody& a, RigidBody& b) const {
  const double reach = a.geometry->halfExtent.norm() + b.geometry->halfExtent.norm();
  if ((a.position - b.position).squaredNorm() >= reach * reach) return;
  for (int side = 0; side < 2; ++side) {
    RigidBody& mover = side == 0 ? a : b;
    RigidBody& other = side == 0 ? b : a;
    const Matrix3d moverRotation = mover.orientation.toRotationMatrix();
    const Matrix3d otherRotation = other.orientation.toRotationMatrix();
    const Vector3d& half = other.geometry->halfExtent;
    for (const Vector3d& vertex : mover.geometry->vertices) {
      const Vector3d p = moverRotation * vertex + mover.position;
      const Vector3d local = otherRotation.transpose() * (p - other.position);
      const Vector3d gap = half - local.cwiseAbs();
      if (gap.minCoeff() <= 0.0) continue;
      int axis = 0;
      gap.minCoeff(&axis);
      Vector3d normal = Vector3d::Zero();
      normal[axis] = local[axis] >= 0.0 ? 1.0 : -1.0;
      normal = otherRotation * normal;  // out of `other`, pushing `mover`
      const double share = other.mass / (mover.mass + other.mass);
      mover.position += share * gap[axis] * normal;
      other.position -= (1.0 - share) * gap[axis] * normal;
      const Vector3d relative = mover.velocity - other.velocity;
      const double approach = relative.dot(normal);
      if (approach < 0.0) {  // inelastic along the normal, momentum kept
        const double reduced = mover.mass * other.mass / (mover.mass + other.mass);
        mover.velocity -= reduced * approach / mover.mass * normal;
        other.velocity += reduced * approach / other.mass * normal;
      }
    }
  }
}

void RigidBodies::stampShadow(Field2D& rate) const {
  for (const CellBox& box : shadowCells_)
    for (int j = box.j0; j <= box.j1; ++j)
      std::fill(&rate(box.i0, j), &rate(box.i0, j) + (box.i1 - box.i0 + 1), 0.0f);
  shadowCells_.clear();
  const Grid& grid = domain_->grid();
  for (const RigidBody& body : bodies_) {
    if (body.displacedVolume <= 0.0 || body.spec.shadow <= 0.0) continue;
    const Matrix3d rotation = body.orientation.toRotationMatrix();
    const Vector3d& half = body.geometry->halfExtent;
    const CellBox box = cellsAround(body.position, std::hypot(half.x(), half.y()));
    shadowCells_.push_back(box);
    for (int j = box.j0; j <= box.j1; ++j)
      for (int i = box.i0; i <= box.i1; ++i) {
        // Under the body: the cell centre's vertical line meets its bounding box.
        const double ox = grid.x(i) - body.position.x(), oy = grid.y(j) - body.position.y();
        const double lx = rotation(0, 0) * ox + rotation(1, 0) * oy;
        const double ly = rotation(0, 1) * ox + rotation(1, 1) * oy;
        if (domain_->isWet(i, j) && std::fabs(lx) <= half.x() && std::fabs(ly) <= half.y())
          rate(i, j) = std::max(rate(i, j), float(body.spec.shadow));
      }
  }
}

double RigidBodies::displacedVolume() const {
  return std::accumulate(bodies_.begin(), bodies_.end(), 0.0,
                         [](double sum, const RigidBody& b) { return sum + b.displacedVolume; });
}

}  // namespace wb
