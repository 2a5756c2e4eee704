#include "models/swe_adi/swe_adi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <omp.h>

#include "core/errors.hpp"
#include "core/grid/parallel.hpp"
#include "core/model/mask_change.hpp"

namespace wb {

SweAdi::SweAdi() : Model(parameterSpecs()) {}

double SweAdi::explicitLimit() const {
  return domain_->grid().dx / std::sqrt(domain_->g() * maxRestDepth_);
}

double SweAdi::maxStableDt() const {
  return std::numeric_limits<double>::infinity();
}

void SweAdi::reset(const Domain& domain, const Field2D& eta0) {
  const int nx = domain.nx(), ny = domain.ny();
  if (eta0.nx() != nx || eta0.ny() != ny)
    throw InputError("swe-adi: the initial eta is " + std::to_string(eta0.nx()) + " x " +
                     std::to_string(eta0.ny()) + ", the grid " + std::to_string(nx) + " x " +
                     std::to_string(ny));
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (!std::isfinite(eta0(i, j)))
        throw InputError("swe-adi: the initial eta is not finite at cell (" + std::to_string(i) +
                         ", " + std::to_string(j) + ")");
  domain_ = &domain;
  walls_ = SweWalls(domain);
  maxRestDepth_ = domain.maxWetDepth();
  layer_ = AbsorbingLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  volumeSink_ = 0.0;
  h_ = eta0;
  ground_ = Field2D(nx, ny);
  u_ = v_ = fluxX_ = fluxY_ = faceDepthX_ = faceDepthY_ = Field2D(nx, ny);
  pivotY_ = Field2D(nx, ny);
  rate_ = rhs_ = delta_ = work_ = cellU_ = cellV_ = Field2D(nx, ny);
  faceVelocitiesStale_ = cellVelocitiesStale_ = true;
  for (std::size_t k = 0; k < h_.size(); ++k) {
    ground_.data()[k] = -domain.restDepth().data()[k];
    // No water on solid cells, no surface below the ground.
    const bool wet = domain.wetMask()[k] != 0;
    h_.data()[k] = wet ? std::max(h_.data()[k], ground_.data()[k]) : 0.0f;
  }
  rowCounts_.assign(std::size_t(ny), RowCounts{});
  const std::size_t banded = std::size_t(rowBands(ny)) * std::size_t(nx) * kRowBand;
  bandC_.assign(banded, 0.0f);
  bandP_.assign(banded, 0.0f);
  // Per thread: the row sweep's staging buffer and a row of south face depths.
  stages_.assign(std::size_t(omp_get_max_threads()),
                 std::vector<float>(std::size_t(nx) * (kRowBand + 1), 0.0f));
  bandCorrection_.assign(std::size_t(columnBands(nx)), 0.0f);
  bandDelta_.assign(std::size_t(columnBands(nx)), 0.0f);
  reached_.clear();
  reached_.reserve(h_.size());
  visited_.assign(h_.size(), 0);
  visitStamp_ = 0;
  gram_.assign(std::size_t(ny), Gram{});
  energyLoss_.assign(std::size_t(ny), 0.0);
  mismatch_.assign(std::size_t(ny), Mismatch{});
  synced_ = false;
  measureIn_ = 0;
  iterations_ = params().getInt("iterations");
  damping_ = float(params().get("damping"));
  dryThreshold_ = float(params().get("dry_threshold"));
  const auto userDt = params().getOptional("dt");
  dt_ = userDt ? *userDt : explicitLimit();
  dryCells_ = 0;
  for (std::size_t k = 0; k < h_.size(); ++k)
    dryCells_ += int(domain.wetMask()[k] != 0 && h_.data()[k] - ground_.data()[k] <= dryThreshold_);
  commuting_ = operatorsCommute(domain);
  weightDelta_ = 1.0;
  weightCorrection_ = 0.0;
  positivityVolume_ = lastCorrection_ = 0.0;
  rateMean_ = 0.0f;
  wetCells_ = std::max(domain.wetCount(), 1);
  preparePoisson(true);
}

// One step: the operators in order, inside one parallel region (each is a work-shared loop
// ending in a barrier); the drying correction after it, serially, on the few cells it needs.
void SweAdi::step(double dt) {
  // The row sweep's staging buffers are per thread, sized at reset.
  const int threads = std::min(omp_get_max_threads(), int(stages_.size()));
  const double dx = domain_->grid().dx;
  couple_ = float(domain_->g() * 0.25 * dt * dt / (dx * dx));
  energyChecked_ = !commuting_ || dryCells_ > 0;
  dischargesSynced_ = energyChecked_ || dt > kSplitSurfaceLimit * explicitLimit();
  if (dt != lastDt_) measureIn_ = 0;  // a new dt: a new growth of the discharges' mismatch
  lastDt_ = dt;
  synced_ = false;
#pragma omp parallel num_threads(threads) if (worthThreads(h_.size()))
  {
    for (int k = 0; k < iterations_; ++k) {
      if (k == 0)
        firstRowSweep(dt);
      else
        sweepRows([&](int j) { residual(j); });
      sweepColumns(k == 0                 ? ColumnSweep::kFirst
                   : k + 1 == iterations_ ? ColumnSweep::kLast
                                          : ColumnSweep::kNext);
    }
    if (energyChecked_) projectStep();
    updateDischarges(dt);
    updateSurface(dt);
  }
  faceVelocitiesStale_ = cellVelocitiesStale_ = true;
  if (dischargesSynced_) syncDischarges();
  keepDepthNonNegative(dt);
  absorbAtOpenEdges(dt);
}

const Field2D& SweAdi::faceVelocities(const Field2D& which) const {
  if (faceVelocitiesStale_) {
    const int nx = h_.nx(), ny = h_.ny();
    for (int j = 0; j < ny; ++j)
      faceVelocityRow(fluxX_.data(), fluxY_.data(), faceDepthX_.data(), faceDepthY_.data(),
                      u_.data(), v_.data(), h_.index(0, j), std::size_t(nx), j + 1 < ny);
    faceVelocitiesStale_ = false;
  }
  return which;
}

const Field2D& SweAdi::cellVelocities(const Field2D& which) const {
  if (cellVelocitiesStale_) {
    faceVelocities(u_);
    const int nx = h_.nx(), ny = h_.ny();
    for (int j = 0; j < ny; ++j)
      cellVelocityRow(u_.data(), v_.data(), cellU_.data(), cellV_.data(), h_.index(0, j),
                      std::size_t(nx), j > 0);
    cellVelocitiesStale_ = false;
  }
  return which;
}

// Eq. 36's face depth D_f = (d_C + d_N) / 2, d = h - b at the start of the step (the
// linearisation: constant over the step), with Kass & Miller's flooding rule: a face whose
// higher side is dry (d <= dry_threshold) passes no water, so a drained cell stops feeding
// its lower neighbours, while a dry cell below its neighbour's surface fills. Closed faces
// (walls, solid cells, the grid's edge) get 0. With them the coupling q g D_f / dx^2,
// q = (dt / 2)^2, of the tridiagonal systems (eqs. 40-41), formed where needed as couple_ D_f
// (one float product, the same every time).
//
// The Thomas factors of the row systems (1 - q L_x) and the column systems (1 - q L_y):
// diagonal 1 + c_w + c_e, off-diagonals -c; pivot p_i = 1 / (1 + c_{i-1} + c_i -
// c_{i-1}^2 p_{i-1}) and upper factor c_i p_i (formed where needed from c and p). Diagonally
// dominant: no pivoting. They depend only on the face depths, so every ADI iteration of the
// step reuses them. The rows' here, the columns' by the first column sweep on its way.
//
// The first row sweep of the step does it all in one pass, two bands of kRowBand rows at a
// time: their face depths, their row factors (two bands side by side: four independent chains
// in the pivots' division-bound recurrence), then band by band the right side of its rows
// (assembleRhs) and the row solves, while the bands' rows are in cache, with no barrier
// between them (the one at the end makes the factors ready for the later row sweeps,
// whichever thread sweeps a band). The right side of a pair's first row needs the north face
// depths of the row below it, which another thread may be computing: they are computed again,
// with the same arithmetic, into the thread's scratch row.
void SweAdi::firstRowSweep(double dt) {
  const int nx = h_.nx(), ny = h_.ny();
  const FaceInputs in{h_.data(), ground_.data(), walls_.openEast(), walls_.openNorth(),
                      dryThreshold_};
  float* stage = stages_[std::size_t(omp_get_thread_num())].data();
  float* southDepth = stage + std::size_t(nx) * kRowBand;
#pragma omp for schedule(static)
  for (int pair = 0; pair < (rowBands(ny) + 1) / 2; ++pair) {
    const int j0 = 2 * pair * kRowBand, rows = std::min(2 * kRowBand, ny - j0);
    for (int j = j0; j < j0 + rows; ++j)
      faceDepthRow(in, faceDepthX_.data(), faceDepthY_.data(), h_.index(0, j), std::size_t(nx),
                   j + 1 < ny);
    const std::size_t at = std::size_t(2 * pair) * std::size_t(nx) * kRowBand;
    factorRowBands(faceDepthX_.row(j0), couple_, std::size_t(nx), nx, rows, bandC_.data() + at,
                   bandP_.data() + at);
    if (j0 > 0) northFaceDepthRow(in, southDepth, h_.index(0, j0 - 1), std::size_t(nx));
    for (int b0 = j0; b0 < j0 + rows; b0 += kRowBand) {
      const int bandRows = std::min(kRowBand, ny - b0);
      for (int j = b0; j < b0 + bandRows; ++j)
        assembleRhs(j, dt, j == j0 ? southDepth : faceDepthY_.row(std::max(j - 1, 0)));
      const std::size_t band = std::size_t(b0) * std::size_t(nx);
      solveRowBandStaged(rhs_.row(b0), work_.row(b0), bandC_.data() + band, bandP_.data() + band,
                         stage, std::size_t(nx), nx, bandRows);
    }
  }
}

// Right side of the delta form (q = (dt / 2)^2, c_f = q g D_f / dx^2 the couplings):
//   r_C = dt hdot^n_C - (dt / dx) sum_faces(+-) D_f (dt / 2) a_f + 2 sum_faces c_f (h_N - h_C)
// with hdot^n the state's rate (eq. 38) and a_f the wind's acceleration on the face (the
// trapezoidal rule on a force constant over the step: eq. 35 differentiated in time). Each
// face term is one expression from both sides and
// sum(hdot) = 0, so sum(r) = 0: the step neither adds nor removes water.
// Row j, fused into the first row sweep like the residual.
void SweAdi::assembleRhs(int j, double dt, const float* southDepth) {
  const int nx = h_.nx(), ny = h_.ny();
  const RhsInputs in{h_.data(),
                     faceDepthX_.data(),
                     faceDepthY_.data(),
                     couple_,
                     force_ ? force_->ax.data() : nullptr,
                     force_ ? force_->ay.data() : nullptr,
                     walls_.wetWeights(),
                     rateMean_,
                     float(dt),
                     float(domain_->grid().dx)};
  rhsRow(in, southDepth, rate_.data(), rhs_.data(), h_.index(0, j), std::size_t(nx), j > 0,
         j + 1 < ny);
}

// Row j of the defect of the last iterate: res = r - (1 - q L) delta, in work_, the right
// side of the next iteration's correction.
void SweAdi::residual(int j) {
  const int nx = h_.nx(), ny = h_.ny();
  residualRow(rhs_.data(), delta_.data(), faceDepthX_.data(), faceDepthY_.data(), couple_,
              work_.data(), h_.index(0, j), std::size_t(nx), j > 0, j + 1 < ny);
}

// Eq. 40's sweep: (1 - q L_x) w = res along every row (Thomas), in place in work_ (the first
// row sweep solves the right side rhs_ into it); bands of kRowBand rows staged through a
// contiguous buffer, SIMD lanes across the rows. prepareRow(j) first writes row j of work_,
// band by band: fused into the sweep it needs no barrier of its own and its rows are still in
// cache when staged. Solving in place keeps one field fewer in cache.
template <class PrepareRow>
void SweAdi::sweepRows(PrepareRow prepareRow) {
  const int nx = h_.nx(), ny = h_.ny();
  float* stage = stages_[std::size_t(omp_get_thread_num())].data();
#pragma omp for schedule(static)
  for (int band = 0; band < rowBands(ny); ++band) {
    const int j0 = band * kRowBand, rows = std::min(kRowBand, ny - j0);
    for (int j = j0; j < j0 + rows; ++j)
      prepareRow(j);
    const std::size_t at = std::size_t(band) * std::size_t(nx) * kRowBand;
    solveRowBandStaged(work_.row(j0), work_.row(j0), bandC_.data() + at, bandP_.data() + at, stage,
                       std::size_t(nx), nx, rows);
  }
}

// Eq. 41's sweep: (1 - q L_y) c = w along every column (Thomas, SIMD lanes across columns).
// It reads w from work_. The first iteration factors the columns and solves straight into
// delta; the next ones solve in place in work_ (which keeps the last c for the discharges)
// and add c to delta, the last of several also measuring max |c| / max |delta| (how far the
// iterations were from converged).
void SweAdi::sweepColumns(ColumnSweep sweep) {
  const int nx = h_.nx(), ny = h_.ny();
  const bool first = sweep == ColumnSweep::kFirst, measure = sweep == ColumnSweep::kLast;
  const bool accumulate = sweep == ColumnSweep::kNext || measure;
  Field2D& out = first ? delta_ : work_;
#pragma omp for schedule(static)
  for (int band = 0; band < columnBands(nx); ++band) {
    const auto [i0, i1] = columnBand(band, nx);
    const ColumnResult r = solveColumns(work_.data(), out.data(), faceDepthY_.data(), couple_,
                                        pivotY_.data(), accumulate ? delta_.data() : nullptr,
                                        std::size_t(nx), ny, i0, i1, first, measure);
    bandCorrection_[band] = r.maxCorrection;
    bandDelta_[band] = r.maxDelta;
  }
  if (!measure) return;
    // lastCorrection_ is read after the parallel region: no barrier.
#pragma omp single nowait
  {
    float correction = 0.0f, size = 0.0f;
    for (int band = 0; band < columnBands(nx); ++band) {
      correction = std::max(correction, bandCorrection_[band]);
      size = std::max(size, bandDelta_[band]);
    }
    lastCorrection_ = size > 0.0f ? correction / size : 0.0;
  }
}

// The energy of the step. With u = dt hdot / 2 and K = -L (symmetric, non-negative) the
// trapezoidal rule keeps E = |u|^2 + q h^T K h = q (|hdot|^2 + h^T K h) when it is solved
// exactly; with any approximate delta (residual res = r - (1 - q L) delta) the step changes it
// by exactly
//   E^{n+1} - E^n = -delta^T res.
// k ADI iterations leave res = q^2 L_x L_y c (c the last correction). Where L_x and L_y
// commute (a rectangle over a flat bed), delta^T res >= 0 for every state: the iterations only
// take energy out. Where they do not (solid cells in the water, land, bathymetry),
// delta^T res = (q L_x delta)^T (q L_y c) has no sign, and the step map grows modes: |lambda|^2
// = 1.08 per step at 20x the explicit limit on a 24 x 24 pool with a 6 x 6 island, 1.94 at
// 100x (docs/swe-adi.md, "Stability"). More iterations shrink res but do not give it a sign.
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
// takes nothing out, and the unconverged steps then move the energy between modes (the Π
// pool's potential energy at 20x rose to 2.3 of its start, 0.30 with the check).
void SweAdi::projectStep() {
  const int nx = h_.nx(), ny = h_.ny();
  float* correction = iterations_ == 1 ? delta_.data() : work_.data();
  // First only delta^T res (one sum), then, in the few steps that would add energy, the
  // projection's inner products.
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j)
    energyLoss_[std::size_t(j)] =
        energyLossRow(rhs_.data(), delta_.data(), faceDepthX_.data(), faceDepthY_.data(), couple_,
                      h_.index(0, j), std::size_t(nx), j > 0, j + 1 < ny);
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
    gram_[std::size_t(j)] =
        gramRow(delta_.data(), correction, rhs_.data(), faceDepthX_.data(), faceDepthY_.data(),
                couple_, h_.index(0, j), std::size_t(nx), j + 1 < ny);
  Gram s;
  for (const Gram& g : gram_) {
    s.dd += g.dd;
    s.dc += g.dc;
    s.cc += g.cc;
    s.dr += g.dr;
    s.cr += g.cr;
  }
  double a = 1.0, b = 0.0;
  const double det = s.dd * s.cc - s.dc * s.dc;
  if (iterations_ > 1 && det > 1e-12 * s.dd * s.cc) {
    a = (s.dr * s.cc - s.cr * s.dc) / det;
    b = (s.dd * s.cr - s.dc * s.dr) / det;
  } else if (s.dd > 0.0) {
    a = s.dr / s.dd;  // c parallel to delta (or one iteration): along delta alone
  }
#pragma omp single nowait
  {
    weightDelta_ = a;
    weightCorrection_ = b;
  }
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j)
    combineRow(delta_.data(), correction, a, b, h_.index(0, j), std::size_t(nx));
}

