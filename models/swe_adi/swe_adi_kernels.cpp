// swe-adi's kernels. Each row kernel evaluates its formula in one inline function of the
// cell's values, called by a vectorisable loop over the interior of the row and by the two
// end cells with the missing neighbour replaced by the cell itself behind a closed face.

#include "models/swe_adi/swe_adi_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/grid/parallel.hpp"
#include "core/model/manning_friction.hpp"

// WB_SPAN_KERNEL with an AVX-512 clone besides, chosen at load time where the CPU has it: a
// cache line per load and twice the lanes (docs/swe-adi.md, "Results"). AVX-512 has fused
// multiply-adds, which the AVX2 and default clones lack: GCC would contract a * b + c into
// them and round differently, so contraction is off in this file (after its includes), and
// every clone gives the same results bit for bit (as in core/solvers/tridiagonal.cpp).
#define WB_ADI_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#pragma GCC optimize("fp-contract=off")

namespace wb {
namespace {

// The selects of the face kernels use quiet comparisons (__builtin_isgreater: no trap on NaN)
// and choose between values computed on every lane: GCC vectorises a loop only if it can
// if-convert it, and it does not when a comparison or a floating-point operation under a
// condition might trap.

// The face between cells a and b: eq. 36's mean depth, or 0 when the face is closed or its
// higher side is dry (the mean, >= 0, times 0 or 1).
inline float faceDepth(float ha, float ba, float hb, float bb, float open, float dry) {
  const float da = ha - ba, db = hb - bb;
  const float wetA = __builtin_isless(da, 0.0f) ? 0.0f : da;  // std::max(da, 0), quiet
  const float wetB = __builtin_isless(db, 0.0f) ? 0.0f : db;
  const float higher = __builtin_isgreaterequal(ha, hb) ? wetA : wetB;
  return open * 0.5f * (wetA + wetB) * float(__builtin_isgreater(higher, dry));
}

// Flux divergence (per cell, m^2/s / dx) of four face fluxes.
inline float divergence(float fW, float fE, float fS, float fN) {
  return fE - fW + fN - fS;
}

// (q / theta) L h = theta dt^2 L h at a cell from the couplings c_f = q g D_f / dx^2
// (inverseTheta = 1 / theta: 2 for the trapezoidal rule).
inline float weightedLaplacian(float hC, float hW, float hE, float hS, float hN, float cW, float cE,
                               float cS, float cN, float inverseTheta) {
  return inverseTheta * (cE * (hE - hC) - cW * (hC - hW) + cN * (hN - hC) - cS * (hC - hS));
}

// r - (1 - q L) delta at a cell.
inline float residualCell(float r, float dC, float dW, float dE, float dS, float dN, float cW,
                          float cE, float cS, float cN) {
  return r - dC - (cE * (dC - dE) + cW * (dC - dW) + cN * (dC - dN) + cS * (dC - dS));
}

}  // namespace

WB_ADI_KERNEL void faceDepthRow(const FaceInputs& in, float* __restrict depthX,
                                float* __restrict depthY, std::size_t row, std::size_t nx,
                                bool hasNorth) {
  const float* __restrict h = in.h + row;
  const float* __restrict b = in.ground + row;
  const float* __restrict openEast = in.openEast + row;
  const float* __restrict openNorth = in.openNorth + row;
  float* __restrict dx = depthX + row, * __restrict dy = depthY + row;
  const float dry = in.dryThreshold;
#pragma omp simd
  for (std::size_t i = 0; i < nx - 1; ++i)
    dx[i] = faceDepth(h[i], b[i], h[i + 1], b[i + 1], openEast[i], dry);
  dx[nx - 1] = 0.0f;
  if (!hasNorth) {
    std::fill(dy, dy + nx, 0.0f);
    return;
  }
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i)
    dy[i] = faceDepth(h[i], b[i], h[i + nx], b[i + nx], openNorth[i], dry);
}

WB_ADI_KERNEL void northFaceDepthRow(const FaceInputs& in, float* __restrict depth, std::size_t row,
                                     std::size_t nx) {
  const float* __restrict h = in.h + row;
  const float* __restrict b = in.ground + row;
  const float* __restrict openNorth = in.openNorth + row;
  const float dry = in.dryThreshold;
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i)
    depth[i] = faceDepth(h[i], b[i], h[i + nx], b[i + nx], openNorth[i], dry);
}

