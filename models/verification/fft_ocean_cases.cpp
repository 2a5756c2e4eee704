// Verification of fft-ocean (Tessendorf 2001 in a walled basin, docs/fft-ocean.md): the period
// of one standing mode against omega^2 = g k tanh(k d) in shallow, intermediate and deep water;
// potential + kinetic energy and volume of a random sea over 10,000 steps; mirror symmetry;
// the Phillips sea's variance and its zero across the wind; and the k d -> 0 limit against
// swe-adi's shallow water. The open form (sea = open, Tessendorf's periodic patch): a
// travelling mode after 1000 periods at finite and infinite depth, a standing wave's period, and
// the realised JONSWAP sea's variance and Hs against its spectrum and Pierson-Moskowitz.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/measure/diagnostics.hpp"
#include "core/ocean/ocean_patch.hpp"
#include "core/ocean/ocean_spectrum.hpp"
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

double openK() {
  return std::hypot(2 * kPi * 3 / 48.0, 2 * kPi * -2 / 36.0);
}

// The open form: one travelling wave a cos(k.x - w t), (m, n) = (3, -2) on a 64 x 48 patch
// (dx 0.75 m), evaluated after 1000.37 periods against the exact surface: max |error| / a. A w
// off by 1e-7 would move the phase by 6e-4 a; float transforms give about 1e-7 a. Tolerance 1e-5.
VerifyResult openTravellingCase(double depth) {
  OceanPatch patch(PatchGeometry{64, 48, 0.75, kG, depth}, 1);
  const double a = 0.3;
  patch.addWave(3, -2, a);
  const double kx = 2 * kPi * 3 / 48.0, ky = 2 * kPi * -2 / 36.0, k = std::hypot(kx, ky);
  const double w = std::sqrt(kG * k * (std::isfinite(depth) ? std::tanh(k * depth) : 1.0));
  const double t = 1000.37 * 2 * kPi / w;
  patch.evaluate(t, PatchOutputs{.slopes = false});
  double worst = 0.0;
  for (int j = 0; j < 48; ++j)
    for (int i = 0; i < 64; ++i)
      worst = std::max(worst, std::fabs(patch.height()(i, j) -
                                        a * std::cos(kx * 0.75 * i + ky * 0.75 * j - w * t)));
  std::ostringstream d;
  d << "max |eta - a cos(k.x - w t)| / a after 1000.37 periods of " << 2 * kPi / w
    << " s, k = " << k << " 1/m, " << (std::isfinite(depth) ? "d = " : "deep");
  if (std::isfinite(depth)) d << depth << " m";
  std::ostringstream name;
  name << "open travelling wave " << (std::isfinite(depth) ? "kd = 1" : "deep");
  return {kId, name.str(), worst / a, 1e-5, "rel", worst / a <= 1e-5, d.str()};
}

