#include "core/model/rest_start.hpp"

#include <utility>

namespace wb {

double RestStart::compute(const Wave& wave, const Field2D& h) {
  fresh_ = Field2D(h.nx(), h.ny());
  wave.stencil.apply(h, fresh_);  // L h on wet cells, 0 on solid ones
  float* a = fresh_.data();
  for (std::size_t k = 0; k < fresh_.size(); ++k)
    a[k] = float(wave.c2OverDx2 * a[k]);
  return wave.pml.addRestAcceleration(h.data(), wave.damping, a);
}

void RestStart::shift(double weight, const Field2D& a, double layerSum, WavePml& pml,
                      Field2D& previous) {
  const float* from = a.data();
  float* p = previous.data();
  for (std::size_t k = 0; k < previous.size(); ++k)
    if (from[k] != 0.0f) p[k] = float(double(p[k]) + weight * from[k]);
  // V^0 - V^{-1} changes by -weight sum(-Q h) dA there: the layer's share of the volume rate.
  pml.carryLevelChange(-weight * layerSum);
}

void RestStart::start(const Wave& wave, double dt, const Field2D& current, Field2D& previous) {
  previous = current;
  layerSum_ = compute(wave, current);
  std::swap(acceleration_, fresh_);
  dt_ = dt;
  pending_ = true;
  shift(0.5 * dt * dt, acceleration_, layerSum_, wave.pml, previous);
}

void RestStart::add(const Wave& wave, double dt, const Field2D& delta, Field2D& previous) {
  const double layer = compute(wave, delta);
  if (pending_ && acceleration_.size() == fresh_.size()) {
    // Nothing has stepped since reset or the last change: the same step is assumed.
    float* a = acceleration_.data();
    for (std::size_t k = 0; k < acceleration_.size(); ++k)
      a[k] += fresh_.data()[k];
    layerSum_ += layer;
  } else {
    acceleration_ = fresh_;
    layerSum_ = layer;
    dt_ = dt;
    pending_ = true;
  }
  shift(0.5 * dt_ * dt_, fresh_, layer, wave.pml, previous);
}

void RestStart::settle(double dt, WavePml& pml, Field2D& previous) {
  if (!pending_) return;
  pending_ = false;
  if (dt != dt_) shift(0.5 * (dt * dt - dt_ * dt_), acceleration_, layerSum_, pml, previous);
}

}  // namespace wb