WB_ADI_KERNEL void rhsRow(const RhsInputs& in, const float* southDepth, float* __restrict rate,
                          float* __restrict rhs, std::size_t row, std::size_t nx, bool hasSouth,
                          bool hasNorth) {
  const float* __restrict h = in.h + row;
  const float* __restrict hS = hasSouth ? h - nx : h;
  const float* __restrict hN = hasNorth ? h + nx : h;
  const float* __restrict dX = in.depthX + row;
  // The first row's south face is the grid edge: its terms get factor 0 (read from the row's
  // own north faces).
  const float south = hasSouth ? 1.0f : 0.0f;
  const std::size_t below = hasSouth ? row - nx : row;
  const float* __restrict dS = hasSouth ? southDepth : in.depthY + row;
  const float* __restrict dN = in.depthY + row;
  const float couple = in.couple;
  float* __restrict rt = rate + row;
  float* __restrict r = rhs + row;
  const float dt = in.dt, invDx = 1.0f / in.dx, thetaDt = in.theta * in.dt;
  const float inverseTheta = 1.0f / in.theta;
  // theta of a step of a face k's force times its depth, D theta dt a (a the mean of the two
  // cells' accelerations). Without a force the loop is instantiated with the force terms 0, free of
  // the conditional loads that keep it from vectorising.
  const auto solve = [&](auto forced) __attribute__((always_inline)) {
    const auto forceX = [&](std::size_t k) {
      if constexpr (forced) return in.depthX[k] * thetaDt * 0.5f * (in.ax[k] + in.ax[k + 1]);
      return 0.0f;
    };
    const auto forceY = [&](std::size_t k, float depth) {
      if constexpr (forced) return depth * thetaDt * 0.5f * (in.ay[k] + in.ay[k + nx]);
      return 0.0f;
    };
    const auto cell = [&](std::size_t i, float hW, float cW, float fW, float hE, float cE,
                          float fE) {
      const std::size_t k = row + i;
      const float fN = hasNorth ? forceY(k, dN[i]) : 0.0f;
      const float fS = hasSouth ? forceY(below + i, dS[i]) : 0.0f;
      rt[i] -= in.wet[k] * in.rateMean;
      r[i] = dt * rt[i] - dt * invDx * divergence(fW, fE, fS, fN) +
             weightedLaplacian(h[i], hW, hE, hS[i], hN[i], cW, cE, south * (couple * dS[i]),
                               couple * dN[i], inverseTheta);
    };
    if (nx == 1) {
      cell(0, h[0], 0.0f, 0.0f, h[0], 0.0f, 0.0f);
      return;
    }
    cell(0, h[0], 0.0f, 0.0f, h[1], couple * dX[0], forceX(row));
#pragma omp simd
    for (std::size_t i = 1; i < nx - 1; ++i)
      cell(i, h[i - 1], couple * dX[i - 1], forceX(row + i - 1), h[i + 1], couple * dX[i],
           forceX(row + i));
    cell(nx - 1, h[nx - 2], couple * dX[nx - 2], forceX(row + nx - 2), h[nx - 1], 0.0f, 0.0f);
  };
  if (in.ax)
    solve(std::true_type{});
  else
    solve(std::false_type{});
}

WB_ADI_KERNEL void residualRow(const float* __restrict rhs, const float* __restrict delta,
                               const float* __restrict depthX, const float* __restrict depthY,
                               float couple, float* __restrict out, std::size_t row, std::size_t nx,
                               bool hasSouth, bool hasNorth) {
  const float* __restrict d = delta + row;
  const float* __restrict dS = hasSouth ? d - nx : d;
  const float* __restrict dN = hasNorth ? d + nx : d;
  const float* __restrict fX = depthX + row;
  const float* __restrict fN = depthY + row;
  const float* __restrict fS = depthY + (hasSouth ? row - nx : row);
  const float south = hasSouth ? 1.0f : 0.0f;
  const float* __restrict r = rhs + row;
  float* __restrict o = out + row;
  const auto cell = [&](std::size_t i, float dW, float cW, float dE, float cE) {
    return residualCell(r[i], d[i], dW, dE, dS[i], dN[i], cW, cE, south * (couple * fS[i]),
                        couple * fN[i]);
  };
  if (nx == 1) {
    o[0] = cell(0, d[0], 0.0f, d[0], 0.0f);
    return;
  }
  o[0] = cell(0, d[0], 0.0f, d[1], couple * fX[0]);
#pragma omp simd
  for (std::size_t i = 1; i < nx - 1; ++i)
    o[i] = cell(i, d[i - 1], couple * fX[i - 1], d[i + 1], couple * fX[i]);
  o[nx - 1] = cell(nx - 1, d[nx - 2], couple * fX[nx - 2], d[nx - 1], 0.0f);
}

