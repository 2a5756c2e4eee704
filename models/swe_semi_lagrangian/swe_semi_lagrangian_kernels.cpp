#include "models/swe_semi_lagrangian/swe_semi_lagrangian_kernels.hpp"

#include <cmath>

namespace wb::swe_sl {

// The wet/dry kernels select between computed values (limiter, upwind, films); GCC vectorises
// such selects only without -ftrapping-math, which they do not need (no handler inspects
// floating-point exceptions).
#define WB_WET_DRY_KERNEL \
  __attribute__((target_clones("avx2", "default"), optimize("no-trapping-math")))

// Eq. 25, right side in flux form; see rhsAt. Closed and dry faces carry 0.
WB_SPAN_KERNEL void rhsSpan(float* __restrict rhs, const float* __restrict h,
                            const float* __restrict carryX, const float* __restrict carryY,
                            const float* __restrict u, const float* __restrict v, float dtPerDx,
                            std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    // A face's flux is the same expression from both sides: the divergence telescopes.
    const float east = carryX[k] * (0.5f * (u[k] + u[k + 1]));
    const float west = carryX[k - 1] * (0.5f * (u[k - 1] + u[k]));
    const float north = carryY[k] * (0.5f * (v[k] + v[k + row]));
    const float south = carryY[k - row] * (0.5f * (v[k - row] + v[k]));
    rhs[k] = h[k] - dtPerDx * ((east - west) + (north - south));
  }
}

// The face depths of faceDepthRows (faceDepthOf) of the east and north faces of the
// cells [begin, end), which must lie below the grid's last row, and eq. 25's face
// coefficients mu d_f (0 on closed and dry faces); depth is the model's d^n = h - ground. The
// cells before C and after N are
// k - reach.west, k + 1 + reach.east (east faces) and k - reach.south, k + row +
// reach.north (north faces); a reach of 0, where the grid has no such cell, takes C's or N's
// own depth, as a closed face does.
WB_WET_DRY_KERNEL void faceDepthSpan(const FaceDepths& f, const float* __restrict h,
                                     const float* __restrict ground, const float* __restrict depth,
                                     const float* __restrict u, const float* __restrict v,
                                     const float* __restrict openEast,
                                     const float* __restrict openNorth, float filmDepth,
                                     const FaceReach& reach, std::size_t row, std::size_t begin,
                                     std::size_t end) {
  float* __restrict depthX = f.depthX;
  float* __restrict depthY = f.depthY;
  float* __restrict carryX = f.carryX;
  float* __restrict carryY = f.carryY;
  float* __restrict faceX = f.faceX;
  float* __restrict faceY = f.faceY;
  const float mu = f.mu, dtPerDx = f.dtPerDx;
  const std::size_t west = reach.west, east = 1 + reach.east;
  const std::size_t south = reach.south, north = row + reach.north;
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k], floor = ground[k], own = centre - floor;
    const float eastDepth = h[k + 1] - ground[k + 1], northDepth = h[k + row] - ground[k + row];
    // The depths beyond, or the near cell's own across a closed face (a select between loads).
    const float westDepth = openEast[k - west] != 0.0f ? depth[k - west] : own;
    const float eastAhead = openEast[k + 1] != 0.0f ? depth[k + east] : eastDepth;
    const float southDepth = openNorth[k - south] != 0.0f ? depth[k - south] : own;
    const float northAhead = openNorth[k + row] != 0.0f ? depth[k + north] : northDepth;
    const float uFace = 0.5f * (u[k] + u[k + 1]), vFace = 0.5f * (v[k] + v[k + row]);
    const FaceDepth eastFace =
        faceDepthOf({centre, floor, h[k + 1], ground[k + 1], westDepth, eastAhead, u[k], u[k + 1]},
                    uFace > 0.0f, magnitude(uFace) * dtPerDx, filmDepth);
    const FaceDepth northFace = faceDepthOf(
        {centre, floor, h[k + row], ground[k + row], southDepth, northAhead, v[k], v[k + row]},
        vFace > 0.0f, magnitude(vFace) * dtPerDx, filmDepth);
    const float gravityX = openEast[k] * eastFace.gravity;
    const float gravityY = openNorth[k] * northFace.gravity;
    depthX[k] = gravityX;
    depthY[k] = gravityY;
    carryX[k] = openEast[k] * eastFace.carry;
    carryY[k] = openNorth[k] * northFace.carry;
    faceX[k] = mu * gravityX;
    faceY[k] = mu * gravityY;
  }
}

