// Wet/dry fronts of swe-semi-lagrangian (docs/wet-dry.md): Ritter's dry-bed dam break (depth
// and front), Stoker's wet one at the ratios where its bore is strong (depth, with volume and
// positivity), and a lake at rest around islands that pierce its surface.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/run/tick_steps.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/verification/shallow_water_checks.hpp"
#include "models/verification/verification.hpp"

namespace wb {
namespace {

using namespace shallow_water_checks;
const std::string kId = "swe-semi-lagrangian";

// A 1-D dam break on a 50 m strip at 20 cells per metre, hl = 1 m behind a dam at x0, hr
// beyond, run at the automatic dt as the Comparison steps it (ticks of 1/60 s, each covered in
// the steps the model's rules choose, core/run/tick_steps.hpp) and sampled at `times`.
// Ritter's dam stands at 15 m (his front, 2 sqrt(g hl) t = 25.06 m on at 4 s, stays off the
// wall), Stoker's at 25 m (as stokerCase).
struct DamBreakSample {
  double time = 0.0, l1 = 0.0, front = 0.0, exactFront = 0.0;
};
struct DamBreakRun {
  double x0 = 0.0, minDepth = 0.0, drift = 0.0;
  int steps = 0;
  std::vector<DamBreakSample> samples;
};
constexpr double kDuration = 4.0, kFrontDepth = 1e-3;  // s; m: where the front is read
constexpr double kTick = 1.0 / 60.0;                   // s, the Scenario's default tick

DamBreakSample sampleDamBreak(const SweSemiLagrangian& model, const Domain& domain,
                              const DamBreak& exact, double hl, double t) {
  DamBreakSample sample;
  sample.time = t;
  const double dx = domain.grid().dx;
  double error = 0.0, norm = 0.0;
  for (int i = 0; i < domain.nx(); ++i) {
    const double x = domain.grid().x(i), reference = exact.depth(x, t);
    const double depth = model.eta()(i, 1) + hl;
    error += std::fabs(depth - reference);
    norm += reference;
    if (depth > kFrontDepth) sample.front = x + 0.5 * dx;
    if (reference > kFrontDepth) sample.exactFront = x + 0.5 * dx;
  }
  sample.l1 = error / norm;
  return sample;
}

DamBreakRun runDamBreak(double hr, const std::vector<double>& times = {kDuration}) {
  const double dx = 0.05, length = 50.0, hl = 1.0;
  DamBreakRun run;
  run.x0 = hr > 0.0 ? 25.0 : 15.0;
  const int nx = int(std::lround(length / dx)), ny = 4;
  const Domain domain(Grid{nx, ny, dx}, kG, hl);
  Field2D eta0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      eta0(i, j) = domain.grid().x(i) < run.x0 ? 0.0f : float(hr - hl);
  SweSemiLagrangian model;
  model.reset(domain, eta0);
  const auto volume = [&] {
    double sum = 0.0;
    for (std::size_t k = 0; k < model.eta().size(); ++k)
      sum += model.eta().data()[k];
    return sum * domain.grid().cellArea();
  };
  const double v0 = volume(), water = (hl * run.x0 + hr * (length - run.x0)) * ny * dx;
  const DamBreak exact(kG, hl, hr, run.x0);
  run.minDepth = hl;
  const long long ticks = std::llround(times.back() / kTick);
  std::size_t nextSample = 0;
  for (long long tick = 0; tick < ticks; ++tick) {
    for (TickSteps steps(tick * kTick, (tick + 1) * kTick, model.preferredDt()); !steps.done();
         steps.next(model.preferredDt())) {
      model.step(steps.dt());
      ++run.steps;
      for (std::size_t k = 0; k < model.eta().size(); ++k)
        run.minDepth = std::min(run.minDepth, double(model.eta().data()[k]) + hl);
      run.drift = std::max(run.drift, std::fabs(volume() - v0) / water);
    }
    if (nextSample < times.size() && std::llround(times[nextSample] / kTick) == tick + 1)
      run.samples.push_back(sampleDamBreak(model, domain, exact, hl, times[nextSample++]));
  }
  return run;
}

VerifyResult ritterDepthCase() {
  const DamBreakRun run = runDamBreak(0.0);
  const double l1 = run.samples.back().l1;
  std::ostringstream d;
  d << "dry bed, 1 m behind a dam, 20 cells/m, after " << kDuration << " s in " << run.steps
    << " steps (SWASHES 4.1.2); min depth " << run.minDepth << " m, max |volume drift| "
    << run.drift << " of the water";
  const bool passed = l1 <= 0.03 && run.minDepth >= 0.0;
  return {kId, "Ritter dry dam break: L1 of depth", l1, 0.03, "rel", passed, d.str()};
}

// The front is the last cell deeper than 1 mm, against the point where Ritter's depth falls
// to 1 mm (at 4 s 1.2 m behind his front 2 sqrt(g hl) t, where his depth reaches 0; the detail
// gives both). Read early and late: the error of a thin tip's transport weighs most early.
VerifyResult ritterFrontCase(double time) {
  const DamBreakRun run = runDamBreak(0.0, {time});
  const DamBreakSample& sample = run.samples.back();
  const double ritter = 2.0 * time * std::sqrt(kG * 1.0);
  const double advance = sample.front - run.x0, exact = sample.exactFront - run.x0;
  const double error = advance / exact - 1.0;
  std::ostringstream name, d;
  name << "Ritter dry dam break: front advance at " << time << " s";
  d << "front (depth > 1 mm) " << advance << " m past the dam vs Ritter's " << exact
    << " m (where his depth is 1 mm; 2 sqrt(g hl) t = " << ritter << " m, "
    << advance / ritter - 1.0 << " relative); 20 cells/m, automatic dt in ticks of 1/60 s, "
    << run.steps << " steps";
  return {kId, name.str(), error, 0.05, "rel", std::fabs(error) <= 0.05, d.str()};
}

// Stoker's wet dam break where its bore is strong (the hr/hl = 0.5 row is stokerCase in
// swe_semi_lagrangian_cases.cpp): relative L1 of depth, and it passes only if no volume was
// created or lost (float round-off over the run) and no depth went negative.
constexpr double kRoundOffDrift = 1e-6;
VerifyResult stokerStrongBoreCase(double ratio) {
  const DamBreakRun run = runDamBreak(ratio);
  const DamBreak exact(kG, 1.0, ratio, run.x0);
  const double l1 = run.samples.back().l1;
  std::ostringstream name, d;
  name << "Stoker wet dam break, hr/hl = " << ratio << ": L1 of depth";
  d << "after " << kDuration << " s in " << run.steps << " steps, 20 cells/m; middle depth "
    << exact.middleDepth() << " m (SWASHES 4.1.1); max |volume drift| " << run.drift
    << " of the water, min depth " << run.minDepth << " m";
  const bool passed = l1 <= 0.015 && run.drift <= kRoundOffDrift && run.minDepth >= 0.0;
  return {kId, name.str(), l1, 0.015, "rel", passed, d.str()};
}

// The uneven basin (seamount, ripples, shelf, a solid island) holding a lake whose surface is
// 0.6 m below the rest level: the seamount and the shelf's ripple crests pierce it and stay
// dry. 500 steps of 1 s; nothing may move.
VerifyResult lakeWithIslandsCase() {
  const int n = 48;
  const Domain domain = unevenBasin(n);
  const float level = -0.6f;
  Field2D eta0(n, n);
  int dry = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (!domain.isWet(i, j)) continue;
      const float ground = -domain.restDepth()(i, j);
      eta0(i, j) = std::max(level, ground);
      dry += ground >= level;
    }
  SweSemiLagrangian model;
  model.params().set("dt", 1.0, "verify");
  model.params().set("force", 1, "verify");
  model.reset(domain, eta0);
  for (int k = 0; k < 500; ++k)
    model.step(1.0);
  double error = 0.0;
  for (std::size_t k = 0; k < eta0.size(); ++k)
    error = std::max({error, double(std::fabs(model.eta().data()[k] - eta0.data()[k])),
                      double(std::fabs(model.velocityU()->data()[k])),
                      double(std::fabs(model.velocityV()->data()[k]))});
  std::ostringstream d;
  d << "max(|eta - eta0| m, |u|, |v| m/s) after 500 steps of 1 s, lake 0.6 m below rest, " << dry
    << " dry cells (seamount, ripple crests) and a solid island";
  return {kId,    "lake at rest around islands piercing it", error, 1e-6, "m, m/s", error <= 1e-6,
          d.str()};
}

}  // namespace

std::vector<VerifyCase> sweWetDryCases() {
  return {
      {kId, "ritter depth", ritterDepthCase},
      {kId, "ritter front 0.5 s", [] { return ritterFrontCase(0.5); }},
      {kId, "ritter front 1 s", [] { return ritterFrontCase(1.0); }},
      {kId, "ritter front 2 s", [] { return ritterFrontCase(2.0); }},
      {kId, "ritter front 4 s", [] { return ritterFrontCase(kDuration); }},
      {kId, "stoker 0.2", [] { return stokerStrongBoreCase(0.2); }},
      {kId, "stoker 0.1", [] { return stokerStrongBoreCase(0.1); }},
      {kId, "lake with islands", lakeWithIslandsCase},
  };
}

}  // namespace wb
