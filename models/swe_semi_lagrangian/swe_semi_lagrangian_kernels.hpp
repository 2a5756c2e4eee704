// The branch-free kernels of swe-semi-lagrangian's step (models/swe_semi_lagrangian/
// swe_semi_lagrangian.cpp says which equation each evaluates), free functions with restrict
// pointers so that the compiler vectorises them, with an AVX2 version chosen at load time.
// Fields are row-major; `row` is the grid's row length; openEast / openNorth are SweWalls'
// open-face factors. A closed face's neighbour value is replaced by the cell's own with a
// select between loaded values (the Neumann ghost of SweWalls::centredX), never with
// arithmetic in a select's arm, which GCC does not vectorise under -ftrapping-math
// (WB_SPAN_KERNEL: core/grid/parallel.hpp). Each kernel's comment is beside its definition in
// swe_semi_lagrangian_kernels.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include <omp.h>

#include "core/grid/parallel.hpp"
#include "models/swe_semi_lagrangian/swe_walls.hpp"

namespace wb::swe_sl {

// Runs span(begin, end) over the rows 1 to ny - 2 as one range of row-major indices (split
// between OpenMP threads for large grids) and cell(i, j) at the wet cells of the first and
// last rows, whose neighbours beyond the grid the kernels would read; returns the sum of what
// they return. The kernels take walls and solid cells from SweWalls' open-face factors, so a
// span may hold any cells; those of the first and last column read their row neighbours across
// the row's end, through a face that is closed.
template <class Span, class Cell>
double sumOverCells(const SweWalls& walls, int nx, int ny, const Span& span, const Cell& cell) {
  const std::size_t row = std::size_t(nx);
  double total = 0.0;
#pragma omp parallel reduction(+ : total) if (worthThreads(row * std::size_t(ny)))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const std::size_t j0 = 1 + std::size_t(ny - 2) * t / threads;
    const std::size_t j1 = 1 + std::size_t(ny - 2) * (t + 1) / threads;
    if (j1 > j0) total += span(j0 * row, j1 * row);
  }
  for (int j : {0, ny - 1})
    for (int i = 0; i < nx; ++i)
      if (walls.wet(i, j)) total += cell(i, j);
  return total;
}

// Counts of depthAndFilmsSpan: cells lifted to the ground, cells holding a film.
struct DepthCounts {
  int lifted = 0, films = 0;
};

void rhsSpan(float* __restrict rhs, const float* __restrict hOld, const float* __restrict carryX,
             const float* __restrict carryY, const float* __restrict u, const float* __restrict v,
             float dtPerDx, std::size_t row, std::size_t begin, std::size_t end);
// The depths of the face between a cell C and its east or north neighbour N (assembleFaceDepths
// explains them): for gravity (eq. 25's coefficients) and for the advective flux; forward
// when the flow runs from C to N.
struct FaceDepth {
  float gravity, carry;
};
[[gnu::always_inline]] inline FaceDepth faceDepthOf(float hC, float bC, float hN, float bN,
                                                    bool forward, float filmDepth) {
  const float face = bC > bN ? bC : bN;  // hydrostatic reconstruction: b_f = max(b_C, b_N)
  const float a = hC - face, b = hN - face;
  const float starC = a > 0.0f ? a : 0.0f, starN = b > 0.0f ? b : 0.0f;
  const bool inside = (starC > filmDepth) & (starN > filmDepth);
  const float own = hC - bC, next = hN - bN;
  const float mean = 0.5f * (own + next);
  const float upwind = forward ? starC : starN;
  // Upwind where the flow runs towards thinner water over ground that does not rise (a dam
  // break's rarefaction and its tip, a bore): the monotone choice; centred elsewhere.
  const float from = forward ? own : next, to = forward ? next : own;
  const float fromGround = forward ? bC : bN, toGround = forward ? bN : bC;
  const bool thinning = (to < from) & (toGround <= fromGround);
  return {inside ? mean : starC + starN, inside & !thinning ? mean : upwind};
}
struct FaceDepths {
  float *depthX, *depthY, *carryX, *carryY;
};
void faceDepthSpan(const FaceDepths& f, const float* __restrict h, const float* __restrict ground,
                   const float* __restrict u, const float* __restrict v,
                   const float* __restrict openEast, const float* __restrict openNorth,
                   float filmDepth, std::size_t row, std::size_t begin, std::size_t end);
void facesSpan(float* __restrict faceX, float* __restrict faceY, const float* __restrict depthX,
               const float* __restrict depthY, float mu, std::size_t begin, std::size_t end);
double helmholtzSpan(float* __restrict q, const float* __restrict p, const float* __restrict faceX,
                     const float* __restrict faceY, std::size_t row, std::size_t begin,
                     std::size_t end);
void velocitySpan(float* __restrict u, float* __restrict v, const float* __restrict uDep,
                  const float* __restrict vDep, const float* __restrict h,
                  const float* __restrict openEast, const float* __restrict openNorth,
                  double gDtPerDx, std::size_t row, std::size_t begin, std::size_t end);
float shearSpan(const float* __restrict u, const float* __restrict v,
                const float* __restrict openEast, const float* __restrict openNorth,
                std::size_t row, std::size_t begin, std::size_t end);
// The fields transportVolume's fluxes are made of, and the fluxes.
struct Transport {
  float *fluxX, *fluxY;
  const float *carryX, *carryY, *depthX, *depthY, *u, *v;
};
void fluxSpan(const Transport& t, const float* __restrict h, float dtPerDx, float gDtPerDx,
              std::size_t row, std::size_t begin, std::size_t end);
void outflowScaleSpan(float* __restrict scale, const float* __restrict fluxX,
                      const float* __restrict fluxY, const float* __restrict depth, std::size_t row,
                      std::size_t begin, std::size_t end);
void continuitySpan(float* __restrict h, const float* __restrict hOld,
                    const float* __restrict fluxX, const float* __restrict fluxY,
                    const float* __restrict scale, std::size_t row, std::size_t begin,
                    std::size_t end);
// settleSurface's fields and sums.
struct Settle {
  float *h, *solved;
  const float *flux, *scale, *ground, *depth, *wet;
};
struct SettleSums {
  double left = 0.0, solvedDepth = 0.0;
};
SettleSums settleSpan(const Settle& f, float exactDepth, std::size_t row, std::size_t begin,
                      std::size_t end);
double spreadSpan(float* __restrict h, const float* __restrict solved,
                  const float* __restrict ground, float share, std::size_t begin, std::size_t end);
// measureMomentumInCompressions' fields (ax, ay: the force, or any field with forceStep 0).
struct Momentum {
  float *outU, *outV;
  const float *u, *v, *uDep, *vDep, *fluxX, *fluxY, *scale, *depthX, *depthY, *depth, *flux,
      *ground, *wet, *ax, *ay;
};
void momentumSpan(const Momentum& m, float exactDepth, float forceStep, std::size_t row,
                  std::size_t begin, std::size_t end);
DepthCounts depthAndFilmsSpan(float* __restrict h, float* __restrict depth, float* __restrict u,
                              float* __restrict v, float* __restrict moving,
                              const float* __restrict ground, const float* __restrict wet,
                              float filmDepth, std::size_t begin, std::size_t end);

}  // namespace wb::swe_sl
