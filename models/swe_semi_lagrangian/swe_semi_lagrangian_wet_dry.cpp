// Wet/dry fronts of swe-semi-lagrangian (docs/wet-dry.md): the face depths of eq. 25 and the
// continuity equation in flux form with positivity-preserving flux limiting. No minimum
// depth: a dry cell holds d = 0, depth stays non-negative and volume moves only between
// neighbours, so it is kept to round-off.
#include <algorithm>
#include <cmath>

#include <omp.h>

#include "core/grid/parallel.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian_kernels.hpp"

namespace wb {

using namespace swe_sl;

// The depth of the face between cells C and N by hydrostatic reconstruction (Audusse et al.
// 2004): the ground of the face is the higher of the two, b_f = max(b_C, b_N), and each side
// holds d*_C = max(h_C - b_f, 0) there (faceDepthOf in the kernels' header).
// Where both sides hold more than a film above b_f, the face lies inside the water and takes
// the cells' own depths d = h - b:
//   - for gravity (eq. 25's coefficients g dt^2 d_f / dx^2), the mean (d_C + d_N) / 2;
//   - for the advective flux d_f u~_f, the upwind d where the flow runs towards thinner water
//     over ground that does not rise (a dam break's rarefaction, its tip and a bore on a flat
//     bed: monotone, and the diffusion that carries Ritter's front), else the centred mean.
//     Upwind everywhere smeared the depth like a diffusion of |u| dx / 2 and damped Thacker's
//     oscillation in a paraboloid by a third of its amplitude over 3 periods; centred
//     everywhere, Ritter's front lagged by 7-10 % (docs/wet-dry.md).
// Where one side holds a film or nothing above b_f (a shoreline): d*_C + d*_N for gravity, so
// that a front is pushed into a dry cell by the depth behind it, and the upwind d* for
// advection; 0 where neither side holds water above b_f: a cell beside ground higher than
// its surface feels no slope towards it (that face is closed like a wall) and a lake at rest
// around an island stays at rest. The limiter of transportVolume stops any flow out of a dry
// side. Walls and the grid's edge get 0. In the same pass, eq. 25's face coefficients
// mu d_f, mu = g dt^2 / dx^2 (applyHelmholtz), of the rows [first, end) below the last.
void SweSemiLagrangian::faceDepthRows(int first, int end, float mu, float dtPerDx) {
  const int nx = h_.nx(), ny = h_.ny();
  const std::size_t row = std::size_t(nx);
  const FaceDepths faces{faceDepthX_.data(),
                         faceDepthY_.data(),
                         faceCarryX_.data(),
                         faceCarryY_.data(),
                         faceX_.data(),
                         faceY_.data(),
                         mu,
                         dtPerDx};
  const auto span = [&](const FaceReach& reach, std::size_t begin, std::size_t end) {
    faceDepthSpan(faces, h_.data(), ground_.data(), depth_.data(), uDep_.data(), vDep_.data(),
                  walls_.openEast(), walls_.openNorth(), settings_.filmDepth, reach, row, begin,
                  end);
  };
  const std::size_t east = nx > 1 ? 1 : 0;
  for (int j = first; j < end; ++j) {
    const std::size_t begin = std::size_t(j) * row;
    const FaceReach reach{1, east, j > 0 ? row : 0, j + 2 < ny ? row : 0};
    if (j == 0) {  // the grid's first cell has no cell before it
      span({0, east, 0, reach.north}, 0, 1);
      span(reach, 1, row);
    } else {
      span(reach, begin, begin + row);
    }
  }
}

// The last row: no north faces; east faces as in the kernel.
void SweSemiLagrangian::lastRowFaceDepths(float mu, float dtPerDx) {
  const int nx = h_.nx(), j = h_.ny() - 1;
  const auto depth = [&](int i) { return h_(i, j) - ground_(i, j); };
  for (int i = 0; i < nx; ++i) {
    faceDepthY_(i, j) = faceCarryY_(i, j) = faceY_(i, j) = 0.0f;
    if (i + 1 == nx || !walls_.wet(i, j) || !walls_.wet(i + 1, j)) {
      faceDepthX_(i, j) = faceCarryX_(i, j) = faceX_(i, j) = 0.0f;
      continue;
    }
    const float* open = walls_.openEast();
    const bool behind = i > 0 && open[h_.index(i - 1, j)] != 0.0f;
    const bool ahead = i + 2 < nx && open[h_.index(i + 1, j)] != 0.0f;
    const FaceCells cells{h_(i, j),
                          ground_(i, j),
                          h_(i + 1, j),
                          ground_(i + 1, j),
                          behind ? depth(i - 1) : depth(i),
                          ahead ? depth(i + 2) : depth(i + 1),
                          uDep_(i, j),
                          uDep_(i + 1, j)};
    const float uFace = 0.5f * (uDep_(i, j) + uDep_(i + 1, j));
    const FaceDepth east =
        faceDepthOf(cells, uFace > 0.0f, std::fabs(uFace) * dtPerDx, settings_.filmDepth);
    faceDepthX_(i, j) = east.gravity;
    faceCarryX_(i, j) = east.carry;
    faceX_(i, j) = mu * east.gravity;
  }
}

// A film (d < film_depth) has no velocity of its own (keepDepthNonNegative zeroes it), so
// the departure point of eq. 31 is the cell itself and u~ = 0. Water that floods it comes
// from its wet neighbours, as in the dry-bed Riemann problem at the front speed
// u + 2 sqrt(g d) (startFloodedCells): u~, v~ of a film become the mean over its neighbours
// across open faces that hold more than a film (and stand above its ground) of
// u~_nb + 2 sqrt(g d_nb) n, n the unit vector from the neighbour into the film; floodX_,
// floodY_ keep the mean n. The face fluxes (mean of the two cells' u~) then carry the water
// across a front at its speed. The wall rule is applied again (a film along a wall keeps no
// normal velocity).
void SweSemiLagrangian::extendVelocityIntoFilms() {
  if (dryCells_ == 0) return;
  const int nx = h_.nx(), ny = h_.ny();
  const float film = settings_.filmDepth;
  const float *openEast = walls_.openEast(), *openNorth = walls_.openNorth();
  const float g = float(domain_->g());
#pragma omp parallel for schedule(static) if (worthThreads(h_.size()))
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!walls_.wet(i, j) || depth_(i, j) >= film) continue;
      float sumU = 0.0f, sumV = 0.0f, sumX = 0.0f, sumY = 0.0f;
      int count = 0;
      // A neighbour in direction (nx, ny) floods the film at u + 2 sqrt(g d) along -(nx, ny).
      const auto take = [&](bool open, int in, int jn, float towardX, float towardY) {
        if (!open || depth_(in, jn) < film || h_(in, jn) <= ground_(i, j)) return;
        const float tip = 2.0f * std::sqrt(g * depth_(in, jn));
        sumU += uDep_(in, jn) + tip * towardX;
        sumV += vDep_(in, jn) + tip * towardY;
        sumX += towardX;
        sumY += towardY;
        ++count;
      };
      const std::size_t k = h_.index(i, j);
      take(openEast[k] != 0.0f, i + 1, j, -1.0f, 0.0f);
      take(i > 0 && openEast[k - 1] != 0.0f, i - 1, j, 1.0f, 0.0f);
      take(openNorth[k] != 0.0f, i, j + 1, 0.0f, -1.0f);
      take(j > 0 && openNorth[k - nx] != 0.0f, i, j - 1, 0.0f, 1.0f);
      floodX_(i, j) = floodY_(i, j) = 0.0f;
      if (count == 0) continue;
      uDep_(i, j) = sumU / float(count);
      vDep_(i, j) = sumV / float(count);
      floodX_(i, j) = sumX / float(count);
      floodY_(i, j) = sumY / float(count);
    }
  walls_.enforceVelocity(uDep_, vDep_);
}

