// Wind-sea spectra (core/ocean/ocean_spectrum.hpp) against closed forms, and the realised sea of
// the open-sea patch against its spectrum: variance within the sampling spread, Hs against
// Pierson-Moskowitz, stationarity over an hour.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/ocean/ocean_patch.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

WindSea windSea(SpectrumKind kind, double u10) {
  WindSea sea;
  sea.kind = kind;
  sea.windSpeed = u10;
  sea.windDirection = 0.3;
  sea.g = kG;
  return sea;
}

// Phillips without the small-wave factor: int F d^2k = pi A L^2 / 2 (L = U^2 / g), and the
// deep-water peak of S(w) = E(k) dk/dw at w^4 = 4 g^2 / (5 L^2).
TEST(OceanSpectrum, PhillipsIntegralAndPeakAreTheClosedForms) {
  WindSea sea = windSea(SpectrumKind::Phillips, 9.0);
  sea.calibrateToPiersonMoskowitz = false;
  sea.phillipsAmplitude = 2e-3;
  const OceanSpectrum spectrum(sea);
  const double L = 81.0 / kG;
  EXPECT_NEAR(spectrum.variance(), kPi * 2e-3 * L * L / 2.0, 1e-6 * spectrum.variance());
  const double peak = std::pow(4.0 * kG * kG / (5.0 * L * L), 0.25);
  EXPECT_NEAR(spectrum.peakOmega(), peak, 1e-6 * peak);
}

// JONSWAP with gamma = 1 is Pierson-Moskowitz's shape: m0 = alpha g^2 / (5 w_p^4), alpha =
// 0.076 chi^-0.22, w_p = 22 (g^2 / (U F))^(1/3) (Hasselmann et al. 1973); deep water. Checks
// the mapping to the k-plane (dw/dk / k) and the spreading's normalisation.
TEST(OceanSpectrum, JonswapOfGammaOneHasPiersonMoskowitzsIntegral) {
  WindSea sea = windSea(SpectrumKind::Jonswap, 12.0);
  sea.calibrateToPiersonMoskowitz = false;
  sea.gamma = 1.0;
  sea.fetch = 50e3;
  const OceanSpectrum spectrum(sea);
  const double chi = kG * 50e3 / 144.0, alpha = 0.076 * std::pow(chi, -0.22);
  const double wp = 22.0 * std::cbrt(kG * kG / (12.0 * 50e3));
  EXPECT_NEAR(spectrum.peakOmega(), wp, 1e-12 * wp);
  EXPECT_NEAR(spectrum.amplitude(), alpha, 1e-12);
  const double m0 = alpha * kG * kG / (5.0 * std::pow(wp, 4));
  EXPECT_NEAR(spectrum.variance(), m0, 1e-5 * m0);
}

// Calibrated (the default): Hs of the unbounded spectrum is Pierson-Moskowitz's 0.21 U19.5^2 / g,
// U19.5 = 1.026 U10, for both spectra and at finite depth.
TEST(OceanSpectrum, CalibrationGivesPiersonMoskowitzHs) {
  for (const SpectrumKind kind : {SpectrumKind::Phillips, SpectrumKind::Jonswap}) {
    WindSea sea = windSea(kind, 10.0);
    sea.depth = 30.0;
    const OceanSpectrum spectrum(sea);
    const double hs = 0.21 * std::pow(1.026 * 10.0, 2) / kG;
    EXPECT_NEAR(spectrum.piersonMoskowitzHs(), hs, 1e-12);
    EXPECT_NEAR(spectrum.significantWaveHeight(), hs, 1e-6 * hs);
  }
}

struct SeaSample {
  double expected = 0.0, sigma = 0.0;  // E V and its sampling sigma
};

