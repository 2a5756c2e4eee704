// Tessendorf's periodic open-sea patch ("Simulating Ocean Water", 2001, section 4): the surface
// of Lx x Ly, periodic on both axes, sampled on nx x ny points x = (i dx, j dx), as the inverse
// discrete Fourier transform of travelling waves
//   h(k, t) = h0(k) e^{i w t} + conj(h0(-k)) e^{-i w t}                    (eq. 43)
//   eta(x, t) = sum_k h(k, t) e^{i k.x}                      (the notes' FFT sum, section 4)
// with k = (2 pi m / Lx, 2 pi n / Ly) and w^2 = g k tanh(k d) (the finite-depth dispersion
// relation; d = infinity: deep). Because h(-k, t) = conj(h(k, t)) the surface is real: FFTW's
// complex-to-real transform (float, fftw3f) on the half spectrum. Also, spectrally:
//   slopes  d eta/dx = sum i kx h e^{i k.x},  d eta/dy = sum i ky h e^{i k.x}   (the slope sum)
//   choppy displacement D(x, t) = sum -i k/|k| h e^{i k.x}, x' = x + lambda D       (eq. 44)
//   the horizontal velocity at z = 0 of linear potential theory: the wave
//   a e^{i(k.x -+ w t)} has phi = -+ i w a / (k tanh(k d)) e^{...}, so u = +- (g kx / w) a
//   (w / (k tanh(k d)) = g / w): u_hat = (g kx / w)(conj(h0(-k)) e^{-i w t} - h0(k) e^{i w t}).
// The phase w t is computed from the time passed in, in double, reduced by multiples of pi/2 in
// double before its sine and cosine: never accumulated, so the state after any number of steps
// is the state at that time to the bit.
//
// h0(k) e^{i(k.x + w t)} travels towards -k: h0 is drawn from the spectrum of that direction,
//   h0(k) = (xi_r + i xi_i) sqrt(F(-k) dk^2) / 2                              (eq. 42)
// with the variance density F of ocean_spectrum.hpp: the surface variance then has the expected
// value sum F dk^2 over the lattice (docs/fft-ocean.md). Tessendorf's 1/sqrt(2) gives twice that.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/grid/field2d.hpp"

namespace wb {

class OceanSpectrum;

struct PatchGeometry {
  int nx = 64, ny = 64;  // points (even)
  double dx = 1.0;       // m
  double g = 9.81;
  double depth = 0.0;  // m; 0 or infinity: deep water
};

// What evaluate() computes: the surface always, the rest on request.
enum class PatchField {
  Height,
  SlopeX,
  SlopeY,
  DisplacementX,
  DisplacementY,
  VelocityU,
  VelocityV
};
constexpr int kPatchFields = 7;

struct PatchOutputs {
  bool slopes = true;
  bool displacement = false;  // Tessendorf's choppy waves, for views
  bool velocity = false;
};

class OceanPatch {
 public:
  // threads: FFTW's and the spectral loop's; 0 = omp_get_max_threads(). Patches below
  // kParallelMinCells (core/grid/parallel.hpp) run on one.
  explicit OceanPatch(const PatchGeometry& geometry, int threads = 0);
  ~OceanPatch();
  OceanPatch(const OceanPatch&) = delete;  // the FFTW plans point into the patch's buffers
  OceanPatch& operator=(const OceanPatch&) = delete;

  const PatchGeometry& geometry() const { return geometry_; }
  void clear();  // h0 = 0: calm
  // Adds a Gaussian random sea of the spectrum (eq. 42), seeded; the Nyquist row and column
  // and k = 0 get none.
  void addWindSea(const OceanSpectrum& spectrum, std::uint64_t seed);
  // Adds a surface at rest at time t0 (a drop): its transform D(k) splits into the two
  // travelling halves, h0(k) += D(k) / 2 e^{-i w t0}, so that it evolves as D cos(w (t - t0)).
  void addSurfaceAtRest(const Field2D& eta, double t0);