// The continuity equation in flux form, d_t + div(d u) = 0, over the step:
//   h^{n+1}_C = h^n_C - sum_faces F_f,   F_f = (dt / dx) (a_f u~_f - d_f g dt (h_N - h_C) / dx)
// with h the surface of eq. 25, u~_f the mean of the two cells' departure velocities and a_f,
// d_f the advective and gravity depths of faceDepthRows: the flux eq. 25 itself is built
// from, so where no limit acts this surface is eq. 25's solution plus the solver's residual
// (settleSurface). Positivity-preserving flux limiting: a cell whose outgoing fluxes
// would take more than the d^n it holds has them all scaled by theta_C = d^n_C / outflow_C;
// each face is limited by its donor's theta. Then d^{n+1}_C >= d^n_C - theta_C outflow_C >= 0,
// and since each face's flux leaves one cell and enters the other, volume is kept exactly
// (to float round-off). Water never leaves a cell that holds none: a dry cell has theta = 0.
//
// Flux, limiter and settleSurface's pass run row by row in one parallel region over bands of
// rows, each row's inputs still in cache: the limiter of row j reads the fluxes of rows j - 1
// and j, the surface of row j the limiter of rows j - 1 to j + 1. A band's first rows read
// rows another thread makes: they wait for a barrier. The first and last rows of the grid
// are done cell by cell (the kernels would read beyond the grid).
void SweSemiLagrangian::transportVolume(double dt) {
  const int ny = h_.ny();
  const TransportStep step{float(dt / domain_->grid().dx),
                           float(domain_->g() * dt / domain_->grid().dx),
                           force_ ? float(dt) : 0.0f};
  double left = 0.0, solvedDepth = 0.0;
#pragma omp parallel reduction(+ : left, solvedDepth) if (worthThreads(h_.size()))
  {
    const RowBand band = interiorRowBand(ny);
    const bool first = omp_get_thread_num() == 0;
    const bool last = omp_get_thread_num() == omp_get_num_threads() - 1;
    SettleSums sums;
    const auto surface = [&](int j) {
      const SettleSums row = surfaceRow(j, step.force);
      sums.left += row.left, sums.solvedDepth += row.solvedDepth;
    };
    if (first) fluxEdgeRow(0, step);
    if (last && ny > 1) fluxEdgeRow(ny - 1, step);
    for (int j = band.first; j < band.end; ++j) {
      fluxRow(j, step);
      if (j > band.first) scaleRow(j);
      if (j - 1 > band.first + 1) surface(j - 1);
    }
#pragma omp barrier
    if (band.end > band.first) scaleRow(band.first);
    if (first) scaleEdgeRow(0);
    if (last && ny > 1) scaleEdgeRow(ny - 1);
#pragma omp barrier
    for (int j = band.first; j < std::min(band.first + 2, band.end); ++j)
      surface(j);
    if (band.end - 1 >= band.first + 2) surface(band.end - 1);
    left += sums.left, solvedDepth += sums.solvedDepth;
  }
  settleSurface(step.force, left, solvedDepth);
}

