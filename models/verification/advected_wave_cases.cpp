// Verification of advected-wave (Kim & Yoo) and the floating bodies: the pressure solve's
// residual, the divergence Stam's approximate projection leaves (second order in the interior
// under refinement), the height deviation of eq. 7 for one step, the stability bound of
// eq. 10 found by experiment, a body in a uniform flow (Layton eqs. 26-27) and the volume
// budget of a long windy run.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>

#include "core/forcing/floating_bodies.hpp"
#include "core/run/comparison.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/verification/verification.hpp"

namespace wb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr const char* kModel = "advected-wave";

std::unique_ptr<AdvectedWave> makeModel(const Domain& domain, double tolerance = 1e-4) {
  auto model = std::make_unique<AdvectedWave>();
  model->params().set("cg_tolerance", tolerance, "verify");
  model->reset(domain, Field2D(domain.nx(), domain.ny()));
  return model;
}

// A smooth flow with divergence and curl whose normal component vanishes at the walls of
// the square [0, L]^2: u = sin(pi x/L) cos(2 pi y/L), v = sin(pi y/L) cos(pi x/L).
void setSmoothFlow(AdvectedWave& model, const Grid& grid) {
  const double L = grid.width();
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const double x = grid.x(i) / L, y = grid.y(j) / L;
      model.velocityUMutable()(i, j) = float(std::sin(kPi * x) * std::cos(2 * kPi * y));
      model.velocityVMutable()(i, j) = float(std::sin(kPi * y) * std::cos(kPi * x));
    }
}

// Max |div u| over the cells at least a quarter of the width from every wall.
double interiorDivergence(const AdvectedWave& model, const Grid& grid) {
  Field2D div(grid.nx, grid.ny);
  model.computeDivergence(div);
  double worst = 0.0;
  for (int j = grid.ny / 4; j < grid.ny - grid.ny / 4; ++j)
    for (int i = grid.nx / 4; i < grid.nx - grid.nx / 4; ++i)
      worst = std::max(worst, double(std::fabs(div(i, j))));
  return worst;
}

VerifyResult projectionResidualCase() {
  const Domain domain(Grid{64, 64, 1.0 / 64}, 9.81, 1.0);
  auto model = makeModel(domain);
  setSmoothFlow(*model, domain.grid());
  model->project();
  const auto d = model->diagnostics();
  VerifyResult r{kModel, "pressure solve residual", d.at("solver_residual"), 1e-4, "rel", false,
                 ""};
  r.passed = r.measured <= r.tolerance;
  std::ostringstream detail;
  detail << d.at("solver_iterations") << " float V-cycles on 64^2; max|div| "
         << d.at("divergence_before") << " -> " << d.at("divergence_max") << " 1/s";
  r.detail = detail.str();
  return r;
}

VerifyResult divergenceOrderCase() {
  double previous = 0.0, order = 0.0;
  std::ostringstream detail;
  detail << "interior max|div| after projection, n = 16/32/64:";
  for (int n : {16, 32, 64}) {
    const Domain domain(Grid{n, n, 1.0 / n}, 9.81, 1.0);
    auto model = makeModel(domain, 1e-6);
    setSmoothFlow(*model, domain.grid());
    model->project();
    const double divergence = interiorDivergence(*model, domain.grid());
    detail << ' ' << divergence;
    if (previous > 0) order = std::log2(previous / divergence);
    previous = divergence;
  }
  detail << "; order " << order << " (expected 2)";
  VerifyResult r{
      kModel, "projection divergence order (interior)", std::fabs(order - 2.0), 0.3, "order", false,
      ""};
  r.passed = r.measured <= r.tolerance;
  r.detail = detail.str();
  return r;
}

// u = -a (x - xc), v = -a (y - yc): div u = -2a; eq. 7 with kappa = 1/(d dt) raises every
// interior cell by dz = 2 a d dt, a vertical velocity dz / dt that eq. 10 keeps: from a flat
// surface at rest (z^k = z^{k-1} = 0) one UpdateHeight gives z^{k+1} = dz + R dz with
// R = (2 - nu dt)/(2 + nu dt), L(dz) being 0 where dz is uniform.
VerifyResult convergingFlowCase() {
  const double depth = 0.5, a = 0.2;
  const Domain domain(Grid{32, 32, 0.1}, 9.81, depth);
  auto model = makeModel(domain);
  const Grid& grid = domain.grid();
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      model->velocityUMutable()(i, j) = float(-a * (grid.x(i) - 0.5 * grid.width()));
      model->velocityVMutable()(i, j) = float(-a * (grid.y(j) - 0.5 * grid.height()));
    }
  const double dt = model->preferredDt();
  model->updateHeight(dt);
  const double nuDt = model->viscosity() * dt;
  const double expected = 2.0 * a * depth * dt * (1.0 + (2.0 - nuDt) / (2.0 + nuDt));
  double worst = 0.0;
  for (int j = 2; j < grid.ny - 2; ++j)
    for (int i = 2; i < grid.nx - 2; ++i)
      worst = std::max(worst, std::fabs(model->eta()(i, j) - expected) / expected);
  VerifyResult r{kModel, "eq. 7 height from converging flow", worst, 1e-5, "rel", false, ""};
  r.passed = worst <= r.tolerance;
  std::ostringstream detail;
  detail << "z = (1 + R) 2 a d dt = " << expected << " m on interior cells, worst relative error";
  r.detail = detail.str();
  return r;
}

