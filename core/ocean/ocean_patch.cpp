#include "core/ocean/ocean_patch.hpp"

#include <fftw3.h>
#include <omp.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/grid/parallel.hpp"
#include "core/ocean/fftw_planner.hpp"
#include "core/ocean/ocean_kernels.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {

namespace {
constexpr double kTwoPi = 2.0 * std::numbers::pi;

// Standard normal pairs by Box-Muller from a 64-bit Mersenne twister: the same numbers with
// every standard library (std::normal_distribution's algorithm is the library's choice).
struct GaussianPairs {
  std::mt19937_64 bits;
  explicit GaussianPairs(std::uint64_t seed) : bits(seed) {}
  std::complex<double> next() {
    const double u1 = (double(bits() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = double(bits() >> 11) * 0x1.0p-53;          // [0, 1)
    const double r = std::sqrt(-2.0 * std::log(u1));
    return {r * std::cos(kTwoPi * u2), r * std::sin(kTwoPi * u2)};
  }
};
}  // namespace

// One complex-to-real plan per field, from its half spectrum into the field; one real-to-complex
// plan for addSurfaceAtRest. FFTW_ESTIMATE: the plan, and so the round-off, does not depend on
// timings (FFTW_MEASURE's choice can change between runs).
struct OceanPatch::Plans {
  std::array<fftwf_complex*, kPatchFields> spectra{};
  std::array<fftwf_plan, kPatchFields> inverse{};
  Field2D forwardIn;
  fftwf_complex* forwardOut = nullptr;
  fftwf_plan forward = nullptr;