void SweSemiLagrangian::fluxRow(int j, const TransportStep& step) {
  const std::size_t row = std::size_t(h_.nx()), begin = std::size_t(j) * row;
  const Transport t{fluxX_.data(),      fluxY_.data(),      faceCarryX_.data(), faceCarryY_.data(),
                    faceDepthX_.data(), faceDepthY_.data(), uDep_.data(),       vDep_.data()};
  fluxSpan(t, h_.data(), change_.data(), step.dtPerDx, step.gDtPerDx, row, begin, begin + row);
}

// The fluxes of the wet cells of the first or last row; a closed face has both depths 0, hence
// flux 0. h is eq. 25's solution h^n + change.
void SweSemiLagrangian::fluxEdgeRow(int j, const TransportStep& step) {
  const int nx = h_.nx(), ny = h_.ny();
  const float dtPerDx = step.dtPerDx, gDtPerDx = step.gDtPerDx;
  const auto solved = [&](int i, int j) { return h_(i, j) + change_(i, j); };
  for (int i = 0; i < nx; ++i) {
    if (!walls_.wet(i, j)) continue;
    const float centre = solved(i, j);
    fluxX_(i, j) = i + 1 < nx
                       ? dtPerDx * (faceCarryX_(i, j) * 0.5f * (uDep_(i, j) + uDep_(i + 1, j)) -
                                    faceDepthX_(i, j) * (gDtPerDx * (solved(i + 1, j) - centre)))
                       : 0.0f;
    fluxY_(i, j) = j + 1 < ny
                       ? dtPerDx * (faceCarryY_(i, j) * 0.5f * (vDep_(i, j) + vDep_(i, j + 1)) -
                                    faceDepthY_(i, j) * (gDtPerDx * (solved(i, j + 1) - centre)))
                       : 0.0f;
  }
}

