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

// WB_SPAN_KERNEL with an AVX-512 clone besides, chosen at load time where the CPU has it: a
// cache line per load and twice the lanes made the step 1.05x faster at 256^2 and 1.17x at
// 1024^2 (A/B on the 2-core Xeon of docs/swe-adi.md). AVX-512 has fused multiply-adds, which
// the AVX2 and default clones lack: GCC would contract a * b + c into them and round
// differently, so contraction is off in this file (after its includes), and every clone
// gives the same results bit for bit.
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

// q / D on a face, 0 where it is closed (D = 0, never negative), as arithmetic on every lane
// (divided by D + 1 = 1 and multiplied by 0 where closed; + 0 turns the -0 of a negative q
// into 0): GCC does not vectorise the division under a select.
inline float faceVelocity(float q, float depth) {
  const float open = float(__builtin_isgreater(depth, 0.0f));
  return q / (depth + (1.0f - open)) * open + 0.0f;
}

// q on a face that passes water (D > 0), 0 on a closed one, as arithmetic on every lane (+ 0
// turns -0 into 0): with a select, GCC moves the computation of q under the condition, and
// does not vectorise the loop.
inline float onOpenFace(float q, float depth) {
  return q * float(__builtin_isgreater(depth, 0.0f)) + 0.0f;
}

// Flux divergence (per cell, m^2/s / dx) of four face fluxes.
inline float divergence(float fW, float fE, float fS, float fN) {
  return fE - fW + fN - fS;
}

