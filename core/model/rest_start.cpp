#include "core/model/rest_start.hpp"

#include <utility>

namespace wb {

double RestStart::compute(const Wave& wave, const Field2D& h) {
  // The stencil writes wet cells only: solid ones must read 0, also those a mask change made
  // solid since the last call, which would otherwise keep (and rescale) their old values.
  if (fresh_.nx() != h.nx() || fresh_.ny() != h.ny())
    fresh_ = Field2D(h.nx(), h.ny());
  else
    fresh_.fill(0.0f);
  wave.stencil.apply(h, fresh_);
  float* a = fresh_.data();
  for (std::size_t k = 0; k < fresh_.size(); ++k)
    a[k] = float(wave.c2OverDx2 * a[k]);
  return wave.pml.addRestAcceleration(h.data(), wave.damping, a);
}

void RestStart::start(const Wave& wave, const Field2D& h) {
  layerSum_ = compute(wave, h);
  std::swap(acceleration_, fresh_);
  pending_ = true;
}

void RestStart::add(const Wave& wave, const Field2D& delta) {
  const double layer = compute(wave, delta);
  if (!pending_) {
    std::swap(acceleration_, fresh_);
    layerSum_ = layer;
    pending_ = true;
    return;
  }
  float* a = acceleration_.data();
  const float* more = fresh_.data();
  for (std::size_t k = 0; k < acceleration_.size(); ++k)
    a[k] += more[k];
  layerSum_ += layer;
}

void RestStart::settle(double dt, WavePml& pml, Field2D& rate) {
  if (!pending_) return;
  pending_ = false;
  const double weight = 0.5 * dt * dt;
  const float* a = acceleration_.data();
  float* v = rate.data();
  // v = h^n - h^{n-1} loses weight a (h^{n-1} gains it). Each cell's float rounding is carried
  // to the next: the interior sums to 0 (sum L h = 0), and uncarried roundings would leave a
  // volume rate that the scheme keeps, a drift growing with n.
  double carried = 0.0;
  for (std::size_t k = 0; k < rate.size(); ++k) {
    if (a[k] == 0.0f) continue;
    const double wanted = double(v[k]) - weight * a[k] + carried;
    v[k] = float(wanted);
    carried = wanted - double(v[k]);
  }
  // V^0 - V^{-1} changes by -weight sum(-Q h) dA there: the layer's share of the volume rate.
  pml.carryLevelChange(-weight * layerSum_);
}

}  // namespace wb
