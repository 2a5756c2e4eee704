#include "core/ocean/ocean_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace wb {

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kTwoPi = 2.0 * std::numbers::pi;
// U19.5 = 1.026 U10 (Stewart, Introduction to Physical Oceanography, ch. 16).
constexpr double kWind19p5Over10 = 1.026;
}  // namespace

double dispersionOmega(double k, double g, double depth) {
  const double kd = k * depth;
  return std::sqrt(g * k * (std::isfinite(kd) ? std::tanh(kd) : 1.0));
}

// w(k) increases with k, and k >= w^2 / g (tanh <= 1), k >= w / sqrt(g d) (tanh(x) <= x).
double dispersionWavenumber(double omega, double g, double depth) {
  double lo = omega * omega / g;
  if (std::isfinite(depth)) lo = std::max(lo, omega / std::sqrt(g * depth));
  double hi = 2.0 * lo;
  while (dispersionOmega(hi, g, depth) < omega)
    hi *= 2.0;
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (dispersionOmega(mid, g, depth) < omega ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double groupVelocity(double k, double g, double depth) {
  if (k <= 0.0) return std::isfinite(depth) ? std::sqrt(g * depth) : 0.0;
  const double kd = k * depth;
  if (!std::isfinite(kd) || kd > 20.0) return 0.5 * std::sqrt(g / k);
  const double sech = 1.0 / std::cosh(kd);
  return g * (std::tanh(kd) + kd * sech * sech) / (2.0 * dispersionOmega(k, g, depth));
}

OceanSpectrum::OceanSpectrum(const WindSea& sea) : sea_(sea) {
  const double u10 = sea_.windSpeed;
  if (u10 <= 0.0) return;  // calm
  if (sea_.kind == SpectrumKind::Jonswap) {
    // w_p = 22 (g^2 / (U10 F))^(1/3), at least the fully developed 0.877 g / U19.5.
    const double fetchLaw = 22.0 * std::cbrt(sea_.g * sea_.g / (u10 * sea_.fetch));
    peakOmega_ = std::max(fetchLaw, 0.877 * sea_.g / (kWind19p5Over10 * u10));
  }
  amplitude_ = 1.0;
  if (sea_.calibrateToPiersonMoskowitz) {
    const double target = std::pow(piersonMoskowitzHs() / 4.0, 2);
    amplitude_ = target / radialIntegral(false);
  } else if (sea_.kind == SpectrumKind::Phillips) {
    amplitude_ = sea_.phillipsAmplitude;
  } else {
    const double chi = sea_.g * sea_.fetch / (u10 * u10);  // dimensionless fetch
    amplitude_ = 0.076 * std::pow(chi, -0.22);
  }
  variance_ = amplitude_ * radialIntegral(true);
  if (sea_.kind == SpectrumKind::Phillips) peakOmega_ = findPeakOmega();
}

double OceanSpectrum::piersonMoskowitzHs() const {
  const double u195 = kWind19p5Over10 * sea_.windSpeed;
  return 0.21 * u195 * u195 / sea_.g;
}

double OceanSpectrum::significantWaveHeight() const {
  return 4.0 * std::sqrt(variance_);
}

double OceanSpectrum::peakPeriod() const {
  return peakOmega_ > 0.0 ? kTwoPi / peakOmega_ : 0.0;
}

// The omnidirectional shape: F = amplitude shape(k) D(theta) exp(-k^2 l^2).
//   Phillips (eq. 40): exp(-1 / (k L)^2) / k^4, L = U^2 / g;
//   JONSWAP: S(w) / alpha (dw/dk) / k, S(w) = alpha g^2 w^-5 exp(-5/4 (w_p/w)^4) gamma^r.
double OceanSpectrum::shape(double k, double d) const {
  if (k <= 0.0 || d <= 0.0) return 0.0;
  if (sea_.kind == SpectrumKind::Phillips) {
    const double L = sea_.windSpeed * sea_.windSpeed / sea_.g;
    return d * std::exp(-1.0 / (k * k * L * L)) / (k * k * k * k);
  }
  const double w = dispersionOmega(k, sea_.g, sea_.depth), wp = peakOmega_;
  const double sigma = w <= wp ? 0.07 : 0.09;
  const double r = std::exp(-(w - wp) * (w - wp) / (2.0 * sigma * sigma * wp * wp));
  const double s = sea_.g * sea_.g * std::pow(w, -5.0) * std::exp(-1.25 * std::pow(wp / w, 4.0)) *
                   std::pow(sea_.gamma, r);
  return d * s * groupVelocity(k, sea_.g, sea_.depth) / k;
}

// Phillips: |k^ . w^|^2 = cos^2 over the whole circle (integral pi). JONSWAP: (2 / pi) cos^2 on
// the downwind half-plane (integral 1).
double OceanSpectrum::directional(double kx, double ky) const {
  const double k = std::hypot(kx, ky);
  if (k == 0.0) return 0.0;
  const double c = (kx * std::cos(sea_.windDirection) + ky * std::sin(sea_.windDirection)) / k;
  if (sea_.kind == SpectrumKind::Phillips) return c * c;
  return c > 0.0 ? 2.0 / kPi * c * c : 0.0;
}

double OceanSpectrum::operator()(double kx, double ky) const {
  if (amplitude_ == 0.0) return 0.0;
  const double k = std::hypot(kx, ky), l = sea_.smallWaveCutoff;
  return amplitude_ * shape(k, directional(kx, ky)) * std::exp(-k * k * l * l);
}

// The integral over the plane per unit amplitude: the directional factor integrates to pi
// (Phillips) or 1 (JONSWAP); the radial part int shape k dk = int shape k^2 d(ln k) by the
// trapezoidal rule over 7 decades around the peak (4e-4 in ln k: 1e-7 relative).
double OceanSpectrum::radialIntegral(bool withCutoff) const {
  const double angular = sea_.kind == SpectrumKind::Phillips ? kPi : 1.0;
  const double kPeak = sea_.kind == SpectrumKind::Phillips
                           ? sea_.g / (sea_.windSpeed * sea_.windSpeed)
                           : peakOmega_ * peakOmega_ / sea_.g;
  const double lo = std::log(kPeak) - 3.0 * std::log(10.0), hi = lo + 7.0 * std::log(10.0);
  const int n = 40000;
  const double du = (hi - lo) / n, l = withCutoff ? sea_.smallWaveCutoff : 0.0;
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double k = std::exp(lo + i * du);
    const double f = shape(k, 1.0) * k * k * std::exp(-k * k * l * l);
    sum += (i == 0 || i == n) ? 0.5 * f : f;
  }
  return angular * sum * du;
}

// The maximum of S(w) = E(k) dk/dw, E(k) = k shape(k), by golden-section search in ln k.
double OceanSpectrum::findPeakOmega() const {
  const auto frequencySpectrum = [&](double lnk) {
    const double k = std::exp(lnk);
    return k * shape(k, 1.0) / groupVelocity(k, sea_.g, sea_.depth);
  };
  const double L = sea_.windSpeed * sea_.windSpeed / sea_.g;
  double a = std::log(0.05 / L), b = std::log(20.0 / L);
  const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int i = 0; i < 200; ++i) {
    const double c = b - phi * (b - a), d = a + phi * (b - a);
    if (frequencySpectrum(c) > frequencySpectrum(d))
      b = d;
    else
      a = c;
  }
  return dispersionOmega(std::exp(0.5 * (a + b)), sea_.g, sea_.depth);
}

}  // namespace wb