// q = A p at the cells [begin, end) away from the grid's first and last rows; returns sum(p q)
// over them. In float: the face terms nearly cancel at large dt, but each is a float product
// already rounded to eps of its size, so summing them in float adds an error of the same
// order (the floor of the true residual, about 8 g d dt^2 / dx^2 eps, stays); the dot product
// is summed in double.
WB_SPAN_KERNEL double helmholtzSpan(float* __restrict q, const float* __restrict p,
                                    const float* __restrict faceX, const float* __restrict faceY,
                                    std::size_t row, std::size_t begin, std::size_t end) {
  double dot = 0.0;
#pragma omp simd reduction(+ : dot)
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = p[k];
    const float out =
        centre + ((faceX[k] * (centre - p[k + 1]) + faceX[k - 1] * (centre - p[k - 1])) +
                  (faceY[k] * (centre - p[k + row]) + faceY[k - row] * (centre - p[k - row])));
    q[k] = out;
    dot += double(centre * out);
  }
  return dot;
}

// solveHelmholtz's start on the cells [begin, end) away from the first and last rows:
// rhs -= A h (helmholtzSpan's operator, rounded alike) and the guessed change
// delta = last delta - older before (0 where below negligible), before = the old delta.
WB_SPAN_KERNEL void residualAndGuessSpan(float* __restrict rhs, const float* __restrict h,
                                         const float* __restrict faceX,
                                         const float* __restrict faceY, const Guess& g,
                                         std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k];
    const float applied =
        centre + ((faceX[k] * (centre - h[k + 1]) + faceX[k - 1] * (centre - h[k - 1])) +
                  (faceY[k] * (centre - h[k + row]) + faceY[k - row] * (centre - h[k - row])));
    rhs[k] -= applied;
    guessChange(g, k);
  }
}

// Eqs. 21-22 plus the momentum in compressions (the wall rule follows:
// SweWalls::enforceVelocity).
WB_SPAN_KERNEL void velocitySpan(const Velocities& f, const float* __restrict h,
                                 const float* __restrict openEast,
                                 const float* __restrict openNorth, double gDtPerDx,
                                 std::size_t row, std::size_t begin, std::size_t end) {
  float* __restrict u = f.u;
  float* __restrict v = f.v;
  const float* __restrict uDep = f.uDep;
  const float* __restrict vDep = f.vDep;
  const float* __restrict du = f.du;
  const float* __restrict dv = f.dv;
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k], hE = h[k + 1], hW = h[k - 1], hN = h[k + row], hS = h[k - row];
    const float east = openEast[k] != 0.0f ? hE : centre;
    const float west = openEast[k - 1] != 0.0f ? hW : centre;
    const float north = openNorth[k] != 0.0f ? hN : centre;
    const float south = openNorth[k - row] != 0.0f ? hS : centre;
    const float pressedU = float(uDep[k] - gDtPerDx * (0.5f * (east - west)));
    const float pressedV = float(vDep[k] - gDtPerDx * (0.5f * (north - south)));
    u[k] = pressedU + du[k];
    v[k] = pressedV + dv[k];
  }
}

// max(|u_x|, |u_y|, |v_x|, |v_y|) (per cell); free-slip ghosts at walls (a wall does not
// shear the flow along it); solid cells (u = v = 0, every face closed) give 0.
WB_SPAN_KERNEL float shearSpan(const float* __restrict u, const float* __restrict v,
                               const float* __restrict openEast, const float* __restrict openNorth,
                               std::size_t row, std::size_t begin, std::size_t end) {
  float shear = 0.0f;
#pragma omp simd reduction(max : shear)
  for (std::size_t k = begin; k < end; ++k) {
    const bool east = openEast[k] != 0.0f, west = openEast[k - 1] != 0.0f;
    const bool north = openNorth[k] != 0.0f, south = openNorth[k - row] != 0.0f;
    const float uc = u[k], uE = u[k + 1], uW = u[k - 1], uN = u[k + row], uS = u[k - row];
    const float vc = v[k], vE = v[k + 1], vW = v[k - 1], vN = v[k + row], vS = v[k - row];
    // Selects between values only: they vectorise (std::max's references do not).
    const float ux = std::fabs((east ? uE : uc) - (west ? uW : uc));
    const float uy = std::fabs((north ? uN : uc) - (south ? uS : uc));
    const float vx = std::fabs((east ? vE : vc) - (west ? vW : vc));
    const float vy = std::fabs((north ? vN : vc) - (south ? vS : vc));
    const float a = ux > uy ? ux : uy, b = vx > vy ? vx : vy;
    const float cell = a > b ? a : b;
    shear = cell > shear ? cell : shear;
  }
  return 0.5f * shear;
}

