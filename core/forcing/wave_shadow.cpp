#include "core/forcing/wave_shadow.hpp"

namespace wb {

void dampVelocity(const Field2D& rate, double dt, Field2D& velocity) {
  for (std::size_t k = 0; k < rate.size(); ++k)
    if (rate.data()[k] > 0.0f) velocity.data()[k] /= float(1.0 + rate.data()[k] * dt);
}

void dampHeightRate(const Field2D& rate, double dt, Field2D& increment) {
  double weighted = 0.0, weights = 0.0;
  const auto share = [&](std::size_t k) {
    const double c = rate.data()[k] * dt;
    return c / (1.0 + c);
  };
  for (std::size_t k = 0; k < rate.size(); ++k) {
    if (rate.data()[k] <= 0.0f) continue;
    weighted += share(k) * increment.data()[k];
    weights += share(k);
  }
  if (weights <= 0.0) return;
  const double mean = weighted / weights;
  for (std::size_t k = 0; k < rate.size(); ++k) {
    if (rate.data()[k] <= 0.0f) continue;
    const double r = increment.data()[k];
    increment.data()[k] = float(r - share(k) * (r - mean));
  }
}

}  // namespace wb
