// The banded Thomas solves of core/solvers/tridiagonal.hpp.

#include "core/solvers/tridiagonal.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

// An AVX-512 clone besides the AVX2 and default ones, chosen at load time where the CPU has
// it: a cache line per load and twice the lanes (docs/swe-adi.md, "Results"). AVX-512 has
// fused multiply-adds, which the AVX2 and default clones lack: GCC would contract a * b + c
// into them and round differently, so contraction is off in this file (after its includes),
// and every clone gives the same results bit for bit.
#define WB_TRIDIAGONAL_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#pragma GCC optimize("fp-contract=off")

namespace wb {
namespace {

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

}  // namespace

// The row sweep, kRowBand rows at a time through a staging buffer, the recurrences in SIMD
// lanes: forward y_i = s_i p_i + b_i y_{i-1} (b_i = c_{i-1} p_i), back x_i = y_i + e_i x_{i+1}
// (e_i = c_i p_i).
WB_TRIDIAGONAL_KERNEL void factorRowBands(const float* __restrict weight, float scale,
                                          std::size_t stride, int nx, int rows,
                                          float* __restrict bandC, float* __restrict bandP) {
  constexpr int L = kRowBand;
  const std::size_t size = std::size_t(nx) * L;
  const int bands = rows > L ? 2 : 1;
  for (int band = 0; band < bands; ++band)
    stageBand<true>(weight + std::size_t(band) * L * stride, bandC + band * size, stride, nx,
                    std::min(L, rows - band * L));
#pragma omp simd
  for (std::size_t k = 0; k < bands * size; ++k)
    bandC[k] = scale * bandC[k];
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

namespace {

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

}  // namespace

// The factors b_i = c_{i-1} p_i and e_i = c_i p_i are formed on the way, off the recurrences'
// critical path: two multiplications per cell for a third of the factors' traffic.
WB_TRIDIAGONAL_KERNEL void solveRowBandStaged(const float* src, float* out,
                                              const float* __restrict bandC,
                                              const float* __restrict bandP,
                                              float* __restrict stage, std::size_t stride, int nx,
                                              int rows) {
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

WB_TRIDIAGONAL_KERNEL ColumnResult solveColumns(const float* w, float* out,
                                                const float* __restrict weight, float scale,
                                                float* __restrict p, float* __restrict sum,
                                                std::size_t nx, int ny, int i0, int i1, bool factor,
                                                bool measure) {
  // With factor, the forward elimination computes the factors on its way.
  if (factor) {
#pragma omp simd
    for (int i = i0; i < i1; ++i) {
      const float c = scale * weight[i];
      p[i] = 1.0f / (1.0f + c);
      out[i] = w[i] * p[i];
    }
    for (int j = 1; j < ny; ++j) {
      const std::size_t row = std::size_t(j) * nx, below = row - nx;
#pragma omp simd
      for (int i = i0; i < i1; ++i) {
        const float cs = scale * weight[below + i], c = scale * weight[row + i];
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
        out[row + i] = (w[row + i] + scale * weight[below + i] * out[below + i]) * p[row + i];
    }
  }
  float maxC = 0.0f, maxD = 0.0f;
  for (int j = ny - 1; j >= 0; --j) {
    const std::size_t row = std::size_t(j) * nx, above = row + nx;
    if (j + 1 < ny) {
#pragma omp simd
      for (int i = i0; i < i1; ++i)
        out[row + i] += scale * weight[row + i] * p[row + i] * out[above + i];
    }
    if (!sum) continue;
#pragma omp simd
    for (int i = i0; i < i1; ++i)
      sum[row + i] += out[row + i];
    if (measure) {
#pragma omp simd reduction(max : maxC, maxD)
      for (int i = i0; i < i1; ++i) {
        maxC = std::max(maxC, std::fabs(out[row + i]));
        maxD = std::max(maxD, std::fabs(sum[row + i]));
      }
    }
  }
  return {maxC, maxD};
}

}  // namespace wb
