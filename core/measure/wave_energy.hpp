// Kinetic energy of a three-level explicit wave scheme on a WetStencil (damped-wave, and the
// wave part of advected-wave, Kim & Yoo eq. 10).
//
// Such a scheme is exactly a staggered linear shallow-water scheme on the stencil's links with
// depth d = c^2 / g: u^{n+1/2} = R u^{n-1/2} - g dt grad h^n, h^{n+1} - h^n = -d dt div u^{n+1/2}
// (R = 1 - k dt for Nishidate's backward damping, (1 - nu dt/2)/(1 + nu dt/2) for Kim & Yoo's
// centred one) reproduce the height update. From rest, u is the gradient of a potential phi,
//   -L phi = dx^2 / (d dt) (h^n - h^{n-1}),
// solved by conjugate gradients preconditioned with the 5-point multigrid (spectrally
// equivalent to either stencil, so the iterations stay flat with the grid), and
//   1/2 d sum|u^{n-1/2}|^2 dA = 1/2 (dx^2 / dt) sum(phi (h^n - h^{n-1})).
// Leapfrog conserves E = 1/2 d sum|u^{n-1/2}|^2 dA + 1/2 g sum(h^{n-1} h^n) dA exactly without
// damping; the kinetic energy returned is E minus the potential energy 1/2 g sum(h^n)^2 dA that
// every model reports, so potential + kinetic is that conserved energy.
//
// Called once per frame, each call starts from a prediction rather than solving afresh: by the
// staggered scheme phi^{n-1/2} = R^S phi^{m-1/2} - g dt sum_{j=m}^{n-1} R^{n-1-j} h^j over the
// S steps since the last call (at level m), and that sum lies close to the span of h^m, h^{n-1}
// and their rates of change h^m - h^{m-1}, h^n - h^{n-1} (a cubic in time). The start is the
// Galerkin solution on that span and phi^{m-1/2}: it needs neither S nor R, and its energy error
// is no larger than that of starting from phi^{m-1/2}. If its residual (summed in the pass that
// sums the energy) misses the tolerance, one V-cycle-preconditioned step (CG's first) corrects
// it, and CG runs on only if that misses too. On the Pi pool at 512^2 and 60 frames/s the
// prediction alone meets the tolerance on about two frames in three and the corrected one on
// the rest; the energies agree with a solve from zero (tests/unit/core_test.cpp). With mirror
// walls every vector is taken without its mean (constants are in L's null space): a drifting
// mean level would otherwise cost the float fields their digits.
#pragma once

#include <cstdint>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/grid/stencil.hpp"
#include "core/solvers/multigrid.hpp"

namespace wb {

class WaveKineticEnergy {
 public:
  static constexpr int kBasis = 5;  // vectors of the prediction

  // singular: the walls are all mirrors (constants are in L's null space). h is h^n, rate the
  // scheme's increment v^n = h^n - h^{n-1} (core/grid/wave_levels.hpp).
  double compute(const WetStencil& stencil, const Domain& domain, bool singular, double c,
                 const Field2D& h, const Field2D& rate, double dt);
  // iterations: 0 when the prediction met the tolerance, 1 when the corrected one did, else
  // CG's.
  const CgResult& lastSolve() const { return lastSolve_; }

 private:
  struct System {
    const std::uint8_t* wet;
    bool singular;
    double wetCells;
    double bMean;  // with mirror walls, else 0
    double bNorm;  // of b less bMean
  };
  struct Energy {
    double variational = 0.0, mixed = 0.0;  // p.b - 1/2 p.A p, h^n.(h^n - h^{n-1})
    double residual = 0.0, residualMean = 0.0;
  };
  void prepare(const Domain& domain, bool singular);
  System assembleRightSide(const Field2D& h, const Field2D& rate, double scale,
                           const Domain& domain, bool singular);
  Energy solve(const WetStencil& stencil, const Field2D& h, const Field2D& rate,
               const System& system);
  // Puts the Galerkin prediction described above into potential_; false (nothing changed) when
  // the basis is degenerate.
  bool predict(const System& system);
  // The sums of the energy for potential_ (with product_ = L potential_) and its residual.
  Energy measure(const Field2D& h, const Field2D& rate, const System& system) const;
  // One V-cycle-preconditioned correction of potential_ (product_ = L potential_).
  void correct(const WetStencil& stencil, const System& system);

  MultigridPcg solver_;
  std::vector<std::uint8_t> preparedMask_;  // the multigrid was set up for this mask and walls
  bool preparedSingular_ = false;
  std::size_t wetCells_ = 0;
  Field2D rhs_;
  // phi and L phi, kept between calls for the prediction.
  Field2D potential_, product_;
  // h^n, h^{n-1} (less a level, see assembleRightSide) and their L; the same of the last call
  // (h^m, h^{m-1}).
  Field2D surface_, surfaceOld_, applied_, appliedOld_;
  Field2D surfaceBefore_, surfaceBeforeOld_, appliedBefore_, appliedBeforeOld_;
  double level_ = 0.0;  // mean of h^n over the wet cells at the last call
  bool predictable_ = false;
  std::vector<double> residual_, correction_, appliedCorrection_;  // r, z = B r, L z
  CgResult lastSolve_;
};

}  // namespace wb