// transportVolume's face fluxes (m per step) of the east and north faces of [begin, end).
// h is h^n: eq. 25's solution is h + change.
WB_WET_DRY_KERNEL void fluxSpan(const Transport& t, const float* __restrict h,
                                const float* __restrict change, float dtPerDx, float gDtPerDx,
                                std::size_t row, std::size_t begin, std::size_t end) {
  float* __restrict fluxX = t.fluxX;
  float* __restrict fluxY = t.fluxY;
  const float* __restrict carryX = t.carryX;
  const float* __restrict carryY = t.carryY;
  const float* __restrict depthX = t.depthX;
  const float* __restrict depthY = t.depthY;
  const float* __restrict u = t.u;
  const float* __restrict v = t.v;
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k] + change[k], east = h[k + 1] + change[k + 1];
    const float north = h[k + row] + change[k + row];
    fluxX[k] = dtPerDx *
               (carryX[k] * (0.5f * (u[k] + u[k + 1])) - depthX[k] * (gDtPerDx * (east - centre)));
    fluxY[k] = dtPerDx * (carryY[k] * (0.5f * (v[k] + v[k + row])) -
                          depthY[k] * (gDtPerDx * (north - centre)));
  }
}

// transportVolume's limiter theta = min(1, d / outflow) on the cells [begin, end).
WB_WET_DRY_KERNEL void outflowScaleSpan(float* __restrict scale, const float* __restrict fluxX,
                                        const float* __restrict fluxY,
                                        const float* __restrict depth, std::size_t row,
                                        std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float east = fluxX[k], west = -fluxX[k - 1], north = fluxY[k], south = -fluxY[k - row];
    const float outflow = (east > 0.0f ? east : 0.0f) + (west > 0.0f ? west : 0.0f) +
                          ((north > 0.0f ? north : 0.0f) + (south > 0.0f ? south : 0.0f));
    const float held = depth[k];
    const bool limited = outflow > held;
    const float ratio = held / (limited ? outflow : 1.0f);
    scale[k] = limited ? ratio : 1.0f;
  }
}

// settleSurface on the cells [begin, end), in one pass:
//  - transportVolume's update, the flux-form surface hf = h^n - div(limited fluxes); each
//    face's limited flux is the same expression from both sides: the divergence telescopes;
//  - measureMomentumInCompressions: where the flow converges and the cell holds at least
//    exactDepth before and after, the flux-form momentum advection minus the semi-Lagrangian
//    one (without the force); elsewhere 0;
//  - the choice: h becomes hf where a face was limited (a scale below 1 here or next door),
//    where the cell holds less than exactDepth before or after the step, or on solid cells;
//    the others keep eq. 25's solution h + change and get solved = 1. Returns the sums of
//    hf - (h + change) and of the depth over those.
WB_WET_DRY_KERNEL SettleSums surfaceSpan(const Surface& f, float exactDepth, float forceStep,
                                         std::size_t row, std::size_t begin, std::size_t end) {
  float* __restrict h = f.h;
  float* __restrict solved = f.solved;
  float* __restrict outU = f.outU;
  float* __restrict outV = f.outV;
  const float* __restrict change = f.change;
  const float* __restrict fx = f.fluxX;
  const float* __restrict fy = f.fluxY;
  const float* __restrict s = f.scale;
  const float* __restrict ground = f.ground;
  const float* __restrict depth = f.depth;
  const float* __restrict wet = f.wet;
  const float* __restrict u = f.u;
  const float* __restrict v = f.v;
  const float* __restrict uDep = f.uDep;
  const float* __restrict vDep = f.vDep;
  const float* __restrict dX = f.depthX;
  const float* __restrict dY = f.depthY;
  const float* __restrict ax = f.ax;
  const float* __restrict ay = f.ay;
  double left = 0.0, solvedDepth = 0.0;
#pragma omp simd reduction(+ : left, solvedDepth)
  for (std::size_t k = begin; k < end; ++k) {
    const float fe0 = fx[k], fw0 = fx[k - 1], fn0 = fy[k], fs0 = fy[k - row];
    const float sC = s[k], sE = s[k + 1], sW = s[k - 1], sN = s[k + row], sS = s[k - row];
    const float east = fe0 * (fe0 > 0.0f ? sC : sE);
    const float west = fw0 * (fw0 > 0.0f ? sW : sC);
    const float north = fn0 * (fn0 > 0.0f ? sC : sN);
    const float south = fs0 * (fs0 > 0.0f ? sS : sC);
    const float hf = h[k] - ((east - west) + (north - south));  // h is h^n until written

    const float uc = u[k], vc = v[k], uE = u[k + 1], uW = u[k - 1], vN = v[k + row],
                vS = v[k - row];
    const float uN = u[k + row], uS = u[k - row], vE = v[k + 1], vW = v[k - 1];
    // Behind a closed or dry face (depth 0) the neighbour's velocity counts as 0.
    const float openE = dX[k] != 0.0f ? 1.0f : 0.0f, openW = dX[k - 1] != 0.0f ? 1.0f : 0.0f;
    const float openN = dY[k] != 0.0f ? 1.0f : 0.0f, openS = dY[k - row] != 0.0f ? 1.0f : 0.0f;
    const float convergence = (openE * uE - openW * uW) + (openN * vN - openS * vS);
    // Each face's limited flux split into its parts leaving (+) and entering (-) the cell
    // towards east or north: f = f+ + f-, f+ taken by the donor's scale.
    const float feOut = (fe0 > 0.0f ? fe0 : 0.0f) * sC, feIn = (fe0 > 0.0f ? 0.0f : fe0) * sE;
    const float fwOut = (fw0 > 0.0f ? fw0 : 0.0f) * sW, fwIn = (fw0 > 0.0f ? 0.0f : fw0) * sC;
    const float fnOut = (fn0 > 0.0f ? fn0 : 0.0f) * sC, fnIn = (fn0 > 0.0f ? 0.0f : fn0) * sN;
    const float fsOut = (fs0 > 0.0f ? fs0 : 0.0f) * sS, fsIn = (fs0 > 0.0f ? 0.0f : fs0) * sC;
    // Sum over faces of F_f u_upwind (outward positive).
    const float outflowU = ((feOut * uc + feIn * uE) - (fwOut * uW + fwIn * uc)) +
                           ((fnOut * uc + fnIn * uN) - (fsOut * uS + fsIn * uc));
    const float outflowV = ((feOut * vc + feIn * vE) - (fwOut * vW + fwIn * vc)) +
                           ((fnOut * vc + fnIn * vN) - (fsOut * vS + fsIn * vc));
    const float floor = ground[k], before = depth[k], after = hf - floor;
    const bool wetCell = wet[k] != 0.0f;
    const bool converging =
        wetCell & (before >= exactDepth) & (after >= exactDepth) & (convergence < 0.0f);
    const float taken = converging ? 1.0f : 0.0f;
    const float inverse = 1.0f / (taken * after + (1.0f - taken));  // 1 where not taken
    outU[k] = taken * ((before * uc - outflowU) * inverse - (uDep[k] - forceStep * ax[k]));
    outV[k] = taken * ((before * vc - outflowV) * inverse - (vDep[k] - forceStep * ay[k]));

    const float lowest =
        ((sC < sE ? sC : sE) < (sW < sN ? sW : sN)) ? (sC < sE ? sC : sE) : (sW < sN ? sW : sN);
    const float least = lowest < sS ? lowest : sS;
    const float hs = h[k] + change[k], afterSolved = hs - floor;
    const bool keep = wetCell & (least >= 1.0f) & (before >= exactDepth) & (after >= exactDepth) &
                      (afterSolved >= exactDepth);
    const float take = keep ? 1.0f : 0.0f;
    h[k] = keep ? hs : hf;
    solved[k] = take;
    left += double(take * (hf - hs));
    solvedDepth += double(take * afterSolved);
  }
  return {left, solvedDepth};
}

