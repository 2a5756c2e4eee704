// The water a body pushes aside (core/forcing/rigid_bodies.hpp, "Water from the body"):
// Jensen & Golias feed "the change in depth of the floating object between the last and
// current frame ... back to the water surface as direct displacement". The change has two
// parts, stamped separately:
//
// Ring: the change of a body's displaced volume since the last stamp rises around it, a bump
// (1 - r^2/R^2)^2 over the circle of its footprint widened by four cells, left out under the
// body's bounding box and normalised on the wet cells it covers, so the water's volume rises by
// exactly the change. Why around and not under: water raised under the body lifts the body at
// once, and that loop pumps energy into the water. Measured on a 0.6 m crate dropped into a
// 12.8 m pool of 0.1 m cells, 1 m deep, closed, no excitations: the water's energy after 12 s
// grows to 7.8 (damped-wave), 4.0 (advected-wave) and 8.9 m^5/s^2 (swe-adi) with the bump under
// the body, and to 1.4, 1.1 and 0.65 with the footprint's whole per-cell change of immersion
// (heave included) spread around its cells; with the ring it is 0.19, 0.02 and 0.17, below what
// the drop put in (0.22, 0.12, 0.21 at 4 s).
//
// Wake: a hull moving at constant draft displaces no more water, but the immersion of the
// cells it passes over changes: the bow pushes water up and the stern leaves a hollow. That
// part is the body's immersion per cell (its patches' water columns, spread on the cells by a
// cubic B-spline) at its present horizontal position minus the same columns at the position of the
// last stamp,
//   delta_c = sum_p V_p (w_c(x_p) - w_c(x_p - s)) / A_cell,   s the horizontal travel,
// volume-neutral (each column's weights, renormalised on the wet cells, sum to one at both
// places). Only the horizontal travel enters, so a body at rest or heaving in place gets none:
// the heave stays in the ring, and no loop through the water under the body pumps energy.
#include <algorithm>
#include <cmath>

#include "core/forcing/rigid_bodies.hpp"
#include "core/grid/interpolation.hpp"

namespace wb {
namespace {

constexpr double kRingCells = 4.0;
constexpr double kWakeTravel = 0.25;  // cells

// A point's amount shared over the 4 x 4 cell centres around (x, y) by the cubic B-spline
// (a partition of unity, twice differentiable), renormalised on the wet cells; false where none
// is wet. The bilinear share (Layton eq. 32 read backwards) is not enough: a hull's patch
// centroids are not evenly spaced, so its bilinearly spread immersion is rough at the grid
// scale, and moving it rings the grid's shortest waves (a checkerboard under damped-wave's
// wake); the B-spline's width of four cells smooths it.
struct Splat {
  int i = 0, j = 0;  // the first of the 4 x 4 cells
  double w[4][4] = {};
};
void cubicBSpline(double t, double w[4]) {
  const double t2 = t * t, t3 = t2 * t;
  w[0] = (1.0 - t) * (1.0 - t) * (1.0 - t) / 6.0;
  w[1] = (3.0 * t3 - 6.0 * t2 + 4.0) / 6.0;
  w[2] = (-3.0 * t3 + 3.0 * t2 + 3.0 * t + 1.0) / 6.0;
  w[3] = t3 / 6.0;
}
bool splatAt(const Domain& domain, double x, double y, Splat& out) {
  const double dx = domain.grid().dx;
  const double gx = x / dx - 0.5, gy = y / dx - 0.5;
  // Off the grid by more than the kernel's reach (or not finite): no wet cell to spread over,
  // and a far coordinate is beyond int's range.
  const auto onGrid = [](double g, int n) { return g > -4.0 && g < n + 4.0; };
  if (!onGrid(gx, domain.nx()) || !onGrid(gy, domain.ny())) return false;
  const int fi = int(std::floor(gx)), fj = int(std::floor(gy));
  double wx[4], wy[4];
  cubicBSpline(gx - fi, wx);
  cubicBSpline(gy - fj, wy);
  out.i = fi - 1;
  out.j = fj - 1;
  double total = 0.0;
  for (int b = 0; b < 4; ++b)
    for (int a = 0; a < 4; ++a) {
      const int i = out.i + a, j = out.j + b;
      const bool wet = i >= 0 && j >= 0 && i < domain.nx() && j < domain.ny() && domain.isWet(i, j);
      out.w[b][a] = wet ? wx[a] * wy[b] : 0.0;
      total += out.w[b][a];
    }
  if (total <= 0.0) return false;
  for (auto& row : out.w)
    for (double& w : row)
      w /= total;
  return true;
}

void addSplat(const Splat& s, double amount, Field2D& delta) {
  for (int b = 0; b < 4; ++b)
    for (int a = 0; a < 4; ++a)
      if (s.w[b][a] != 0.0) delta(s.i + a, s.j + b) += float(amount * s.w[b][a]);
}

}  // namespace

void RigidBodies::stampDisplacement(Field2D& delta) {
  displacementCells_.clear();
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const double change = bodies_[k].displacedVolume - stampedVolume_[k];
    if (change != 0.0) stampRing(k, change, delta);
    stampWake(k, delta);
  }
}

