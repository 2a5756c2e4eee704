#include "core/measure/references.hpp"

#include <cmath>
#include <numbers>

namespace wb {

DamBreak::DamBreak(double g, double hl, double hr, double x0) : g_(g), hl_(hl), hr_(hr), x0_(x0) {
  if (hr_ <= 0.0) return;
  const auto f = [&](double c) {
    return -8.0 * g_ * hr_ * c * c * std::pow(std::sqrt(g_ * hl_) - c, 2) +
           std::pow(c * c - g_ * hr_, 2) * (c * c + g_ * hr_);
  };
  double low = std::sqrt(g_ * hr_), high = std::sqrt(g_ * hl_);
  for (int k = 0; k < 100; ++k) {
    const double middle = 0.5 * (low + high);
    (f(low) < 0.0) == (f(middle) < 0.0) ? low = middle : high = middle;
  }
  cm_ = 0.5 * (low + high);
}

// The bore's speed from the middle state (SWASHES 4.1.1): 2 c_m^2 (c_l - c_m) / (c_m^2 - g hr);
// Ritter's front runs at 2 c_l.
double DamBreak::frontSpeed() const {
  const double cl = std::sqrt(g_ * hl_);
  if (hr_ <= 0.0) return 2.0 * cl;
  return 2.0 * cm_ * cm_ * (cl - cm_) / (cm_ * cm_ - g_ * hr_);
}

double DamBreak::front(double t) const {
  return x0_ + frontSpeed() * t;
}

// In the fan x / t = u - c with u + 2c = 2 c_l: c = (2 c_l - x / t) / 3.
double DamBreak::depth(double x, double t) const {
  const double cl = std::sqrt(g_ * hl_), xi = (x - x0_) / t;
  if (xi <= -cl) return hl_;
  const double fan = 4.0 / (9.0 * g_) * std::pow(cl - 0.5 * xi, 2);
  if (hr_ <= 0.0) return xi <= 2.0 * cl ? fan : 0.0;
  if (xi <= 2.0 * cl - 3.0 * cm_) return fan;
  return xi <= frontSpeed() ? middleDepth() : hr_;
}

// The fan's u = 2 (c_l + x / t) / 3; the middle state's u_m = 2 (c_l - c_m).
double DamBreak::velocity(double x, double t) const {
  const double cl = std::sqrt(g_ * hl_), xi = (x - x0_) / t;
  if (xi <= -cl) return 0.0;
  if (hr_ <= 0.0) return xi <= 2.0 * cl ? 2.0 / 3.0 * (cl + xi) : 0.0;
  if (xi <= 2.0 * cl - 3.0 * cm_) return 2.0 / 3.0 * (cl + xi);
  return xi <= frontSpeed() ? 2.0 * (cl - cm_) : 0.0;
}

double StandingMode::omega() const {
  return std::sqrt(g * depth) * std::numbers::pi * std::hypot(m / lx, n / ly);
}

double StandingMode::period() const {
  return 2.0 * std::numbers::pi / omega();
}

double StandingMode::eta(double x, double y, double t) const {
  const double pi = std::numbers::pi;
  return amplitude * std::cos(m * pi * x / lx) * std::cos(n * pi * y / ly) * std::cos(omega() * t);
}

}  // namespace wb