bool SweAdi::operatorsCommute(const Domain& domain) {
  if (domain.wetCount() != domain.nx() * domain.ny() || domain.hasLandAboveRest()) return false;
  const Field2D& depth = domain.restDepth();
  return std::all_of(depth.data(), depth.data() + depth.size(),
                     [&](float d) { return d == depth.data()[0]; });
}

// The face discharges q = D u, integrated as h_t = -div(q), q_t = -g D grad(h) with the
// trapezoidal rule say (eqs. 33-35), each face direction with its own mid-step surface:
//   q^{n+1} = (1 - tau) (q^n + D_f dt a_f - D_f (g dt / dx) (m_N - m_C)),
//   m = h^n + delta / 2 - q L_y c / 4 on east faces, h^n + delta / 2 - q L_x c / 4 on north ones
// on faces that pass water (D_f > 0), 0 on the others; tau is Kass & Miller's damping, c the
// last iteration's correction (delta itself with one iteration). Why: the last iteration
// solves (1 - q L_x) y = res, then (1 - q L_y) c = y, so c = res + q L_x y + q L_y c, and over
// the iterations
//   delta = r + q L delta - q^2 L_x L_y c,   r = dt hdot^n + 2 q L h^n,
// the factored operator's splitting error in the last term. Where L_x and L_y commute (their
// couplings constant along the other direction: a flat bed in a rectangle) it is half
//   -q L_x (q L_y c / 2) and half -q L_y (q L_x c / 2), so delta = -dt div((q^n + q^{n+1}) / 2)
// and -div(q^{n+1}) = 2 delta / dt - hdot^n, the rate hdot^{n+1} of updateSurface, to
// round-off however far the iterations are from converged: the discharges agree with the
// surface by construction, and nothing has to be corrected. Elsewhere they differ by the
// commutator (q^2 / 2) (L_y L_x - L_x L_y) c (diagnostic discharge_mismatch). The halves
// matter: the whole term on the east faces alone (exact with any bed) gives the discharges a
// curl that grows with q |L| (the kinetic energy of a drop at 20x the explicit limit rose to
// 2.0 of the initial energy, docs/swe-adi.md); half and half, its curl is zero on the axes
// and the diagonals of the modes, but not in general. So this is the path of the rectangle
// over a flat bed up to kSplitSurfaceLimit times the explicit limit only. Where L_x and L_y do
// not commute (the domains projectStep checks, and the rectangle beyond that dt, where the depth
// follows the surface) the commutator grows with (q |L|)^2, and so does the curl of the split
// mid surfaces, which no
// gradient correction takes out (the island at 100x the explicit limit: kinetic energy 4e3
// m^4/s^2 that stayed, 3e7 times the drop's). There every face takes the one mid surface
// h~ = h^n + delta / 2 (the couplings of the mid surfaces set to 0), so the face velocities change
// by -g dt grad(h~), a gradient: the linear equations' vorticity stays at its start (0) but for
// wind, the open edges and bodies. The whole splitting error (and projectStep's change) then
// lands in M = -div(q) - hdot, which syncDischarges takes out.
void SweAdi::updateDischarges(double dt) {
  const int nx = h_.nx(), ny = h_.ny();
  const FluxInputs in{h_.data(),
                      delta_.data(),
                      iterations_ == 1 ? delta_.data() : work_.data(),
                      faceDepthX_.data(),
                      faceDepthY_.data(),
                      force_ ? force_->ax.data() : nullptr,
                      force_ ? force_->ay.data() : nullptr,
                      float(dt),
                      float(domain_->g() * dt / domain_->grid().dx),
                      dischargesSynced_ ? 0.0f : couple_,
                      1.0f - damping_};
  float* mids = stages_[std::size_t(omp_get_thread_num())].data();
  int last = -2;  // the row this thread did last: its north-face mid surface is in mids
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j) {
    fluxRow(in, fluxX_.data(), fluxY_.data(), mids, h_.index(0, j), std::size_t(nx), j > 0,
            j + 1 < ny, last == j - 1);
    last = j;
  }
}

