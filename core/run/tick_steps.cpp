#include "core/run/tick_steps.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace wb {

std::string timeText(double seconds) {
  char text[32];
  const auto [end, error] = std::to_chars(text, text + sizeof text, seconds);
  return error == std::errc() ? std::string(text, end) : std::string("nan");
}

TickSteps::TickSteps(double t0, double t1, double bound) : to_(t1) {
  plan(t0, bound);
}

// The smallest number of equal steps covering [from, to_) with none longer than the bound.
void TickSteps::plan(double from, double bound) {
  from_ = from;
  step_ = 0;
  count_ = std::max(1, int(std::ceil((to_ - from) / bound - 1e-9)));
  dt_ = (to_ - from) / count_;
}

void TickSteps::next(double bound) {
  if (!last() && bound < dt_ * (1.0 - 1e-12))
    plan(time() + dt_, bound);
  else
    ++step_;
}

}  // namespace wb
