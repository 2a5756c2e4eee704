// Bottom friction by Manning's n in the shallow-water models (core/model/manning_friction.hpp),
// against exact solutions, and at a wet/dry front (docs/verification.md, "Manning friction").
//
// A uniform current in a long channel: a body force a along it (the wind's acceleration, the
// same as the downslope pull g S of a bed of slope S) and Manning's friction give, away from
// the channel's ends, du/dt = a - k u^2 with k = g n^2 / d^{4/3} and no gradient of anything:
//   u(t) = U tanh(sqrt(a k) t),   U = sqrt(a / k) = d^{2/3} S^{1/2} / n   (Manning's formula)
// and, the force taken off at t1, the free decay du/dt = -k u^2:
//   u(t) = u1 / (1 + k u1 (t - t1)).
// The split implicit friction step is first order in dt beside the force (the steady speed
// solves U (1 + dt k (U + a dt)) = U + a dt: U - a dt / 2), so the error is measured at two dt,
// 0.1 s and 0.025 s, with tolerances 0.02 and 0.005 of U.
// The ends send waves in (a set-up where the current meets the wall, a set-down where it
// leaves the other); the channel is long enough that none reaches its middle, where u is read,
// within the run.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/model/model.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/verification/shallow_water_checks.hpp"
#include "models/verification/verification.hpp"