// 2 q L h at a cell from the couplings c_f = q g D_f / dx^2.
inline float twiceQLaplacian(float hC, float hW, float hE, float hS, float hN, float cW, float cE,
                             float cS, float cN) {
  return 2.0f * (cE * (hE - hC) - cW * (hC - hW) + cN * (hN - hC) - cS * (hC - hS));
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
  const float dt = in.dt, invDx = 1.0f / in.dx, halfDt = 0.5f * in.dt;
  // Half a step of a face k's force times its depth, D dt/2 a (a the mean of the two cells'
  // accelerations). Without a force the loop is instantiated with the force terms 0, free of
  // the conditional loads that keep it from vectorising.
  const auto solve = [&](auto forced) __attribute__((always_inline)) {
    const auto forceX = [&](std::size_t k) {
      if constexpr (forced) return in.depthX[k] * halfDt * 0.5f * (in.ax[k] + in.ax[k + 1]);
      return 0.0f;
    };
    const auto forceY = [&](std::size_t k, float depth) {
      if constexpr (forced) return depth * halfDt * 0.5f * (in.ay[k] + in.ay[k + nx]);
      return 0.0f;
    };
    const auto cell = [&](std::size_t i, float hW, float cW, float fW, float hE, float cE,
                          float fE) {
      const std::size_t k = row + i;
      const float fN = hasNorth ? forceY(k, dN[i]) : 0.0f;
      const float fS = hasSouth ? forceY(below + i, dS[i]) : 0.0f;
      rt[i] -= in.wet[k] * in.rateMean;
      r[i] = dt * rt[i] - dt * invDx * divergence(fW, fE, fS, fN) +
             twiceQLaplacian(h[i], hW, hE, hS[i], hN[i], cW, cE, south * (couple * dS[i]),
                             couple * dN[i]);
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

// Eight lanes of floats (GCC vector extension: AVX registers in the AVX2 clone, SSE pairs in
// the default one) and the 8 x 8 transpose that stages rows into lanes and back.
using Lanes = float __attribute__((vector_size(32)));
// The same, at any float's address: loads and stores of it are unaligned moves.
using UnalignedLanes = float __attribute__((vector_size(32), aligned(4)));
static_assert(kRowBand % 8 == 0, "the staging transposes 8 x 8 blocks");

// Both always inlined: compiled on their own they get the default target (SSE2), which
// shuffles through the stack, instead of the AVX2 clone's of their caller.
__attribute__((always_inline)) inline void transpose8(Lanes (&m)[8]) {
  Lanes t[8], u[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = __builtin_shufflevector(m[k], m[k + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[k + 1] = __builtin_shufflevector(m[k], m[k + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int k = 0; k < 8; k += 4)
    for (int h = 0; h < 2; ++h) {
      u[k + 2 * h] = __builtin_shufflevector(t[k + h], t[k + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[k + 2 * h + 1] =
          __builtin_shufflevector(t[k + h], t[k + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  for (int c = 0; c < 4; ++c) {
    m[c] = __builtin_shufflevector(u[c], u[c + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    m[c + 4] = __builtin_shufflevector(u[c], u[c + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

// Copies rows x nx values between the band's rows (row r at from/to + r * stride) and the
// staging buffer (stage[i * kRowBand + r]), full 8 x 8 blocks through transpose8, the rest
// one by one; staging fills the lanes beyond `rows` with 0.
template <bool ToStage>
__attribute__((always_inline)) inline void stageBand(const float* __restrict from,
                                                     float* __restrict to, std::size_t stride,
                                                     int nx, int rows) {
  constexpr int L = kRowBand;
  for (int r0 = 0; r0 < L; r0 += 8) {
    int i = 0;
    if (rows >= r0 + 8)
      for (; i + 8 <= nx; i += 8) {
        Lanes m[8];
        for (int k = 0; k < 8; ++k)
          m[k] = *reinterpret_cast<const UnalignedLanes*>(
              ToStage ? from + std::size_t(r0 + k) * stride + i : from + (i + k) * L + r0);
        transpose8(m);
        for (int k = 0; k < 8; ++k)
          *reinterpret_cast<UnalignedLanes*>(
              ToStage ? to + (i + k) * L + r0 : to + std::size_t(r0 + k) * stride + i) = m[k];
      }
    for (; i < nx; ++i)
      for (int r = r0; r < r0 + 8; ++r) {
        if (ToStage)
          to[i * L + r] = r < rows ? from[std::size_t(r) * stride + i] : 0.0f;
        else if (r < rows)
          to[std::size_t(r) * stride + i] = from[i * L + r];
      }
  }
}

// The row sweep, kRowBand rows at a time through a staging buffer, the recurrences in SIMD
// lanes: forward y_i = s_i p_i + b_i y_{i-1} (b_i = c_{i-1} p_i), back x_i = y_i + e_i x_{i+1}
// (e_i = c_i p_i).
WB_ADI_KERNEL void factorRowBands(const float* __restrict depth, float couple, std::size_t stride,
                                  int nx, int rows, float* __restrict bandC,
                                  float* __restrict bandP) {
  constexpr int L = kRowBand;
  const std::size_t size = std::size_t(nx) * L;
  const int bands = rows > L ? 2 : 1;
  for (int band = 0; band < bands; ++band)
    stageBand<true>(depth + std::size_t(band) * L * stride, bandC + band * size, stride, nx,
                    std::min(L, rows - band * L));
#pragma omp simd
  for (std::size_t k = 0; k < bands * size; ++k)
    bandC[k] = couple * bandC[k];
  // The pivots' recurrence waits on a division at every cell: two bands side by side give
  // four independent chains in place of two.
  const auto factor = [&](auto twoBands) __attribute__((always_inline)) {
    constexpr int B = twoBands ? 2 : 1;
    for (int band = 0; band < B; ++band) {
      float* __restrict c = bandC + band * size;
      float* __restrict p = bandP + band * size;
#pragma omp simd
      for (int r = 0; r < L; ++r)
        p[r] = 1.0f / (1.0f + c[r]);
    }
    for (int i = 1; i < nx; ++i)
      for (int band = 0; band < B; ++band) {
        const float* __restrict c = bandC + band * size;
        float* __restrict p = bandP + band * size;
#pragma omp simd
        for (int r = 0; r < L; ++r) {
          const float cw = c[(i - 1) * L + r], pw = p[(i - 1) * L + r];
          p[i * L + r] = 1.0f / (1.0f + cw + c[i * L + r] - cw * cw * pw);
        }
      }
  };
  if (bands == 2)
    factor(std::true_type{});
  else
    factor(std::false_type{});
}

// A full band (16 rows, whole blocks of 8 columns) with the staging fused into the
// recurrences: each block of 8 columns is transposed in registers and run through the
// forward recurrence at once, so the buffer holds only the forward results y; the back
// recurrence transposes its blocks straight back into out. The same operations in the same
// order as the separate passes below, so the same results, with two passes over the buffer
// fewer.
__attribute__((always_inline)) inline void solveFullRowBand(const float* src, float* out,
                                                            const float* __restrict bandC,
                                                            const float* __restrict bandP,
                                                            float* __restrict stage,
                                                            std::size_t stride, int nx) {
  // A column of the band is two vectors: rows 0-7 at [2 col], rows 8-15 at [2 col + 1].
  const auto* C = reinterpret_cast<const UnalignedLanes*>(bandC);
  const auto* P = reinterpret_cast<const UnalignedLanes*>(bandP);
  auto* Y = reinterpret_cast<UnalignedLanes*>(stage);
  Lanes y0 = {}, y1 = {};  // y of the previous column
  for (int i = 0; i < nx; i += 8) {
    Lanes a[8], c[8];
    for (int k = 0; k < 8; ++k) {
      a[k] = *reinterpret_cast<const UnalignedLanes*>(src + std::size_t(k) * stride + i);
      c[k] = *reinterpret_cast<const UnalignedLanes*>(src + std::size_t(k + 8) * stride + i);
    }
    transpose8(a);
    transpose8(c);
    for (int k = 0; k < 8; ++k) {
      const int col = i + k;
      const Lanes p0 = P[2 * col], p1 = P[2 * col + 1];
      if (col == 0) {
        y0 = a[k] * p0;
        y1 = c[k] * p1;
      } else {
        const Lanes b0 = C[2 * col - 2] * p0, b1 = C[2 * col - 1] * p1;
        y0 = a[k] * p0 + b0 * y0;
        y1 = c[k] * p1 + b1 * y1;
      }
      Y[2 * col] = y0;
      Y[2 * col + 1] = y1;
    }
  }
  Lanes x0 = {}, x1 = {};  // x of the next column
  for (int i = nx - 8; i >= 0; i -= 8) {
    Lanes a[8], c[8];
    for (int k = 7; k >= 0; --k) {
      const int col = i + k;
      if (col == nx - 1) {
        x0 = Y[2 * col];
        x1 = Y[2 * col + 1];
      } else {
        const Lanes e0 = C[2 * col] * P[2 * col], e1 = C[2 * col + 1] * P[2 * col + 1];
        x0 = Y[2 * col] + e0 * x0;
        x1 = Y[2 * col + 1] + e1 * x1;
      }
      a[k] = x0;
      c[k] = x1;
    }
    transpose8(a);
    transpose8(c);
    for (int k = 0; k < 8; ++k) {
      *reinterpret_cast<UnalignedLanes*>(out + std::size_t(k) * stride + i) = a[k];
      *reinterpret_cast<UnalignedLanes*>(out + std::size_t(k + 8) * stride + i) = c[k];
    }
  }
}

// The factors b_i = c_{i-1} p_i and e_i = c_i p_i are formed on the way, off the recurrences'
// critical path: two multiplications per cell for a third of the factors' traffic.
WB_ADI_KERNEL void solveRowBandStaged(const float* src, float* out, const float* __restrict bandC,
                                      const float* __restrict bandP, float* __restrict stage,
                                      std::size_t stride, int nx, int rows) {
  constexpr int L = kRowBand;
  static_assert(kRowBand == 16, "the fused path carries a band in two halves of 8 lanes");
  if (rows == L && nx % 8 == 0) {
    solveFullRowBand(src, out, bandC, bandP, stage, stride, nx);
    return;
  }
  stageBand<true>(src, stage, stride, nx, rows);
#pragma omp simd
  for (int r = 0; r < L; ++r)
    stage[r] *= bandP[r];
  for (int i = 1; i < nx; ++i) {
#pragma omp simd
    for (int r = 0; r < L; ++r) {
      const float b = bandC[(i - 1) * L + r] * bandP[i * L + r];
      stage[i * L + r] = stage[i * L + r] * bandP[i * L + r] + b * stage[(i - 1) * L + r];
    }
  }
  for (int i = nx - 2; i >= 0; --i) {
#pragma omp simd
    for (int r = 0; r < L; ++r) {
      const float e = bandC[i * L + r] * bandP[i * L + r];
      stage[i * L + r] += e * stage[(i + 1) * L + r];
    }
  }
  stageBand<false>(stage, out, stride, nx, rows);
}

WB_ADI_KERNEL ColumnResult solveColumns(const float* w, float* out, const float* __restrict depth,
                                        float couple, float* __restrict p, float* __restrict delta,
                                        std::size_t nx, int ny, int i0, int i1, bool factor,
                                        bool measure) {
  // With factor, the forward elimination computes the factors on its way.
  if (factor) {
#pragma omp simd
    for (int i = i0; i < i1; ++i) {
      const float c = couple * depth[i];
      p[i] = 1.0f / (1.0f + c);
      out[i] = w[i] * p[i];
    }
    for (int j = 1; j < ny; ++j) {
      const std::size_t row = std::size_t(j) * nx, below = row - nx;
#pragma omp simd
      for (int i = i0; i < i1; ++i) {
        const float cs = couple * depth[below + i], c = couple * depth[row + i];
        p[row + i] = 1.0f / (1.0f + cs + c - cs * cs * p[below + i]);
        out[row + i] = (w[row + i] + cs * out[below + i]) * p[row + i];
      }
    }
  } else {
#pragma omp simd
    for (int i = i0; i < i1; ++i)
      out[i] = w[i] * p[i];
    for (int j = 1; j < ny; ++j) {
      const std::size_t row = std::size_t(j) * nx, below = row - nx;
#pragma omp simd
      for (int i = i0; i < i1; ++i)
        out[row + i] = (w[row + i] + couple * depth[below + i] * out[below + i]) * p[row + i];
    }
  }
  float maxC = 0.0f, maxD = 0.0f;
  for (int j = ny - 1; j >= 0; --j) {
    const std::size_t row = std::size_t(j) * nx, above = row + nx;
    if (j + 1 < ny) {
#pragma omp simd
      for (int i = i0; i < i1; ++i)
        out[row + i] += couple * depth[row + i] * p[row + i] * out[above + i];
    }
    if (!delta) continue;
#pragma omp simd
    for (int i = i0; i < i1; ++i)
      delta[row + i] += out[row + i];
    if (measure) {
#pragma omp simd reduction(max : maxC, maxD)
      for (int i = i0; i < i1; ++i) {
        maxC = std::max(maxC, std::fabs(out[row + i]));
        maxD = std::max(maxD, std::fabs(delta[row + i]));
      }
    }
  }
  return {maxC, maxD};
}

// The mid surface of a row's east faces, h + delta / 2 - q L_y c / 4, into out[0..nx): a
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
  const float couple = in.couple;
#pragma omp simd
  for (std::size_t i = 0; i < nx; ++i) {
    const float lyc = (couple * dN[i]) * (cN[i] - c[i]) - (couple * dS[i]) * (c[i] - cS[i]);
    out[i] = h[i] + 0.5f * d[i] - 0.25f * lyc;
  }
}

// The mid surface of a row's north faces (seen from below and above), h + delta / 2 -
// q L_x c / 4, into out[0..nx); the grid's west and east edges are closed faces.
static inline __attribute__((always_inline)) void northMidRow(const FluxInputs& in,
                                                              float* __restrict out,
                                                              std::size_t row, std::size_t nx) {
  const float* __restrict h = in.h + row;
  const float* __restrict d = in.delta + row;
  const float* __restrict c = in.correction + row;
  const float* __restrict dX = in.depthX + row;
  const float couple = in.couple;
  const auto mid = [&](std::size_t i, float lxc) { return h[i] + 0.5f * d[i] - 0.25f * lxc; };
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
                           float* __restrict mids, std::size_t row, std::size_t nx, bool hasSouth,
                           bool hasNorth, bool belowReady) {
  const float* __restrict dX = in.depthX + row;
  const float* __restrict dY = in.depthY + row;
  float* __restrict qxr = qx + row, * __restrict qyr = qy + row;
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
      qxr[i] = onOpenFace(next, dX[i]);
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
      qyr[i] = onOpenFace(next, dY[i]);
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
  const float twoPerDt = in.twoPerDt, keep = in.keep, dryThreshold = in.dryThreshold;
  for (int r = 0; r < rows; ++r) {
    const std::size_t first = row + std::size_t(r) * nx;
    int drained = 0, dry = 0;
    // Quiet comparisons so that the loop vectorises.
#pragma omp simd reduction(+ : drained, dry)
    for (std::size_t k = first; k < first + nx; ++k) {
      h[k] += delta[k];
      rate[k] = keep * (twoPerDt * delta[k] - rate[k]);
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
    // In double, rounded once: the float combination's two roundings showed as volume drift
    // (1.5e-7 instead of 9e-8 of the water on verify's flooding beach).
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