// The mid surface of a row's east faces, h + theta (delta - q L_y c / 2), into out[0..nx): a
// missing row (the grid's edge) is the row itself behind a closed face (depth 0).
static inline __attribute__((always_inline)) void eastMidRow(const FluxInputs& in,
                                                             float* __restrict out, std::size_t row,
                                                             std::size_t nx, bool hasSouth,
                                                             bool hasNorth) {
  const float* __restrict h = in.h + row;
  const float* __restrict d = in.delta + row;
  const float* __restrict c = in.correction + row;
  const float* __restrict cN = in.correction + (hasNorth ? row + nx : row);
  const float* __restrict cS = in.correction + (hasSouth ? row - nx : row);
  const float* __restrict dN = in.depthY + row;
  const float* __restrict dS = in.depthY + (hasSouth ? row - nx : row);
  const float couple = in.couple, theta = in.theta, halfTheta = 0.5f * in.theta;
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i) {
    const float lyc = (couple * dN[i]) * (cN[i] - c[i]) - (couple * dS[i]) * (c[i] - cS[i]);
    out[i] = h[i] + theta * d[i] - halfTheta * lyc;
  }
}

// The mid surface of a row's north faces (seen from below and above), h + theta (delta -
// q L_x c / 2), into out[0..nx); the grid's west and east edges are closed faces.
static inline __attribute__((always_inline)) void northMidRow(const FluxInputs& in,
                                                              float* __restrict out,
                                                              std::size_t row, std::size_t nx) {
  const float* __restrict h = in.h + row;
  const float* __restrict d = in.delta + row;
  const float* __restrict c = in.correction + row;
  const float* __restrict dX = in.depthX + row;
  const float couple = in.couple, theta = in.theta, halfTheta = 0.5f * in.theta;
  const auto mid = [&](std::size_t i, float lxc) { return h[i] + theta * d[i] - halfTheta * lxc; };
  if (nx == 1) {
    out[0] = mid(0, 0.0f);
    return;
  }
  out[0] = mid(0, (couple * dX[0]) * (c[1] - c[0]));
#pragma omp simd
  for (std::size_t i = 1; i < nx - 1; ++i)
    out[i] =
        mid(i, (couple * dX[i]) * (c[i + 1] - c[i]) - (couple * dX[i - 1]) * (c[i] - c[i - 1]));
  out[nx - 1] = mid(nx - 1, -(couple * dX[nx - 2]) * (c[nx - 1] - c[nx - 2]));
}

WB_ADI_KERNEL void fluxRow(const FluxInputs& in, float* __restrict qx, float* __restrict qy,
                           float* __restrict u, float* __restrict v, float* __restrict mids,
                           std::size_t row, std::size_t nx, bool hasSouth, bool hasNorth,
                           bool belowReady) {
  const float* __restrict dX = in.depthX + row;
  const float* __restrict dY = in.depthY + row;
  float* __restrict qxr = qx + row, * __restrict qyr = qy + row;
  float* __restrict ur = u + row, * __restrict vr = v + row;
  const float dt = in.dt, gDtPerDx = in.gDtPerDx, keep = in.keep;
  // The north faces' mid surfaces of rows alternate between two buffers by the row's parity,
  // so that the row above's, computed here, is the next row's below.
  const bool odd = (row / nx) % 2 != 0;
  float* __restrict east = mids;
  float* __restrict northBelow = mids + (odd ? 2 : 1) * nx;
  float* __restrict northAbove = mids + (odd ? 1 : 2) * nx;
  eastMidRow(in, east, row, nx, hasSouth, hasNorth);
  if (hasNorth) {
    if (!belowReady) northMidRow(in, northBelow, row, nx);
    northMidRow(in, northAbove, row + nx, nx);
  }
  // Without a force the loops are instantiated with a = 0, free of conditional loads.
  const auto update = [&](auto forced) __attribute__((always_inline)) {
#pragma omp simd
    for (std::size_t i = 0; i < nx - 1; ++i) {
      const float a = forced ? 0.5f * (in.ax[row + i] + in.ax[row + i + 1]) : 0.0f;
      const float next = keep * (qxr[i] + dX[i] * (dt * a - gDtPerDx * (east[i + 1] - east[i])));
      qxr[i] = next;
      ur[i] = faceVelocity(next, dX[i]);
    }
    qxr[nx - 1] = 0.0f;
    if (!hasNorth) {
      std::fill(qyr, qyr + nx, 0.0f);
      return;
    }
#pragma omp simd
    for (std::size_t i = 0; i < nx; ++i) {
      const float a = forced ? 0.5f * (in.ay[row + i] + in.ay[row + i + nx]) : 0.0f;
      const float next =
          keep * (qyr[i] + dY[i] * (dt * a - gDtPerDx * (northAbove[i] - northBelow[i])));
      qyr[i] = next;
      vr[i] = faceVelocity(next, dY[i]);
    }
  };
  if (in.ax)
    update(std::true_type{});
  else
    update(std::false_type{});
}

