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
  layer_ = OpenEdgeLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  incoming_ = IncomingWaves(domain, 0.0);  // at sqrt(g d0) per cell
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
  blockEnd_.assign(std::size_t(ny), nullptr);
  bandCorrection_.assign(std::size_t(columnBands(nx)), 0.0f);
  bandDelta_.assign(std::size_t(columnBands(nx)), 0.0f);
  positivity_.reset(h_.size());
  sync_.reset(ny);
  iterations_ = params().getInt("iterations");
  damping_ = float(params().get("damping"));
  theta_ = params().get("theta");
  dryThreshold_ = float(params().get("dry_threshold"));
  const auto userDt = params().getOptional("dt");
  dt_ = userDt ? *userDt : explicitLimit();
  dryCells_ = 0;
  for (std::size_t k = 0; k < h_.size(); ++k)
    dryCells_ += int(domain.wetMask()[k] != 0 && h_.data()[k] - ground_.data()[k] <= dryThreshold_);
  projection_.reset(domain);
  positivityVolume_ = lastCorrection_ = 0.0;
  rateMean_ = 0.0f;
  friction_ = ManningFriction(domain.g(), domain.manning(), dryThreshold_);
  frictionEnergy_ = 0.0;
  wetCells_ = std::max(domain.wetCount(), 1);
  prepareDischargeSync();
}

// One step: the operators in order, inside one parallel region (each a work-shared loop ending
// in a barrier), then serially the corrections that touch the discharges or a few cells. Which
// of the energy projection and the discharge correction run is decided before the region: the
// operators commute or not (at reset), dry cells and dt (per step).
void SweAdi::step(double dt) {
  // The row sweep's staging buffers are per thread, sized at reset.
  const int threads = std::min(omp_get_max_threads(), int(stages_.size()));
  const double dx = domain_->grid().dx;
  couple_ = float(domain_->g() * (theta_ * theta_) * dt * dt / (dx * dx));  // q g / dx^2
  projection_.begin(dryCells_);
  sync_.begin(dt, projection_.active() || dt > DischargeSync::kSplitSurfaceLimit * explicitLimit());
#pragma omp parallel num_threads(threads) if (worthThreads(h_.size()))
  {
    iterate(dt);                              // (1 - q L) delta = r by ADI, eqs. 40-41
    projection_.project(projectionInputs());  // keeps E where L_x L_y != L_y L_x
    updateDischarges(dt);                     // q^{n+1}, eqs. 33-35
    updateSurface(dt);                        // h^{n+1}, hdot^{n+1}, eq. 39 (trapezoidal)
  }
  cellVelocitiesStale_ = true;  // the discharges computed their face velocities
  sync_.correct(dischargeFields(), dx, projection_.changedStep());  // -div(q) = hdot^{n+1}
  faceVelocitiesStale_ = sync_.corrected();
  applyFriction(dt);         // Manning: q, hdot
  keepDepthNonNegative(dt);  // d = h - b >= 0
  absorbAtOpenEdges(dt);     // docs/open-edges.md
  incoming_.advance(dt);
}

// The ADI iterations: the first assembles the right side and solves the rows and columns, each
// next one solves its residual and adds the correction to delta.
void SweAdi::iterate(double dt) {
  for (int k = 0; k < iterations_; ++k) {
    if (k == 0)
      firstRowSweep(dt);
    else
      sweepRows([&](int j) { residual(j); });
    sweepColumns(k == 0                 ? ColumnSweep::kFirst
                 : k + 1 == iterations_ ? ColumnSweep::kLast
                                        : ColumnSweep::kNext);
  }
}

EnergyProjection::Step SweAdi::projectionInputs() {
  return {rhs_.data(),
          delta_.data(),
          iterations_ == 1 ? delta_.data() : work_.data(),
          faceDepthX_.data(),
          faceDepthY_.data(),
          couple_,
          h_.nx(),
          h_.ny(),
          iterations_};
}

DischargeSync::Fields SweAdi::dischargeFields() {
  return {fluxX_, fluxY_, rate_, faceDepthX_, faceDepthY_, work_, delta_};
}

const Field2D& SweAdi::faceVelocities(const Field2D& which) const {
  if (faceVelocitiesStale_) {
    const int nx = h_.nx(), ny = h_.ny();
#pragma omp parallel for schedule(static) if (worthThreads(h_.size()))
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
#pragma omp parallel for schedule(static) if (worthThreads(h_.size()))
    for (int j = 0; j < ny; ++j)
      cellVelocityRow(u_.data(), v_.data(), cellU_.data(), cellV_.data(), h_.index(0, j),
                      std::size_t(nx), j > 0);
    cellVelocitiesStale_ = false;
  }
  return which;
}

