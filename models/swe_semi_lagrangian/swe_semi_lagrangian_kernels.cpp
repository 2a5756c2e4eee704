#include "models/swe_semi_lagrangian/swe_semi_lagrangian_kernels.hpp"

#include <cmath>

namespace wb::swe_sl {

// The wet/dry kernels select between computed values (limiter, upwind, films); GCC vectorises
// such selects only without -ftrapping-math, which they do not need (no handler inspects
// floating-point exceptions).
#define WB_WET_DRY_KERNEL \
  __attribute__((target_clones("avx2", "default"), optimize("no-trapping-math")))

// Eq. 25, right side in flux form; see assembleRhs. Closed and dry faces carry 0.
WB_SPAN_KERNEL void rhsSpan(float* __restrict rhs, const float* __restrict hOld,
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
    rhs[k] = hOld[k] - dtPerDx * ((east - west) + (north - south));
  }
}

// The face depths of assembleFaceDepths (faceDepthOf) of the east and north faces of the
// cells [begin, end), which must lie below the grid's last row.
WB_WET_DRY_KERNEL void faceDepthSpan(const FaceDepths& f, const float* __restrict h,
                                     const float* __restrict ground, const float* __restrict u,
                                     const float* __restrict v, const float* __restrict openEast,
                                     const float* __restrict openNorth, float filmDepth,
                                     std::size_t row, std::size_t begin, std::size_t end) {
  float* __restrict depthX = f.depthX;
  float* __restrict depthY = f.depthY;
  float* __restrict carryX = f.carryX;
  float* __restrict carryY = f.carryY;
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k], floor = ground[k];
    const FaceDepth east =
        faceDepthOf(centre, floor, h[k + 1], ground[k + 1], u[k] + u[k + 1] > 0.0f, filmDepth);
    const FaceDepth north = faceDepthOf(centre, floor, h[k + row], ground[k + row],
                                        v[k] + v[k + row] > 0.0f, filmDepth);
    depthX[k] = openEast[k] * east.gravity;
    depthY[k] = openNorth[k] * north.gravity;
    carryX[k] = openEast[k] * east.carry;
    carryY[k] = openNorth[k] * north.carry;
  }
}