namespace wb {
namespace {

using namespace shallow_water_checks;

// The channel: 100 m of water 0.1 m deep on 0.1 m cells, 4 rows between walls; n = 0.05 and
// a = g S with S = 0.01: k = 0.53 1/m, U = 0.431 m/s, reached in about 1 / sqrt(a k) = 4.4 s.
// The ends' waves travel at most u + sqrt(g d) = 1.4 m/s: 36 s to the middle, after the run.
constexpr double kChannelDepth = 0.1, kChannelManning = 0.05, kSlope = 0.01;
constexpr double kForceOff = 16.0, kChannelEnd = 24.0;  // s

struct CurrentRun {
  double maxError = 0.0;  // max |u - u_exact| over the run, m/s
  double atForceOff = 0.0, exactAtForceOff = 0.0, atEnd = 0.0, exactAtEnd = 0.0;
  int steps = 0;
};

double channelK() {
  return kG * kChannelManning * kChannelManning / std::pow(kChannelDepth, 4.0 / 3.0);
}
double channelA() {
  return kG * kSlope;
}
double manningFormula() {
  return std::pow(kChannelDepth, 2.0 / 3.0) * std::sqrt(kSlope) / kChannelManning;
}

double exactCurrent(double t) {
  const double k = channelK(), a = channelA(), terminal = std::sqrt(a / k);
  if (t <= kForceOff) return terminal * std::tanh(std::sqrt(a * k) * t);
  const double u1 = terminal * std::tanh(std::sqrt(a * k) * kForceOff);
  return u1 / (1.0 + k * u1 * (t - kForceOff));
}

template <class M>
CurrentRun runCurrent(M model, double dt) {
  const int nx = 1000, ny = 4;
  Domain domain(Grid{nx, ny, 0.1}, kG, kChannelDepth);
  domain.setManning(kChannelManning);
  model.params().set("dt", dt, "verify");
  model.reset(domain, Field2D(nx, ny));
  ForceField force{Field2D(nx, ny, float(channelA())), Field2D(nx, ny)};
  model.setForce(&force);
  CurrentRun run;
  const int steps = int(std::lround(kChannelEnd / dt));
  const int off = int(std::lround(kForceOff / dt));
  for (int s = 1; s <= steps; ++s) {
    model.step(dt);
    if (s == off) model.setForce(nullptr);
    const double t = s * dt, u = (*model.velocityU())(nx / 2, 1);
    run.maxError = std::max(run.maxError, std::fabs(u - exactCurrent(t)));
    if (s == off) run.atForceOff = u, run.exactAtForceOff = exactCurrent(t);
    if (s == steps) run.atEnd = u, run.exactAtEnd = exactCurrent(t);
  }
  run.steps = steps;
  return run;
}

template <class M>
VerifyResult currentCase(const std::string& id, double dt, double tolerance) {
  const CurrentRun run = runCurrent(M{}, dt);
  const double relative = run.maxError / manningFormula();
  std::ostringstream d;
  d << "max |u - u_exact| / U over 0-" << kChannelEnd << " s at dt " << dt << " s (" << run.steps
    << " steps; force off at " << kForceOff << " s): u " << run.atForceOff << " / exact "
    << run.exactAtForceOff << " m/s at " << kForceOff << " s, " << run.atEnd << " / "
    << run.exactAtEnd << " m/s at " << kChannelEnd << " s";
  return {id,       "Manning: current, force then decay, dt " + std::to_string(dt).substr(0, 5),
          relative, tolerance,
          "rel",    relative <= tolerance,
          d.str()};
}

// The terminal speed against Manning's formula U = d^{2/3} S^{1/2} / n, at dt 0.025 s: u at
// 16 s, when tanh(sqrt(a k) t) is 0.9986, over U.
template <class M>
VerifyResult manningFormulaCase(const std::string& id) {
  const CurrentRun run = runCurrent(M{}, 0.025);
  const double ratio = run.atForceOff / manningFormula();
  std::ostringstream d;
  d << "u = " << run.atForceOff << " m/s at " << kForceOff << " s under a = g S, S = " << kSlope
    << ", d = " << kChannelDepth << " m, n = " << kChannelManning
    << "; Manning's formula d^(2/3) S^(1/2) / n = " << manningFormula() << " m/s";
  return {id,    "Manning's formula: terminal speed", ratio - 1.0, 0.01,
          "rel", std::fabs(ratio - 1.0) <= 0.01,      d.str()};
}

// Ritter's dry-bed dam break (water 1 m deep behind a dam at 50 m of a 100 m strip on 0.25 m
// cells, dry flat ground beyond) with n = 0.03 for 4 s, each model at its own dt: the depth
// stays finite and non-negative, the volume is kept, and the front runs no further than
// without friction.
struct FrontRun {
  double front = 0.0, minDepth = 0.0, drift = 0.0, dissipated = 0.0;
  bool finite = true;
  int steps = 0;
};

template <class M>
FrontRun runFrictionDamBreak(double manning) {
  const int nx = 400, ny = 4;
  const double h0 = 1.0, dam = 50.0, duration = 4.0;
  Domain domain(Grid{nx, ny, 0.25}, kG, h0);
  domain.setManning(manning);
  Field2D eta0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      eta0(i, j) = domain.grid().x(i) < dam ? 0.0f : float(-h0);
  M model;
  model.reset(domain, eta0);
  const auto volume = [&] {
    double sum = 0.0;
    for (std::size_t k = 0; k < model.eta().size(); ++k)
      sum += model.eta().data()[k];
    return sum * domain.grid().cellArea();
  };
  const double v0 = volume(), water = h0 * dam * ny * domain.grid().dx;
  FrontRun run;
  run.minDepth = h0;
  for (double t = 0.0; t < duration - 1e-9;) {
    const double dt = std::min(model.preferredDt(), duration - t);
    model.step(dt);
    t += dt;
    ++run.steps;
    for (std::size_t k = 0; k < model.eta().size(); ++k) {
      const double depth = double(model.eta().data()[k]) + h0;
      run.finite =
          run.finite && std::isfinite(depth) && std::isfinite(model.velocityU()->data()[k]);
      run.minDepth = std::min(run.minDepth, depth);
    }
    run.drift = std::max(run.drift, std::fabs(volume() - v0) / water);
  }
  for (int i = 0; i < nx; ++i)
    if (model.eta()(i, 1) + h0 > 1e-3)
      run.front = domain.grid().x(i) + 0.5 * domain.grid().dx - dam;
  const auto figures = model.diagnostics();
  if (figures.count("friction_energy")) run.dissipated = figures.at("friction_energy");
  return run;
}

template <class M>
VerifyResult frictionFrontCase(const std::string& id) {
  constexpr double kManning = 0.03, kDriftTolerance = 1e-6;
  const FrontRun rough = runFrictionDamBreak<M>(kManning), smooth = runFrictionDamBreak<M>(0.0);
  const bool passed = rough.finite && rough.minDepth >= 0.0 && rough.drift <= kDriftTolerance &&
                      rough.front > 0.0 && rough.front <= smooth.front && rough.dissipated > 0.0;
  std::ostringstream d;
  d << "n = " << kManning << ", 4 s in " << rough.steps << " steps: min depth " << rough.minDepth
    << " m, " << (rough.finite ? "finite" : "NOT finite") << ", front (depth > 1 mm) "
    << rough.front << " m past the dam (" << smooth.front << " m without friction), friction took "
    << rough.dissipated << " m^5/s^2";
  return {id,          "Manning: dry dam break, n = 0.03: volume drift",
          rough.drift, kDriftTolerance,
          "rel",       passed,
          d.str()};
}

}  // namespace

std::vector<VerifyCase> manningFrictionCases() {
  const std::string sl = SweSemiLagrangian::kId, adi = SweAdi::kId;
  return {
      {sl, "Manning: current, dt 0.1",
       [=] { return currentCase<SweSemiLagrangian>(sl, 0.1, 0.02); }},
      {sl, "Manning: current, dt 0.025",
       [=] { return currentCase<SweSemiLagrangian>(sl, 0.025, 0.005); }},
      {sl, "Manning's formula", [=] { return manningFormulaCase<SweSemiLagrangian>(sl); }},
      {sl, "Manning: dry dam break", [=] { return frictionFrontCase<SweSemiLagrangian>(sl); }},
      {adi, "Manning: current, dt 0.1", [=] { return currentCase<SweAdi>(adi, 0.1, 0.02); }},
      {adi, "Manning: current, dt 0.025", [=] { return currentCase<SweAdi>(adi, 0.025, 0.005); }},
      {adi, "Manning's formula", [=] { return manningFormulaCase<SweAdi>(adi); }},
      {adi, "Manning: dry dam break", [=] { return frictionFrontCase<SweAdi>(adi); }},
  };
}

}  // namespace wb