// The cell velocity is the mean of its two faces' along each axis (cellVelocityRow's
// arithmetic), each face's q / D_f (faceVelocity, as faceVelocityRow; 0 on the grid's edge,
// where q and D_f are 0), so the sample is the fields' bit for bit.
std::optional<std::array<float, 2>> SweAdi::velocityAt(const BilinearCell& cell) const {
  if (!cellVelocitiesStale_) return Model::velocityAt(cell);
  const bool fresh = !faceVelocitiesStale_;
  const auto faceU = [&](int i, int j) {
    return fresh ? u_(i, j) : faceVelocity(fluxX_(i, j), faceDepthX_(i, j));
  };
  const auto faceV = [&](int i, int j) {
    return fresh ? v_(i, j) : faceVelocity(fluxY_(i, j), faceDepthY_(i, j));
  };
  return std::array<float, 2>{
      sampleBilinear(cell,
                     [&](int i, int j) {
                       return 0.5f * (i > 0 ? faceU(i - 1, j) + faceU(i, j) : faceU(i, j));
                     }),
      sampleBilinear(cell, [&](int i, int j) {
        return 0.5f * (j > 0 ? faceV(i, j - 1) + faceV(i, j) : faceV(i, j));
      })};
}

// Eq. 36's face depth D_f = (d_C + d_N) / 2, d = h - b at the start of the step (the
// linearisation: constant over the step), with Kass & Miller's flooding rule: a face whose
// higher side is dry (d <= dry_threshold) passes no water, so a drained cell stops feeding
// its lower neighbours, while a dry cell below its neighbour's surface fills. Closed faces
// (walls, solid cells, the grid's edge) get 0. With them the coupling q g D_f / dx^2,
// q = (theta dt)^2, of the tridiagonal systems (eqs. 40-41), formed where needed as couple_ D_f
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

// Right side of the delta form (q = (theta dt)^2, c_f = q g D_f / dx^2 the couplings):
//   r_C = dt hdot^n_C - (dt / dx) sum_faces(+-) D_f theta dt a_f
//         + (1 / theta) sum_faces c_f (h_N - h_C)
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
                     float(domain_->grid().dx),
                     float(theta_)};
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

// The face discharges q = D u, integrated as h_t = -div(q), q_t = -g D grad(h) with the
// trapezoidal rule say (eqs. 33-35; the theta rule in general), each face direction with its
// own mid-step surface:
//   q^{n+1} = (1 - tau) (q^n + D_f dt a_f - D_f (g dt / dx) (m_N - m_C)),
//   m = h^n + theta (delta - q L_y c / 2) on east faces, h^n + theta (delta - q L_x c / 2) on
//   north ones
// on every face; tau is Kass & Miller's damping, c the last iteration's correction (delta itself
// with one iteration). Why: the last iteration solves (1 - q L_x) y = res, then (1 - q L_y) c = y,
// so c = res + q L_x y + q L_y c, and over the iterations
//   delta = r + q L delta - q^2 L_x L_y c,   r = dt hdot^n + (q / theta) L h^n,
// the factored operator's splitting error in the last term. Where L_x and L_y commute (their
// couplings constant along the other direction: a flat bed in a rectangle) it is half
//   -q L_x (q L_y c / 2) and half -q L_y (q L_x c / 2), so
// -div(q^{n+1}) = (delta / dt - (1 - theta) hdot^n) / theta, the rate hdot^{n+1} of updateSurface,
// to round-off however far the iterations are from converged: the discharges agree with the surface
// by construction, and nothing has to be corrected. Elsewhere they differ by the commutator (q^2 /
// 2) (L_y L_x - L_x L_y) c (diagnostic discharge_mismatch). The halves matter: the whole term on
// the east faces alone (exact with any bed) gives the discharges a curl that grows with q |L|
// (docs/swe-adi.md, "Results"); half and half, its curl is zero on the axes and the diagonals of
// the modes, but not in general. So this is the path of the rectangle over a flat bed up to
// DischargeSync::kSplitSurfaceLimit times the explicit limit only. Where L_x and L_y do not commute
// (the domains the energy projection checks, and the rectangle beyond that dt, where the depth
// follows the surface) the commutator grows with (q |L|)^2, and so does the curl of the split mid
// surfaces, which no gradient correction takes out. There every face takes the one mid surface h~ =
// h^n + theta delta (the couplings of the mid surfaces set to 0), so the face velocities change by
// -g dt grad(h~), a gradient: the linear equations' vorticity stays at its start (0) but for wind,
// the open edges and bodies. The whole splitting error (and the projection's change) then lands in
// M = -div(q) - hdot, which DischargeSync takes out. A face the flooding rule closed (D_f = 0)
// keeps (1 - tau) q^n: the step passes nothing through it, but the rate hdot^n, which carries its
// last discharge, enters the surface's right side whole and the trapezoidal rate update keeps it
// (Kass & Miller's surface is second order in time), so -div(q^{n+1}) = hdot^{n+1} holds there too.
// Zeroing it would open a mismatch of q^n / dx at both of its cells at every closing face of a
// moving coast. Its velocity is 0 (faceVelocity) and Manning friction, where set, stops it with its
// rate.
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
                      sync_.active() ? 0.0f : couple_,
                      1.0f - damping_,
                      float(theta_)};
  float* mids = stages_[std::size_t(omp_get_thread_num())].data();
  int last = -2;  // the row this thread did last: its north-face mid surface is in mids