// h^{n+1} = h^n + delta and the trapezoidal rate (the consistent form of eq. 39)
//   hdot^{n+1} = (1 - tau) (2 delta / dt - hdot^n),
// so that delta = dt (hdot^n + hdot^{n+1}) / 2; tau is Kass & Miller's damping. Counts per
// row the cells left below their ground (for the drying correction) and the dry cells. On
// syncDischarges' path also, per row, max |M|, M = -div(q^{n+1}) - hdot^{n+1}, and max |hdot|,
// on the rows just updated (in cache: no pass of its own).
void SweAdi::updateSurface(double dt) {
  const int nx = h_.nx(), ny = h_.ny();
  const SurfaceInputs in{delta_.data(), ground_.data(),  walls_.wetWeights(),
                         dryThreshold_, float(2.0 / dt), 1.0f - damping_};
  const float invDx = float(1.0 / domain_->grid().dx);
  const bool measure = measuresMismatch();
#pragma omp for schedule(static)
  for (int j = 0; j < ny; j += kSurfaceRows) {
    const int rows = std::min(kSurfaceRows, ny - j);
    surfaceRows(in, h_.data(), rate_.data(), h_.index(0, j), std::size_t(nx), rows,
                rowCounts_.data() + j);
    if (!measure) continue;
    for (int r = j; r < j + rows; ++r)
      mismatch_[std::size_t(r)] = mismatchRow(fluxX_.data(), fluxY_.data(), rate_.data(), nullptr,
                                              0.0f, invDx, h_.index(0, r), std::size_t(nx), r > 0);
  }
}

