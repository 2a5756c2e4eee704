#include "core/forcing/floating_bodies.hpp"

#include <cmath>
#include <random>

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

bool FloatingBodies::wetAt(double x, double y) const {
  const double dx = domain_->grid().dx;
  return domain_->isWetOrOutside(int(std::floor(x / dx)), int(std::floor(y / dx)));
}

void FloatingBodies::advance(double dt, const Model& model) {
  if (bodies_.empty()) return;
  if (model.velocityU() && model.velocityV())
    advect(dt, *model.velocityU(), *model.velocityV());
  else
    ride(dt, model.eta());
  bob(model.eta());
}

// Eqs. 26-27: p^{n+1} = p^n + u^n(p^n) dt, u^n bilinear (eq. 32).
void FloatingBodies::advect(double dt, const Field2D& u, const Field2D& v) {
  const Grid& grid = domain_->grid();
  for (auto& body : bodies_) {
    body.vx = sampleBilinear(u, grid, body.x, body.y);
    body.vy = sampleBilinear(v, grid, body.x, body.y);
    moveTo(body, body.x + body.vx * dt, body.y + body.vy * dt);
  }
}

// w^{n+1} = (w^n - g grad(eta) dt) / (1 + drag dt), p^{n+1} = p^n + w^{n+1} dt.
void FloatingBodies::ride(double dt, const Field2D& eta) {
  const Grid& grid = domain_->grid();
  const double g = domain_->g(), dx = grid.dx;
  const double relax = 1.0 / (1.0 + kRideDrag * dt);
  for (auto& body : bodies_) {
    const double own = sampleBilinear(eta, grid, body.x, body.y);
    auto surface = [&](double x, double y) {
      return wetAt(x, y) ? double(sampleBilinear(eta, grid, x, y)) : own;
    };
    const double slopeX = (surface(body.x + dx, body.y) - surface(body.x - dx, body.y)) / (2 * dx);
    const double slopeY = (surface(body.x, body.y + dx) - surface(body.x, body.y - dx)) / (2 * dx);
    body.vx = (body.vx - g * slopeX * dt) * relax;
    body.vy = (body.vy - g * slopeY * dt) * relax;
    moveTo(body, body.x + body.vx * dt, body.y + body.vy * dt);
  }
}

void FloatingBodies::moveTo(FloatingBody& body, double x, double y) {
  if (wetAt(x, y)) {
    body.x = x, body.y = y;
  } else if (wetAt(x, body.y)) {
    body.x = x, body.vy = 0.0;
  } else if (wetAt(body.x, y)) {
    body.y = y, body.vx = 0.0;
  } else {
    body.vx = body.vy = 0.0;
  }
}

void FloatingBodies::bob(const Field2D& eta) {
  for (auto& body : bodies_)
    body.z = sampleBilinear(eta, domain_->grid(), body.x, body.y);
}

int FloatingBodies::countInSolid() const {
  int count = 0;
  for (const auto& body : bodies_)
    if (!wetAt(body.x, body.y)) ++count;
  return count;
}

}  // namespace wb
