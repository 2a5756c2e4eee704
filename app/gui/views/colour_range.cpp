#include "app/gui/views/colour_range.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace wb::gui {

double niceCeil(double value) {
  if (!(value > 0.0) || !std::isfinite(value)) return AutoRange::kMinRange;
  static constexpr std::array<double, 9> kSteps = {1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0};
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : kSteps)
    // A small allowance: 0.03 must stay 0.03 despite 3 * 0.01 != 0.03 in binary.
    if (step * decade >= value * (1.0 - 1e-9)) return step * decade;
  return 10.0 * decade;
}

double AutoRange::update(double maxAbs, double nowSeconds) {
  if (!std::isfinite(maxAbs)) return range_ > 0.0 ? range_ : kMinRange;
  const double wanted = std::max(kMinRange, niceCeil(maxAbs));
  if (range_ == 0.0 || wanted > range_) {  // first frame, or the data outgrew the bar: at once
    range_ = wanted;
    below_ = 0;
    shrinkTo_ = 0.0;
    return range_;
  }
  // Hysteresis: only data below half the range count towards a shrink, so data near a nice
  // number do not toggle the bar between two of them.
  if (maxAbs >= kShrinkShare * range_) {
    below_ = 0;
    shrinkTo_ = 0.0;
    return range_;
  }
  if (below_++ == 0) belowSince_ = nowSeconds;
  shrinkTo_ = std::max(shrinkTo_, wanted);
  if (below_ >= kShrinkAfterUpdates && nowSeconds - belowSince_ >= kShrinkAfterSeconds) {
    range_ = shrinkTo_;
    below_ = 0;
    shrinkTo_ = 0.0;
  }
  return range_;
}

void AutoRange::reset() {
  range_ = 0.0;
  shrinkTo_ = 0.0;
  below_ = 0;
}

}  // namespace wb::gui