WB_ADI_KERNEL Mismatch mismatchRow(const float* __restrict qx, const float* __restrict qy,
                                   const float* __restrict rate, float* __restrict out, float scale,
                                   float invDx, std::size_t row, std::size_t nx, bool hasSouth) {
  const float* __restrict x = qx + row;
  const float* __restrict north = qy + row;
  const float* __restrict south = qy + (hasSouth ? row - nx : row);
  const float southFactor = hasSouth ? 1.0f : 0.0f;
  const float* __restrict r = rate + row;
  // The grid's west edge: a closed face.
  const float m0 = -invDx * (x[0] + north[0] - southFactor * south[0]) - r[0];
  float mismatch = std::fabs(m0), size = std::fabs(r[0]);
  if (out) {
    float* __restrict o = out + row;
    o[0] = scale * m0;
#pragma omp simd reduction(max : mismatch, size)
    for (std::size_t i = 1; i < nx; ++i) {
      const float m = -invDx * (x[i] - x[i - 1] + north[i] - southFactor * south[i]) - r[i];
      o[i] = scale * m;
      mismatch = std::max(mismatch, std::fabs(m));
      size = std::max(size, std::fabs(r[i]));
    }
  } else {
#pragma omp simd reduction(max : mismatch, size)
    for (std::size_t i = 1; i < nx; ++i) {
      const float m = -invDx * (x[i] - x[i - 1] + north[i] - southFactor * south[i]) - r[i];
      mismatch = std::max(mismatch, std::fabs(m));
      size = std::max(size, std::fabs(r[i]));
    }
  }
  return {mismatch, size};
}

WB_ADI_KERNEL void dischargeCorrectionRow(const float* __restrict phi,
                                          const float* __restrict depthX,
                                          const float* __restrict depthY, float* __restrict qx,
                                          float* __restrict qy, float invDx, std::size_t row,
                                          std::size_t nx, bool hasNorth) {
  const float* __restrict f = phi + row;
  const float* __restrict dX = depthX + row;
  const float* __restrict dY = depthY + row;
  float* __restrict x = qx + row, * __restrict y = qy + row;
#pragma omp simd
  for (std::size_t i = 0; i < nx - 1; ++i)
    x[i] -= dX[i] * invDx * (f[i + 1] - f[i]);
  if (!hasNorth) return;
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i)
    y[i] -= dY[i] * invDx * (f[i + nx] - f[i]);
}

WB_ADI_KERNEL double frictionRow(const FrictionInputs& in, float* __restrict qx,
                                 float* __restrict qy, float* __restrict changeX,
                                 float* __restrict changeY, std::size_t row, std::size_t nx,
                                 bool hasSouth, bool hasNorth) {
  const float* __restrict u = in.u + row, * __restrict v = in.v + row;
  const float* __restrict vS = hasSouth ? v - nx : v;
  const float* __restrict dX = in.depthX + row, * __restrict dY = in.depthY + row;
  float* __restrict fX = qx + row, * __restrict fY = qy + row;
  float* __restrict cX = changeX, * __restrict cY = changeY;
  const float south = hasSouth ? 1.0f : 0.0f, gn2Dt = in.gn2Dt, floor = in.floor;
  float lost = 0.0f;
  // One face: discharge q, depth D, normal velocity un, tangential ut.
  const auto rub = [&](float& q, float& change, float depth, float un, float ut) {
    const float keep =
        ManningFriction::keepFloat(gn2Dt, std::sqrt(un * un + ut * ut), depth, floor);
    const float after = keep * q;
    change = after - q;
    q = after;
    return 0.5f * depth * un * un * (1.0f - keep * keep);
  };
#pragma omp simd reduction(+ : lost)
  for (std::size_t i = 0; i < nx - 1; ++i) {
    const float ut = 0.25f * (v[i] + v[i + 1] + south * (vS[i] + vS[i + 1]));
    lost += rub(fX[i], cX[i], dX[i], u[i], ut);
  }
  cX[nx - 1] = 0.0f;
  if (!hasNorth) {
    std::fill(cY, cY + nx, 0.0f);
    return double(lost);
  }
  lost += rub(fY[0], cY[0], dY[0], v[0], 0.25f * (u[0] + u[nx]));
#pragma omp simd reduction(+ : lost)
  for (std::size_t i = 1; i < nx; ++i) {
    const float ut = 0.25f * (u[i] + u[i + nx] + u[i - 1] + u[i - 1 + nx]);
    lost += rub(fY[i], cY[i], dY[i], v[i], ut);
  }
  return double(lost);
}