// The discharges' disagreement with the rate, M = -div(q) - hdot, taken out. With the one mid
// surface h~ (updateDischarges), each step adds to M the whole splitting error q^2 L_x L_y c,
// and in a step that projectStep replaced by a delta + b c, the difference between that and the
// iterate; both grow with q |L| and M adds up step after step (with the split mid surfaces, at
// 20x the explicit limit on the island, the discharges' kinetic energy reached 127 times the
// drop's energy, 3e8 at 100x; docs/swe-adi.md).
// When max |M| exceeds kDischargeTolerance of max |hdot|, the discharges are corrected by the
// gradient that takes M out: q -= D_f (psi_N - psi_C) / dx with
//   sum_faces D_f (psi_C - psi_N) = dx^2 M   (K psi = M, K = -L / g, Neumann on closed faces),
// so that -div(q) changes by -K psi = -M. The face velocities u = q / D change by -grad(psi) /
// dx only, so their curl stays 0 (that of the rest state): with M = 0 the discharges are the
// gradient flow whose divergence is the rate, and their kinetic energy is hdot^T K^-1 hdot / 2,
// bounded by the surface's energy. The solve is core/solvers/multigrid.hpp's V-cycles (face
// weights D_f, zero mean, a shift 1e-9 d_max that only keeps cells closed on all four sides
// regular) to kDischargeSolveTolerance. The old correction of the same form with psi
// approximated by the step's factored operator, g q P^-1 M, takes out only q |L| / (1 + q |L|)
// of an axis mode and about 2 / (q |L|) of a diagonal one at large dt, and where L_x and L_y do
// not commute it left the island's kinetic energy at 289 of the drop's at 20x, 7.7e10 at 100x.
// The surface does not read q, so it is the same with or without the correction.
//
// M changes little from step to step where the step is close to the unsplit one (at the default
// dt on the island, max |M| stayed below 1.3e-3 of the largest rate over 2000 steps without any
// correction), so it is measured less often while it is far below the tolerance: after a
// measurement below 1/8 of it, not in the next 3 steps (M would have to grow by 7/32 of the
// tolerance per step to pass it unseen), below 1/4 not in the next step; after a correction and
// after a step that projectStep changed, in the next step.
// The correction's multigrid levels (they allocate): at reset and after a mask change, where the
// discharges may need them (syncDischarges' path at the dt set), not inside a step; lazily, only
// where they may not (a rectangle over a flat bed at most kSplitSurfaceLimit times the explicit
// limit), and then in the first step that needs them (a larger dt given to step).
void SweAdi::preparePoisson(bool lazily) {
  poisson_ = Multigrid();
  if (lazily && commuting_ && dryCells_ == 0 && dt_ <= kSplitSurfaceLimit * explicitLimit()) return;
  const int nx = h_.nx(), ny = h_.ny();
  poisson_.setup(FivePointSystem::fromMask(nx, ny, domain_->wetMask(), 0.0f));
  poissonShift_ = Field2D(nx, ny);
  poissonShift_.fill(float(1e-9 * maxRestDepth_));
}

