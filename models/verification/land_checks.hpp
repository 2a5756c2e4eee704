// Land above the rest level (docs/wet-dry.md, "Land above the rest level"): the island basin
// and the beach that the verification rows (land_cases.cpp) and tests/unit/land_test.cpp run.
// Ground above rest is a negative rest depth; the shallow-water models lift the surface to it.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace wb::land_checks {

constexpr double kG = 9.81;

// Water above the ground (m^3): the sum of max(h - b, 0) over the open cells.
inline double water(const Field2D& h, const Domain& domain) {
  double sum = 0.0;
  for (std::size_t k = 0; k < h.size(); ++k)
    if (domain.wetMask()[k])
      sum += std::max(double(h.data()[k]) + domain.restDepth().data()[k], 0.0);
  return sum * domain.grid().cellArea();
}

// A 32 x 32 basin of 1 m cells, 1 m deep, whose island rises 0.5 m above the rest level:
// depth 1 - 1.5 exp(-r^2 / 20), r (m) from the centre.
inline Field2D islandDepth() {
  const int n = 32;
  Field2D depth(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      depth(i, j) =
          float(1.0 - 1.5 * std::exp(-(std::pow(i + 0.5 - 16.0, 2) + std::pow(j + 0.5 - 16.0, 2)) /
                                     20.0));
  return depth;
}

struct LakeRun {
  double error = 0.0;  // max |eta - eta0| (m), |u|, |v| (m/s) at the end
  double drift = 0.0;  // max |water - water0| / water0 over the run
};

// A lake at rest (eta0 = 0, lifted to the ground on land) run for `steps` steps of dt.
template <class M>
LakeRun runLakeAtRest(const Domain& domain, const Field2D& eta0, double dt, int steps) {
  M model;
  model.params().set("dt", dt, "verify");
  if constexpr (std::is_same_v<M, SweSemiLagrangian>) model.params().set("force", 1, "verify");
  model.reset(domain, eta0);
  const Field2D start = model.eta();
  const double w0 = water(start, domain);
  LakeRun run;
  for (int k = 0; k < steps; ++k) {
    model.step(dt);
    run.drift = std::max(run.drift, std::fabs(water(model.eta(), domain) - w0) / w0);
  }
  for (std::size_t k = 0; k < start.size(); ++k)
    run.error = std::max({run.error, double(std::fabs(model.eta().data()[k] - start.data()[k])),
                          double(std::fabs(model.velocityU()->data()[k])),
                          double(std::fabs(model.velocityV()->data()[k]))});
  return run;
}

// A beach: a 12.8 m strip (128 x 4 cells of 0.1 m) whose ground rises linearly from 0.5 m
// below rest at the west wall to 0.5 m above it at the east wall.
inline Domain beach() {
  const int nx = 128, ny = 4;
  Domain domain(Grid{nx, ny, 0.1}, kG, 1.0);
  Field2D depth(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      depth(i, j) = float(0.5 - domain.grid().x(i) / domain.grid().width());
  domain.setRestDepth(depth);
  return domain;
}

// A 0.1 m hump of water at x = 3 m, at rest: half of it runs up the beach.
inline Field2D beachWave(const Domain& domain) {
  Field2D eta0(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      if (domain.isWetAtRest(i, j))
        eta0(i, j) = float(0.1 * std::exp(-std::pow((domain.grid().x(i) - 3.0) / 0.5, 2)));
  return eta0;
}

struct BeachRun {
  int peakFlooded = 0;    // most cells dry at rest holding more than 1 mm at once
  int drainedAfter = 0;   // fewest such cells after the peak
  double minDepth = 1.0;  // m, over every cell and step
  double drift = 0.0;     // max |volume - volume0| / water0, volume = sum of (h - b)
  int steps = 0;
};

// The beach wave run for `duration` s at the model's own dt.
template <class M>
BeachRun runBeach(double duration) {
  const Domain domain = beach();
  M model;
  model.reset(domain, beachWave(domain));
  const double w0 = water(model.eta(), domain);
  BeachRun run;
  int peakStep = 0;
  run.drainedAfter = domain.nx() * domain.ny();
  for (double t = 0.0; t < duration; ++run.steps) {
    const double dt = model.preferredDt();
    model.step(dt);
    t += dt;
    int flooded = 0;
    double volume = 0.0;
    for (int j = 0; j < domain.ny(); ++j)
      for (int i = 0; i < domain.nx(); ++i) {
        const double d = model.eta()(i, j) + domain.restDepth()(i, j);
        volume += d * domain.grid().cellArea();
        run.minDepth = std::min(run.minDepth, d);
        flooded += !domain.isWetAtRest(i, j) && d > 1e-3;
      }
    run.drift = std::max(run.drift, std::fabs(volume - w0) / w0);
    if (flooded > run.peakFlooded)
      run.peakFlooded = flooded, peakStep = run.steps, run.drainedAfter = flooded;
    if (run.steps > peakStep) run.drainedAfter = std::min(run.drainedAfter, flooded);
  }
  return run;
}

// What the beach rows and tests require: at least two columns of dry ground flooded at once,
// later at most a quarter of them still holding more than 1 mm, depth never negative, the
// water kept to 1e-6 of itself (float round-off).
inline bool floodsAndDrains(const BeachRun& run) {
  return run.peakFlooded >= 8 && run.drainedAfter <= run.peakFlooded / 4 && run.minDepth >= 0.0 &&
         run.drift <= 1e-6;
}

// Thacker's planar surface in a paraboloid (Thacker 1981; SWASHES 4.2.2, Delestre et al.
// 2013): ground z(r) = -h0 (1 - r^2 / a^2) in a square of side L, r from its centre, and
//   surface(x, y, t) = eta h0 / a^2 (2 x' cos(w t) + 2 y' sin(w t) - eta),  w = sqrt(2 g h0) / a,
//   u = -eta w sin(w t),  v = eta w cos(w t)  where the depth surface - z > 0,
// x' = x - L / 2, y' = y - L / 2, no friction. The depth is h0 (a^2 - |x' - eta (cos, sin)|^2)
// / a^2: a paraboloid cap of radius a whose centre circles the bowl's at radius eta (m), under
// a tilted plane, with a uniform velocity.
// The shallow-water models' rest level is 0 and a rest depth between 0 and Domain::kMinDepth
// would be raised to it, so the bowl is lifted by kLift: its bottom stands 1 cm above rest,
// every cell is ground above rest (dry until water reaches it), and the rest level plays no
// part.
struct Thacker {
  double a = 1.0, h0 = 0.1, eta = 0.5, length = 4.0, g = kG;
  static constexpr double kLift = 0.11;  // m: the bowl's bottom is at kLift - h0 above rest

  double omega() const { return std::sqrt(2.0 * g * h0) / a; }
  double period() const { return 2.0 * M_PI / omega(); }
  double ground(double x, double y) const {
    const double r2 = std::pow(x - 0.5 * length, 2) + std::pow(y - 0.5 * length, 2);
    return -h0 * (1.0 - r2 / (a * a)) + kLift;
  }
  double depth(double x, double y, double t) const {
    const double c = std::cos(omega() * t), s = std::sin(omega() * t);
    const double surface =
        eta * h0 / (a * a) * (2.0 * (x - 0.5 * length) * c + 2.0 * (y - 0.5 * length) * s - eta) +
        kLift;
    return std::max(surface - ground(x, y), 0.0);
  }
  double u(double t) const { return -eta * omega() * std::sin(omega() * t); }
  double v(double t) const { return eta * omega() * std::cos(omega() * t); }
};

// The target: within 2 % of the bowl's depth scale over 3 periods at 20 cells/m.
constexpr double kThackerTolerance = 0.02;

struct ThackerRun {
  double maxError = 0.0;               // max over the run of sum |d - d*| dA / (pi a^2 h0)
  double maxAt = 0.0;                  // s: when
  double finalError = 0.0;             // at the end
  double interior = 0.0, shore = 0.0;  // the end's error split (same unit): see runThacker
  double minDepth = 1.0, drift = 0.0;
  double centroidOffset = 0.0;  // m: the water's centroid from the analytic one at the end
  int steps = 0;
};

// Thacker's oscillation at `cellsPerMetre` for `periods` periods at the model's auto dt, the
// model started at t = 0 with the analytic depth and velocity. The error is the L1 norm of
// the depth error over the grid divided by the wet disk's area pi a^2 and by h0: the mean
// depth error as a fraction of the bowl's depth scale (the relative L1 of depth,
// sum |d - d*| / sum d*, is twice it: the cap holds pi a^2 h0 / 2). interior is the part from
// cells wet in both solutions more than two cells inside the analytic shoreline, shore the
// rest.
template <class M>
ThackerRun runThacker(double cellsPerMetre, double periods) {
  const Thacker exact;
  const int n = int(std::lround(exact.length * cellsPerMetre));
  const double dx = exact.length / n;
  Domain domain(Grid{n, n, dx}, kG, 1.0);
  Field2D depth(n, n), eta0(n, n), u0(n, n), v0(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = domain.grid().x(i), y = domain.grid().y(j);
      depth(i, j) = float(-exact.ground(x, y));
      eta0(i, j) = float(exact.ground(x, y) + exact.depth(x, y, 0.0));
      u0(i, j) = float(exact.u(0.0));
      v0(i, j) = float(exact.v(0.0));
    }
  domain.setRestDepth(depth);
  M model;
  model.reset(domain, eta0);
  if constexpr (std::is_same_v<M, SweSemiLagrangian>) model.setVelocity(u0, v0);
  const double w0 = water(model.eta(), domain), disk = M_PI * exact.a * exact.a * exact.h0;
  const double duration = periods * exact.period();
  ThackerRun run;
  const auto measure = [&](double t, bool split) {
    double error = 0.0, interior = 0.0, sum = 0.0, sumX = 0.0, sumY = 0.0;
    const double shoreRadius = exact.a - 2.0 * dx;
    const double cx = 0.5 * exact.length + exact.eta * std::cos(exact.omega() * t);
    const double cy = 0.5 * exact.length + exact.eta * std::sin(exact.omega() * t);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double x = domain.grid().x(i), y = domain.grid().y(j);
        const double d = model.eta()(i, j) + domain.restDepth()(i, j);
        const double e = std::fabs(d - exact.depth(x, y, t)) * dx * dx;
        error += e;
        if (split && std::hypot(x - cx, y - cy) < shoreRadius) interior += e;
        sum += d, sumX += d * x, sumY += d * y;
      }
    if (split) {
      run.interior = interior / disk, run.shore = (error - interior) / disk;
      run.centroidOffset = std::hypot(sumX / sum - cx, sumY / sum - cy);
    }
    return error / disk;
  };
  double t = 0.0;
  while (t < duration - 1e-9) {
    const double dt = std::min(model.preferredDt(), duration - t);
    model.step(dt);
    t += dt;
    ++run.steps;
    const double e = measure(t, false);
    if (e > run.maxError) run.maxError = e, run.maxAt = t;
    for (std::size_t k = 0; k < model.eta().size(); ++k)
      run.minDepth =
          std::min(run.minDepth, double(model.eta().data()[k]) + domain.restDepth().data()[k]);
    run.drift = std::max(run.drift, std::fabs(water(model.eta(), domain) - w0) / w0);
  }
  run.finalError = measure(t, true);
  return run;
}

// Run-up of a solitary wave on a plane beach (Synolakis 1987): a wave of height H on water
// of depth d climbs a beach of slope 1 : cot(beta) to the height
//   R / d = 2.831 sqrt(cot(beta)) (H / d)^(5/4)                                  (eq. 31)
// above rest, for waves that do not break (H / d < 0.8183 cot(beta)^(-10/9), eq. 33). The law
// is the linear theory's maximum run-up, which Synolakis showed equals the nonlinear
// shallow-water equations' (Carrier & Greenspan's transform): the shallow-water models,
// which have no dispersion, are compared with it as is. His laboratory case: cot(beta) =
// 19.85, H / d = 0.0185, d = 1 m here: R = 0.0861 m.
// A strip of ny = 4 rows: the beach rises westwards from its toe at x_toe = x_s + d cot(beta)
// to 0.3 m above rest at x = 0 (the shoreline at rest at x_s = 0.3 cot(beta)); the flat
// bottom runs east of the toe. The wave, H sech^2(gamma (x - X1) / d) with gamma =
// sqrt(3 H / (4 d)), starts centred at X1 = x_toe + L, L = arccosh(sqrt(20)) d / gamma (its
// height is 5 % of H at the toe), as Synolakis, with the velocity of a simple wave of the
// shallow-water equations running west, u = -2 (sqrt(g (d + eta)) - sqrt(g d)); 2 L of flat
// bottom lie east of X1.
struct SolitaryRunup {
  double d = 1.0, height = 0.0185, cotBeta = 19.85, g = kG;
  double land = 0.3;  // m: the beach's top above rest

  double runup() const { return 2.831 * std::sqrt(cotBeta) * std::pow(height / d, 1.25) * d; }
  double gamma() const { return std::sqrt(0.75 * height / d); }
  double halfLength() const { return std::acosh(std::sqrt(20.0)) * d / gamma(); }
  double shoreline() const { return land * cotBeta; }
  double toe() const { return shoreline() + d * cotBeta; }
  double centre() const { return toe() + halfLength(); }
  double length() const { return centre() + 2.0 * halfLength(); }
  // The ground relative to rest (m).
  double ground(double x) const { return std::max((shoreline() - x) / cotBeta, -d); }
  double wave(double x) const {
    const double s = 1.0 / std::cosh(gamma() * (x - centre()) / d);
    return height * s * s;
  }
};

struct RunupRun {
  double runup = 0.0;     // m: the highest ground holding more than kRunupDepth, max over time
  double at = 0.0;        // s: when
  double minDepth = 1.0;  // m
  double drift = 0.0;     // max |water - water0| / water0
  int steps = 0;
};
constexpr double kRunupDepth = 1e-3;  // m: the run-up's shoreline
// The rows' run: 25 s (the run-up peaks near 17 s) at dt = kRunupDtFraction dx / sqrt(g d).
// The run-up depends on dt: the implicit gravity step (backward Euler in the surface, first
// order) damps the wave on its way (docs/wet-dry.md: -19 % at the auto dt of 4 times the
// explicit limit, -4.6 % at 1 time, -1.7 % at 0.5).
constexpr double kRunupDuration = 25.0, kRunupDtFraction = 0.5;
// Two cells of the beach's height at 20 cells/m (0.05 / 19.85 m each) are 5.8 % of R; the law
// (linear theory, asymptotic in H/d) and the initial wave (a KdV profile, not a shallow-water
// one) add about a percent.
constexpr double kRunupTolerance = 0.05;

// The run-up at cell size dx for `duration` s. swe-semi-lagrangian starts with the wave's
// velocity (setVelocity) and runs at its auto dt over a beach lifted by kLift, so that every
// cell is ground above rest (a rest depth between 0 and Domain::kMinDepth would be raised to
// it: a 1 cm ledge at the shoreline). Models without a velocity setter start from rest with
// twice the wave, which splits into two waves of height H (linear theory), one running up the
// beach and one out to sea, on the unlifted beach at dt = `dt` (the ledge stays).
template <class M>
RunupRun runRunup(double dx, double duration, double dt = 0.0) {
  const SolitaryRunup exact;
  constexpr bool moving = std::is_same_v<M, SweSemiLagrangian>;
  const double lift = moving ? exact.land + 0.02 : 0.0;  // m: every cell 2 cm above rest
  // Models started from rest need room for the seaward half: 4 L more.
  const double length = exact.length() + (moving ? 0.0 : 4.0 * exact.halfLength());
  const int nx = int(std::lround(length / dx)), ny = 4;
  Domain domain(Grid{nx, ny, dx}, kG, 1.0);
  Field2D depth(nx, ny), eta0(nx, ny), u0(nx, ny), v0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double x = domain.grid().x(i), ground = exact.ground(x) + lift;
      const double wave = (moving ? 1.0 : 2.0) * exact.wave(x);
      depth(i, j) = float(-ground);
      eta0(i, j) = float(std::max(lift + wave, ground));
      u0(i, j) = float(-2.0 * (std::sqrt(kG * (exact.d + wave)) - std::sqrt(kG * exact.d)));
    }
  domain.setRestDepth(depth);
  M model;
  if (dt > 0.0) model.params().set("dt", dt, "verify");
  model.reset(domain, eta0);
  if constexpr (moving) model.setVelocity(u0, v0);
  const double w0 = water(model.eta(), domain);
  RunupRun run;
  for (double t = 0.0; t < duration; ++run.steps) {
    const double step = model.preferredDt();
    model.step(step);
    t += step;
    for (int i = 0; i < nx; ++i) {
      const double d = model.eta()(i, 1) + domain.restDepth()(i, 1);
      run.minDepth = std::min(run.minDepth, d);
      const double ground = -domain.restDepth()(i, 1) - lift;
      if (d > kRunupDepth && ground > run.runup) run.runup = ground, run.at = t;
    }
    run.drift = std::max(run.drift, std::fabs(water(model.eta(), domain) - w0) / w0);
  }
  return run;
}

}  // namespace wb::land_checks
