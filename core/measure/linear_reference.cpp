#include "core/measure/linear_reference.hpp"

#include <fftw3.h>

#include <cmath>
#include <numbers>

namespace wb {

// FFTW's plans are made once (the planner is not thread-safe); executing them on other arrays
// (fftw_execute_r2r) is.
struct LinearReference::Plans {
  fftw_plan forward = nullptr, inverse = nullptr;
  ~Plans() {
    if (forward) fftw_destroy_plan(forward);
    if (inverse) fftw_destroy_plan(inverse);
  }
};

LinearReference::LinearReference(int nx, int ny, double dx, double g, double depth,
                                 Dispersion dispersion, const Field2D& eta0)
    : nx_(nx), ny_(ny), omega_(std::size_t(nx) * ny), plans_(std::make_unique<Plans>()) {
  const double pi = std::numbers::pi, lx = nx * dx, ly = ny * dx;
  for (int n = 0; n < ny; ++n)
    for (int m = 0; m < nx; ++m) {
      const double k = std::hypot(pi * m / lx, pi * n / ly);
      omega_[std::size_t(n) * nx + m] = dispersion == Dispersion::FiniteDepth
                                            ? std::sqrt(g * k * std::tanh(k * depth))
                                            : std::sqrt(g * depth) * k;
    }
  std::vector<double> in(omega_.size()), out(omega_.size());
  // Row-major with x fastest: FFTW's first dimension is y.
  plans_->forward =
      fftw_plan_r2r_2d(ny, nx, in.data(), out.data(), FFTW_REDFT10, FFTW_REDFT10, FFTW_ESTIMATE);
  plans_->inverse =
      fftw_plan_r2r_2d(ny, nx, in.data(), out.data(), FFTW_REDFT01, FFTW_REDFT01, FFTW_ESTIMATE);
  states_.push_back({0.0, transform(eta0), std::vector<double>(omega_.size(), 0.0)});
}

LinearReference::~LinearReference() = default;

// The DCT-II coefficients of a field, scaled so that the DCT-III of them gives it back
// (FFTW's pair multiplies by 4 nx ny).
std::vector<double> LinearReference::transform(const Field2D& field) const {
  std::vector<double> in(omega_.size()), out(omega_.size());
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = field.data()[k];
  fftw_execute_r2r(plans_->forward, in.data(), out.data());
  const double scale = 1.0 / (4.0 * nx_ * ny_);
  for (double& c : out)
    c *= scale;
  return out;
}

void LinearReference::add(const Field2D& delta, double te) {
  State next = states_.back();
  next.since = te;
  const std::vector<double> change = transform(delta);
  for (std::size_t k = 0; k < change.size(); ++k) {
    next.cosine[k] += change[k] * std::cos(omega_[k] * te);
    next.sine[k] += change[k] * std::sin(omega_[k] * te);
  }
  states_.push_back(std::move(next));
  std::lock_guard lock(cacheMutex_);
  cached_.reset();
}

void LinearReference::forgetBefore(double t) {
  std::size_t keep = 0;
  while (keep + 1 < states_.size() && states_[keep + 1].since <= t)
    ++keep;
  states_.erase(states_.begin(), states_.begin() + std::ptrdiff_t(keep));
}

// The last state changed at or before t: a drop at te acts from te on.
const LinearReference::State& LinearReference::stateAt(double t) const {
  std::size_t k = states_.size() - 1;
  while (k > 0 && states_[k].since > t)
    --k;
  return states_[k];
}

std::shared_ptr<const Field2D> LinearReference::surface(double t) const {
  std::lock_guard lock(cacheMutex_);
  if (cached_ && cachedTime_ == t) return cached_;
  const State& state = stateAt(t);
  std::vector<double> modes(omega_.size()), out(omega_.size());
  for (std::size_t k = 0; k < modes.size(); ++k)
    modes[k] = state.cosine[k] * std::cos(omega_[k] * t) + state.sine[k] * std::sin(omega_[k] * t);
  fftw_execute_r2r(plans_->inverse, modes.data(), out.data());
  auto field = std::make_shared<Field2D>(nx_, ny_);
  for (std::size_t k = 0; k < out.size(); ++k)
    field->data()[k] = float(out[k]);
  cached_ = field;
  cachedTime_ = t;
  return field;
}

}  // namespace wb