bool SweAdi::measuresMismatch() const {
  return dischargesSynced_ && (measureIn_ <= 0 || weightDelta_ != 1.0 || weightCorrection_ != 0.0);
}

void SweAdi::syncDischarges() {
  synced_ = false;
  if (!measuresMismatch()) {
    --measureIn_;
    return;
  }
  Mismatch worst;
  for (const Mismatch& row : mismatch_) {
    worst.mismatch = std::max(worst.mismatch, row.mismatch);
    worst.rate = std::max(worst.rate, row.rate);
  }
  const float bound = kDischargeTolerance * worst.rate;
  measureIn_ = worst.mismatch < bound / 8 ? 3 : worst.mismatch < bound / 4 ? 1 : 0;
  if (!(worst.mismatch > bound)) return;
  synced_ = true;
  measureIn_ = 0;
  const int nx = h_.nx(), ny = h_.ny();
  const double dx = domain_->grid().dx;
  if (!poisson_.ready()) preparePoisson(false);  // a dt beyond kSplitSurfaceLimit given to step
  poisson_.updateCoefficients(poissonShift_, faceDepthX_, faceDepthY_);
  for (int j = 0; j < ny; ++j)
    mismatchRow(fluxX_.data(), fluxY_.data(), rate_.data(), work_.data(), float(dx * dx),
                float(1.0 / dx), h_.index(0, j), std::size_t(nx), j > 0);
  std::fill(delta_.data(), delta_.data() + delta_.size(), 0.0f);
  MultigridSolveOptions options;
  options.removeMean = true;
  syncSolve_ =
      poisson_.solve(work_, delta_, kDischargeSolveTolerance, kDischargeSolveCycles, options);
  for (int j = 0; j < ny; ++j)
    dischargeCorrectionRow(delta_.data(), faceDepthX_.data(), faceDepthY_.data(), fluxX_.data(),
                           fluxY_.data(), float(1.0 / dx), h_.index(0, j), std::size_t(nx),
                           j + 1 < ny);
}