void SweSemiLagrangian::scaleRow(int j) {
  const std::size_t row = std::size_t(h_.nx()), begin = std::size_t(j) * row;
  outflowScaleSpan(outflowScale_.data(), fluxX_.data(), fluxY_.data(), depth_.data(), row, begin,
                   begin + row);
}

void SweSemiLagrangian::scaleEdgeRow(int j) {
  for (int i = 0; i < h_.nx(); ++i) {
    if (!walls_.wet(i, j)) continue;
    const float outflow = std::max(fluxX_(i, j), 0.0f) + std::max(-fluxAt(fluxX_, i - 1, j), 0.0f) +
                          std::max(fluxY_(i, j), 0.0f) + std::max(-fluxAt(fluxY_, i, j - 1), 0.0f);
    const float held = depth_(i, j);
    outflowScale_(i, j) = outflow > held ? held / outflow : 1.0f;
  }
}

// The flux f of the face east or north of (i, j) (0 beyond the grid's first row or column).
float SweSemiLagrangian::fluxAt(const Field2D& f, int i, int j) const {
  return i < 0 || j < 0 ? 0.0f : f(i, j);
}

// The limited flux of the face between (i, j) and (i + di, j + dj): scaled by its donor's theta.
float SweSemiLagrangian::limitedFlux(const Field2D& f, int i, int j, int di, int dj) const {
  if (i < 0 || j < 0) return 0.0f;
  const float flux = f(i, j);
  if (flux == 0.0f) return 0.0f;
  return flux * (flux > 0.0f ? outflowScale_(i, j) : outflowScale_(i + di, j + dj));
}

// transportVolume's update at (i, j): h^n - div(limited fluxes), the flux-form surface.
float SweSemiLagrangian::fluxFormAt(int i, int j) const {
  return h_(i, j) - ((limitedFlux(fluxX_, i, j, 1, 0) - limitedFlux(fluxX_, i - 1, j, 1, 0)) +
                     (limitedFlux(fluxY_, i, j, 0, 1) - limitedFlux(fluxY_, i, j - 1, 0, 1)));
}

