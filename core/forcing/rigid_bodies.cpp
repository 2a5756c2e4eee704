#include "core/forcing/rigid_bodies.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// The part of the triangle below the plane z = level (Sutherland-Hodgman, one plane): its area
// and centroid. Area 0 when the triangle is wholly above.
struct Clipped {
  double area = 0.0;
  Vector3d centroid = Vector3d::Zero();
};
Clipped clipBelow(const std::array<Vector3d, 3>& corners, double level) {
  std::array<Vector3d, 4> polygon;
  int count = 0;
  for (int k = 0; k < 3; ++k) {
    const Vector3d &p = corners[k], &q = corners[(k + 1) % 3];
    const bool pIn = p.z() <= level, qIn = q.z() <= level;
    if (pIn) polygon[count++] = p;
    if (pIn != qIn) polygon[count++] = p + (q - p) * ((level - p.z()) / (q.z() - p.z()));
  }
  Clipped out;
  for (int k = 1; k + 1 < count; ++k) {  // a convex fan
    const double area = 0.5 * (polygon[k] - polygon[0]).cross(polygon[k + 1] - polygon[0]).norm();
    out.area += area;
    out.centroid += area * (polygon[0] + polygon[k] + polygon[k + 1]) / 3.0;
  }
  if (out.area > 0.0) out.centroid /= out.area;
  return out;
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

BodyGeometry makeGeometry(const BodySpec& spec) {
  return spec.shape == BodyShape::Box ? boxGeometry(spec.size, spec.subdivision)
                                      : hullGeometry(spec.size, spec.subdivision);
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
  if (!(spec.drag >= 0.0) || !(spec.lift >= 0.0) || !(spec.shadow >= 0.0))
    throw InputError(bodyKey(index, "drag/lift/shadow") + ": must be >= 0");
  const double dx = domain_->grid().dx;
  const int i = int(std::floor(spec.x / dx)), j = int(std::floor(spec.y / dx));
  if (!std::isfinite(spec.x) || !std::isfinite(spec.y) || i < 0 || j < 0 || i >= domain_->nx() ||
      j >= domain_->ny() || !domain_->isWet(i, j))
    throw InputError(bodyKey(index, "x") + ", y: the centre (" + formatNumber(spec.x) + ", " +
                     formatNumber(spec.y) + ") m is not on a water cell");

  geometries_.push_back(std::make_unique<BodyGeometry>(makeGeometry(spec)));
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
  body.position.z() = spec.z ? *spec.z : restingHeight(body, eta);
  const WaterSurface still{eta};
  body.displacedVolume = loads(body, still).displacedVolume;
  bodies_.push_back(body);
  stampedVolume_.push_back(body.displacedVolume);
  return body.id;
}

// The height at which the displaced water weighs what the body does (bisection on the same
// patch sum the dynamics uses, so a resting body starts in equilibrium); a body denser than
// water is placed just immersed and sinks from there.
double RigidBodies::restingHeight(const RigidBody& body, const Field2D& eta) const {
  const WaterSurface still{eta};
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

BodyLoads RigidBodies::loads(const RigidBody& body, const WaterSurface& water) const {
  const double dx = domain_->grid().dx, g = domain_->g();
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  BodyLoads out;
  for (const BodyPatch& patch : body.geometry->patches) {
    std::array<Vector3d, 3> corners;
    for (int k = 0; k < 3; ++k)
      corners[k] = rotation * patch.corners[k] + body.position;
    const Vector3d centre = (corners[0] + corners[1] + corners[2]) / 3.0;
    const double level = sampleBilinear(water.eta, dx, centre.x(), centre.y());
    const Clipped wet = clipBelow(corners, level);
    if (wet.area <= 0.0) continue;
    const Vector3d normal = rotation * patch.normal;
    // J&G: V = a (P_water - P_centre) N, the water column over the wetted patch.
    const double column = wet.area * (level - wet.centroid.z()) * -normal.z();
    const double slopeX = (sampleBilinear(water.eta, dx, centre.x() + dx, centre.y()) -
                           sampleBilinear(water.eta, dx, centre.x() - dx, centre.y())) /
                          (2 * dx);
    const double slopeY = (sampleBilinear(water.eta, dx, centre.x(), centre.y() + dx) -
                           sampleBilinear(water.eta, dx, centre.x(), centre.y() - dx)) /
                          (2 * dx);
    const Vector3d waterNormal = Vector3d(-slopeX, -slopeY, 1.0).normalized();
    Vector3d waterVelocity = Vector3d::Zero();
    if (water.u && water.v)
      waterVelocity = {sampleBilinear(*water.u, dx, wet.centroid.x(), wet.centroid.y()),
                       sampleBilinear(*water.v, dx, wet.centroid.x(), wet.centroid.y()), 0.0};
    const Vector3d arm = wet.centroid - body.position;
    const Vector3d relative = body.velocity + body.angularVelocity.cross(arm) - waterVelocity;
    // J&G: F = rho V N_water (times g), F_drag = beta a V, F_lift = -j a (N . V) N.
    Vector3d force =
        waterDensity_ * g * column * waterNormal - body.spec.drag * wet.area * relative;
    const double facing = normal.dot(relative);
    if (facing > 0.0) force -= body.spec.lift * wet.area * facing * normal;
    out.force += force;
    out.torque += arm.cross(force);
    out.displacedVolume += column;
    out.dragCoefficient += (body.spec.drag + body.spec.lift) * wet.area;
  }
  return out;
}

int RigidBodies::substepsFor(const RigidBody& body, double dt) const {
  const Vector3d& half = body.geometry->halfExtent;
  const double reach = half.norm();
  const double waterplane = 4.0 * half.x() * half.y();
  const double stiffness = waterDensity_ * domain_->g() * waterplane;
  const double smallestInertia = body.inertia.diagonal().minCoeff();
  const double omegaSquared =
      std::max(stiffness / body.mass, stiffness * reach * reach / smallestInertia);
  double surface = 0.0;
  for (const auto& patch : body.geometry->patches)
    surface += patch.area;
  const double drag = (body.spec.drag + body.spec.lift) * surface;
  const double dragRate = std::max(drag / body.mass, drag * reach * reach / smallestInertia);
  const double speed = body.velocity.norm() + body.angularVelocity.norm() * reach;
  const double needed = std::max({dt * std::sqrt(omegaSquared) / 0.2, dt * dragRate / 0.5,
                                  dt * speed / (0.5 * domain_->grid().dx)});
  return std::clamp(int(std::ceil(needed)), 1, kMaxBodySubsteps);
}

void RigidBodies::advance(double dt, const WaterSurface& water) {
  for (RigidBody& body : bodies_) {
    const int substeps = substepsFor(body, dt);
    for (int k = 0; k < substeps; ++k)
      step(body, dt / substeps, water);
  }
  for (std::size_t a = 0; a < bodies_.size(); ++a)
    for (std::size_t b = a + 1; b < bodies_.size(); ++b)
      separate(bodies_[a], bodies_[b]);
  for (RigidBody& body : bodies_)
    body.displacedVolume = loads(body, water).displacedVolume;
}

// Symplectic Euler: v^{n+1} = v^n + dt F(x^n)/m, omega^{n+1} = omega^n + dt I^-1 (tau - omega x
// I omega), x^{n+1} = x^n + dt v^{n+1}, q^{n+1} = exp(dt omega^{n+1}) q^n.
void RigidBodies::step(RigidBody& body, double dt, const WaterSurface& water) const {
  const BodyLoads load = loads(body, water);
  const Vector3d weight(0.0, 0.0, -body.mass * domain_->g());
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  const Matrix3d worldInertia = rotation * body.inertia * rotation.transpose();
  body.velocity += dt * (load.force + weight) / body.mass;
  const Vector3d& omega = body.angularVelocity;
  body.angularVelocity +=
      dt * worldInertia.inverse() * (load.torque - omega.cross(worldInertia * omega));
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
    const int i = std::clamp(int(std::floor(p.x() / grid.dx)), 0, grid.nx - 1);
    const int j = std::clamp(int(std::floor(p.y() / grid.dx)), 0, grid.ny - 1);
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

void RigidBodies::stampDisplacement(Field2D& delta) {
  const Grid& grid = domain_->grid();
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const RigidBody& body = bodies_[k];
    const double change = body.displacedVolume - stampedVolume_[k];
    if (change == 0.0) continue;
    // A bump (1 - r^2/R^2)^2 over the footprint's circle widened by two cells, normalised on
    // the wet cells it covers so that it adds exactly `change`.
    const double radius =
        std::hypot(body.geometry->halfExtent.x(), body.geometry->halfExtent.y()) + 2.0 * grid.dx;
    const int i0 = std::max(0, int(std::floor((body.position.x() - radius) / grid.dx)));
    const int i1 = std::min(grid.nx - 1, int(std::floor((body.position.x() + radius) / grid.dx)));
    const int j0 = std::max(0, int(std::floor((body.position.y() - radius) / grid.dx)));
    const int j1 = std::min(grid.ny - 1, int(std::floor((body.position.y() + radius) / grid.dx)));
    double total = 0.0;
    const auto weight = [&](int i, int j) {
      if (!domain_->isWet(i, j)) return 0.0;
      const double r2 = (std::pow(grid.x(i) - body.position.x(), 2) +
                         std::pow(grid.y(j) - body.position.y(), 2)) /
                        (radius * radius);
      return r2 < 1.0 ? (1.0 - r2) * (1.0 - r2) : 0.0;
    };
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i)
        total += weight(i, j);
    if (total <= 0.0) continue;  // no water around it: nothing to displace into
    const double scale = change / (total * grid.cellArea());
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i)
        delta(i, j) += float(scale * weight(i, j));
    stampedVolume_[k] = body.displacedVolume;
  }
}