// With p_k = E|h(k)|^2 = (F(k) + F(-k)) dk^2 / 2, h(k) at a time is a circular complex Gaussian
// and h(-k) its conjugate: V = sum |h|^2 is a sum of exponentials over the pairs, E V = sum p,
// Var V = sum over all points 2 p^2 (a chi-square of 2 N_eff degrees of freedom).
SeaSample latticeStatistics(const OceanSpectrum& spectrum, const PatchGeometry& g) {
  const double lx = g.nx * g.dx, ly = g.ny * g.dx, dk2 = 4 * kPi * kPi / (lx * ly);
  SeaSample s;
  double sum2 = 0.0;
  for (int n = -g.ny / 2 + 1; n < g.ny / 2; ++n)
    for (int m = -g.nx / 2 + 1; m < g.nx / 2; ++m) {
      const double kx = 2 * kPi * m / lx, ky = 2 * kPi * n / ly;
      const double p = (spectrum(kx, ky) + spectrum(-kx, -ky)) * dk2 / 2.0;
      s.expected += p;
      sum2 += 2.0 * p * p;
    }
  s.sigma = std::sqrt(sum2);
  return s;
}

double spatialVariance(const Field2D& eta) {
  double sum = 0.0, sum2 = 0.0;
  for (std::size_t k = 0; k < eta.size(); ++k) {
    sum += eta.data()[k];
    sum2 += double(eta.data()[k]) * eta.data()[k];
  }
  const double n = double(eta.size());
  return sum2 / n - (sum / n) * (sum / n);
}

// A 1024 m patch (512^2, dx 2 m) of a 10 m/s calibrated sea, 40 m deep: the surface's spatial
// variance is within 4 sampling sigmas of sum p (6e-5 two-sided); the lattice sum is the
// unbounded integral but for the patch-size loss (printed, < 3 % here); Hs of the realisation is
// Pierson-Moskowitz's within the loss and the sampling.
TEST(OceanSea, RealisedVarianceIsTheSpectrumsWithinSampling) {
  const PatchGeometry geometry{512, 512, 2.0, kG, 40.0};
  for (const SpectrumKind kind : {SpectrumKind::Phillips, SpectrumKind::Jonswap}) {
    WindSea sea = windSea(kind, 10.0);
    sea.depth = 40.0;
    const OceanSpectrum spectrum(sea);
    const SeaSample expected = latticeStatistics(spectrum, geometry);
    OceanPatch patch(geometry, 1);
    patch.addWindSea(spectrum, 11);
    EXPECT_NEAR(patch.latticeVariance(), expected.expected, 1e-9 * expected.expected);
    patch.evaluate(0.0, PatchOutputs{.slopes = false});
    const double v = spatialVariance(patch.height());
    EXPECT_NEAR(v, expected.expected, 4.0 * expected.sigma);
    EXPECT_NEAR(patch.heightVariance(0.0), v, 1e-5 * v);
    const double loss = 1.0 - expected.expected / spectrum.variance();
    const double hs = 4.0 * std::sqrt(v), pm = spectrum.piersonMoskowitzHs();
    std::printf(
        "[ ocean ] %s: variance %.5g m^2 vs sum p %.5g +- %.2g; patch-size loss %.4f; "
        "Hs %.4g m vs PM %.4g m\n",
        kind == SpectrumKind::Phillips ? "phillips" : "jonswap", v, expected.expected,
        expected.sigma, loss, hs, pm);
    EXPECT_GT(loss, 0.0);
    EXPECT_LT(loss, 0.03);
    // Hs = 4 sqrt(V): relative sigma of Hs is half V's.
    const double tolerance = loss + 2.0 * expected.sigma / expected.expected;
    EXPECT_NEAR(hs / pm, 1.0, tolerance);
  }
}