  // Adds the travelling wave a cos(k.x - w t), k = (2 pi m / Lx, 2 pi n / Ly), m and n signed
  // (|m| < nx/2, |n| < ny/2): h0(-k) += a / 2.
  void addWave(int m, int n, double amplitude);
  // The sea seen from (di, dj) cells further on: eta(x) becomes eta(x + (di, dj) dx), every
  // mode times e^{i k.(di, dj) dx} (exact: the patch is periodic).
  void translate(int di, int dj);
  // h0 and h(k, t) (eq. 43) of the lattice point (m, n), FFT order, from the stored halves.
  std::complex<double> h0(int m, int n) const;
  std::complex<double> amplitude(int m, int n, double t) const;

  // eta at the point (x, y) of the patch (m, periodic) at time t, the Fourier sum taken there:
  // exact at any point and time, O(nx ny) per call. The Nyquist row and column are left out
  // (a wind sea puts nothing there; a drop's share there has no sign between the points).
  double heightAt(double x, double y, double t) const;

  // eta_t at time t, sum i w (h0(k) e - conj(h0(-k)) conj(e)) e^{i k.x} (m/s), into `rate`.
  void surfaceRate(double t, Field2D& rate) const;
  // Makes eta_t at time t the given field and keeps eta: with R = FFT(rate) / (nx ny) and
  // Q = R / (i w), h0(k) e = (eta_hat + Q) / 2 and conj(h0(-k)) conj(e) = (eta_hat - Q) / 2.
  // The mean (w = 0) cannot move: its rate is dropped. For the bodies' wave shadow.
  void setSurfaceRate(const Field2D& rate, double t);

  // The fields at time t (s).
  void evaluate(double t, const PatchOutputs& outputs);
  const Field2D& field(PatchField which) const { return fields_[std::size_t(which)]; }
  const Field2D& height() const { return field(PatchField::Height); }

  // w of the lattice point (m, n), m in [0, nx), n in [0, ny) (FFT order).
  double omega(int m, int n) const;
  // Sums over the lattice, k != 0, at time t: of |h(k, t)|^2 (the variance of the realised
  // surface, m^2) and of |h_t(k, t)|^2 / w^2 = |h0(k) e - conj(h0(-k)) conj(e)|^2 (the kinetic
  // energy's, linear theory: 1/2 g sum |phi_hat phi_z_hat| = 1/2 g sum |h_t|^2 / w^2 per unit
  // area times the area).
  struct ModeSums {
    double potential = 0.0, kinetic = 0.0;
  };
  ModeSums modeSums(double t) const;
  double heightVariance(double t) const { return modeSums(t).potential; }
  // Sum F dk^2 over the lattice points the sea was drawn on (expected variance, m^2).
  double latticeVariance() const { return latticeVariance_; }

 private:
  struct Plans;
  std::size_t halfIndex(int m, int n) const { return std::size_t(n) * halfNx_ + m; }
  void buildModes();
  void addToH0(int m, int n, std::complex<double> value);  // FFT-order indices
  void evaluateModes(double t, const PatchOutputs& outputs);

  PatchGeometry geometry_;
  int threads_ = 1, halfNx_ = 0;
  double latticeVariance_ = 0.0;
  // Per point of the half spectrum (m in [0, nx/2], n in [0, ny)):
  std::vector<double> omega_, gOverOmega_, inverseK_;
  std::vector<double> phaseCos_, phaseSin_;  // evaluate's cos(w t), sin(w t)
  std::vector<double> unitFactor_;           // 1 per column: the slopes' factor
  std::vector<double> kx_, ky_;              // per column / row; 0 on the Nyquist ones
  std::vector<std::complex<double>> plus_;   // h0(k)
  std::vector<std::complex<double>> minus_;  // conj(h0(-k))
  std::array<Field2D, kPatchFields> fields_;
  std::unique_ptr<Plans> plans_;
};

}  // namespace wb
