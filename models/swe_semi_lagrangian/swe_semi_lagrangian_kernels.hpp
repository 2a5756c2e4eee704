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

#include <cmath>
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
// This thread's band [first, end) of the rows 1 to ny - 2 (all of them outside a parallel
// region).
struct RowBand {
  int first, end;
};
inline RowBand interiorRowBand(int ny) {
  const int threads = omp_get_num_threads(), t = omp_get_thread_num();
  return {1 + int(std::size_t(ny - 2) * std::size_t(t) / std::size_t(threads)),
          1 + int(std::size_t(ny - 2) * std::size_t(t + 1) / std::size_t(threads))};
}

template <class Span, class Cell>
double sumOverCells(const SweWalls& walls, int nx, int ny, const Span& span, const Cell& cell) {
  const std::size_t row = std::size_t(nx);
  double total = 0.0;
#pragma omp parallel reduction(+ : total) if (worthThreads(row * std::size_t(ny)))
  {
    const RowBand band = interiorRowBand(ny);
    if (band.end > band.first)
      total += span(std::size_t(band.first) * row, std::size_t(band.end) * row);
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

void rhsSpan(float* __restrict rhs, const float* __restrict h, const float* __restrict carryX,
             const float* __restrict carryY, const float* __restrict u, const float* __restrict v,
             float dtPerDx, std::size_t row, std::size_t begin, std::size_t end);
// The depths of the face between a cell C and its east or north neighbour N (faceDepthRows
// explains them): for gravity (eq. 25's coefficients) and for the advective flux; forward
// when the flow runs from C to N, courant = |u_f| dt / dx. behind is the depth d of the cell
// before C, ahead of the cell after N, each the cell's own (C's, N's) across a closed face.
struct FaceDepth {
  float gravity, carry;
};
// |a| as a select: std::fabs is not inlined into the kernels, whose optimize attribute differs
// (WB_WET_DRY_KERNEL), and a call stops their vectorisation.
[[gnu::always_inline]] inline float magnitude(float a) {
  return a < 0.0f ? -a : a;
}
// minmod(a, b): the one of smaller magnitude when both have the same sign, else 0.
[[gnu::always_inline]] inline float minmod(float a, float b) {
  const float smaller = magnitude(a) < magnitude(b) ? a : b;
  return a * b > 0.0f ? smaller : 0.0f;
}
// uC, uN: the two cells' velocities along the face normal (east or north).
struct FaceCells {
  float hC, bC, hN, bN, behind, ahead, uC, uN;
};
[[gnu::always_inline]] inline FaceDepth faceDepthOf(const FaceCells& c, bool forward, float courant,
                                                    float filmDepth) {
  const float face = c.bC > c.bN ? c.bC : c.bN;  // hydrostatic reconstruction: b_f = max(b_C, b_N)
  const float a = c.hC - face, b = c.hN - face;
  const float starC = a > 0.0f ? a : 0.0f, starN = b > 0.0f ? b : 0.0f;
  const bool inside = (starC > filmDepth) & (starN > filmDepth);
  const float own = c.hC - c.bC, next = c.hN - c.bN;
  const float mean = 0.5f * (own + next);
  const float upwind = forward ? starC : starN;
  // Where the flow runs towards thinner water over ground that does not rise and does not
  // converge there (u_to >= u_from: a dam break's rarefaction and its tip): the upwind cell's
  // depth reconstructed at the face with its minmod-limited slope s, advanced by half the step
  // (MUSCL-Hancock, van Leer 1979; Toro 2009, section 13.4): d_f = d_up + (1 - C) s / 2,
  // C = |u_f| dt / dx, second order in space and time; it lies between the upwind depth and
  // the mean. Where it thins and converges (u_to < u_from: a bore's face) the upwind depth:
  // reconstructed there, the bore stood 2 cells sharp but 6 % over its height behind it
  // (Stoker, hr/hl = 0.1; docs/wet-dry.md). Centred elsewhere inside the water, the upwind d*
  // at a shoreline.
  const float from = forward ? own : next, to = forward ? next : own;
  const float before = forward ? c.behind : c.ahead;
  const float fromGround = forward ? c.bC : c.bN, toGround = forward ? c.bN : c.bC;
  const bool thinning = (to < from) & (toGround <= fromGround);
  const float lag = courant < 1.0f ? 1.0f - courant : 0.0f;
  const float reconstructed = from + 0.5f * lag * minmod(from - before, to - from);
  const float uFrom = forward ? c.uC : -c.uN, uTo = forward ? c.uN : -c.uC;
  const bool expanding = uTo >= uFrom;
  const float thinningCarry = expanding ? reconstructed : upwind;
  return {inside ? mean : starC + starN, thinning ? thinningCarry : inside ? mean : upwind};
}
// The face depths and eq. 25's face coefficients mu d_f (faceX, faceY); mu = g dt^2 / dx^2.
struct FaceDepths {
  float *depthX, *depthY, *carryX, *carryY, *faceX, *faceY;
  float mu, dtPerDx;
};
// How far faceDepthSpan may reach beyond a face's two cells: 1 (the next cell) or 0 (none).
struct FaceReach {
  std::size_t west, east, south, north;
};
void faceDepthSpan(const FaceDepths& f, const float* __restrict h, const float* __restrict ground,
                   const float* __restrict depth, const float* __restrict u,
                   const float* __restrict v, const float* __restrict openEast,
                   const float* __restrict openNorth, float filmDepth, const FaceReach& reach,
                   std::size_t row, std::size_t begin, std::size_t end);
double helmholtzSpan(float* __restrict q, const float* __restrict p, const float* __restrict faceX,
                     const float* __restrict faceY, std::size_t row, std::size_t begin,
                     std::size_t end);
// solveHelmholtz's start: the change guessed from the last two (delta, before) and factors.
struct Guess {
  float *delta, *before;
  float last, older, negligible;
};
[[gnu::always_inline]] inline void guessChange(const Guess& g, std::size_t k) {
  const float previous = g.delta[k];
  const float guess = g.last * previous - g.older * g.before[k];
  g.delta[k] = std::fabs(guess) < g.negligible ? 0.0f : guess;
  g.before[k] = previous;
}
void residualAndGuessSpan(float* __restrict rhs, const float* __restrict h,
                          const float* __restrict faceX, const float* __restrict faceY,
                          const Guess& g, std::size_t row, std::size_t begin, std::size_t end);
// The velocities of eqs. 21-22 plus the momentum in compressions du, dv.
struct Velocities {
  float *u, *v;
  const float *uDep, *vDep, *du, *dv;
};
void velocitySpan(const Velocities& f, const float* __restrict h, const float* __restrict openEast,
                  const float* __restrict openNorth, double gDtPerDx, std::size_t row,
                  std::size_t begin, std::size_t end);
float shearSpan(const float* __restrict u, const float* __restrict v,
                const float* __restrict openEast, const float* __restrict openNorth,
                std::size_t row, std::size_t begin, std::size_t end);
// The fields transportVolume's fluxes are made of, and the fluxes.
struct Transport {
  float *fluxX, *fluxY;
  const float *carryX, *carryY, *depthX, *depthY, *u, *v;
};
void fluxSpan(const Transport& t, const float* __restrict h, const float* __restrict change,
              float dtPerDx, float gDtPerDx, std::size_t row, std::size_t begin, std::size_t end);
void outflowScaleSpan(float* __restrict scale, const float* __restrict fluxX,
                      const float* __restrict fluxY, const float* __restrict depth, std::size_t row,
                      std::size_t begin, std::size_t end);
// settleSurface's fields (ax, ay: the force, or any field with forceStep 0) and sums.
struct Surface {
  float *h, *solved, *outU, *outV;
  const float *change, *fluxX, *fluxY, *scale, *ground, *depth, *wet, *u, *v, *uDep, *vDep, *depthX,
      *depthY, *ax, *ay;
};
struct SettleSums {
  double left = 0.0, solvedDepth = 0.0;
};
SettleSums surfaceSpan(const Surface& f, float exactDepth, float forceStep, std::size_t row,
                       std::size_t begin, std::size_t end);
double spreadSpan(float* __restrict h, const float* __restrict solved,
                  const float* __restrict ground, float share, std::size_t begin, std::size_t end);
DepthCounts depthAndFilmsSpan(float* __restrict h, float* __restrict depth, float* __restrict u,
                              float* __restrict v, float* __restrict moving,
                              const float* __restrict ground, const float* __restrict wet,
                              float filmDepth, std::size_t begin, std::size_t end);

}  // namespace wb::swe_sl