void RigidBodies::stampShadow(Field2D& rate) const {
  rate.fill(0.0f);
  const Grid& grid = domain_->grid();
  for (const RigidBody& body : bodies_) {
    if (body.displacedVolume <= 0.0 || body.spec.shadow <= 0.0) continue;
    const Matrix3d rotation = body.orientation.toRotationMatrix();
    const Vector3d& half = body.geometry->halfExtent;
    const double reach = std::hypot(half.x(), half.y());
    const int i0 = std::max(0, int(std::floor((body.position.x() - reach) / grid.dx)));
    const int i1 = std::min(grid.nx - 1, int(std::floor((body.position.x() + reach) / grid.dx)));
    const int j0 = std::max(0, int(std::floor((body.position.y() - reach) / grid.dx)));
    const int j1 = std::min(grid.ny - 1, int(std::floor((body.position.y() + reach) / grid.dx)));
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        // Under the body: the cell centre's vertical line meets its bounding box.
        const Vector3d local = rotation.transpose() *
                               (Vector3d(grid.x(i), grid.y(j), body.position.z()) - body.position);
        if (domain_->isWet(i, j) && std::fabs(local.x()) <= half.x() &&
            std::fabs(local.y()) <= half.y())
          rate(i, j) = std::max(rate(i, j), float(body.spec.shadow));
      }
  }
}

double RigidBodies::displacedVolume() const {
  return std::accumulate(bodies_.begin(), bodies_.end(), 0.0,
                         [](double sum, const RigidBody& b) { return sum + b.displacedVolume; });
}

}  // namespace wb