// Eq. 25, left side: face coefficients mu d_f (0 on closed and dry faces).
WB_SPAN_KERNEL void facesSpan(float* __restrict faceX, float* __restrict faceY,
                              const float* __restrict depthX, const float* __restrict depthY,
                              float mu, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    faceX[k] = mu * depthX[k];
    faceY[k] = mu * depthY[k];
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

// Eqs. 21-22 (the wall rule follows: SweWalls::enforceVelocity).
WB_SPAN_KERNEL void velocitySpan(float* __restrict u, float* __restrict v,
                                 const float* __restrict uDep, const float* __restrict vDep,
                                 const float* __restrict h, const float* __restrict openEast,
                                 const float* __restrict openNorth, double gDtPerDx,
                                 std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k], hE = h[k + 1], hW = h[k - 1], hN = h[k + row], hS = h[k - row];
    const float east = openEast[k] != 0.0f ? hE : centre;
    const float west = openEast[k - 1] != 0.0f ? hW : centre;
    const float north = openNorth[k] != 0.0f ? hN : centre;
    const float south = openNorth[k - row] != 0.0f ? hS : centre;
    u[k] = float(uDep[k] - gDtPerDx * (0.5f * (east - west)));
    v[k] = float(vDep[k] - gDtPerDx * (0.5f * (north - south)));
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
WB_WET_DRY_KERNEL void fluxSpan(const Transport& t, const float* __restrict h, float dtPerDx,
                                float gDtPerDx, std::size_t row, std::size_t begin,
                                std::size_t end) {
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
    const float centre = h[k];
    fluxX[k] = dtPerDx * (carryX[k] * (0.5f * (u[k] + u[k + 1])) -
                          depthX[k] * (gDtPerDx * (h[k + 1] - centre)));
    fluxY[k] = dtPerDx * (carryY[k] * (0.5f * (v[k] + v[k + row])) -
                          depthY[k] * (gDtPerDx * (h[k + row] - centre)));
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

// transportVolume's update h = h^n - div(limited fluxes) on the cells [begin, end). Each face's
// limited flux is the same expression from both sides: the divergence telescopes exactly.
WB_WET_DRY_KERNEL void continuitySpan(float* __restrict h, const float* __restrict hOld,
                                      const float* __restrict fluxX, const float* __restrict fluxY,
                                      const float* __restrict scale, std::size_t row,
                                      std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float fe = fluxX[k], fw = fluxX[k - 1], fn = fluxY[k], fs = fluxY[k - row];
    const float sC = scale[k], sE = scale[k + 1], sW = scale[k - 1], sN = scale[k + row];
    const float sS = scale[k - row];
    const float east = fe * (fe > 0.0f ? sC : sE);
    const float west = fw * (fw > 0.0f ? sW : sC);
    const float north = fn * (fn > 0.0f ? sC : sN);
    const float south = fs * (fs > 0.0f ? sS : sC);
    h[k] = hOld[k] - ((east - west) + (north - south));
  }
}

// settleSurface's choice on the cells [begin, end): h becomes the flux-form surface where a
// face was limited (a scale below 1 here or next door), where the cell holds less than
// exactDepth before or after the step, or on solid cells (both are 0 there); the others keep
// eq. 25's solution and get solved = 1. Returns sum(flux - h) and sum(depth) over those.
WB_WET_DRY_KERNEL SettleSums settleSpan(const Settle& f, float exactDepth, std::size_t row,
                                        std::size_t begin, std::size_t end) {
  float* __restrict h = f.h;
  float* __restrict solved = f.solved;
  const float* __restrict flux = f.flux;
  const float* __restrict scale = f.scale;
  const float* __restrict ground = f.ground;
  const float* __restrict depth = f.depth;
  const float* __restrict wet = f.wet;
  double left = 0.0, solvedDepth = 0.0;
#pragma omp simd reduction(+ : left, solvedDepth)
  for (std::size_t k = begin; k < end; ++k) {
    const float s0 = scale[k], sE = scale[k + 1], sW = scale[k - 1];
    const float sN = scale[k + row], sS = scale[k - row];
    const float lowest =
        ((s0 < sE ? s0 : sE) < (sW < sN ? sW : sN)) ? (s0 < sE ? s0 : sE) : (sW < sN ? sW : sN);
    const float least = lowest < sS ? lowest : sS;
    const float hs = h[k], hf = flux[k], floor = ground[k];
    const float before = depth[k], afterFlux = hf - floor, afterSolved = hs - floor;
    const bool keep = (wet[k] != 0.0f) & (least >= 1.0f) & (before >= exactDepth) &
                      (afterFlux >= exactDepth) & (afterSolved >= exactDepth);
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

// measureMomentumInCompressions on the cells [begin, end): where the flow converges and the
// cell holds at least exactDepth before and after, the flux-form momentum advection minus
// the semi-Lagrangian one (without the force); elsewhere 0.
WB_WET_DRY_KERNEL void momentumSpan(const Momentum& m, float exactDepth, float forceStep,
                                    std::size_t row, std::size_t begin, std::size_t end) {
  float* __restrict outU = m.outU;
  float* __restrict outV = m.outV;
  const float* __restrict u = m.u;
  const float* __restrict v = m.v;
  const float* __restrict uDep = m.uDep;
  const float* __restrict vDep = m.vDep;
  const float* __restrict fx = m.fluxX;
  const float* __restrict fy = m.fluxY;
  const float* __restrict s = m.scale;
  const float* __restrict dX = m.depthX;
  const float* __restrict dY = m.depthY;
  const float* __restrict depth = m.depth;
  const float* __restrict flux = m.flux;
  const float* __restrict ground = m.ground;
  const float* __restrict wet = m.wet;
  const float* __restrict ax = m.ax;
  const float* __restrict ay = m.ay;
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float uc = u[k], vc = v[k], uE = u[k + 1], uW = u[k - 1], vN = v[k + row],
                vS = v[k - row];
    const float uN = u[k + row], uS = u[k - row], vE = v[k + 1], vW = v[k - 1];
    // Behind a closed or dry face (depth 0) the neighbour's velocity counts as 0.
    const float openE = dX[k] != 0.0f ? 1.0f : 0.0f, openW = dX[k - 1] != 0.0f ? 1.0f : 0.0f;
    const float openN = dY[k] != 0.0f ? 1.0f : 0.0f, openS = dY[k - row] != 0.0f ? 1.0f : 0.0f;
    const float convergence = (openE * uE - openW * uW) + (openN * vN - openS * vS);
    const float fe0 = fx[k], fw0 = fx[k - 1], fn0 = fy[k], fs0 = fy[k - row];
    const float sC = s[k], sE = s[k + 1], sW = s[k - 1], sN = s[k + row], sS = s[k - row];
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
    const float before = depth[k], after = flux[k] - ground[k];
    const bool keep =
        (wet[k] != 0.0f) & (before >= exactDepth) & (after >= exactDepth) & (convergence < 0.0f);
    const float taken = keep ? 1.0f : 0.0f;
    const float inverse = 1.0f / (taken * after + (1.0f - taken));  // 1 where not taken
    outU[k] = taken * ((before * uc - outflowU) * inverse - (uDep[k] - forceStep * ax[k]));
    outV[k] = taken * ((before * vc - outflowV) * inverse - (vDep[k] - forceStep * ay[k]));
  }
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
