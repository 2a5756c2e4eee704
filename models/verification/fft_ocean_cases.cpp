// Verification of fft-ocean (Tessendorf 2001 in a walled basin, docs/fft-ocean.md): the period
// of one standing mode against omega^2 = g k tanh(k d) in shallow, intermediate and deep water;
// potential + kinetic energy and volume of a random sea over 10,000 steps; mirror symmetry;
// the Phillips sea's variance and its zero across the wind; and the k d -> 0 limit against
// swe-adi's shallow water.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/measure/diagnostics.hpp"
#include "models/fft_ocean/fft_ocean.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/verification/shallow_water_checks.hpp"
#include "models/verification/verification.hpp"

namespace wb {
namespace {

using namespace shallow_water_checks;
const std::string kId = "fft-ocean";

// The period of eta at cell (0, 0), where every cosine mode is at its crest, from the upward
// zero crossings over `periods` expected periods, interpolated linearly inside a step (a
// cosine is straight at its zero: the error is third order in dt).
double measuredPeriod(Model& model, double dt, double expected, int periods) {
  std::vector<double> crossings;
  double previous = model.eta()(0, 0);
  const int steps = int(std::ceil(periods * expected / dt));
  for (int k = 1; k <= steps; ++k) {
    model.step(dt);
    const double h = model.eta()(0, 0);
    if (previous < 0.0 && h >= 0.0) crossings.push_back(dt * (k - 1 + previous / (previous - h)));
    previous = h;
  }
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

// The (1,1) mode of a 32 x 32 basin (dx 1 m) at depth kd / k.
struct ModeBasin {
  Grid grid{32, 32, 1.0};
  double k = 0.0, depth = 0.0, period = 0.0;
  explicit ModeBasin(double kd) {
    k = std::hypot(kPi / grid.width(), kPi / grid.height());
    depth = kd / k;
    period = 2.0 * kPi / std::sqrt(kG * k * std::tanh(kd));
  }
  Domain domain() const { return Domain(grid, kG, depth); }
};

// Float transforms give eta to about 1e-7 of its amplitude; the crossing times follow to
// 1e-7 of a period. The tolerance is the brief's 1e-4; a wrong depth, a missing tanh or a
// half-index slip in kx miss it by percents.
VerifyResult periodCase(double kd) {
  const ModeBasin basin(kd);
  FftOcean model;
  model.reset(basin.domain(), cosineMode(basin.grid, 1, 1, 0.01));
  const double dt = basin.period / 37.3;  // incommensurate with the period
  const double measured = measuredPeriod(model, dt, basin.period, 20);
  const double error = measured / basin.period - 1.0;
  std::ostringstream name, d;
  name << "period (1,1) kd = " << kd;
  d << "T = " << measured
    << " s from zero crossings vs 2 pi / sqrt(g k tanh(k d)) = " << basin.period
    << " s, d = " << basin.depth << " m, 32 x 32 basin, dt = T / 37.3";
  return {kId, name.str(), error, 1e-4, "rel", std::fabs(error) <= 1e-4, d.str()};
}

// The Phillips sea of V (A = 1e-3, l = dx) blowing at directionDeg.
void setWind(FftOcean& model, int seed, double directionDeg, double speed = 8.0) {
  model.params().set("wind_speed", speed, "verify");
  model.params().set("wind_direction", directionDeg, "verify");
  model.params().set("seed", seed, "verify");
}

// A 64 x 64 basin, dx 1 m, 10 m deep: the spectrum's peak wavelength 2 pi V^2 / g = 41 m fits.
const Domain kSeaDomain(Grid{64, 64, 1.0}, kG, 10.0);

double totalEnergy(const FftOcean& model, const Domain& domain) {
  return summarizeSurface(model.eta(), domain).potentialEnergy + model.kineticEnergy();
}

// Each step is an exact rotation in double precision; the potential energy is measured on the
// float surface (about 1e-7 of it). Tolerance 1e-5 of the total over 10,000 steps; a rotation
// in float (cos^2 + sin^2 = 1 - 6e-8 each step) would drift by 1e-3.
VerifyResult energyCase() {
  FftOcean model;
  setWind(model, 3, 30.0);
  model.reset(kSeaDomain, gaussian(kSeaDomain.grid(), 20.0, 30.0, 3.0, 0.2));
  const double e0 = totalEnergy(model, kSeaDomain);
  double worst = 0.0;
  const int steps = 10000;
  for (int k = 1; k <= steps; ++k) {
    model.step(model.preferredDt());
    if (k % 100 == 0) worst = std::max(worst, std::fabs(totalEnergy(model, kSeaDomain) / e0 - 1));
  }
  std::ostringstream d;
  d << "max |E/E0 - 1| of potential + kinetic every 100 steps over " << steps << " steps of "
    << model.preferredDt() << " s, Phillips sea V = 8 m/s plus a drop, 64 x 64, E0 = " << e0
    << " m^5/s^2";
  return {kId, "energy 10000 steps", worst, 1e-5, "rel", worst <= 1e-5, d.str()};
}

// The mean mode has omega = 0: the volume is the float sum of the transformed surface. Its
// round-off, about 1e-7 of max |eta| per cell, bounds the change: tolerance 1e-6 max |eta| dA
// times the cell count.
VerifyResult volumeCase() {
  FftOcean model;
  setWind(model, 5, 45.0);
  model.reset(kSeaDomain, gaussian(kSeaDomain.grid(), 20.0, 30.0, 3.0, 0.2));
  const double v0 = wetVolume(model.eta(), kSeaDomain);
  const double scale =
      1e-6 * model.eta().maxAbs() * kSeaDomain.grid().cellArea() * double(kSeaDomain.wetCount());
  double worst = 0.0;
  for (int k = 1; k <= 10000; ++k) {
    model.step(model.preferredDt());
    if (k % 100 == 0) worst = std::max(worst, std::fabs(wetVolume(model.eta(), kSeaDomain) - v0));
  }
  std::ostringstream d;
  d << "max |V - V0| every 100 steps over 10000 steps, V0 = " << v0 << " m^3, tolerance " << scale
    << " m^3 (1e-6 max|eta| dA per cell)";
  return {kId, "volume 10000 steps", worst, scale, "m^3", worst <= scale, d.str()};
}

// A surface mirror-symmetric in x (drops at x and Lx - x) keeps only even m; after 2000 steps
// max |eta(x) - eta(Lx - x)| relative to max |eta| stays at float round-off (tolerance 1e-5).
VerifyResult symmetryCase() {
  const Grid grid{64, 48, 1.0};
  const Domain domain(grid, kG, 5.0);
  Field2D eta0 = gaussian(grid, 15.0, 20.0, 3.0, 0.2);
  const Field2D mirror = gaussian(grid, 64.0 - 15.0, 20.0, 3.0, 0.2);
  for (std::size_t k = 0; k < eta0.size(); ++k)
    eta0.data()[k] += mirror.data()[k];
  FftOcean model;
  model.reset(domain, eta0);
  for (int k = 0; k < 2000; ++k)
    model.step(model.preferredDt());
  const Field2D& eta = model.eta();
  double worst = 0.0;
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      worst = std::max(worst, double(std::fabs(eta(i, j) - eta(grid.nx - 1 - i, j))));
  const double relative = worst / eta.maxAbs();
  std::ostringstream d;
  d << "max |eta(x) - eta(Lx - x)| / max |eta| after 2000 steps, 64 x 48 basin 5 m deep";
  return {kId, "symmetry", relative, 1e-5, "rel", relative <= 1e-5, d.str()};
}

// The sea's surface variance against sum P(k) dk^2 over the k-plane lattice (+-kx, +-ky). With
// a_mn ~ N(0, p_mn), p = P dk^2, the spatial variance V = sum c a^2 (c = w_m w_n, the lattice
// points of the mode) has mean E = sum c p and variance 2 sum c^2 p^2; the mean over S seeds
// is within 4 sqrt(2 sum c^2 p^2 / S) of E but for a 6e-5 chance. V = 4 m/s puts the peak at a
// 10 m wavelength: many modes share the variance and the bound is tight.
VerifyResult varianceCase() {
  const int seeds = 16;
  const double speed = 4.0;
  const Grid& grid = kSeaDomain.grid();
  FftOcean probe;
  setWind(probe, 1, 30.0, speed);
  probe.reset(kSeaDomain, Field2D(grid.nx, grid.ny));
  double expected = 0.0, spread = 0.0;
  for (int n = 0; n < grid.ny; ++n)
    for (int m = 0; m < grid.nx; ++m) {
      const double c = (m > 0 ? 2.0 : 1.0) * (n > 0 ? 2.0 : 1.0);
      const double p =
          probe.spectrum()(kPi * m / grid.width(), kPi * n / grid.height()) * probe.modeArea();
      expected += c * p;
      spread += 2.0 * c * c * p * p;
    }
  double mean = 0.0;
  for (int seed = 1; seed <= seeds; ++seed) {
    FftOcean model;
    setWind(model, seed, 30.0, speed);
    model.reset(kSeaDomain, Field2D(grid.nx, grid.ny));
    const Field2D& eta = model.eta();
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t k = 0; k < eta.size(); ++k) {
      sum += eta.data()[k];
      sum2 += double(eta.data()[k]) * eta.data()[k];
    }
    const double cells = double(eta.size());
    mean += (sum2 / cells - (sum / cells) * (sum / cells)) / seeds;
  }
  const double tolerance = 4.0 * std::sqrt(spread / seeds) / expected;
  const double error = mean / expected - 1.0;
  std::ostringstream d;
  d << "mean surface variance of " << seeds << " seeds " << mean
    << " m^2 vs sum P dk^2 = " << expected << " m^2 (V = " << speed
    << " m/s, A = 1e-3, 30 deg, 64 x 64 m, 10 m deep); tolerance 4 "
    << "sampling sigmas";
  return {kId,   "Phillips variance",           error,  tolerance,
          "rel", std::fabs(error) <= tolerance, d.str()};
}

// |k^ . w^|^2 is zero for waves across the wind: with the wind along x no mode cos(ky y)
// (m = 0) has energy, i.e. every row's mean over x is 0; along y every column's mean. The
// measure: the largest such mean over the rms of the surface (float round-off, tolerance
// 1e-5); the other direction's means are of the order of the rms (checked > 1e-2).
VerifyResult directionCase() {
  const Grid& grid = kSeaDomain.grid();
  // The largest |mean of eta along lines of x| (alongX) or of y, over the rms of eta.
  const auto lineMeans = [&](const Field2D& eta, bool alongX) {
    double rms = 0.0, worst = 0.0;
    for (std::size_t k = 0; k < eta.size(); ++k)
      rms += double(eta.data()[k]) * eta.data()[k];
    rms = std::sqrt(rms / double(eta.size()));
    const int lines = alongX ? grid.ny : grid.nx, length = alongX ? grid.nx : grid.ny;
    for (int line = 0; line < lines; ++line) {
      double mean = 0.0;
      for (int s = 0; s < length; ++s)
        mean += alongX ? eta(s, line) : eta(line, s);
      worst = std::max(worst, std::fabs(mean / length));
    }
    return worst / rms;
  };
  double across = 0.0, along = 1e300;
  for (const bool windAlongX : {true, false}) {
    FftOcean model;
    setWind(model, 2, windAlongX ? 0.0 : 90.0);
    model.reset(kSeaDomain, Field2D(grid.nx, grid.ny));
    across = std::max(across, lineMeans(model.eta(), windAlongX));
    along = std::min(along, lineMeans(model.eta(), !windAlongX));
  }
  std::ostringstream d;
  d << "max |mean of eta over a line along the wind| / rms (waves across the wind), wind at 0 "
       "and 90 deg; over a line across the wind it is "
    << along << " rms";
  const bool passed = across <= 1e-5 && along > 1e-2;
  return {kId, "no energy across the wind", across, 1e-5, "rel", passed, d.str()};
}

// Shallow water is the k d -> 0 limit: at k d = 0.1 the (1,1) periods of fft-ocean and swe-adi
// (default dt) agree within 1 % (tanh lowers omega by 0.17 %, swe-adi's 5-point operator and
// trapezoidal rule lengthen its period by about 0.4 % and 0.2 % here).
VerifyResult shallowLimitCase() {
  const ModeBasin basin(0.1);
  const Domain domain = basin.domain();
  const Field2D mode = cosineMode(basin.grid, 1, 1, 0.001);
  FftOcean ocean;
  ocean.reset(domain, mode);
  const double tOcean = measuredPeriod(ocean, ocean.preferredDt(), basin.period, 10);
  SweAdi adi;
  adi.reset(domain, mode);
  const double tAdi = measuredPeriod(adi, adi.preferredDt(), basin.period, 10);
  const double error = tOcean / tAdi - 1.0;
  std::ostringstream d;
  d << "(1,1) period " << tOcean << " s (fft-ocean) vs " << tAdi
    << " s (swe-adi) at k d = 0.1, 32 x 32 basin " << basin.depth << " m deep";
  return {kId, "shallow limit vs swe-adi", error, 0.01, "rel", std::fabs(error) <= 0.01, d.str()};
}

}  // namespace

std::vector<VerifyCase> fftOceanCases() {
  return {
      {kId, "period (1,1) kd = 0.1", [] { return periodCase(0.1); }},
      {kId, "period (1,1) kd = 1", [] { return periodCase(1.0); }},
      {kId, "period (1,1) kd = 10", [] { return periodCase(10.0); }},
      {kId, "energy 10000 steps", energyCase},
      {kId, "volume 10000 steps", volumeCase},
      {kId, "symmetry", symmetryCase},
      {kId, "Phillips variance", varianceCase},
      {kId, "no energy across the wind", directionCase},
      {kId, "shallow limit vs swe-adi", shallowLimitCase},
  };
}

}  // namespace wb