WB_ADI_KERNEL void followDischargeChangeRow(const float* __restrict changeX,
                                            const float* __restrict changeY,
                                            const float* __restrict changeSouth,
                                            float* __restrict rate, float invDx, std::size_t row,
                                            std::size_t nx) {
  const float* __restrict cS = changeSouth ? changeSouth : changeY;
  const float south = changeSouth ? 1.0f : 0.0f;
  const float* __restrict cX = changeX;
  const float* __restrict cY = changeY;
  float* __restrict r = rate + row;
  r[0] -= (cX[0] + cY[0] - south * cS[0]) * invDx;
#pragma omp simd
  for (std::size_t i = 1; i < nx; ++i)
    r[i] -= (cX[i] - cX[i - 1] + cY[i] - south * cS[i]) * invDx;
}

WB_ADI_KERNEL void faceVelocityRow(const float* __restrict qx, const float* __restrict qy,
                                   const float* __restrict depthX, const float* __restrict depthY,
                                   float* __restrict u, float* __restrict v, std::size_t row,
                                   std::size_t nx, bool hasNorth) {
#pragma omp simd
  for (std::size_t k = row; k < row + nx - 1; ++k)
    u[k] = faceVelocity(qx[k], depthX[k]);
  if (!hasNorth) return;
#pragma omp simd
  for (std::size_t k = row; k < row + nx; ++k)
    v[k] = faceVelocity(qy[k], depthY[k]);
}

WB_ADI_KERNEL void cellVelocityRow(const float* __restrict u, const float* __restrict v,
                                   float* __restrict cellU, float* __restrict cellV,
                                   std::size_t row, std::size_t nx, bool hasSouth) {
  cellU[row] = 0.5f * u[row];
#pragma omp simd
  for (std::size_t i = 1; i < nx; ++i)
    cellU[row + i] = 0.5f * (u[row + i - 1] + u[row + i]);
  if (!hasSouth) {
#pragma omp simd
    for (std::size_t i = 0; i < nx; ++i)
      cellV[row + i] = 0.5f * v[row + i];
    return;
  }
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i)
    cellV[row + i] = 0.5f * (v[row + i - nx] + v[row + i]);
}

WB_ADI_KERNEL void surfaceRows(const SurfaceInputs& in, float* __restrict h, float* __restrict rate,
                               std::size_t row, std::size_t nx, int rows,
                               RowCounts* __restrict counts) {
  const float* __restrict delta = in.delta;
  const float* __restrict ground = in.ground;
  const float* __restrict wet = in.wet;
  const float ratePerDelta = in.ratePerDelta, rateCarry = in.rateCarry, keep = in.keep,
              dryThreshold = in.dryThreshold;
  for (int r = 0; r < rows; ++r) {
    const std::size_t first = row + std::size_t(r) * nx;
    int drained = 0, dry = 0;
    // Quiet comparisons so that the loop vectorises.
#pragma omp simd reduction(+ : drained, dry)
    for (std::size_t k = first; k < first + nx; ++k) {
      h[k] += delta[k];
      rate[k] = keep * (ratePerDelta * delta[k] - rateCarry * rate[k]);
      const float depth = h[k] - ground[k];
      const bool isWet = wet[k] != 0.0f;
      drained += int(isWet & __builtin_isless(depth, 0.0f));
      dry += int(isWet & __builtin_islessequal(depth, dryThreshold));
    }
    counts[r].drained = drained;
    counts[r].dry = dry;
  }
  // Each row's rate summed in cell order (a float sum in SIMD lanes along the row would round
  // differently), the rows' sums side by side: independent additions, not one chain.
  float sums[kSurfaceRows] = {};
  if (rows == kSurfaceRows) {
    for (std::size_t i = 0; i < nx; ++i)
      for (int r = 0; r < kSurfaceRows; ++r)
        sums[r] += rate[row + std::size_t(r) * nx + i];
  } else {
    for (std::size_t i = 0; i < nx; ++i)
      for (int r = 0; r < rows; ++r)
        sums[r] += rate[row + std::size_t(r) * nx + i];
  }
  for (int r = 0; r < rows; ++r)
    counts[r].rateSum = sums[r];
}