// Momentum conservation across bores (Stelling & Duinmeijer 2003): eqs. 21-22 advect the
// velocity (du/dt along trajectories), which in smooth flow and in expansions is right, but
// across a bore it obeys the wrong jump condition: at Stoker's hr/hl = 0.1 the bore stood
// 0.47 m high against 0.40 and 2.5 m behind (L1 0.057). Where the flow converges,
// (u_E - u_W) + (v_N - v_S) < 0 (0 behind closed faces), and the cell holds at least
// kExactDepth before and after, the momentum is advected in flux form with the step's limited
// continuity fluxes F (depth per step, upwind velocity u_f):
//   d^{n+1} u_adv = d^n u^n - sum_faces F_f u_f,
// the same for v; d^{n+1} is the flux-form depth, so a uniform flow stays uniform. Stored is
// u_adv minus the semi-Lagrangian advection u~ (without the step's force); the pressure and
// force of eqs. 21-22 are then added alike.
void SweSemiLagrangian::momentumAt(int i, int j, float fluxForm, float forceStep) {
  const int nx = h_.nx(), ny = h_.ny();
  // Upwind velocity of the face between (i, j) and (i + di, j + dj) for a flux f.
  const auto upwind = [&](const Field2D& vel, float f, int i, int j, int di, int dj) {
    return f > 0.0f ? vel(i, j) : vel(i + di, j + dj);
  };
  momentumU_(i, j) = momentumV_(i, j) = 0.0f;
  const float before = depth_(i, j), after = fluxForm - ground_(i, j);
  if (before < kExactDepth || after < kExactDepth) return;
  const bool east = i + 1 < nx && faceDepthX_(i, j) != 0.0f;
  const bool west = i > 0 && faceDepthX_(i - 1, j) != 0.0f;
  const bool north = j + 1 < ny && faceDepthY_(i, j) != 0.0f;
  const bool south = j > 0 && faceDepthY_(i, j - 1) != 0.0f;
  const float convergence = ((east ? u_(i + 1, j) : 0.0f) - (west ? u_(i - 1, j) : 0.0f)) +
                            ((north ? v_(i, j + 1) : 0.0f) - (south ? v_(i, j - 1) : 0.0f));
  if (!(convergence < 0.0f)) return;
  const float fe = i + 1 < nx ? limitedFlux(fluxX_, i, j, 1, 0) : 0.0f;
  const float fw = limitedFlux(fluxX_, i - 1, j, 1, 0);
  const float fn = j + 1 < ny ? limitedFlux(fluxY_, i, j, 0, 1) : 0.0f;
  const float fs = limitedFlux(fluxY_, i, j - 1, 0, 1);
  const auto advected = [&](const Field2D& vel) {
    float out = 0.0f;
    if (fe != 0.0f) out += fe * upwind(vel, fe, i, j, 1, 0);
    if (fw != 0.0f) out -= fw * upwind(vel, fw, i - 1, j, 1, 0);
    if (fn != 0.0f) out += fn * upwind(vel, fn, i, j, 0, 1);
    if (fs != 0.0f) out -= fs * upwind(vel, fs, i, j - 1, 0, 1);
    return (before * vel(i, j) - out) / after;
  };
  const float forceU = force_ ? forceStep * force_->ax(i, j) : 0.0f;
  const float forceV = force_ ? forceStep * force_->ay(i, j) : 0.0f;
  momentumU_(i, j) = advected(u_) - (uDep_(i, j) - forceU);
  momentumV_(i, j) = advected(v_) - (vDep_(i, j) - forceV);
}

// The flux-form surface differs from eq. 25's solution h_s by the solver's residual r
// (A h_s = rhs - r, so h_flux = h_s + r), unsmoothed: its rough part (up to cg_tolerance
// times the step's change, and at large couplings the float floor 8 g d dt^2 / dx^2 eps of
// the solve) would show as noise; h_s carries the smoother error A^-1 r. Taking h_flux
// everywhere, the scan of the largest stable dt stopped at 100x the explicit limit, not 1000x. So
// cells whose faces the limiter scaled, or that hold less than kExactDepth before or after the
// step, take h_flux (their depth is never negative and the water they swap with their neighbours is
// exact); the others take h_s, and the volume the residual leaves between the two, sum(h_flux - h),
// is spread over those others in proportion to their depth: a global mass fixer (Priestley 1993, as
// semi-Lagrangian models use), which never takes a depth below 0 and keeps the volume to round-off.
//
// One pass per cell makes the flux-form surface (transportVolume), measures the momentum in
// compressions from it and makes this choice.
// settleSurface's pass (surfaceSpan) over row j; returns its sums.
SettleSums SweSemiLagrangian::surfaceRow(int j, float forceStep) {
  const std::size_t row = std::size_t(h_.nx()), begin = std::size_t(j) * row;
  const Surface f{h_.data(),
                  solved_.data(),
                  momentumU_.data(),
                  momentumV_.data(),
                  change_.data(),
                  fluxX_.data(),
                  fluxY_.data(),
                  outflowScale_.data(),
                  ground_.data(),
                  depth_.data(),
                  walls_.wetWeights(),
                  u_.data(),
                  v_.data(),
                  uDep_.data(),
                  vDep_.data(),
                  faceDepthX_.data(),
                  faceDepthY_.data(),
                  force_ ? force_->ax.data() : u_.data(),
                  force_ ? force_->ay.data() : v_.data()};
  return surfaceSpan(f, kExactDepth, forceStep, row, begin, begin + row);
}