// settleSurface's spreading: h += share * (h - b) where solved; returns the sum of what was
// added (the part of a share below half an ulp of |h| rounds away).
WB_WET_DRY_KERNEL double spreadSpan(float* __restrict h, const float* __restrict solved,
                                    const float* __restrict ground, float share, std::size_t begin,
                                    std::size_t end) {
  double applied = 0.0;
#pragma omp simd reduction(+ : applied)
  for (std::size_t k = begin; k < end; ++k) {
    const float before = h[k];
    const float after = before + solved[k] * (share * (before - ground[k]));
    h[k] = after;
    applied += double(after - before);
  }
  return applied;
}

// Depth and films (keepDepthNonNegative) on the cells [begin, end): a surface round-off left
// below the ground is lifted to it; u = v = 0 where the depth is below filmDepth; moving is 1
// on wet cells that hold more than a film, else 0.
WB_WET_DRY_KERNEL DepthCounts depthAndFilmsSpan(float* __restrict h, float* __restrict depth,
                                                float* __restrict u, float* __restrict v,
                                                float* __restrict moving,
                                                const float* __restrict ground,
                                                const float* __restrict wet, float filmDepth,
                                                std::size_t begin, std::size_t end) {
  int lifted = 0, films = 0;
#pragma omp simd reduction(+ : lifted, films)
  for (std::size_t k = begin; k < end; ++k) {
    const float surface = h[k], floor = ground[k];
    const bool lift = (wet[k] != 0.0f) & !(surface >= floor);  // no short circuit: vectorises
    const float lower = lift ? floor : surface;
    const float d = wet[k] * (lower - floor);
    const bool film = (wet[k] != 0.0f) & (d < filmDepth);
    const float still = film ? 0.0f : 1.0f;
    h[k] = lower;
    depth[k] = d;
    u[k] *= still;
    v[k] *= still;
    moving[k] = wet[k] * still;
    lifted += lift;
    films += film;
  }
  return {lifted, films};
}

}  // namespace wb::swe_sl
