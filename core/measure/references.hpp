// Exact solutions the models are measured against: one implementation for `wavebench-cli
// verify` (models/verification) and for the references of a comparison.
#pragma once

namespace wb {

// The dam break on flat ground without friction, along x (SWASHES, Delestre et al. 2013):
// depth hl for x < x0 and hr beyond at t = 0, at rest. With hr > 0 it is Stoker's (section
// 4.1.1): a rarefaction, a middle state of celerity c_m = sqrt(g h_m), the root in
// (sqrt(g hr), sqrt(g hl)) of
//   -8 g hr c_m^2 (sqrt(g hl) - c_m)^2 + (c_m^2 - g hr)^2 (c_m^2 + g hr) = 0   (SWASHES 4.1.1)
// found by bisection, and a bore. With hr = 0 it is Ritter's (section 4.1.2): the rarefaction
// reaches the dry bed at its front x0 + 2 t sqrt(g hl).
class DamBreak {
 public:
  DamBreak(double g, double hl, double hr, double x0);
  // The middle state's depth c_m^2 / g (0 for Ritter).
  double middleDepth() const { return cm_ * cm_ / g_; }
  // The depth and velocity at x and time t > 0.
  double depth(double x, double t) const;
  double velocity(double x, double t) const;
  // Where the water ends (Ritter) or the bore stands (Stoker) at time t.
  double front(double t) const;

 private:
  double frontSpeed() const;
  double g_, hl_, hr_, x0_, cm_ = 0.0;
};

// The standing mode (m, n) of a walled rectangle lx x ly of still depth d under the linear
// shallow-water equations eta_tt = g d lap(eta):
//   eta = A cos(m pi x / lx) cos(n pi y / ly) cos(omega t),
//   omega = sqrt(g d) pi sqrt((m / lx)^2 + (n / ly)^2),
// with x, y from the rectangle's corner, starting at rest.
struct StandingMode {
  double g, depth, lx, ly;
  int m, n;
  double amplitude;
  double omega() const;
  double period() const;
  double eta(double x, double y, double t) const;
};

}  // namespace wb