// The first and last rows (the others were made by surfaceRow, whose sums are left and
// solvedDepth), then the spreading of the volume left.
void SweSemiLagrangian::settleSurface(float forceStep, double left, double solvedDepth) {
  const int nx = h_.nx(), ny = h_.ny();
  const auto limitedAt = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < nx && j < ny && outflowScale_(i, j) < 1.0f;
  };
  for (int j : {0, ny - 1})
    for (int i = 0; i < nx; ++i) {
      if (!walls_.wet(i, j)) {  // solid: keeps h^n + change
        h_(i, j) += change_(i, j);
        continue;
      }
      const float fluxForm = fluxFormAt(i, j);
      momentumAt(i, j, fluxForm, forceStep);
      h_(i, j) += change_(i, j);  // eq. 25's solution
      const float solved = h_(i, j) - ground_(i, j), flux = fluxForm - ground_(i, j);
      const bool keep = !limitedAt(i, j) && !limitedAt(i + 1, j) && !limitedAt(i - 1, j) &&
                        !limitedAt(i, j + 1) && !limitedAt(i, j - 1) &&
                        depth_(i, j) >= kExactDepth && flux >= kExactDepth && solved >= kExactDepth;
      solved_(i, j) = keep ? 1.0f : 0.0f;
      if (!keep) {
        h_(i, j) = fluxForm;
        continue;
      }
      solvedDepth += solved;
      left += double(fluxForm) - h_(i, j);
    }
  // A share below half an ulp of a cell's |h| rounds away: what was not applied is owed to
  // the next step, so the volume stays within round-off of exact over any number of steps.
  left += unspread_;
  unspread_ = left;
  if (solvedDepth <= 0.0) return;
  const float share = float(left / solvedDepth);
  const std::size_t n = h_.size();
  double applied = 0.0;
#pragma omp parallel reduction(+ : applied) if (worthThreads(n))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    applied += spreadSpan(h_.data(), solved_.data(), ground_.data(), share, n * t / threads,
                          n * (t + 1) / threads);
  }
  unspread_ = left - applied;
}

