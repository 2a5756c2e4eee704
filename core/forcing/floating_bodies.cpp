#include "core/forcing/floating_bodies.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "core/grid/interpolation.hpp"

namespace wb {

namespace {
// Mixed into the scenario seed so that the placement does not repeat the rain's positions.
constexpr std::uint64_t kPlacementStream = 0x9E3779B97F4A7C15ULL;
// Tries per box to land on a wet cell before the box is left out (a nearly dry domain).
constexpr int kPlacementAttempts = 1000;
}  // namespace

FloatingBodies::FloatingBodies(const Domain& domain, int count, double size, std::uint64_t seed)
    : domain_(&domain), boxSize_(size) {
  std::mt19937_64 random(seed ^ kPlacementStream);
  const Grid& grid = domain.grid();
  std::uniform_real_distribution<double> ux(0.0, grid.width()), uy(0.0, grid.height());
  for (int n = 0; n < count; ++n)
    for (int attempt = 0; attempt < kPlacementAttempts; ++attempt) {
      FloatingBody body;
      body.x = ux(random);
      body.y = uy(random);
      if (!wetAt(body.x, body.y)) continue;
      bodies_.push_back(body);
      break;
    }
}

void FloatingBodies::advance(double dt, const Model& model) {
  if (bodies_.empty()) return;
  if (model.velocityU() && model.velocityV())
    advect(dt, *model.velocityU(), *model.velocityV(), &model.eta());
  else
    ride(dt, model.eta(), &model.eta());
}

// Eqs. 26-27: p^{n+1} = p^n + u^n(p^n) dt, u^n bilinear (eq. 32).
void FloatingBodies::advect(double dt, const Field2D& u, const Field2D& v, const Field2D* bobOn) {
  const Grid& grid = domain_->grid();
  // One cell lookup serves u and v: both are cell-centred on the grid (Model::velocityU).
  if (!u.sameShape(v)) throw std::invalid_argument("FloatingBodies::advect: u and v differ");
  const auto count = std::ptrdiff_t(bodies_.size());
  // Bodies move independently: any thread count gives the same positions bit for bit.
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    FloatingBody& body = bodies_[std::size_t(k)];
    const BilinearCell cell = bilinearCell(u, grid.dx, body.x, body.y);
    body.vx = sampleBilinear(u, cell);
    body.vy = sampleBilinear(v, cell);
    moveTo(body, body.x + body.vx * dt, body.y + body.vy * dt);
    if (bobOn) body.z = sampleBilinear(*bobOn, grid, body.x, body.y);
  }
}

// grad(eta) on the cells: central differences, a solid or outside neighbour taking the cell's
// own value (mirror wall); 0 on solid cells. Bilinear in these is the central difference of
// bilinear samples one cell apart, computed once per step instead of per body.
void FloatingBodies::updateSlopes(const Field2D& eta) {
  const int nx = eta.nx(), ny = eta.ny();
  const double inverse = 1.0 / (2.0 * domain_->grid().dx);
  if (!slopeX_.sameShape(eta)) slopeX_ = Field2D(nx, ny), slopeY_ = Field2D(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!domain_->isWet(i, j)) {
        slopeX_(i, j) = slopeY_(i, j) = 0.0f;
        continue;
      }
      const float own = eta(i, j);
      auto at = [&](int a, int b) { return domain_->isWetOrOutside(a, b) ? eta(a, b) : own; };
      slopeX_(i, j) = float((at(i + 1, j) - at(i - 1, j)) * inverse);
      slopeY_(i, j) = float((at(i, j + 1) - at(i, j - 1)) * inverse);
    }
}

// w^{n+1} = (w^n - g grad(eta) dt) / (1 + drag dt), p^{n+1} = p^n + w^{n+1} dt.
void FloatingBodies::ride(double dt, const Field2D& eta, const Field2D* bobOn,
                          const Field2D* carryU, const Field2D* carryV) {
  updateSlopes(eta);
  const Grid& grid = domain_->grid();
  const double g = domain_->g();
  const double relax = 1.0 / (1.0 + kRideDrag * dt);
  const bool carried = carryU && carryV;
  if (carried && !carryU->sameShape(*carryV))
    throw std::invalid_argument("FloatingBodies::ride: carryU and carryV differ");
  const auto count = std::ptrdiff_t(bodies_.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    FloatingBody& body = bodies_[std::size_t(k)];
    const BilinearCell cell = bilinearCell(slopeX_, grid.dx, body.x, body.y);
    const double slopeX = sampleBilinear(slopeX_, cell), slopeY = sampleBilinear(slopeY_, cell);
    body.rideX = (body.rideX - g * slopeX * dt) * relax;
    body.rideY = (body.rideY - g * slopeY * dt) * relax;
    body.vx = body.rideX + (carried ? sampleBilinear(*carryU, cell) : 0.0);
    body.vy = body.rideY + (carried ? sampleBilinear(*carryV, cell) : 0.0);
    moveTo(body, body.x + body.vx * dt, body.y + body.vy * dt);
    if (bobOn) body.z = sampleBilinear(*bobOn, grid, body.x, body.y);
  }
}

void FloatingBodies::moveTo(FloatingBody& body, double x, double y) {
  if (wetAt(x, y)) {
    body.x = x, body.y = y;
  } else if (wetAt(x, body.y)) {
    body.x = x, body.vy = body.rideY = 0.0;
  } else if (wetAt(body.x, y)) {
    body.y = y, body.vx = body.rideX = 0.0;
  } else {
    body.vx = body.vy = body.rideX = body.rideY = 0.0;
  }
}

void FloatingBodies::translate(double dx, double dy) {
  if (bodies_.empty()) return;
  const Grid& grid = domain_->grid();
  const auto wrap = [](double x, double extent) {
    x = std::fmod(x, extent);
    return x < 0.0 ? x + extent : x;
  };
  for (FloatingBody& body : bodies_) {
    body.x = wrap(body.x + dx, grid.width());
    body.y = wrap(body.y + dy, grid.height());
  }
}

int FloatingBodies::countInSolid() const {
  int count = 0;
  const auto size = std::ptrdiff_t(bodies_.size());
#pragma omp parallel for schedule(static) reduction(+ : count)
  for (std::ptrdiff_t k = 0; k < size; ++k)
    if (!wetAt(bodies_[std::size_t(k)].x, bodies_[std::size_t(k)].y)) ++count;
  return count;
}

}  // namespace wb