#pragma omp for schedule(static)
  for (int j = 0; j < ny; ++j) {
    fluxRow(in, fluxX_.data(), fluxY_.data(), u_.data(), v_.data(), mids, h_.index(0, j),
            std::size_t(nx), j > 0, j + 1 < ny, last == j - 1);
    last = j;
  }
}

// h^{n+1} = h^n + delta and the theta rule's rate (the consistent form of eq. 39)
//   hdot^{n+1} = (1 - tau) (delta / (theta dt) - (1 - theta) hdot^n / theta),
// so that delta = dt ((1 - theta) hdot^n + theta hdot^{n+1}) (theta = 1/2: the trapezoidal
// rule, 2 delta / dt - hdot^n); tau is Kass & Miller's damping. Counts per
// row the cells left below their ground (for the drying correction) and the dry cells. On
// the discharge correction's path also, per row, max |M|, M = -div(q^{n+1}) - hdot^{n+1}, and max
// |hdot|, on the rows just updated (in cache: no pass of its own).
void SweAdi::updateSurface(double dt) {
  const int nx = h_.nx(), ny = h_.ny();
  const SurfaceInputs in{delta_.data(),
                         ground_.data(),
                         walls_.wetWeights(),
                         dryThreshold_,
                         float(1.0 / (theta_ * dt)),
                         float((1.0 - theta_) / theta_),
                         1.0f - damping_};
  const float invDx = float(1.0 / domain_->grid().dx);
  const bool measure = sync_.measures(projection_.changedStep());
#pragma omp for schedule(static)
  for (int j = 0; j < ny; j += kSurfaceRows) {
    const int rows = std::min(kSurfaceRows, ny - j);
    surfaceRows(in, h_.data(), rate_.data(), h_.index(0, j), std::size_t(nx), rows,
                rowCounts_.data() + j);
    if (!measure) continue;
    for (int r = j; r < j + rows; ++r)
      sync_.measureRow(fluxX_, fluxY_, rate_, invDx, r);
  }
}

// The discharge correction's multigrid levels allocate: at reset and after a mask change, where
// the discharges may need them (the corrected path at the dt set), not inside a step; lazily,
// only where they may not (a rectangle over a flat bed at most DischargeSync::kSplitSurfaceLimit
// times the explicit limit), and then in the first step that needs them (a larger dt given to
// step).
void SweAdi::prepareDischargeSync() {
  const bool splitPath = projection_.commuting() && dryCells_ == 0 &&
                         dt_ <= DischargeSync::kSplitSurfaceLimit * explicitLimit();
  sync_.prepare(*domain_, maxRestDepth_, !splitPath);
}

// After the step: the rows' dry cells and rate sums, and the drying correction (DepthPositivity),
// positivity_volume what it moved.
void SweAdi::keepDepthNonNegative(double dt) {
  dryCells_ = 0;
  double rateSum = 0.0;
  for (const RowCounts& row : rowCounts_) {
    dryCells_ += row.dry;
    rateSum += row.rateSum;
  }
  const DepthPositivity::Faces faces{
      fluxX_, fluxY_, u_, v_, faceDepthX_, faceDepthY_, domain_->grid().dx};
  positivityVolume_ = positivity_.restore(h_, rate_, faces, ground_, walls_, rowCounts_, dt) *
                      domain_->grid().cellArea();
  // The discharges carried the moved water; only a cell lifted with water of its own changed
  // the rates alone.
  if (positivity_.ranShort()) sync_.measureNextStep();
  cellVelocitiesStale_ = cellVelocitiesStale_ || positivityVolume_ > 0.0;
  // sum(rate) is 0 in exact arithmetic; the float round-off of the rate update would
  // otherwise add up step after step into volume drift. The next step takes it out.
  rateMean_ = float(rateSum / wetCells_);
}

