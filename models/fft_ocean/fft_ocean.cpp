#include "models/fft_ocean/fft_ocean.hpp"

#include <fftw3.h>
#include <algorithm>

#include <cmath>
#include <limits>
#include <mutex>
#include <numbers>
#include <random>
#include <sstream>

#include "core/errors.hpp"
#include "core/forcing/wave_shadow.hpp"
#include "core/ocean/fftw_planner.hpp"
#include "core/ocean/wind_sea_params.hpp"

namespace wb {

namespace {
constexpr double kPi = std::numbers::pi;

// The weight of index m in FFTW's REDFT01 (X_0 + 2 sum_{m>0} X_m cos ...): 1 for the mean.
double basisWeight(int m) {
  return m == 0 ? 1.0 : 2.0;
}
}  // namespace

// Four 2-D r2r plans on the model's buffers, made once in reset with FFTW_ESTIMATE (MEASURE
// takes seconds per plan, too slow for tests). Rows are y (FFTW's first dimension), columns x.
struct FftOcean::Plans {
  fftwf_plan forward = nullptr;   // REDFT10 x REDFT10: eta -> 4 nx ny a
  fftwf_plan inverse = nullptr;   // REDFT01 x REDFT01: a -> eta
  fftwf_plan inverseU = nullptr;  // REDFT01 on y, RODFT01 on x: d/dx of a cosine series
  fftwf_plan inverseV = nullptr;  // RODFT01 on y, REDFT01 on x: d/dy