// The open form's standing wave: a periodic cosine at rest, 2 pi (3 i / 64 + j / 64) on a 64 x 64
// patch, k d = 1, measured as the basin's period case from the upward zero crossings at (0, 0)
// over 20 periods (tolerance 1e-4).
VerifyResult openStandingCase() {
  const Grid grid{64, 64, 1.0};
  const double k = 2 * kPi * std::hypot(3.0, 1.0) / 64.0, depth = 1.0 / k;
  const double period = 2 * kPi / std::sqrt(kG * k * std::tanh(1.0));
  Field2D cosine(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      cosine(i, j) = float(0.01 * std::cos(2 * kPi * (3.0 * i + j) / 64.0));
  FftOcean model;
  model.params().setFromText("sea", "open", "verify");
  model.reset(Domain(grid, kG, depth), cosine);
  const double measured = measuredPeriod(model, period / 37.3, period, 20);
  const double error = measured / period - 1.0;
  std::ostringstream d;
  d << "T = " << measured << " s from zero crossings vs 2 pi / sqrt(g k tanh(k d)) = " << period
    << " s, 64 x 64 periodic patch, k d = 1";
  return {kId, "open standing wave kd = 1", error, 1e-4, "rel", std::fabs(error) <= 1e-4, d.str()};
}

// A calibrated JONSWAP sea, U10 = 10 m/s, fetch 100 km, on a 1024 m patch (512^2, dx 2 m), 40 m
// deep. Variance: the surface's against sum p over the lattice, p = (F(k) + F(-k)) dk^2 / 2; its
// sampling sigma is sqrt(sum 2 p^2) (h(k) circular complex Gaussian, |h|^2 exponential):
// tolerance 4 sigma. Hs: 4 sqrt(variance) against Pierson-Moskowitz's 0.21 (1.026 U10)^2 / g,
// tolerance the patch-size loss 1 - sum p / integral F plus 2 sigma / sum p.
struct OpenSeaFigures {
  double variance = 0.0, expected = 0.0, sigma = 0.0, loss = 0.0, hsPm = 0.0;
};
OpenSeaFigures openSeaFigures() {
  const PatchGeometry geometry{512, 512, 2.0, kG, 40.0};
  WindSea sea;
  sea.windSpeed = 10.0;
  sea.depth = 40.0;
  const OceanSpectrum spectrum(sea);
  OceanPatch patch(geometry, 1);
  patch.addWindSea(spectrum, 1);
  patch.evaluate(0.0, PatchOutputs{.slopes = false});
  OpenSeaFigures f;
  const double l = 1024.0, dk2 = 4 * kPi * kPi / (l * l);
  double sum2 = 0.0;
  for (int n = -255; n < 256; ++n)
    for (int m = -255; m < 256; ++m) {
      const double kx = 2 * kPi * m / l, ky = 2 * kPi * n / l;
      const double p = (spectrum(kx, ky) + spectrum(-kx, -ky)) * dk2 / 2.0;
      f.expected += p;
      sum2 += 2.0 * p * p;
    }
  f.sigma = std::sqrt(sum2);
  double sum = 0.0, sumSquares = 0.0;
  const Field2D& eta = patch.height();
  for (std::size_t k = 0; k < eta.size(); ++k) {
    sum += eta.data()[k];
    sumSquares += double(eta.data()[k]) * eta.data()[k];
  }
  const double cells = double(eta.size());
  f.variance = sumSquares / cells - (sum / cells) * (sum / cells);
  f.loss = 1.0 - f.expected / spectrum.variance();
  f.hsPm = spectrum.piersonMoskowitzHs();
  return f;
}

VerifyResult openVarianceCase() {
  const OpenSeaFigures f = openSeaFigures();
  const double error = f.variance / f.expected - 1.0, tolerance = 4.0 * f.sigma / f.expected;
  std::ostringstream d;
  d << "surface variance " << f.variance << " m^2 vs sum p over the lattice " << f.expected
    << " m^2 (JONSWAP, U10 = 10 m/s, 1024 m patch); tolerance 4 sampling sigmas";
  return {kId,   "open JONSWAP variance",       error,  tolerance,
          "rel", std::fabs(error) <= tolerance, d.str()};
}

VerifyResult openHsCase() {
  const OpenSeaFigures f = openSeaFigures();
  const double hs = 4.0 * std::sqrt(f.variance), error = hs / f.hsPm - 1.0;
  const double tolerance = f.loss + 2.0 * f.sigma / f.expected;
  std::ostringstream d;
  d << "Hs " << hs << " m vs Pierson-Moskowitz " << f.hsPm << " m; tolerance the patch-size loss "
    << f.loss << " + 2 sigma";
  return {kId,   "open Hs vs Pierson-Moskowitz", error,  tolerance,
          "rel", std::fabs(error) <= tolerance,  d.str()};
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
      {kId, "open travelling wave kd = 1", [] { return openTravellingCase(1.0 / openK()); }},
      {kId, "open travelling wave deep",
       [] { return openTravellingCase(std::numeric_limits<double>::infinity()); }},
      {kId, "open standing wave kd = 1", openStandingCase},
      {kId, "open JONSWAP variance", openVarianceCase},
      {kId, "open Hs vs Pierson-Moskowitz", openHsCase},
  };
}

}  // namespace wb
