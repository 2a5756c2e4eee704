// Exact solutions the models are measured against: one implementation for `wavebench-cli
// verify` (models/verification) and for the references of a comparison.
#pragma once

#include <memory>
#include <optional>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/measure/linear_reference.hpp"

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

// Thacker's radially symmetric oscillation in a paraboloid bowl (Thacker 1981; SWASHES 4.2.1),
// frictionless nonlinear shallow water, the bowl centred at (cx, cy):
//   ground  z(r) = -h0 (1 - r^2 / a^2),
//   surface eta(r, t) = h0 (sqrt(1 - A^2) / q - 1 - r^2 / a^2 ((1 - A^2) / q^2 - 1)),
//   q = 1 - A cos(omega t),  omega = sqrt(8 g h0) / a,  A = (a^2 - r0^2) / (a^2 + r0^2),
//   radial velocity u_r = omega r A sin(omega t) / (2 q),
// wet where eta > z: at t = 0 at rest with the shoreline at r = sqrt(a r0), at most
// a / (S_min)^(1/2), S_min = sqrt((1 - |A|) / (1 + |A|)), from the centre.
struct ThackerBowl {
  double g, a, h0, r0, cx, cy;
  double A() const;
  double omega() const;
  double period() const;
  // The rest depth -z (negative beyond r = a: land above the rest level).
  double restDepth(double x, double y) const;
  // The surface above the rest level where wet; the ground z where dry.
  double eta(double x, double y, double t) const;
  double radialVelocity(double x, double y, double t) const;
  // The largest distance of the shoreline from the centre over a period.
  double maxShorelineRadius() const;
};

// The scenario key "reference" (docs/scenario.md): the exact solution a comparison is measured
// against. It also sets the initial surface.
struct ReferenceSpec {
  enum class Kind { LakeAtRest, StandingMode, DamBreak, Thacker, Linear };
  Kind kind = Kind::LakeAtRest;
  int m = 1, n = 0;                            // standing-mode
  double amplitude = 0.01;                     // m, standing-mode
  double x0 = 0.0, hLeft = 1.0, hRight = 0.0;  // m, dam-break along x
  double a = 1.0, h0 = 0.1, r0 = 0.8;          // m, thacker (SWASHES 4.2.1's values)
  LinearReference::Dispersion dispersion = LinearReference::Dispersion::FiniteDepth;  // linear
};
const char* referenceKindName(ReferenceSpec::Kind kind);

// A reference on a scenario's domain: on flat ground of the domain's deepest rest depth for a
// standing mode and a dam break (their assumptions, checked where the scenario is built);
// Thacker's bowl centred in the domain, whose ground it sets (buildDomain); the linear
// solution from the scenario's initial surface eta0 (required for it), told of every drop.
class Reference {
 public:
  Reference(const ReferenceSpec& spec, const Domain& domain, const Field2D* eta0 = nullptr);
  // Whether the reference must be told of the drops (addDrop): the linear solution.
  bool takesDrops() const { return linear_ != nullptr; }
  // A drop's surface change at time te, in time order; forgetBefore(t) when no time before t
  // will be asked again (a frame's start).
  void addDrop(const Field2D& delta, double te) { linear_->add(delta, te); }
  void forgetBefore(double t) {
    if (linear_) linear_->forgetBefore(t);
  }
  const ReferenceSpec& spec() const { return spec_; }
  // The surface above the rest level (m) at a point at time t >= 0; the depth is eta plus the
  // ground's rest depth there (0 where that is negative: a dam break's dry bed).
  double eta(double x, double y, double t) const;
  // Where the reference has a front (a dam break's water edge or bore), at time t > 0.
  std::optional<double> front(double t) const;
  // The depth a model's front is read at: Ritter's 1 mm, the mean of Stoker's bore.
  double frontDepth() const;
  // Thacker's bowl on this domain (the spec's a, h0, r0 about the domain's centre).
  ThackerBowl thacker() const;

 private:
  ReferenceSpec spec_;
  double g_, restDepth_, width_, height_;
  Grid grid_;
  std::optional<DamBreak> damBreak_;
  std::shared_ptr<LinearReference> linear_;
};

// A model's error against the reference over the cells wet in either (series.csv):
// relative L1 and L2 of the depth, the largest |eta - eta_ref| (m), and the model's front
// (the furthest cell centre + dx / 2 deeper than frontDepth, m) where the reference has one.
struct ReferenceErrors {
  double l1 = 0.0, l2 = 0.0, max = 0.0;
  std::optional<double> front;
};
// The reference's eta at the domain's cell centres at time t, 0 in walls (the views' error
// colours).
std::shared_ptr<const Field2D> referenceSurface(const Reference& reference, const Domain& domain,
                                                double t);

ReferenceErrors referenceErrors(const Reference& reference, const Field2D& eta,
                                const Domain& domain, double t);

}  // namespace wb