  Plans(int nx, int ny, Field2D& in, Field2D& spectrum, Field2D& eta, Field2D& u, Field2D& v) {
    std::lock_guard lock(fftwPlannerMutex());
    forward = fftwf_plan_r2r_2d(ny, nx, in.data(), spectrum.data(), FFTW_REDFT10, FFTW_REDFT10,
                                FFTW_ESTIMATE);
    inverse =
        fftwf_plan_r2r_2d(ny, nx, in.data(), eta.data(), FFTW_REDFT01, FFTW_REDFT01, FFTW_ESTIMATE);
    inverseU =
        fftwf_plan_r2r_2d(ny, nx, in.data(), u.data(), FFTW_REDFT01, FFTW_RODFT01, FFTW_ESTIMATE);
    inverseV =
        fftwf_plan_r2r_2d(ny, nx, in.data(), v.data(), FFTW_RODFT01, FFTW_REDFT01, FFTW_ESTIMATE);
    if (!forward || !inverse || !inverseU || !inverseV)
      throw std::runtime_error("fft-ocean: FFTW could not plan the transforms");
  }
  ~Plans() {
    std::lock_guard lock(fftwPlannerMutex());
    for (fftwf_plan p : {forward, inverse, inverseU, inverseV})
      if (p) fftwf_destroy_plan(p);
  }
  Plans(const Plans&) = delete;
  Plans& operator=(const Plans&) = delete;
};

FftOcean::FftOcean() : Model(parameterSpecs()) {}
FftOcean::~FftOcean() = default;

double FftOcean::maxStableDt() const {
  return std::numeric_limits<double>::infinity();
}

double FftOcean::modeArea() const {
  return (kPi / (nx_ * dx_)) * (kPi / (ny_ * dx_));
}

// The basin's modes are cos(kx x) cos(ky y) on the whole rectangle with walls on its four sides
// at one depth; anything else would need other modes.
void FftOcean::checkDomain(const Domain& domain) const {
  const auto refuse = [](const std::string& why) {
    throw InputError(std::string(kId) + ": " + why);
  };
  if (domain.edges().anyOpen())
    refuse(
        "domain.edges: open edges are not representable; the basin's modes cos(kx x) "
        "cos(ky y) have walls on all four sides");
  const int solid = domain.nx() * domain.ny() - domain.wetCount();
  if (solid > 0) {
    std::ostringstream why;
    why << "the domain has " << solid << " solid cells inside the rectangle (a mask, the Pi "
        << "pool or a coast); the modes cos(kx x) cos(ky y) need the whole rectangle wet";
    refuse(why.str());
  }
  uniformWaterDepth(domain, std::string(kId));
}

void FftOcean::reset(const Domain& domain, const Field2D& eta0) {
  form_ = params().getChoice("sea") == "open" ? Form::Open : Form::Basin;
  if (form_ == Form::Open) {
    plans_.reset();  // the basin's transforms are not used
    return resetOpen(domain, eta0);
  }
  patch_.reset();
  openSpectrum_.reset();
  checkDomain(domain);
  nx_ = domain.nx();
  ny_ = domain.ny();
  dx_ = domain.grid().dx;
  g_ = domain.g();
  depth_ = domain.restDepth().data()[0];
  const auto& p = params();
  dt_ = p.getOptional("dt").value_or(dx_ / std::sqrt(g_ * depth_));
  phillips_ = {.amplitude = p.get("amplitude"),
               .windSpeed = p.get("wind_speed"),
               .windDirection = p.get("wind_direction") * kPi / 180.0,
               .cutoff = p.getOptional("small_wave_cutoff").value_or(dx_),
               .g = g_};
  plans_.reset();  // before the buffers it points into are replaced
  for (Field2D* f : {&eta_, &u_, &v_, &work_})
    *f = Field2D(nx_, ny_);
  spectrum_ = Field2D(nx_, ny_);
  plans_ = std::make_unique<Plans>(nx_, ny_, work_, spectrum_, eta_, u_, v_);
  buildModes(domain);
  forwardInto(eta0, a_, false);
  b_.assign(a_.size(), 0.0);  // eta0 is at rest
  if (phillips_.windSpeed > 0.0) addSea();
  invalidate();
}

// omega^2 = g k tanh(k d), k = |(pi m / Lx, pi n / Ly)|  (Tessendorf, finite depth)
void FftOcean::buildModes(const Domain& domain) {
  const double lx = domain.grid().width(), ly = domain.grid().height();
  omega_.assign(std::size_t(nx_) * ny_, 0.0);
  for (int n = 0; n < ny_; ++n)
    for (int m = 0; m < nx_; ++m) {
      const double k = std::hypot(kPi * m / lx, kPi * n / ly);
      omega_[index(m, n)] = std::sqrt(g_ * k * std::tanh(k * depth_));
    }
  cos_.assign(omega_.size(), 1.0);
  sin_.assign(omega_.size(), 0.0);
  tableDt_ = -1.0;
}

// P(k) = A exp(-1 / (k L)^2) / k^4 |k^ . w^|^2 exp(-k^2 l^2), L = V^2 / g  (eqs. 40-41).
// A standing mode is the sum of the travelling waves (+-kx, +-ky); over those four
// |k^ . w^|^2 averages to (kx^2 wx^2 + ky^2 wy^2) / k^2, zero for k across the wind.
double FftOcean::Phillips::operator()(double kx, double ky) const {
  const double k2 = kx * kx + ky * ky;
  if (k2 == 0.0 || windSpeed <= 0.0) return 0.0;
  const double L = windSpeed * windSpeed / g;
  const double wx = std::cos(windDirection), wy = std::sin(windDirection);
  const double aligned = (kx * kx * wx * wx + ky * ky * wy * wy) / k2;
  return amplitude * std::exp(-1.0 / (k2 * L * L)) / (k2 * k2) * aligned *
         std::exp(-k2 * cutoff * cutoff);
}

// Each mode gets Gaussian a and b of variance P(k) dk^2 in the coefficients of eta =
// REDFT01(a): the surface variance, sum over modes of w_m w_n a^2, then has the expected value
// sum P dk^2 over the k-plane lattice (+-kx, +-ky) (docs/fft-ocean.md, "Sea state"), and
// E[b^2] = E[a^2] makes the sea stationary in time.
void FftOcean::addSea() {
  std::mt19937_64 random(std::uint64_t(params().getInt("seed")));
  std::normal_distribution<double> gauss(0.0, 1.0);
  const double lx = nx_ * dx_, ly = ny_ * dx_, area = modeArea();
  for (int n = 0; n < ny_; ++n)
    for (int m = 0; m < nx_; ++m) {
      if (m == 0 && n == 0) continue;
      const double sigma = std::sqrt(phillips_(kPi * m / lx, kPi * n / ly) * area);
      const double xa = gauss(random), xb = gauss(random);  // drawn for every mode: seeded
      a_[index(m, n)] += sigma * xa;
      b_[index(m, n)] += sigma * xb;
    }
}

// a (+)= REDFT10(field) / (4 nx ny): FFTW's REDFT01(REDFT10(x)) = 2n x on each axis.
void FftOcean::forwardInto(const Field2D& field, std::vector<double>& coefficients,
                           bool add) const {
  std::copy(field.data(), field.data() + field.size(), work_.data());
  fftwf_execute(plans_->forward);
  const double norm = 1.0 / (4.0 * nx_ * ny_);
  coefficients.resize(spectrum_.size());
  for (std::size_t k = 0; k < spectrum_.size(); ++k)
    coefficients[k] = (add ? coefficients[k] : 0.0) + norm * spectrum_.data()[k];
}

void FftOcean::step(double dt) {
  if (form_ == Form::Open) return advanceTime(dt);
  rotateModes(dt);
  invalidate();
}

// (a, b) <- (a cos(omega dt) + b sin(omega dt), -a sin(omega dt) + b cos(omega dt)): the exact
// solution of a_t = omega b, b_t = -omega a over dt. The mean (omega = 0) stays.
void FftOcean::rotateModes(double dt) {
  if (dt != tableDt_) {  // the Comparison steps a fixed dt: the table is made once
    for (std::size_t k = 0; k < omega_.size(); ++k) {
      cos_[k] = std::cos(omega_[k] * dt);
      sin_[k] = std::sin(omega_[k] * dt);
    }
    tableDt_ = dt;
  }
  double* __restrict a = a_.data();
  double* __restrict b = b_.data();
  const double* __restrict c = cos_.data();
  const double* __restrict s = sin_.data();
  const std::size_t size = a_.size();
#pragma omp simd
  for (std::size_t k = 0; k < size; ++k) {
    const double ak = a[k], bk = b[k];
    a[k] = ak * c[k] + bk * s[k];
    b[k] = bk * c[k] - ak * s[k];
  }
}

// eta = REDFT01(a) (float transform of the double state).
const Field2D& FftOcean::eta() const {
  if (form_ == Form::Open) return openEta();
  if (!etaFresh_) {
    for (std::size_t k = 0; k < a_.size(); ++k)
      work_.data()[k] = float(a_[k]);
    fftwf_execute(plans_->inverse);
    etaFresh_ = true;
  }
  return eta_;
}

// phi_hat = eta_t_hat / (k tanh(k d)) = g b / omega (linear theory at z = 0), and
//   u = d phi / dx = sum -kx phi_hat sin(kx x) cos(ky y),
// the sine series in x being FFTW's RODFT01 whose input X_j is frequency j + 1 (the index
// shift m -> m - 1; the highest sine, m = nx, is not in the basis and gets 0).
void FftOcean::computeVelocity() const {
  const double lx = nx_ * dx_, ly = ny_ * dx_;
  const auto phi = [&](int m, int n) {
    const double w = omega_[index(m, n)];
    return w > 0.0 ? g_ * b_[index(m, n)] / w : 0.0;
  };
  float* in = work_.data();
  for (int n = 0; n < ny_; ++n) {
    for (int m = 1; m < nx_; ++m)
      in[index(m - 1, n)] = float(-kPi * m / lx * phi(m, n));
    in[index(nx_ - 1, n)] = 0.0f;
  }
  fftwf_execute(plans_->inverseU);
  for (int n = 1; n < ny_; ++n)
    for (int m = 0; m < nx_; ++m)
      in[index(m, n - 1)] = float(-kPi * n / ly * phi(m, n));
  for (int m = 0; m < nx_; ++m)
    in[index(m, ny_ - 1)] = 0.0f;
  fftwf_execute(plans_->inverseV);
  velocityFresh_ = true;
}

const Field2D* FftOcean::velocityU() const {
  if (form_ == Form::Open) {
    computeOpenVelocity();
    return &patch_->field(PatchField::VelocityU);
  }
  if (!velocityFresh_) computeVelocity();
  return &u_;
}

const Field2D* FftOcean::velocityV() const {
  if (form_ == Form::Open) {
    computeOpenVelocity();
    return &patch_->field(PatchField::VelocityV);
  }
  if (!velocityFresh_) computeVelocity();
  return &v_;
}

// Linear superposition: the transform of delta adds to a; b (the motion) is unchanged.
double FftOcean::addEta(const Field2D& delta) {
  if (form_ == Form::Open)
    patch_->addSurfaceAtRest(delta, time());
  else
    forwardInto(delta, a_, true);
  invalidate();
  double added = 0.0;
  for (std::size_t k = 0; k < delta.size(); ++k)
    added += delta.data()[k];
  return added * dx_ * dx_;
}

double FftOcean::changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) {
  (void)domain;
  std::ostringstream why;
  why << kId << ": a mask stroke of " << cells.size()
      << (form_ == Form::Open
              ? " cells is refused: the open sea's periodic patch needs the whole rectangle wet"
              : " cells is refused: the modes cos(kx x) cos(ky y) need the whole rectangle wet");
  throw InputError(why.str());
}