void RigidBodies::clearStamped(Field2D& delta) const {
  for (const CellBox& box : displacementCells_)
    for (int j = box.j0; j <= box.j1; ++j)
      std::fill(&delta(box.i0, j), &delta(box.i0, j) + (box.i1 - box.i0 + 1), 0.0f);
}

// The ring's weights (1 - r^2/R^2)^2 around a body standing at `centre`, left out under its
// bounding box when `underToo` is false, on the wet cells of `ring.cells`; their sum is
// `ring.total`. Filled in place: the rings are scratch members, reused without allocating once
// they have grown to the largest body's.
void RigidBodies::ringAround(const RigidBody& body, const Eigen::Vector3d& centre, bool underToo,
                             Ring& ring) const {
  const Grid& grid = domain_->grid();
  const Eigen::Matrix3d rotation = body.orientation.toRotationMatrix();
  const Eigen::Vector3d& half = body.geometry->halfExtent;
  const double radius = std::hypot(half.x(), half.y()) + kRingCells * grid.dx;
  ring.total = 0.0;
  ring.cells = cellsAround(centre, radius);
  const CellBox& box = ring.cells;
  ring.weights.assign(std::size_t(box.i1 - box.i0 + 1) * std::size_t(box.j1 - box.j0 + 1), 0.0);
  std::size_t n = 0;
  for (int j = box.j0; j <= box.j1; ++j)
    for (int i = box.i0; i <= box.i1; ++i, ++n) {
      if (!domain_->isWet(i, j)) continue;
      const double ox = grid.x(i) - centre.x(), oy = grid.y(j) - centre.y();
      // The cell centre in the body's frame (x and y of R^T (ox, oy, 0)).
      const double lx = rotation(0, 0) * ox + rotation(1, 0) * oy;
      const double ly = rotation(0, 1) * ox + rotation(1, 1) * oy;
      if (!underToo && std::fabs(lx) <= half.x() && std::fabs(ly) <= half.y()) continue;
      const double r2 = (ox * ox + oy * oy) / (radius * radius);
      if (r2 >= 1.0) continue;
      ring.weights[n] = (1.0 - r2) * (1.0 - r2);
      ring.total += ring.weights[n];
    }
}

// Adds `volume` (m^3) over the ring (its total > 0).
void RigidBodies::addRing(const Ring& ring, double volume, Field2D& delta) {
  const double scale = volume / (ring.total * domain_->grid().cellArea());
  const CellBox& box = ring.cells;
  std::size_t n = 0;
  for (int j = box.j0; j <= box.j1; ++j)
    for (int i = box.i0; i <= box.i1; ++i, ++n)
      if (ring.weights[n] > 0.0) delta(i, j) += float(scale * ring.weights[n]);
  displacementCells_.push_back(box);
}

