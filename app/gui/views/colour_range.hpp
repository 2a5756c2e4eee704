// The colour bar's range when it follows the data (View > Colours > Automatic range), as
// ParaView users expect it: symmetric about 0 (the rest level, or a zero error, keeps the
// middle colour), rounded up to a nice number, growing at once when the data outgrow it and
// shrinking only after the data have stayed well inside a smaller nice range for a while, so
// the bar does not flicker from frame to frame.
//
// Symmetric about 0 also for fields that are not: a dam break's eta runs from -1 m (the dry
// bed) to 0 and is shown on -1..+1, its lower half. The choice keeps one meaning for every
// colour across models, modes and frames (mid colour = rest, or no error).
#pragma once

namespace wb::gui {

// The smallest of 1, 1.5, 2, 3, 4, 5, 6, 8 times a power of ten that is >= value (> 0): a
// range within a factor 1.5 of the data, readable on the bar's labels.
double niceCeil(double value);

class AutoRange {
 public:
  // The data must stay below kShrinkShare of the range this long (seconds of the caller's
  // clock: in the workbench the wall clock, what the user sees; ViewGrid::setClock) and over
  // at least kShrinkAfterUpdates frames before the range shrinks.
  static constexpr double kShrinkAfterSeconds = 0.5;
  static constexpr int kShrinkAfterUpdates = 3;
  // Data must fall below this share of the range to shrink it.
  static constexpr double kShrinkShare = 0.5;
  // The smallest range (m): a flat surface still gets a bar.
  static constexpr double kMinRange = 1e-6;

  // The range after seeing a frame whose largest |value| is maxAbs (non-finite ignored) at
  // time nowSeconds of the caller's clock (any steady one).
  double update(double maxAbs, double nowSeconds);
  double range() const { return range_; }
  // Forget the data (a new comparison, another colour mode): the next update sets the range.
  void reset();

 private:
  double range_ = 0.0;       // 0: not set yet
  double shrinkTo_ = 0.0;    // the largest nice range of the updates since the data fell inside
  int below_ = 0;            // updates in a row with data below kShrinkShare of range_
  double belowSince_ = 0.0;  // the clock's time of the first of them
};

}  // namespace wb::gui
