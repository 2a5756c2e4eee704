#include "models/swe_adi/discharge_sync.hpp"

#include <algorithm>
#include <cstddef>

namespace wb {

void DischargeSync::reset(int ny) {
  mismatch_.assign(std::size_t(ny), Mismatch{});
  synced_ = false;
  measureIn_ = 0;
}

void DischargeSync::prepare(const Domain& domain, double maxRestDepth, bool needed) {
  domain_ = &domain;
  maxRestDepth_ = maxRestDepth;
  poisson_ = Multigrid();
  if (!needed) return;
  const int nx = domain.nx(), ny = domain.ny();
  poisson_.setup(FivePointSystem::fromMask(nx, ny, domain.wetMask(), 0.0f));
  poissonShift_ = Field2D(nx, ny);
  poissonShift_.fill(float(1e-9 * maxRestDepth));
}

void DischargeSync::begin(double dt, bool corrected) {
  active_ = corrected;
  if (dt != lastDt_) measureIn_ = 0;  // a new dt: a new growth of the discharges' mismatch
  lastDt_ = dt;
  synced_ = false;
}

void DischargeSync::measureRow(const Field2D& fluxX, const Field2D& fluxY, const Field2D& rate,
                               float invDx, int j) {
  const int nx = rate.nx();
  mismatch_[std::size_t(j)] = mismatchRow(fluxX.data(), fluxY.data(), rate.data(), nullptr, 0.0f,
                                          invDx, rate.index(0, j), std::size_t(nx), j > 0);
}

// The discharges' disagreement with the rate, M = -div(q) - hdot, taken out. With the one mid
// surface h~ (SweAdi::updateDischarges), each step adds to M the whole splitting error
// q^2 L_x L_y c, and in a step that the energy projection replaced by a delta + b c, the
// difference between that and the iterate; both grow with q |L| and M adds up step after step
// (docs/swe-adi.md, "Results").
// When max |M| exceeds kTolerance of max |hdot|, the discharges are corrected by the gradient
// that takes M out: q -= D_f (psi_N - psi_C) / dx with
//   sum_faces D_f (psi_C - psi_N) = dx^2 M   (K psi = M, K = -L / g, Neumann on closed faces),
// so that -div(q) changes by -K psi = -M. The face velocities u = q / D change by -grad(psi) /
// dx only, so their curl stays 0 (that of the rest state): with M = 0 the discharges are the
// gradient flow whose divergence is the rate, and their kinetic energy is hdot^T K^-1 hdot / 2,
// bounded by the surface's energy. The solve is core/solvers/multigrid.hpp's V-cycles (face
// weights D_f, zero mean, a shift 1e-9 d_max that only keeps cells closed on all four sides
// regular) to kSolveTolerance: a psi approximated by the step's factored operator takes out
// too little of M at large dt (docs/swe-adi.md, "Results"). The surface reads q only through
// friction, the open edges' layer, bodies' shadows and mask changes: without them it is the
// same with or without the correction.
//
// M changes little from step to step where the step is close to the unsplit one, so it is
// measured less often while it is far below the tolerance: after a measurement below 1/8 of it,
// not in the next 3 steps (M would have to grow by 7/32 of the tolerance per step to pass it
// unseen), below 1/4 not in the next step; after a correction and after a step that the energy
// projection changed, in the next step. A moving coast adds nothing to M (a closed face keeps
// its discharge, the drying correction moves discharges with the rates: DepthPositivity).
void DischargeSync::correct(const Fields& f, double dx, bool projected) {
  if (!active_) return;
  synced_ = false;
  if (!measures(projected)) {
    --measureIn_;
    return;
  }
  Mismatch worst;
  for (const Mismatch& row : mismatch_) {
    worst.mismatch = std::max(worst.mismatch, row.mismatch);
    worst.rate = std::max(worst.rate, row.rate);
  }
  const float bound = kTolerance * worst.rate;
  measureIn_ = worst.mismatch < bound / 8 ? 3 : worst.mismatch < bound / 4 ? 1 : 0;
  if (!(worst.mismatch > bound)) return;
  synced_ = true;
  measureIn_ = 0;
  const int nx = f.rate.nx(), ny = f.rate.ny();
  if (!poisson_.ready()) prepare(*domain_, maxRestDepth_, true);  // a dt beyond the split path's
  poisson_.updateCoefficients(poissonShift_, f.depthX, f.depthY);
  for (int j = 0; j < ny; ++j)
    mismatchRow(f.fluxX.data(), f.fluxY.data(), f.rate.data(), f.work.data(), float(dx * dx),
                float(1.0 / dx), f.rate.index(0, j), std::size_t(nx), j > 0);
  std::fill(f.solution.data(), f.solution.data() + f.solution.size(), 0.0f);
  MultigridSolveOptions options;
  options.removeMean = true;
  solve_ = poisson_.solve(f.work, f.solution, kSolveTolerance, kSolveCycles, options);
  for (int j = 0; j < ny; ++j)
    dischargeCorrectionRow(f.solution.data(), f.depthX.data(), f.depthY.data(), f.fluxX.data(),
                           f.fluxY.data(), float(1.0 / dx), f.rate.index(0, j), std::size_t(nx),
                           j + 1 < ny);
}

}  // namespace wb
