// Frame pacing of the workbench: how many simulation frames the worker advances for the wall
// time that passed. Only the GUI paces frames; the Comparison (core/run/comparison.hpp) owns
// simulated time and never sees the wall clock.
#pragma once

#include <algorithm>
#include <cmath>

namespace wb {

// Bressler 4.1: a fixed-step accumulator turning irregular wall-clock intervals into a whole
// number of fixed simulation frames, carrying the remainder; at most maxFrames per call so a
// slow machine does not spiral.
class FixedStepAccumulator {
 public:
  explicit FixedStepAccumulator(double frameDt, int maxFrames = 8)
      : frameDt_(frameDt), maxFrames_(maxFrames) {}

  int framesFor(double elapsedSeconds) {
    accumulated_ += std::max(0.0, elapsedSeconds);
    int frames = int(std::floor(accumulated_ / frameDt_));
    accumulated_ -= frames * frameDt_;
    if (frames > maxFrames_) {
      frames = maxFrames_;
      accumulated_ = 0.0;  // drop the backlog rather than fall further behind
    }
    return frames;
  }
  double remainder() const { return accumulated_; }

 private:
  double frameDt_;
  int maxFrames_;
  double accumulated_ = 0.0;
};

}  // namespace wb
