#include "models/advected_wave/advected_wave_kernels.hpp"

#include <climits>
#include <cmath>

#include "core/grid/parallel.hpp"
#include "core/grid/stencil.hpp"

namespace wb::advected {

// divergenceAndHeightSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL float divergenceAndHeightSpan(float* __restrict divergence, float* __restrict z,
                                             const float* __restrict u, const float* __restrict v,
                                             float halfInverseDx, float inverseKappa,
                                             std::size_t row, std::size_t begin, std::size_t end) {
  float worst = 0.0f;
#pragma omp simd reduction(max : worst)
  for (std::size_t k = begin; k < end; ++k) {
    const float div = (u[k + 1] - u[k - 1] + v[k + row] - v[k - row]) * halfInverseDx;
    divergence[k] = div;
    z[k] -= inverseKappa * div;
    worst = std::max(worst, std::fabs(div));
  }
  return worst;
}

// addForceSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL void addForceSpan(float* __restrict u, float* __restrict v,
                                 const float* __restrict fx, const float* __restrict fy,
                                 const std::uint8_t* __restrict wet, float dt, std::size_t begin,
                                 std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    // A 0/1 factor, not a branch (GCC does not if-convert this loop otherwise); the force is
    // finite, so a dry cell gets + 0.
    const float on = wet[k] ? 1.0f : 0.0f;
    u[k] += on * (dt * fx[k]);
    v[k] += on * (dt * fy[k]);
  }
}

// waveSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL void waveSpan(float* __restrict zNew, const float* __restrict z,
                             const float* __restrict zOld, float a, float b, std::size_t row,
                             std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    zNew[k] =
        z[k] + (a * (z[k] - zOld[k]) + b * interiorLaplacian(StencilKind::FivePoint, z, k, row));
}

// divergenceSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL void divergenceSpan(float* __restrict out, const float* __restrict u,
                                   const float* __restrict v, float halfInverseDx, std::size_t row,
                                   std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    out[k] = (u[k + 1] - u[k - 1] + v[k + row] - v[k - row]) * halfInverseDx;
}

// subtractGradientSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL void subtractGradientSpan(float* __restrict u, float* __restrict v,
                                         const float* __restrict q, float scale, std::size_t row,
                                         std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    u[k] -= scale * (q[k + 1] - q[k - 1]);
    v[k] -= scale * (q[k + row] - q[k - row]);
  }
}

// Cells per block of advectSpan: its departure points are computed first, then sampled.
constexpr int kAdvectBlock = 32;

// The departure point of cell (i, j): lower corner (i0, j0) of its 2 x 2 sample and the weights.
struct Departure {
  int i0, j0;
  float sx, sy;
};
inline Departure departureOf(int i, int j, float velocityU, float velocityV, float cellsPerVelocity,
                             int lastI0, int lastJ0, float xMax, float yMax) {
  const float fi = float(i), fj = float(j);
  const float backX = -cellsPerVelocity * velocityU;
  const float backY = -cellsPerVelocity * velocityV;
  // Offsets clamped to the grid; the lower bound first turns a NaN velocity into it.
  float ox = backX > -fi ? backX : -fi, oy = backY > -fj ? backY : -fj;
  ox = ox < xMax - fi ? ox : xMax - fi;
  oy = oy < yMax - fj ? oy : yMax - fj;
  int i0 = int(fi + ox), j0 = int(fj + oy);  // >= 0: truncation is the floor
  i0 = i0 < lastI0 ? i0 : lastI0;
  j0 = j0 < lastJ0 ? j0 : lastJ0;
  return {i0, j0, (fi - float(i0)) + ox, (fj - float(j0)) + oy};
}

// The bilinear sample with weights sx, sy whose lower corner is the cell p itself or its west,
// south or south-west neighbour: the 3 x 3 values around the cell are loaded and the 2 x 2 of
// the sample selected, then weighted as in advectSpan's other paths (the same arithmetic on the
// same values, so the same result).
inline float bilinearNear(const float* p, int nx, bool west, bool south, float sx, float sy) {
  const float southWest = p[-nx - 1], southCentre = p[-nx], southEast = p[-nx + 1];
  const float westOfCell = p[-1], centre = p[0], eastOfCell = p[1];
  const float northWest = p[nx - 1], northCentre = p[nx], northEast = p[nx + 1];
  // Per row the pair (corner column, the one east of it), then the pair of rows.
  const float southLeft = west ? southWest : southCentre;
  const float southRight = west ? southCentre : southEast;
  const float left = west ? westOfCell : centre, right = west ? centre : eastOfCell;
  const float northLeft = west ? northWest : northCentre;
  const float northRight = west ? northCentre : northEast;
  const float bottomLeft = south ? southLeft : left, bottomRight = south ? southRight : right;
  const float topLeft = south ? left : northLeft, topRight = south ? right : northRight;
  const float bottom = (1.0f - sx) * bottomLeft + sx * bottomRight;
  const float top = (1.0f - sx) * topLeft + sx * topRight;
  return (1.0f - sy) * bottom + sy * top;
}