// A cell the step left below its ground (the frozen-depth step drew more than it held) is
// lifted to its ground and the deficit taken back from the wet cells joined to it, nearest
// first, in proportion to their depth: a correction of the step's face fluxes that moves
// water but does not create any. positivity_volume is what it moved.
void SweAdi::keepDepthNonNegative(double dt) {
  dryCells_ = 0;
  positivityVolume_ = 0.0;
  double rateSum = 0.0;
  for (int j = 0; j < h_.ny(); ++j) {
    dryCells_ += rowCounts_[j].dry;
    rateSum += rowCounts_[j].rateSum;
    if (rowCounts_[j].drained == 0) continue;
    for (int i = 0; i < h_.nx(); ++i) {
      const std::size_t k = h_.index(i, j);
      if (walls_.wetWeights()[k] != 0.0f && h_.data()[k] < ground_.data()[k])
        positivityVolume_ += refill(k, dt);
    }
  }
  positivityVolume_ *= domain_->grid().cellArea();
  if (positivityVolume_ > 0.0) measureIn_ = 0;  // the rates moved, not the discharges
  // sum(rate) is 0 in exact arithmetic; the float round-off of 2 delta / dt - rate would
  // otherwise add up step after step into volume drift. The next step takes it out.
  rateMean_ = float(rateSum / wetCells_);
}

// Lifts cell k to its ground, taking the water from the joined wet cells breadth first until
// they hold enough; returns the deficit (m). The rates follow the corrected surfaces: each
// donor's by -2 take / dt (the trapezoidal rate of its smaller change); the drained cell is
// left at rest on its ground and its rate handed to the donors in proportion to what they
// gave, so that sum(rate) stays 0 and no water appears later.
double SweAdi::refill(std::size_t k, double dt) {
  float* h = h_.data();
  float* rate = rate_.data();
  const float* b = ground_.data();
  const double deficit = double(b[k]) - h[k];
  h[k] = b[k];
  if (++visitStamp_ == 0) std::fill(visited_.begin(), visited_.end(), visitStamp_ = 1);
  reached_.clear();
  reached_.push_back(k);
  visited_[k] = visitStamp_;
  double available = 0.0;
  const std::size_t nx = std::size_t(h_.nx());
  for (std::size_t next = 0; next < reached_.size() && available < deficit; ++next) {
    const std::size_t c = reached_[next];
    const std::size_t neighbours[4] = {c + 1, c - 1, c + nx, c - nx};
    const bool open[4] = {walls_.openEast()[c] != 0.0f, c > 0 && walls_.openEast()[c - 1] != 0.0f,
                          walls_.openNorth()[c] != 0.0f,
                          c >= nx && walls_.openNorth()[c - nx] != 0.0f};
    for (int f = 0; f < 4; ++f) {
      const std::size_t n = neighbours[f];
      if (!open[f] || visited_[n] == visitStamp_) continue;
      visited_[n] = visitStamp_;
      reached_.push_back(n);
      available += std::max(double(h[n]) - b[n], 0.0);
    }
  }
  // Each reached cell gives deficit * its depth / available (all of it when short).
  const double share = available > 0.0 ? std::min(deficit / available, 1.0) : 0.0;
  const double given = share * available;
  const double rateOfCell = double(rate[k]) + 2.0 * deficit / dt;
  for (std::size_t r = 1; r < reached_.size(); ++r) {
    const std::size_t n = reached_[r];
    const double take = share * std::max(double(h[n]) - b[n], 0.0);
    h[n] = float(double(h[n]) - take);
    const double handed = given > 0.0 ? rateOfCell * take / given : 0.0;
    rate[n] = float(double(rate[n]) - 2.0 * take / dt + handed);
  }
  rate[k] = 0.0f;
  return deficit;
}