// The open sea is periodic: it translates exactly, and the local waves that leave re-enter
// on the other side, as they already do across its edges. The basin's walls cannot travel.
void FftOcean::shiftWindow(int di, int dj) {
  if (form_ != Form::Open)
    throw InputError(std::string(kId) +
                     ": the basin's walls cannot travel with a window; "
                     "use sea = open");
  patch_->translate(di, dj);
  invalidate();
}

// The shadow (core/forcing/wave_shadow.hpp) on the vertical velocity of the surface, the
// quantity that carries the waves: eta_t = REDFT01(omega b) in physical space is damped toward
// its shadow-weighted mean, r <- r - s (r - m), s = c dt / (1 + c dt) (dampHeightRate), and
// transformed back. That keeps sum(eta_t) = 0, so the damping stays under the bodies: a plain
// eta_t / (1 + c dt) would give eta_t a mean, which the mean mode (omega = 0) cannot hold, and
// dropping it would move the whole basin's level at once. The volume is untouched.
void FftOcean::dampUnderBodies(const Field2D& rate, double dt) {
  if (form_ == Form::Open) return dampOpenSea(rate, dt);
  for (std::size_t k = 0; k < b_.size(); ++k)
    work_.data()[k] = float(omega_[k] * b_[k]);
  fftwf_execute_r2r(plans_->inverse, work_.data(), spectrum_.data());
  Field2D& etaT = spectrum_;
  dampHeightRate(rate, dt, etaT);
  std::copy(etaT.data(), etaT.data() + etaT.size(), work_.data());
  fftwf_execute(plans_->forward);
  const double norm = 1.0 / (4.0 * nx_ * ny_);
  for (std::size_t k = 0; k < b_.size(); ++k)
    b_[k] = omega_[k] > 0.0 ? norm * spectrum_.data()[k] / omega_[k] : 0.0;
  velocityFresh_ = false;
}

// 1/2 g dA sum |eta_t|^2 / omega^2 over the surface, in the basis eta = REDFT01(a) where
// sum_cells eta^2 = nx ny sum_mn w_m w_n a_mn^2 (w = 1 for index 0, else 2).
double FftOcean::kineticEnergy() const {
  if (form_ == Form::Open)
    return 0.5 * g_ * patch_->modeSums(time()).kinetic * double(nx_) * double(ny_) * dx_ * dx_;
  double sum = 0.0;
  for (int n = 0; n < ny_; ++n)
    for (int m = 0; m < nx_; ++m) {
      const double b = b_[index(m, n)];
      sum += basisWeight(m) * basisWeight(n) * b * b;
    }
  return 0.5 * g_ * sum * double(nx_) * double(ny_) * dx_ * dx_;
}

}  // namespace wb