  Plans(const PatchGeometry& g, int threads, std::array<Field2D, kPatchFields>& fields)
      : forwardIn(g.nx, g.ny) {
    const std::size_t half = std::size_t(g.ny) * (g.nx / 2 + 1);
    std::lock_guard lock(fftwPlannerMutex());
    fftwPlanWithThreads(worthThreads(std::size_t(g.nx) * g.ny) ? threads : 1);
    for (int f = 0; f < kPatchFields; ++f) {
      spectra[f] = fftwf_alloc_complex(half);
      inverse[f] = fftwf_plan_dft_c2r_2d(g.ny, g.nx, spectra[f], fields[f].data(), FFTW_ESTIMATE);
    }
    forwardOut = fftwf_alloc_complex(half);
    forward = fftwf_plan_dft_r2c_2d(g.ny, g.nx, forwardIn.data(), forwardOut, FFTW_ESTIMATE);
    fftwPlanWithThreads(1);
    for (fftwf_plan p : inverse)
      if (!p) throw std::runtime_error("ocean patch: FFTW could not plan the transforms");
    if (!forward) throw std::runtime_error("ocean patch: FFTW could not plan the transforms");
  }
  ~Plans() {
    std::lock_guard lock(fftwPlannerMutex());
    for (int f = 0; f < kPatchFields; ++f) {
      if (inverse[f]) fftwf_destroy_plan(inverse[f]);
      fftwf_free(spectra[f]);
    }
    if (forward) fftwf_destroy_plan(forward);
    fftwf_free(forwardOut);
  }
  Plans(const Plans&) = delete;
  Plans& operator=(const Plans&) = delete;
};

OceanPatch::OceanPatch(const PatchGeometry& geometry, int threads)
    : geometry_(geometry), threads_(threads > 0 ? threads : omp_get_max_threads()) {
  if (geometry_.nx < 2 || geometry_.ny < 2 || geometry_.nx % 2 || geometry_.ny % 2)
    throw InputError("ocean patch: nx and ny must be even (the Nyquist row and column)");
  if (!(geometry_.depth > 0.0)) geometry_.depth = std::numeric_limits<double>::infinity();
  halfNx_ = geometry_.nx / 2 + 1;
  for (Field2D& f : fields_)
    f = Field2D(geometry_.nx, geometry_.ny);
  plans_ = std::make_unique<Plans>(geometry_, threads_, fields_);
  buildModes();
  clear();
}

OceanPatch::~OceanPatch() = default;

// k = (2 pi m / Lx, 2 pi n / Ly), m and n signed; w^2 = g k tanh(k d). The derivative
// factors kx, ky are 0 on the Nyquist column and row, whose sign is ambiguous.
void OceanPatch::buildModes() {
  const int nx = geometry_.nx, ny = geometry_.ny;
  const double lx = nx * geometry_.dx, ly = ny * geometry_.dx;
  kx_.assign(halfNx_, 0.0);
  ky_.assign(ny, 0.0);
  for (int m = 0; m < nx / 2; ++m)
    kx_[m] = kTwoPi * m / lx;
  for (int n = 0; n < ny; ++n)
    if (n != ny / 2) ky_[n] = kTwoPi * (n < ny / 2 ? n : n - ny) / ly;
  const std::size_t half = std::size_t(ny) * halfNx_;
  omega_.assign(half, 0.0);
  unitFactor_.assign(halfNx_, 1.0);
  phaseCos_.assign(half, 0.0);
  phaseSin_.assign(half, 0.0);
  gOverOmega_.assign(half, 0.0);
  inverseK_.assign(half, 0.0);
  for (int n = 0; n < ny; ++n)
    for (int m = 0; m < halfNx_; ++m) {
      const double w = omega(m, n);
      const double k = std::hypot(kTwoPi * m / lx, kTwoPi * (n < ny / 2 ? n : n - ny) / ly);
      omega_[halfIndex(m, n)] = w;
      gOverOmega_[halfIndex(m, n)] = w > 0.0 ? geometry_.g / w : 0.0;
      inverseK_[halfIndex(m, n)] = k > 0.0 ? 1.0 / k : 0.0;
    }
}

double OceanPatch::omega(int m, int n) const {
  const int nx = geometry_.nx, ny = geometry_.ny;
  m = ((m % nx) + nx) % nx;
  n = ((n % ny) + ny) % ny;
  const double lx = nx * geometry_.dx, ly = ny * geometry_.dx;
  const double k = std::hypot(kTwoPi * (m <= nx / 2 ? m : m - nx) / lx,
                              kTwoPi * (n <= ny / 2 ? n : n - ny) / ly);
  return dispersionOmega(k, geometry_.g, geometry_.depth);
}

void OceanPatch::clear() {
  plus_.assign(omega_.size(), 0.0);
  minus_.assign(omega_.size(), 0.0);
  latticeVariance_ = 0.0;
}

// h0(k) = (xi_r + i xi_i) sqrt(F(-k) dk^2) / 2  (eq. 42, F of the direction h0(k) e^{i(k.x + w t)}
// travels to), one Gaussian pair per lattice point in row-major order, drawn for every point
// (the Nyquist ones and k = 0 get none) so that a seed maps to the same draws whatever the wind.
void OceanPatch::addWindSea(const OceanSpectrum& spectrum, std::uint64_t seed) {
  const int nx = geometry_.nx, ny = geometry_.ny;
  const double lx = nx * geometry_.dx, ly = ny * geometry_.dx;
  const double dk2 = (kTwoPi / lx) * (kTwoPi / ly);
  GaussianPairs gauss(seed);
  for (int n = 0; n < ny; ++n)
    for (int m = 0; m < nx; ++m) {
      const std::complex<double> xi = gauss.next();
      if (m == nx / 2 || n == ny / 2 || (m == 0 && n == 0)) continue;
      const double kx = kTwoPi * (m < nx / 2 ? m : m - nx) / lx;
      const double ky = kTwoPi * (n < ny / 2 ? n : n - ny) / ly;
      addToH0(m, n, xi * std::sqrt(spectrum(-kx, -ky) * dk2) / 2.0);
      latticeVariance_ += spectrum(kx, ky) * dk2;
    }
}

// h0(q) is stored as plus_[q] where q is in the half spectrum and as conj(minus_[-q]) where -q is.
void OceanPatch::addToH0(int m, int n, std::complex<double> value) {
  const int nx = geometry_.nx, ny = geometry_.ny;
  m = ((m % nx) + nx) % nx;
  n = ((n % ny) + ny) % ny;
  if (m < halfNx_) plus_[halfIndex(m, n)] += value;
  const int mm = (nx - m) % nx, nm = (ny - n) % ny;
  if (mm < halfNx_) minus_[halfIndex(mm, nm)] += std::conj(value);
}

std::complex<double> OceanPatch::h0(int m, int n) const {
  const int nx = geometry_.nx, ny = geometry_.ny;
  m = ((m % nx) + nx) % nx;
  n = ((n % ny) + ny) % ny;
  if (m < halfNx_) return plus_[halfIndex(m, n)];
  return std::conj(minus_[halfIndex((nx - m) % nx, (ny - n) % ny)]);
}

// h(k, t) = h0(k) e^{i w t} + conj(h0(-k)) e^{-i w t}  (eq. 43)
std::complex<double> OceanPatch::amplitude(int m, int n, double t) const {
  double c, s;
  cosSin(omega(m, n) * t, c, s);
  const std::complex<double> e(c, s);
  return h0(m, n) * e + std::conj(h0(-m, -n)) * std::conj(e);
}

// eta = sum over the whole lattice of h(k, t) e^{i k.x}; k and -k together give
// 2 Re(h(k, t) e^{i k.x}), so over the half spectrum the columns 0 < m < nx/2 count twice and
// the column m = 0, which holds both k and -k, once.
double OceanPatch::heightAt(double x, double y, double t) const {
  const int nx = geometry_.nx, ny = geometry_.ny;
  double sum = 0.0;
  for (int n = 0; n < ny; ++n) {
    if (n == ny / 2) continue;
    for (int m = 0; m < nx / 2; ++m) {
      const std::size_t k = halfIndex(m, n);
      if (plus_[k] == 0.0 && minus_[k] == 0.0) continue;
      double c, s;
      cosSin(omega_[k] * t, c, s);
      const std::complex<double> e(c, s);
      const std::complex<double> h = plus_[k] * e + minus_[k] * std::conj(e);
      double cx, sx;
      cosSin(kx_[m] * x + ky_[n] * y, cx, sx);
      sum += (m == 0 ? 1.0 : 2.0) * (h.real() * cx - h.imag() * sx);
    }
  }
  return sum;
}

// a cos(k.x - w t) = a/2 e^{i(k.x - w t)} + a/2 e^{-i(k.x - w t)}: the first is conj(h0(-k))
// e^{-i w t} at k, the second h0(-k) e^{i w t} at -k, both h0(-k) = a/2.
void OceanPatch::addWave(int m, int n, double amplitude) {
  addToH0(-m, -n, amplitude / 2.0);
}

void OceanPatch::translate(int di, int dj) {
  if (di == 0 && dj == 0) return;  // OceanLayer::moveTo runs before every body step
  const int nx = geometry_.nx, ny = geometry_.ny;
  for (int n = 0; n < ny; ++n)
    for (int m = 0; m < halfNx_; ++m) {
      // 2 pi (m di / nx + n dj / ny), n signed; the Nyquist row's sign does not matter.
      const double turns = double(m) * di / nx + double(n < ny / 2 ? n : n - ny) * dj / ny;
      double c, s;
      cosSin(kTwoPi * turns, c, s);
      const std::complex<double> phase(c, s);
      plus_[halfIndex(m, n)] *= phase;
      minus_[halfIndex(m, n)] *= phase;
    }
}

void OceanPatch::surfaceRate(double t, Field2D& rate) const {
  if (rate.nx() != geometry_.nx || rate.ny() != geometry_.ny)
    throw std::invalid_argument("ocean patch: rate of the wrong size");
  fftwf_complex* spectrum = plans_->forwardOut;
  for (std::size_t k = 0; k < omega_.size(); ++k) {
    double c, s;
    cosSin(omega_[k] * t, c, s);
    const std::complex<double> e(c, s);
    const std::complex<double> r =
        std::complex<double>(0.0, omega_[k]) * (plus_[k] * e - minus_[k] * std::conj(e));
    spectrum[k][0] = float(r.real());
    spectrum[k][1] = float(r.imag());
  }
  fftwf_execute_dft_c2r(plans_->inverse[0], spectrum, rate.data());
}

void OceanPatch::setSurfaceRate(const Field2D& rate, double t) {
  std::copy(rate.data(), rate.data() + rate.size(), plans_->forwardIn.data());
  fftwf_execute(plans_->forward);
  const double norm = 1.0 / (double(geometry_.nx) * geometry_.ny);
  for (std::size_t k = 0; k < omega_.size(); ++k) {
    if (omega_[k] <= 0.0) continue;
    double c, s;
    cosSin(omega_[k] * t, c, s);
    const std::complex<double> e(c, s);
    const std::complex<double> eta = plus_[k] * e + minus_[k] * std::conj(e);
    const std::complex<double> r(plans_->forwardOut[k][0] * norm, plans_->forwardOut[k][1] * norm);
    const std::complex<double> q = r / std::complex<double>(0.0, omega_[k]);
    plus_[k] = 0.5 * (eta + q) * std::conj(e);
    minus_[k] = 0.5 * (eta - q) * e;
  }
}

// D(k) = FFT(eta) / (nx ny); a surface at rest at t0 is D cos(w (t - t0)) =
// D/2 e^{i w (t - t0)} + D/2 e^{-i w (t - t0)}: h0(k) += D/2 e^{-i w t0}, conj(h0(-k)) +=
// D/2 e^{i w t0}.
void OceanPatch::addSurfaceAtRest(const Field2D& eta, double t0) {
  if (eta.nx() != geometry_.nx || eta.ny() != geometry_.ny)
    throw std::invalid_argument("ocean patch: surface of the wrong size");
  std::copy(eta.data(), eta.data() + eta.size(), plans_->forwardIn.data());
  fftwf_execute(plans_->forward);
  const double norm = 1.0 / (double(geometry_.nx) * geometry_.ny);
  for (std::size_t k = 0; k < omega_.size(); ++k) {
    const std::complex<double> d(plans_->forwardOut[k][0] * norm, plans_->forwardOut[k][1] * norm);
    double c, s;
    cosSin(omega_[k] * t0, c, s);
    plus_[k] += 0.5 * d * std::complex<double>(c, -s);
    minus_[k] += 0.5 * d * std::complex<double>(c, s);
  }
}

void OceanPatch::evaluate(double t, const PatchOutputs& outputs) {
  evaluateModes(t, outputs);
  const auto transform = [&](PatchField f) { fftwf_execute(plans_->inverse[std::size_t(f)]); };
  transform(PatchField::Height);
  if (outputs.slopes) {
    transform(PatchField::SlopeX);
    transform(PatchField::SlopeY);
  }
  if (outputs.displacement) {
    transform(PatchField::DisplacementX);
    transform(PatchField::DisplacementY);
  }
  if (outputs.velocity) {
    transform(PatchField::VelocityU);
    transform(PatchField::VelocityV);
  }
}

// Per row of the half spectrum: the phases, the height (eq. 43), then what was asked from it.
void OceanPatch::evaluateModes(double t, const PatchOutputs& outputs) {
  std::array<float*, kPatchFields> out;
  for (int f = 0; f < kPatchFields; ++f)
    out[f] = reinterpret_cast<float*>(plans_->spectra[f]);
  const auto field = [&](PatchField f, std::size_t row) { return out[std::size_t(f)] + 2 * row; };
  const int ny = geometry_.ny, count = halfNx_;
  const double* plus = reinterpret_cast<const double*>(plus_.data());
  const double* minus = reinterpret_cast<const double*>(minus_.data());
#pragma omp parallel for num_threads(threads_) \
    schedule(static) if (worthThreads(std::size_t(geometry_.nx) * ny))
  for (int n = 0; n < ny; ++n) {
    const std::size_t row = std::size_t(n) * count;
    double* c = phaseCos_.data() + row;
    double* s = phaseSin_.data() + row;
    phaseSpan(omega_.data() + row, t, c, s, count);
    heightSpan(plus + 2 * row, minus + 2 * row, c, s, field(PatchField::Height, row), count);
    const float* h = field(PatchField::Height, row);
    if (outputs.slopes)
      gradientSpan(h, kx_.data(), ky_[n], unitFactor_.data(), 1.0, field(PatchField::SlopeX, row),
                   field(PatchField::SlopeY, row), count);
    if (outputs.displacement)
      gradientSpan(h, kx_.data(), ky_[n], inverseK_.data() + row, -1.0,
                   field(PatchField::DisplacementX, row), field(PatchField::DisplacementY, row),
                   count);
    if (outputs.velocity)
      velocitySpan(plus + 2 * row, minus + 2 * row, c, s, gOverOmega_.data() + row, kx_.data(),
                   ky_[n], field(PatchField::VelocityU, row), field(PatchField::VelocityV, row),
                   count);
  }
}

// Parseval over the whole lattice from the half spectrum: columns 0 and nx/2 once, the others
// for themselves and their mirror -k.
OceanPatch::ModeSums OceanPatch::modeSums(double t) const {
  ModeSums sums;
  for (int n = 0; n < geometry_.ny; ++n)
    for (int m = 0; m < halfNx_; ++m) {
      if (m == 0 && n == 0) continue;
      const std::size_t k = halfIndex(m, n);
      double c, s;
      cosSin(omega_[k] * t, c, s);
      const std::complex<double> e(c, s);
      const double weight = (m == 0 || m == geometry_.nx / 2) ? 1.0 : 2.0;
      sums.potential += weight * std::norm(plus_[k] * e + minus_[k] * std::conj(e));
      sums.kinetic += weight * std::norm(plus_[k] * e - minus_[k] * std::conj(e));
    }
  return sums;
}

}  // namespace wb