// The open edges' layer, an operator split after the step: the linearised equations with
// matched damping sigma = sigma_x + sigma_y on the surface and the discharges,
//   h_t = -div(q) - sigma h,  q_t = -g D grad(h) - sigma q,
// relaxed implicitly, x <- x / (1 + sigma dt), on h, the discharges and their velocities.
// The rate hdot = -div(q) follows the discharges' change, hdot -= div(q_new - q_old): the
// gradient of sigma enters through it, which relaxing hdot itself (the scalar equation's
// "distortionless" damping) would miss, reflecting long waves (docs/open-edges.md). A
// divergence sums to 0, so the only water that leaves is the relaxation of h: the sink.
void SweAdi::absorbAtOpenEdges(double dt) {
  if (layer_.empty()) return;
  // The face velocities are relaxed with their discharges, and the cell velocities as they
  // were before: both computed first.
  cellVelocities(cellU_);
  volumeSink_ += layer_.relax(h_.data(), dt) * domain_->grid().cellArea();
  const double invDx = 1.0 / domain_->grid().dx;
  const std::size_t nx = std::size_t(h_.nx());
  float* rate = rate_.data();
  float *qx = fluxX_.data(), *qy = fluxY_.data(), *u = u_.data(), *v = v_.data();
  for (const AbsorbingLayer::Cell& cell : layer_.cells()) {
    const std::size_t k = cell.index;
    // Each discharge at its own face's rate (Kass & Miller's staggered grid).
    const double keepX = 1.0 / (1.0 + double(cell.sigmaXEast + cell.sigmaY) * dt);
    const double keepY = 1.0 / (1.0 + double(cell.sigmaX + cell.sigmaYNorth) * dt);
    const double dqx = (keepX - 1.0) * qx[k], dqy = (keepY - 1.0) * qy[k];
    qx[k] = float(keepX * qx[k]);
    qy[k] = float(keepY * qy[k]);
    u[k] = float(keepX * u[k]);
    v[k] = float(keepY * v[k]);
    // The east face leaves cell k and enters k + 1, the north face k + nx. Closed faces carry
    // no discharge, so their change is 0.
    rate[k] = float(rate[k] - (dqx + dqy) * invDx);
    if (dqx != 0.0) rate[k + 1] = float(rate[k + 1] + dqx * invDx);
    if (dqy != 0.0) rate[k + nx] = float(rate[k + nx] + dqy * invDx);
  }
  layer_.relax(cellU_.data(), dt);
  layer_.relax(cellV_.data(), dt);
  faceVelocitiesStale_ = cellVelocitiesStale_ = false;
}

double SweAdi::addEta(const Field2D& delta) {
  double added = 0.0;
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (walls_.wetWeights()[k] == 0.0f || delta.data()[k] == 0.0f) continue;
    const float before = h_.data()[k];
    h_.data()[k] = std::max(before + delta.data()[k], ground_.data()[k]);
    added += double(h_.data()[k]) - before;
  }
  return added * domain_->grid().cellArea();
}

// A changed cell starts at rest (h at the rest level, or on ground above it; hdot = 0) and the
// discharges of its four faces stop, the rate of the cell across each moved with them as
// dampUnderBodies does, so the volume that the next step moves stays the change's own. The
// walls and the layer follow the new mask.
double SweAdi::changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) {
  domain_ = &domain;
  const double invDx = 1.0 / domain.grid().dx;
  const std::size_t nx = std::size_t(h_.nx()), n = h_.size();
  float* hdot = rate_.data();
  // The discharge q of the face from cell `from` to `to` stops (a face of the grid's edge has
  // none).
  const auto stop = [&](float* q, std::size_t face, std::size_t from, std::size_t to) {
    hdot[from] = float(hdot[from] + q[face] * invDx);
    hdot[to] = float(hdot[to] - q[face] * invDx);
    q[face] = 0.0f;
  };
  double added = 0.0;
  for (const std::uint32_t k : cells) {
    const std::size_t i = k % nx;
    if (i + 1 < nx) stop(fluxX_.data(), k, k, k + 1);
    if (i > 0) stop(fluxX_.data(), k - 1, k - 1, k);
    if (k + nx < n) stop(fluxY_.data(), k, k, k + nx);
    if (k >= nx) stop(fluxY_.data(), k - nx, k - nx, k);
  }
  for (const std::uint32_t k : cells) {
    added += refillChangedCell(domain, k, h_, ground_);
    hdot[k] = 0.0f;
  }
  walls_ = SweWalls(domain);
  layer_ = AbsorbingLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  commuting_ = operatorsCommute(domain);
  wetCells_ = std::max(domain.wetCount(), 1);
  preparePoisson(true);  // the new mask
  measureIn_ = 0;
  faceVelocitiesStale_ = cellVelocitiesStale_ = true;
  return added * domain.grid().cellArea();
}