// The dry-bed Riemann problem (Ritter; Toro, "Shock-capturing methods for free-surface
// shallow flows", 2001, section 5.4): the water that floods a dry bed keeps the invariant
// R = u.n + 2 sqrt(g d) of the wet side along the flooding direction n, and R is carried
// towards the front along the C+ characteristics (speed u + c, faster than the water).
//  - A film flooded in this step (d^{n+1} >= film_depth) takes u^{n+1} = u~ - 2 sqrt(g d) n
//    (u~ from extendVelocityIntoFilms holds the flooding water's R); the pressure update of
//    eqs. 21-22 is replaced, not added: across the front it is the acceleration R already
//    holds, and adding both lets a thin film outrun Ritter's front.
//  - A front cell (wet, a film downstream along x or y, wet upstream) moves at least as fast
//    as its upstream neighbour's R allows: u.n >= R_upstream - 2 sqrt(g d).
//  - So does a cell of the flood's thin tail: thinner than kThinTail, with thinner water
//    downstream on the same ground. Across the simple wave of a flood over flat ground R is
//    constant; the first steps of a dam break hold its fan in a few cells, where eqs. 21-22
//    lose R in the thin tip (Ritter at 20 cells/m: R fell from 6.26 to 5.5 m/s there within
//    0.08 s and stayed, and the 1 mm front lagged 6-8 % at 1-4 s), and the C+ characteristics
//    carry that loss to the tip for ever after.
// Without these the tip of the flood loses speed step by step (at each step the pressure
// slope over a film of depth ~film_depth is too small to restore it): docs/wet-dry.md.
// Both hold only where the film's ground does not stand above the flooding water's: R is
// constant across a simple wave on a flat (or falling) bed, but up a slope gravity takes
// speed from the flow and R falls towards the shoreline (in Thacker's oscillation u is
// uniform while sqrt(g d) falls to 0 at the shore). Applied there, they left the shoreline
// cells' velocity 0.25 m/s (a third) off the water's and raised Thacker's error by half (0.026
// against 0.017: docs/wet-dry.md); an uphill flood takes eqs. 21-22 like any wet cell.
void SweSemiLagrangian::startFloodedCells() {
  if (dryCells_ == 0) return;
  const float film = settings_.filmDepth, g = float(domain_->g());
  const int nx = h_.nx(), ny = h_.ny();
  const auto depth = [&](int i, int j) { return h_(i, j) - ground_(i, j); };
  const auto riemann = [&](int i, int j) { return 2.0f * std::sqrt(g * depth(i, j)); };
  const auto moving = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < nx && j < ny && walls_.wet(i, j) && depth(i, j) >= film;
  };
  const auto filmAt = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < nx && j < ny && walls_.wet(i, j) && depth(i, j) < film;
  };
  // The film at (i, j) stands higher than the water at (in, jn) that floods it.
  const auto uphill = [&](int i, int j, int in, int jn) { return ground_(i, j) > ground_(in, jn); };
  // A flooded cell is flooded uphill if any neighbour that floods it stands lower.
  const auto floodedUphill = [&](int i, int j) {
    return (moving(i + 1, j) && uphill(i, j, i + 1, j)) ||
           (moving(i - 1, j) && uphill(i, j, i - 1, j)) ||
           (moving(i, j + 1) && uphill(i, j, i, j + 1)) ||
           (moving(i, j - 1) && uphill(i, j, i, j - 1));
  };
  // (i, j) holds less than kThinTail and its neighbour (in, jn), on the same ground, less still.
  const auto thinTail = [&](int i, int j, int in, int jn) {
    return depth(i, j) < kThinTail && in >= 0 && jn >= 0 && in < nx && jn < ny &&
           walls_.wet(in, jn) && depth(in, jn) < depth(i, j) && ground_(in, jn) == ground_(i, j);
  };
  // Along one axis: u the component, (di, dj) the axis.
  const auto front = [&](Field2D& u, int i, int j, int di, int dj) {
    const float c = riemann(i, j), speed = u(i, j);
    if (speed > 0.0f && (filmAt(i + di, j + dj) || thinTail(i, j, i + di, j + dj)) &&
        moving(i - di, j - dj) && !uphill(i + di, j + dj, i, j))
      u(i, j) = std::max(speed, u(i - di, j - dj) + riemann(i - di, j - dj) - c);
    if (speed < 0.0f && (filmAt(i - di, j - dj) || thinTail(i, j, i - di, j - dj)) &&
        moving(i + di, j + dj) && !uphill(i - di, j - dj, i, j))
      u(i, j) = std::min(speed, u(i + di, j + dj) - riemann(i + di, j + dj) + c);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!moving(i, j)) continue;
      if (depth_(i, j) < film && !floodedUphill(i, j)) {  // flooded in this step, not uphill
        u_(i, j) = uDep_(i, j) - riemann(i, j) * floodX_(i, j);
        v_(i, j) = vDep_(i, j) - riemann(i, j) * floodY_(i, j);
        continue;
      }
      if (depth_(i, j) < film) continue;
      front(u_, i, j, 1, 0);
      front(v_, i, j, 0, 1);
    }
  walls_.enforceVelocity(u_, v_);
}

// Over the open faces between a wet cell and a film (or dry cell) whose ground lies below the
// wet cell's surface (water can flow in), the wet cell's speed towards the film.
double SweSemiLagrangian::frontSpeed() const {
  const int nx = h_.nx(), ny = h_.ny();
  const float film = settings_.filmDepth;
  const float *openEast = walls_.openEast(), *openNorth = walls_.openNorth();
  float fastest = 0.0f;
  const auto front = [&](int i, int j, int in, int jn) {
    const bool wet = depth_(i, j) >= film, wetN = depth_(in, jn) >= film;
    if (wet == wetN) return 0.0f;
    const float speed = in > i ? (wet ? u_(i, j) : -u_(in, jn)) : (wet ? v_(i, j) : -v_(in, jn));
    const bool downhill = wet ? h_(i, j) > ground_(in, jn) : h_(in, jn) > ground_(i, j);
    return downhill ? speed : 0.0f;
  };
#pragma omp parallel for reduction(max : fastest) schedule(static) if (worthThreads(h_.size()))
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = h_.index(i, j);
      if (openEast[k] != 0.0f) fastest = std::max(fastest, front(i, j, i + 1, j));
      if (openNorth[k] != 0.0f) fastest = std::max(fastest, front(i, j, i, j + 1));
    }
  return fastest;
}

}  // namespace wb
