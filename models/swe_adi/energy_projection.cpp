#include "models/swe_adi/energy_projection.hpp"

#include <algorithm>
#include <cstddef>

namespace wb {

void EnergyProjection::reset(const Domain& domain) {
  gram_.assign(std::size_t(domain.ny()), Gram{});
  energyLoss_.assign(std::size_t(domain.ny()), 0.0);
  commuting_ = operatorsCommute(domain);
  weightDelta_ = 1.0;
  weightCorrection_ = 0.0;
}

bool EnergyProjection::operatorsCommute(const Domain& domain) {
  if (domain.wetCount() != domain.nx() * domain.ny() || domain.hasLandAboveRest()) return false;
  const Field2D& depth = domain.restDepth();
  return std::all_of(depth.data(), depth.data() + depth.size(),
                     [&](float d) { return d == depth.data()[0]; });
}

// The energy of the step. With u = dt hdot / 2 and K = -L (symmetric, non-negative) the
// trapezoidal rule keeps E = |u|^2 + q h^T K h = q (|hdot|^2 + h^T K h) when it is solved
// exactly; with any approximate delta (residual res = r - (1 - q L) delta) the step changes it
// by exactly
//   E^{n+1} - E^n = -delta^T res.
// k ADI iterations leave res = q^2 L_x L_y c (c the last correction). Where L_x and L_y
// commute (a rectangle over a flat bed), delta^T res >= 0 for every state: the iterations only
// take energy out. Where they do not (solid cells in the water, land, bathymetry),
// delta^T res = (q L_x delta)^T (q L_y c) has no sign, and the step map grows modes
// (docs/swe-adi.md, "Stability"). More iterations shrink res but do not give it a sign.
//
// So, there, delta^T res is summed first. When it is negative (the step would add energy),
// delta is replaced by the Galerkin (Rayleigh-Ritz) combination a delta_k + b c_k of the last
// iterate and the last correction whose residual is orthogonal to both, and so to itself:
// delta^T res = 0, E is kept, for any dt, domain and number of iterations. (1 - q L) is
// symmetric positive definite, so this is also the combination closest to the exact step in
// the energy norm, at least as close as the ADI iterate (which is in the span). a and b solve
// the 2 x 2 system of the inner products
//   [d.Ad d.Ac; c.Ad c.Ac] (a, b) = (d.r, c.r),   u.Av = u.v + sum_faces c_f (u_C - u_N)(v_C - v_N)
// (one iteration: a = d.r / d.Ad, b = 0). Every thread sums the rows' sums in row order, so
// the result does not depend on the thread count. delta and c sum to 0, so the volume is kept
// to round-off. The last correction is scaled with delta (c <- a c) for the discharges' mid
// surfaces, so a = 1, b = 0 is the plain step. Projecting in every step instead keeps E but
// takes nothing out, and the unconverged steps then move the energy between modes
// (docs/swe-adi.md, "Results").
void EnergyProjection::project(const Step& s) {
  if (!active_) return;
  const std::size_t nx = std::size_t(s.nx);
  const int ny = s.ny;
  // First only delta^T res (one sum), then, in the few steps that would add energy, the
  // projection's inner products.
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j)
    energyLoss_[std::size_t(j)] = energyLossRow(s.rhs, s.delta, s.depthX, s.depthY, s.couple,
                                                std::size_t(j) * nx, nx, j > 0, j + 1 < ny);
  double loss = 0.0;
  for (const double rowLoss : energyLoss_)
    loss += rowLoss;
  if (loss >= 0.0) {
#pragma omp single nowait
    {
      weightDelta_ = 1.0;
      weightCorrection_ = 0.0;
    }
    return;  // every thread has the same sum: all return
  }
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j)
    gram_[std::size_t(j)] = gramRow(s.delta, s.correction, s.rhs, s.depthX, s.depthY, s.couple,
                                    std::size_t(j) * nx, nx, j + 1 < ny);
  Gram sum;
  for (const Gram& g : gram_) {
    sum.dd += g.dd;
    sum.dc += g.dc;
    sum.cc += g.cc;
    sum.dr += g.dr;
    sum.cr += g.cr;
  }
  double a = 1.0, b = 0.0;
  const double det = sum.dd * sum.cc - sum.dc * sum.dc;
  if (s.iterations > 1 && det > 1e-12 * sum.dd * sum.cc) {
    a = (sum.dr * sum.cc - sum.cr * sum.dc) / det;
    b = (sum.dd * sum.cr - sum.dc * sum.dr) / det;
  } else if (sum.dd > 0.0) {
    a = sum.dr / sum.dd;  // c parallel to delta (or one iteration): along delta alone
  }
#pragma omp single nowait
  {
    weightDelta_ = a;
    weightCorrection_ = b;
  }
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j)
    combineRow(s.delta, s.correction, a, b, std::size_t(j) * nx, nx);
}

}  // namespace wb