// The sea is stationary: energy (potential + kinetic sums) is exactly constant; JONSWAP's waves
// all run downwind, so no pair k, -k interferes and the variance itself is constant to
// round-off; Phillips' run both ways, its variance beats about the mean by up to
// sum 4 |h0(k)| |h0(-k)| over pairs, and its ensemble mean at t = 3600 s is sum p within 4
// sampling sigmas of the mean of 8 seeds.
TEST(OceanSea, StationaryOverAnHour) {
  const PatchGeometry geometry{128, 128, 2.0, kG, 0.0};
  const OceanSpectrum jonswap(windSea(SpectrumKind::Jonswap, 8.0));
  const OceanSpectrum phillips(windSea(SpectrumKind::Phillips, 8.0));
  OceanPatch downwind(geometry, 1), bothWays(geometry, 1);
  downwind.addWindSea(jonswap, 5);
  bothWays.addWindSea(phillips, 5);
  const auto energy = [](const OceanPatch& p, double t) {
    const auto s = p.modeSums(t);
    return s.potential + s.kinetic;
  };
  const double v0 = downwind.heightVariance(0.0), e0 = energy(bothWays, 0.0);
  double beat = 0.0, mean = 0.0;
  for (int n = 0; n < 128; ++n)
    for (int m = 0; m < 128; ++m)
      beat += 2.0 * std::abs(bothWays.h0(m, n)) * std::abs(bothWays.h0(-m, -n));
  mean = e0 / 2.0;
  double largestBeat = 0.0;
  for (double t = 0.0; t <= 3600.0; t += 300.0) {
    EXPECT_NEAR(downwind.heightVariance(t), v0, 1e-12 * v0) << t;
    EXPECT_NEAR(energy(bothWays, t), e0, 1e-12 * e0) << t;
    const double deviation = std::fabs(bothWays.heightVariance(t) - mean);
    EXPECT_LE(deviation, beat * (1 + 1e-12)) << t;
    largestBeat = std::max(largestBeat, deviation);
  }
  EXPECT_GT(largestBeat, 1e-3 * mean);  // Phillips' variance does move
  const SeaSample expected = latticeStatistics(phillips, geometry);
  double ensemble = 0.0;
  const int seeds = 8;
  for (int seed = 1; seed <= seeds; ++seed) {
    OceanPatch patch(geometry, 1);
    patch.addWindSea(phillips, 100 + seed);
    ensemble += patch.heightVariance(3600.0) / seeds;
  }
  EXPECT_NEAR(ensemble, expected.expected, 4.0 * expected.sigma / std::sqrt(double(seeds)));
}

// JONSWAP's waves run downwind: for a wave travelling towards +x, eta_t = -c eta_x, so
// sum eta_t eta_x over the patch is -sum w kx |a|^2: negative with the wind towards +x and
// positive towards -x (h0(k) must be drawn from F(-k): its term travels towards -k). eta_t by a
// centred difference over 1 ms.
TEST(OceanSea, JonswapWavesRunDownwind) {
  const PatchGeometry geometry{64, 64, 1.0, kG, 0.0};
  for (const double direction : {0.0, kPi}) {
    WindSea sea = windSea(SpectrumKind::Jonswap, 6.0);
    sea.windDirection = direction;
    OceanPatch patch(geometry, 1);
    patch.addWindSea(OceanSpectrum(sea), 9);
    const double t = 50.0, dt = 1e-3;
    patch.evaluate(t + dt, PatchOutputs{.slopes = false});
    const Field2D later = patch.height();
    patch.evaluate(t - dt, PatchOutputs{.slopes = false});
    const Field2D earlier = patch.height();
    patch.evaluate(t, PatchOutputs{.slopes = true});
    const Field2D& slope = patch.field(PatchField::SlopeX);
    double correlation = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < slope.size(); ++k) {
      const double rate = (later.data()[k] - earlier.data()[k]) / (2 * dt);
      correlation += rate * slope.data()[k];
      scale += std::fabs(rate * slope.data()[k]);
    }
    if (direction == 0.0)
      EXPECT_LT(correlation, -0.5 * scale);
    else
      EXPECT_GT(correlation, 0.5 * scale);
  }
}

}  // namespace
}  // namespace wb
