// The steps a model takes through one tick [t0, t1) of the Comparison's clock
// (docs/architecture.md, "Time"): equal steps no longer than the model's bound (its
// preferredDt()). The bound is asked again after every step: when it tightens (a front speeding
// up, a shear growing), the rest of the tick is planned anew in equal steps under it; a bound
// that loosens takes effect at the next tick. The last step ends exactly at t1.
//
//   for (TickSteps steps(t0, t1, model.preferredDt()); !steps.done();
//        steps.next(model.preferredDt()))
//     model.step(steps.dt());
#pragma once

#include <string>

namespace wb {

// The text of a simulated time in an output (series.csv, bodies.csv, gauges, ParaView): the
// shortest decimal that reads back as the same double, so each row carries the exact time of
// its state (a tick of 1/60 s has no short decimal).
std::string timeText(double seconds);

class TickSteps {
 public:
  TickSteps(double t0, double t1, double bound);
  bool done() const { return step_ >= count_; }
  double time() const { return from_ + step_ * dt_; }  // where the current step starts
  double dt() const { return dt_; }
  bool last() const { return step_ + 1 == count_; }
  // After the current step: `bound` is the model's bound now.
  void next(double bound);

 private:
  void plan(double from, double bound);
  double from_ = 0.0, to_ = 0.0, dt_ = 0.0;
  int step_ = 0, count_ = 0;
};

}  // namespace wb
