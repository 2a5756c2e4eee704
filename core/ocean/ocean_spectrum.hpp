// Wind-sea spectra in physical units for Tessendorf's periodic open-sea patch ("Simulating Ocean
// Water", 2001; docs/fft-ocean.md, "The open sea").
//
// F(k) is the variance density (m^2 per unit area of the k-plane, m^4) of the waves travelling
// towards k: the sea's surface variance is the integral of F over the plane. Two spectra:
//  - Phillips, Tessendorf eq. 40 with the small-wave factor of eq. 41,
//      F(k) = A exp(-1 / (k L)^2) / k^4 |k^ . w^|^2 exp(-k^2 l^2),  L = U^2 / g,
//    as the basin form has always used it: |k^ . w^|^2 = cos^2 of the angle to the wind over the
//    whole circle, so waves run with and against the wind alike;
//  - JONSWAP (Hasselmann et al. 1973), the frequency spectrum
//      S(w) = alpha g^2 w^-5 exp(-5/4 (w_p / w)^4) gamma^r,  r = exp(-(w - w_p)^2 / (2 s^2 w_p^2)),
//    s = 0.07 for w <= w_p and 0.09 above, mapped to the k-plane by F(k) = S(w) (dw/dk) / k
//    D(theta) with the spreading D = (2 / pi) cos^2(theta - theta_w) on the half-plane downwind (0
//    upwind), and the same small-wave factor exp(-k^2 l^2).
// Peak frequency by the JONSWAP fetch law w_p = 22 (g^2 / (U10 F))^(1/3): Hasselmann et al.
// (1973) fit f_p = 3.5 (g / U10) chi^-0.33, chi = g F / U10^2, here with the exponent -1/3 as
// Horvath (2015, "Empirical directional wave spectra for computer graphics") restates it (3 %
// apart at chi = 1e4); not below the fully developed Pierson-Moskowitz peak 0.877 g / U19.5.
// alpha = 0.076 chi^-0.22 uncalibrated (Hasselmann et al. 1973).
//
// Calibration (default): the amplitude (A or alpha) is set so that the unbounded sea's
// significant wave height, 4 sqrt(integral of F without the small-wave factor), is Pierson &
// Moskowitz's (1964) fully developed Hs = 0.21 U19.5^2 / g, with the wind at 19.5 m taken as
// U19.5 = 1.026 U10 (Stewart, Introduction to Physical Oceanography, ch. 16); `windSpeed` is U10.
#pragma once

#include <limits>

namespace wb {

// w(k) of linear water waves at depth d, w^2 = g k tanh(k d); d = infinity: deep, w^2 = g k.
double dispersionOmega(double k, double g, double depth);
// dw/dk of the same relation, g (tanh(k d) + k d sech^2(k d)) / (2 w).
double groupVelocity(double k, double g, double depth);
// The k of a frequency w > 0, the inverse of dispersionOmega (bisection to the last bit).
double dispersionWavenumber(double omega, double g, double depth);

enum class SpectrumKind { Phillips, Jonswap };

struct WindSea {
  SpectrumKind kind = SpectrumKind::Jonswap;
  double windSpeed = 0.0;           // U10 (m/s); 0 = calm
  double windDirection = 0.0;       // rad, the direction the wind blows towards, from +x to +y
  double fetch = 100e3;             // m (JONSWAP)
  double gamma = 3.3;               // JONSWAP peak enhancement
  double phillipsAmplitude = 1e-3;  // A (Phillips, uncalibrated)
  double smallWaveCutoff = 0.0;     // l (m), eq. 41
  bool calibrateToPiersonMoskowitz = true;
  double g = 9.81;
  double depth = std::numeric_limits<double>::infinity();
};

class OceanSpectrum {
 public:
  explicit OceanSpectrum(const WindSea& sea);

  // F(kx, ky) (m^4), scaled by the calibration.
  double operator()(double kx, double ky) const;
  const WindSea& sea() const { return sea_; }

  // The integral of F over the whole plane (m^2), with the small-wave factor.
  double variance() const { return variance_; }
  // 4 sqrt(variance()) (m).
  double significantWaveHeight() const;
  // The Pierson-Moskowitz target 0.21 (1.026 U10)^2 / g (m).
  double piersonMoskowitzHs() const;
  // The frequency of the peak of S(w) (rad/s) and the peak period 2 pi / w_p (s).
  double peakOmega() const { return peakOmega_; }
  double peakPeriod() const;
  // The factor the shape was multiplied by (A for Phillips, alpha for JONSWAP).
  double amplitude() const { return amplitude_; }

 private:
  double shape(double k, double directional) const;  // F / amplitude for a given D
  double directional(double kx, double ky) const;
  double radialIntegral(bool withCutoff) const;
  double findPeakOmega() const;

  WindSea sea_;
  double amplitude_ = 0.0, variance_ = 0.0, peakOmega_ = 0.0;
};

}  // namespace wb