// The surface, the face discharges and the surface rate move with the window (cells entering
// at rest: level 0, no discharge); the rest is rebuilt from them by the next step. The faces
// the move cuts (now the grid's edge) stop, their share of hdot = -div(q) taken from the cell
// that stays, as changeMask stops a face, so the rate stays that of the discharges.
void SweAdi::shiftWindow(int di, int dj) {
  const int nx = h_.nx(), ny = h_.ny();
  const float invDx = float(1.0 / domain_->grid().dx);
  // The face from cell (i, j) to the next, the kept cell on the side `kept` (+1: the next).
  const auto cut = [&](Field2D& q, int i, int j, int di1, int dj1, int kept) {
    if (i < 0 || j < 0 || i + di1 >= nx || j + dj1 >= ny) return;
    const int ki = kept > 0 ? i + di1 : i, kj = kept > 0 ? j + dj1 : j;
    rate_(ki, kj) += float(-kept) * q(i, j) * invDx;
  };
  for (int j = 0; j < ny; ++j) {
    if (di > 0) cut(fluxX_, di - 1, j, 1, 0, +1);
    if (di < 0) cut(fluxX_, nx - 1 + di, j, 1, 0, -1);
  }
  for (int i = 0; i < nx; ++i) {
    if (dj > 0) cut(fluxY_, i, dj - 1, 0, 1, +1);
    if (dj < 0) cut(fluxY_, i, ny - 1 + dj, 0, 1, -1);
  }
  for (Field2D* f : {&h_, &fluxX_, &fluxY_, &rate_})
    f->shift(di, dj, 0.0f);
  for (int j = 0; j < ny; ++j)  // the grid's edge faces carry nothing
    fluxX_(nx - 1, j) = 0.0f;
  for (int i = 0; i < nx; ++i)
    fluxY_(i, ny - 1) = 0.0f;
  const float restDepth = domain_->restDepth().data()[0];  // one depth: the window's rule
  faceDepthX_.shift(di, dj, restDepth);
  faceDepthY_.shift(di, dj, restDepth);
  measureIn_ = 0;
  synced_ = false;
  faceVelocitiesStale_ = cellVelocitiesStale_ = true;
}

// The shadow on the face discharges, each face at the larger rate of its two cells, with the
// rate hdot = -div(q) moved with them as absorbAtOpenEdges does, so volume is kept.
void SweAdi::dampUnderBodies(const Field2D& rate, double dt) {
  const double invDx = 1.0 / domain_->grid().dx;
  const int nx = h_.nx(), ny = h_.ny();
  float* hdot = rate_.data();
  faceVelocities(u_);  // slowed with their discharges
  const auto damp = [&](std::size_t k, std::size_t across, float* q, float* velocity) {
    const double c = std::max(rate.data()[k], rate.data()[across]);
    if (c <= 0.0 || q[k] == 0.0f) return;
    const double keep = 1.0 / (1.0 + c * dt), change = (keep - 1.0) * q[k];
    q[k] = float(keep * q[k]);
    velocity[k] = float(keep * velocity[k]);
    hdot[k] = float(hdot[k] - change * invDx);
    hdot[across] = float(hdot[across] + change * invDx);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = h_.index(i, j);
      if (i + 1 < nx) damp(k, k + 1, fluxX_.data(), u_.data());
      if (j + 1 < ny) damp(k, k + std::size_t(nx), fluxY_.data(), v_.data());
    }
  cellVelocitiesStale_ = true;
}

double SweAdi::kineticEnergy() const {
  faceVelocities(u_);
  double total = 0.0;
  for (std::size_t k = 0; k < u_.size(); ++k) {
    const double u = u_.data()[k], v = v_.data()[k];
    total += faceDepthX_.data()[k] * u * u + faceDepthY_.data()[k] * v * v;
  }
  return 0.5 * total * domain_->grid().cellArea();
}

double SweAdi::waveEnergy() const {
  const int nx = h_.nx(), ny = h_.ny();
  const double g = domain_->g(), invDx2 = 1.0 / (domain_->grid().dx * domain_->grid().dx);
  double total = 0.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = h_.index(i, j);
      const double rate = rate_.data()[k];
      total += rate * rate;
      if (i + 1 < nx)
        total += g * faceDepthX_.data()[k] * std::pow(double(h_.data()[k + 1]) - h_.data()[k], 2) *
                 invDx2;
      if (j + 1 < ny)
        total += g * faceDepthY_.data()[k] *
                 std::pow(double(h_.data()[k + std::size_t(nx)]) - h_.data()[k], 2) * invDx2;
    }
  return 0.5 * total * domain_->grid().cellArea();
}

// max |-div(q) - hdot| (m/s) over wet cells: how far the discharges are from the rate (see
// updateDischarges).
double SweAdi::dischargeMismatch() const {
  const int nx = h_.nx(), ny = h_.ny();
  const double invDx = 1.0 / domain_->grid().dx;
  double mismatch = 0.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = h_.index(i, j);
      if (walls_.wetWeights()[k] == 0.0f) continue;
      const double west = i > 0 ? fluxX_.data()[k - 1] : 0.0;
      const double south = j > 0 ? fluxY_.data()[k - std::size_t(nx)] : 0.0;
      const double div = (fluxX_.data()[k] - west + fluxY_.data()[k] - south) * invDx;
      mismatch = std::max(mismatch, std::fabs(-div - rate_.data()[k]));
    }
  return mismatch;
}

std::map<std::string, double> SweAdi::diagnostics() const {
  return {{"solver_iterations", iterations_},
          {"adi_correction", lastCorrection_},
          {"dry_cells", dryCells_},
          {"positivity_volume", positivityVolume_},
          {"discharge_mismatch", dischargeMismatch()},
          {"adi_energy_check", energyChecked_ ? 1.0 : 0.0},
          {"adi_weight_delta", weightDelta_},
          {"adi_weight_correction", weightCorrection_},
          {"discharge_sync", synced_ ? 1.0 : 0.0}};
}

}  // namespace wb