void RigidBodies::stampRing(std::size_t k, double change, Field2D& delta) {
  const RigidBody& body = bodies_[k];
  ringAround(body, body.position, false, ring_);
  if (ring_.total <= 0.0) return;  // no water around it: nothing to displace into yet
  addRing(ring_, change, delta);
  stampedVolume_[k] = body.displacedVolume;
}

// The immersion map Z = bump(V) - columns, the water a body presses down under it and raises
// around it, at the present position minus at the last stamp's.
void RigidBodies::stampWake(std::size_t k, Field2D& delta) {
  // Stamped once the body has travelled a quarter cell: the travel since the last stamp is kept,
  // so the sum over time is the same, and a body drifting slowly costs little.
  const Eigen::Vector3d& now = columnPosition_[k];
  const Eigen::Vector3d travel(now.x() - stampedPosition_[k].x(), now.y() - stampedPosition_[k].y(),
                               0.0);
  const double dx = domain_->grid().dx;
  if (travel.squaredNorm() < kWakeTravel * kWakeTravel * dx * dx) return;
  const RigidBody& body = bodies_[k];
  // The bump under the body too: a cut-out edge moved by a fraction of a cell switches whole
  // cells in and out, and those steps ring the grid's shortest waves.
  Ring &ringNow = ring_, &ringBefore = ringBefore_;
  ringAround(body, now, true, ringNow);
  ringAround(body, now - travel, true, ringBefore);
  if (ringNow.total <= 0.0 || ringBefore.total <= 0.0) return;
  stampedPosition_[k] = now;
  const double perCell = 1.0 / domain_->grid().cellArea();
  double reach = 0.0, moved = 0.0;
  for (const BodyColumn& column : columns_[k]) {
    Splat here, before;
    if (!splatAt(*domain_, column.x, column.y, here) ||
        !splatAt(*domain_, column.x - travel.x(), column.y - travel.y(), before))
      continue;
    addSplat(here, -column.volume * perCell, delta);
    addSplat(before, column.volume * perCell, delta);
    moved += column.volume;
    reach = std::max(reach, std::hypot(column.x - now.x(), column.y - now.y()));
  }
  addRing(ringNow, moved, delta);
  addRing(ringBefore, -moved, delta);
  displacementCells_.push_back(cellsAround(now, reach + travel.norm() + 3.0 * dx));
}

// The level the body floats on: the displacement ring's weighted mean of eta, put in place of
// the mean of eta under the body (sampled at its downward-facing patches, weighted by their
// area seen from above), so that the waves under it still tilt it. Why: the water's power on
// the body's heave is rho g A eta_b w and the ring's on the water rho g eta_r (-A w) (the ring
// takes the displaced volume -A w dt at the ring's mean level eta_r), so the coupling puts
// rho g A w (eta_b - eta_r) into the whole; with eta_b = eta_r it neither creates nor destroys
// energy, and the body loses what its ring radiates. With eta_b the water under the body,
// which rises and falls on its own a fraction of a period behind the body, it pumps.
double RigidBodies::levelShift(const RigidBody& body, const Field2D& eta) {
  const Grid& grid = domain_->grid();
  Ring& ring = ring_;
  ringAround(body, body.position, false, ring);
  if (ring.total <= 0.0) return 0.0;
  double weighted = 0.0;
  std::size_t n = 0;
  for (int j = ring.cells.j0; j <= ring.cells.j1; ++j)
    for (int i = ring.cells.i0; i <= ring.cells.i1; ++i, ++n)
      weighted += ring.weights[n] * eta(i, j);
  const Eigen::Matrix3d rotation = body.orientation.toRotationMatrix();
  double under = 0.0, footprint = 0.0;
  for (const BodyPatch& patch : body.geometry->patches) {
    const double seen = -patch.area * (rotation * patch.normal).z();
    if (seen <= 0.0) continue;
    const Eigen::Vector3d centre =
        rotation * (patch.corners[0] + patch.corners[1] + patch.corners[2]) / 3.0 + body.position;
    under += seen * sampleBilinear(eta, grid.dx, centre.x(), centre.y());
    footprint += seen;
  }
  return footprint > 0.0 ? weighted / ring.total - under / footprint : 0.0;
}

}  // namespace wb