// The open edges' layer, an operator split after the step: the linearised equations with
// matched damping sigma = sigma_x + sigma_y on the surface and the discharges,
//   h_t = -div(q) - sigma h,  q_t = -g D grad(h) - sigma q,
// relaxed implicitly, x <- x / (1 + sigma dt), on h, the discharges and their velocities.
// The rate hdot = -div(q) follows the discharges' change, hdot -= div(q_new - q_old): the
// gradient of sigma enters through it, which relaxing hdot itself (the scalar equation's
// "distortionless" damping) would miss, reflecting long waves (docs/open-edges.md). A
// divergence sums to 0, so the only water that leaves is the relaxation of h: the sink.
// In an incoming edge's layer h and the discharges relax toward the incoming long wave at
// t^{n+1} (core/grid/incoming_wave.hpp: eta_in and q = c eta_in at each face); the water it
// brings in counts in the same sink, positive, and the velocities are computed anew from q.
void SweAdi::absorbAtOpenEdges(double dt) {
  if (layer_.empty()) return;
  const float *eta = nullptr, *goalX = nullptr, *goalY = nullptr;
  if (!incoming_.empty()) {
    incoming_.evaluate(incoming_.time() + dt);
    eta = incoming_.elevation(), goalX = incoming_.dischargeX(), goalY = incoming_.dischargeY();
  }
  // Without an incoming wave the face velocities are relaxed with their discharges, and the
  // cell velocities as they were before: both computed first. With one the layer's face
  // velocities are q / D of the relaxed discharges (where they were up to date) and the cell
  // velocities are computed anew when next read.
  const bool relaxVelocities = incoming_.empty(), facesFresh = !faceVelocitiesStale_;
  if (relaxVelocities) cellVelocities(cellU_);
  const OpenEdgeLayer::Fields fields{h_.data(),          rate_.data(),      fluxX_.data(),
                                     fluxY_.data(),      u_.data(),         v_.data(),
                                     faceDepthX_.data(), faceDepthY_.data()};
  const auto velocities = relaxVelocities ? OpenEdgeLayer::Velocities::kRelax
                          : facesFresh    ? OpenEdgeLayer::Velocities::kFromDischarges
                                          : OpenEdgeLayer::Velocities::kLeave;
  volumeSink_ +=
      layer_.relax(fields, {eta, goalX, goalY}, velocities, dt, 1.0 / domain_->grid().dx) *
      domain_->grid().cellArea();
  if (relaxVelocities) {
    layer_.layer().relax(cellU_.data(), dt);
    layer_.layer().relax(cellV_.data(), dt);
    faceVelocitiesStale_ = cellVelocitiesStale_ = false;
  } else {
    faceVelocitiesStale_ = !facesFresh;
    cellVelocitiesStale_ = true;
  }
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
  layer_ = OpenEdgeLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  projection_.followMask(domain);
  wetCells_ = std::max(domain.wetCount(), 1);
  prepareDischargeSync();  // the new mask
  sync_.measureNextStep();
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
  sync_.measureNextStep();
  sync_.forgetCorrection();
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
  const float *u = u_.data(), *v = v_.data();
  const float *depthX = faceDepthX_.data(), *depthY = faceDepthY_.data();
  double total = 0.0;
#pragma omp parallel for simd schedule(static) reduction(+ : total) if (worthThreads(u_.size()))
  for (std::size_t k = 0; k < u_.size(); ++k) {
    const double uk = u[k], vk = v[k];
    total += depthX[k] * uk * uk + depthY[k] * vk * vk;
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
// updateDischarges). A maximum: the same on any number of threads.
// mismatchRow's measure (float, SIMD) over every row: a wall cell has no open face and a rate
// of 0, so its M is 0 and the maximum is the wet cells'.
double SweAdi::dischargeMismatch() const {
  const int nx = h_.nx(), ny = h_.ny();
  const float invDx = float(1.0 / domain_->grid().dx);
  float mismatch = 0.0f;
#pragma omp parallel for schedule(static) reduction(max : mismatch) if (worthThreads(h_.size()))
  for (int j = 0; j < ny; ++j)
    mismatch = std::max(mismatch, mismatchRow(fluxX_.data(), fluxY_.data(), rate_.data(), nullptr,
                                              0.0f, invDx, h_.index(0, j), std::size_t(nx), j > 0)
                                      .mismatch);
  return mismatch;
}

std::map<std::string, double> SweAdi::diagnostics() const {
  std::map<std::string, double> figures{{"solver_iterations", iterations_},
                                        {"adi_correction", lastCorrection_},
                                        {"dry_cells", dryCells_},
                                        {"positivity_volume", positivityVolume_},
                                        {"discharge_mismatch", dischargeMismatch()},
                                        {"adi_energy_check", projection_.active() ? 1.0 : 0.0},
                                        {"adi_weight_delta", projection_.weightDelta()},
                                        {"adi_weight_correction", projection_.weightCorrection()},
                                        {"discharge_sync", sync_.corrected() ? 1.0 : 0.0}};
  if (friction_.active()) figures["friction_energy"] = frictionEnergy_;
  return figures;
}

}  // namespace wb