// Runs at `fraction` of the derived bound from a rough surface; returns max|eta| / initial.
double growthAt(double fraction) {
  const Domain domain(Grid{32, 32, 0.1}, 9.81, 1.0);
  Field2D eta0(32, 32);
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 32; ++i)
      eta0(i, j) = float(0.01 * std::sin(1.7 * i + 2.3 * j * j));
  AdvectedWave model;
  const double c = std::sqrt(9.81);
  model.params().set("dt", fraction * AdvectedWave::stabilityLimit(c, 0.1), "verify");
  model.params().set("force", 1, "verify");
  model.reset(domain, eta0);
  constexpr int kSteps = 2000;
  for (int s = 0; s < kSteps && model.eta().allFinite(); ++s)
    model.step(model.preferredDt());
  return model.eta().allFinite() ? model.eta().maxAbs() / eta0.maxAbs() : INFINITY;
}

VerifyResult stabilityBoundCase() {
  const double below = growthAt(0.99), above = growthAt(1.02);
  VerifyResult r{kModel, "stability bound c dt/dx <= 1/sqrt(2)", below, 2.0, "x", false, ""};
  r.passed = below <= r.tolerance && !(above < 1e3);
  std::ostringstream detail;
  detail << "max|eta| growth over 2000 steps: " << below << " at 0.99 bound, " << above
         << " at 1.02 bound (nu = 0.2)";
  r.detail = detail.str();
  return r;
}

VerifyResult bodyInUniformFlowCase() {
  const Domain domain(Grid{64, 64, 0.1}, 9.81, 1.0);
  FloatingBodies bodies(domain, 50, 0.1, 7);
  const float U = 0.3f, V = -0.2f;
  const Field2D u(64, 64, U), v(64, 64, V);
  const auto start = bodies.bodies();
  const double dt = 0.01;
  constexpr int kSteps = 50;
  for (int s = 0; s < kSteps; ++s)
    bodies.advect(dt, u, v);
  double worst = 0.0;
  for (std::size_t b = 0; b < start.size(); ++b) {
    const double moved = std::hypot(bodies.bodies()[b].x - start[b].x - U * dt * kSteps,
                                    bodies.bodies()[b].y - start[b].y - V * dt * kSteps);
    const bool blocked = bodies.bodies()[b].vx == 0.0 || bodies.bodies()[b].vy == 0.0;
    if (!blocked) worst = std::max(worst, moved);
  }
  VerifyResult r{kModel, "body in uniform flow (eqs. 26-27)", worst, 1e-6, "m", false, ""};
  r.passed = worst <= r.tolerance && bodies.countInSolid() == 0;
  r.detail = "position error after 0.5 s at (0.3, -0.2) m/s, boxes not stopped by a wall";
  return r;
}

VerifyResult windyVolumeCase() {
  Scenario s;
  s.grid = Grid{64, 64, 0.1};
  s.excitations.wind.push_back(WindSpec{0.0, 0.1, true, 0.0, 3.2, 6.4, 6.4});
  s.bodies = {200, 0.1};
  s.duration = 60.0;
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(std::make_unique<AdvectedWave>());
  Comparison comparison(s, std::move(models));
  double worst = 0.0;
  int inSolid = 0;
  for (int f = 0; f < s.frameCount() && !comparison.anyFailed(); ++f) {
    comparison.advanceFrame();
    const FrameRecord rec = comparison.record(0);
    worst = std::max(worst, std::fabs(rec.volumeDrift));
    inSolid += int(rec.solver.at("bodies_in_solid"));
  }
  const double poolVolume = s.grid.width() * s.grid.height() * s.depth;
  VerifyResult r{kModel, "volume drift, 60 s of wind", worst / poolVolume, 1e-5, "rel", false, ""};
  r.passed = r.measured <= r.tolerance && inSolid == 0 && !comparison.anyFailed();
  std::ostringstream detail;
  detail << "max|drift| " << worst << " m^3 of " << poolVolume << " m^3 (64^2, wind 0.1 m/s^2 "
         << "on the upper half); bodies in solid cells: " << inSolid;
  r.detail = detail.str();
  return r;
}

}  // namespace

std::vector<VerifyCase> advectedWaveCases() {
  return {
      {kModel, "pressure solve residual", projectionResidualCase},
      {kModel, "projection divergence order (interior)", divergenceOrderCase},
      {kModel, "eq. 7 height from converging flow", convergingFlowCase},
      {kModel, "stability bound c dt/dx <= 1/sqrt(2)", stabilityBoundCase},
      {kModel, "body in uniform flow (eqs. 26-27)", bodyInUniformFlowCase},
      {kModel, "volume drift, 60 s of wind", windyVolumeCase},
  };
}

}  // namespace wb