WB_SPAN_KERNEL void advectSpan(float* __restrict u, float* __restrict v,
                               const float* __restrict uOld, const float* __restrict vOld,
                               float cellsPerVelocity, int nx, int ny, int j, int begin, int end) {
  // Lower corner of the 2 x 2 sample: at most the last pair (one column or row: the only one).
  const int lastI0 = nx > 2 ? nx - 2 : 0, lastJ0 = ny > 2 ? ny - 2 : 0;
  const int east = nx > 1 ? 1 : 0, north = ny > 1 ? nx : 0;
  const float xMax = float(nx - 1), yMax = float(ny - 1);
  const int rowStart = j * nx;
  // bilinearNear's loads reach one row and one column beyond the cell: a block may take it if
  // they stay inside the arrays (which excludes the first and last rows).
  const int cells = nx * ny;
  const bool nearPassFits = nx > 2 && ny > 2;
  alignas(64) float weightX[kAdvectBlock], weightY[kAdvectBlock];
  alignas(64) int corner[kAdvectBlock], westward[kAdvectBlock], southward[kAdvectBlock];
  for (int start = begin; start < end; start += kAdvectBlock) {
    const int count = std::min(kAdvectBlock, end - start);
    const int k0 = rowStart + start;
    float* __restrict uOut = u + k0;
    float* __restrict vOut = v + k0;
    int lowestShift = INT_MAX, highestShift = INT_MIN, farCells = 0;
#pragma omp simd reduction(min : lowestShift) reduction(max : highestShift) reduction(+ : farCells)
    for (int l = 0; l < count; ++l) {
      const int i = start + l;
      const Departure d = departureOf(i, j, uOld[k0 + l], vOld[k0 + l], cellsPerVelocity, lastI0,
                                      lastJ0, xMax, yMax);
      weightX[l] = d.sx;
      weightY[l] = d.sy;
      corner[l] = d.j0 * nx + d.i0;
      const int shift = corner[l] - (k0 + l);
      lowestShift = std::min(lowestShift, shift);
      highestShift = std::max(highestShift, shift);
      westward[l] = i - d.i0;  // 0 or 1 for a near sample
      southward[l] = j - d.j0;
      farCells += (unsigned(i - d.i0) > 1u) | (unsigned(j - d.j0) > 1u);
    }
    if (lowestShift == highestShift) {
      const float* __restrict u00 = uOld + k0 + lowestShift;
      const float* __restrict v00 = vOld + k0 + lowestShift;
#pragma omp simd
      for (int l = 0; l < count; ++l) {
        const float sx = weightX[l], sy = weightY[l];
        const float uBottom = (1.0f - sx) * u00[l] + sx * u00[l + east];
        const float uTop = (1.0f - sx) * u00[l + north] + sx * u00[l + north + east];
        const float vBottom = (1.0f - sx) * v00[l] + sx * v00[l + east];
        const float vTop = (1.0f - sx) * v00[l + north] + sx * v00[l + north + east];
        uOut[l] = (1.0f - sy) * uBottom + sy * uTop;
        vOut[l] = (1.0f - sy) * vBottom + sy * vTop;
      }
    } else if (farCells == 0 && nearPassFits && k0 - nx - 1 >= 0 && k0 + count + nx < cells) {
#pragma omp simd
      for (int l = 0; l < count; ++l) {
        const bool west = westward[l] != 0, south = southward[l] != 0;
        uOut[l] = bilinearNear(uOld + k0 + l, nx, west, south, weightX[l], weightY[l]);
        vOut[l] = bilinearNear(vOld + k0 + l, nx, west, south, weightX[l], weightY[l]);
      }
    } else {
#pragma omp simd
      for (int l = 0; l < count; ++l) {
        const float sx = weightX[l], sy = weightY[l];
        const int c = corner[l];
        const float uBottom = (1.0f - sx) * uOld[c] + sx * uOld[c + east];
        const float uTop = (1.0f - sx) * uOld[c + north] + sx * uOld[c + north + east];
        const float vBottom = (1.0f - sx) * vOld[c] + sx * vOld[c + east];
        const float vTop = (1.0f - sx) * vOld[c + north] + sx * vOld[c + north + east];
        uOut[l] = (1.0f - sy) * uBottom + sy * uTop;
        vOut[l] = (1.0f - sy) * vBottom + sy * vTop;
      }
    }
  }
}

}  // namespace wb::advected