WB_ADI_KERNEL Gram gramRow(const float* __restrict delta, const float* __restrict correction,
                           const float* __restrict rhs, const float* __restrict depthX,
                           const float* __restrict depthY, float couple, std::size_t row,
                           std::size_t nx, bool hasNorth) {
  const float* __restrict d = delta + row;
  const float* __restrict c = correction + row;
  const float* __restrict r = rhs + row;
  const float* __restrict fX = depthX + row;
  const float* __restrict fY = depthY + row;
  double dd = 0.0, dc = 0.0, cc = 0.0, dr = 0.0, cr = 0.0;
#pragma omp simd reduction(+ : dd, dc, cc, dr, cr)
  for (std::size_t i = 0; i < nx; ++i) {
    const double di = d[i], ci = c[i];
    dd += di * di;
    dc += di * ci;
    cc += ci * ci;
    dr += di * r[i];
    cr += ci * r[i];
  }
#pragma omp simd reduction(+ : dd, dc, cc)
  for (std::size_t i = 0; i < nx - 1; ++i) {
    const double f = couple * fX[i];
    const double jd = double(d[i]) - d[i + 1], jc = double(c[i]) - c[i + 1];
    dd += f * jd * jd;
    dc += f * jd * jc;
    cc += f * jc * jc;
  }
  if (hasNorth) {
#pragma omp simd reduction(+ : dd, dc, cc)
    for (std::size_t i = 0; i < nx; ++i) {
      const double f = couple * fY[i];
      const double jd = double(d[i]) - d[i + nx], jc = double(c[i]) - c[i + nx];
      dd += f * jd * jd;
      dc += f * jd * jc;
      cc += f * jc * jc;
    }
  }
  return {dd, dc, cc, dr, cr};
}

WB_ADI_KERNEL void combineRow(float* delta, float* correction, double a, double b, std::size_t row,
                              std::size_t nx) {
  if (delta == correction) {
#pragma omp simd
    for (std::size_t k = row; k < row + nx; ++k)
      delta[k] = float(a * delta[k]);
    return;
  }
  float* __restrict d = delta + row;
  float* __restrict c = correction + row;
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i) {
    // In double, rounded once: the float combination's two roundings show as volume drift
    // (docs/swe-adi.md, "Results").
    d[i] = float(double(a) * d[i] + double(b) * c[i]);
    c[i] = float(a * c[i]);
  }
}

WB_ADI_KERNEL double energyLossRow(const float* __restrict rhs, const float* __restrict delta,
                                   const float* __restrict depthX, const float* __restrict depthY,
                                   float couple, std::size_t row, std::size_t nx, bool hasSouth,
                                   bool hasNorth) {
  const float* __restrict d = delta + row;
  const float* __restrict dS = hasSouth ? d - nx : d;
  const float* __restrict dN = hasNorth ? d + nx : d;
  const float* __restrict fX = depthX + row;
  const float* __restrict fN = depthY + row;
  const float* __restrict fS = depthY + (hasSouth ? row - nx : row);
  const float south = hasSouth ? 1.0f : 0.0f;
  const float* __restrict r = rhs + row;
  const auto cell = [&](std::size_t i, float dW, float cW, float dE, float cE) {
    return double(d[i]) * residualCell(r[i], d[i], dW, dE, dS[i], dN[i], cW, cE,
                                       south * (couple * fS[i]), couple * fN[i]);
  };
  if (nx == 1) return cell(0, d[0], 0.0f, d[0], 0.0f);
  double sum = cell(0, d[0], 0.0f, d[1], couple * fX[0]);
#pragma omp simd reduction(+ : sum)
  for (std::size_t i = 1; i < nx - 1; ++i)
    sum += cell(i, d[i - 1], couple * fX[i - 1], d[i + 1], couple * fX[i]);
  return sum + cell(nx - 1, d[nx - 2], couple * fX[nx - 2], d[nx - 1], 0.0f);
}

}  // namespace wb
