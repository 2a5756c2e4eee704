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
#pragma once

#include <cstdint>
#include <vector>

#include "core/domain.hpp"
#include "core/field2d.hpp"
#include "core/multigrid.hpp"
#include "core/stencil.hpp"

namespace wb {

class WaveKineticEnergy {
 public:
  // singular: the walls are all mirrors (constants are in L's null space).
  double compute(const WetStencil& stencil, const Domain& domain, bool singular, double c,
                 const Field2D& h, const Field2D& hOld, double dt);
  const CgResult& lastSolve() const { return lastSolve_; }

 private:
  void prepare(const Domain& domain, bool singular);

  MultigridPcg solver_;
  std::vector<std::uint8_t> preparedMask_;  // the multigrid was set up for this mask and walls
  bool preparedSingular_ = false;
  Field2D potential_, rhs_, product_;  // phi is kept between calls: the next solve starts from it
  CgResult lastSolve_;
};

}  // namespace wb
