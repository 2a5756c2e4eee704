// The vectorised spans of advected-wave's step (models/advected_wave/advected_wave.cpp says
// which equation each evaluates): free functions with restrict pointers so that the compiler
// vectorises them, with an AVX2 version chosen at load time (WB_SPAN_KERNEL,
// core/grid/parallel.hpp). Fields are row-major; `row` is the grid's row length.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb::advected {

// Eq. 7 fused with the divergence at cells whose four neighbours are wet: the face velocities
// are means of two cells, so (u_{i+1/2} - u_{i-1/2} + v_{j+1/2} - v_{j-1/2}) / dx =
// (u_{i+1} - u_{i-1} + v_{j+1} - v_{j-1}) / 2dx; z -= div / kappa. Returns max |div|.
float divergenceAndHeightSpan(float* __restrict divergence, float* __restrict z,
                              const float* __restrict u, const float* __restrict v,
                              float halfInverseDx, float inverseKappa, std::size_t row,
                              std::size_t begin, std::size_t end);

// u += dt f, v += dt g on the wet cells among [begin, end).
void addForceSpan(float* __restrict u, float* __restrict v, const float* __restrict fx,
                  const float* __restrict fy, const std::uint8_t* __restrict wet, float dt,
                  std::size_t begin, std::size_t end);

// Eq. 10 at cells whose four neighbours are wet (updateHeight explains the form).
void waveSpan(float* __restrict zNew, const float* __restrict z, const float* __restrict zOld,
              float a, float b, std::size_t row, std::size_t begin, std::size_t end);

// The same divergence alone (computeDivergence, for tests and diagnostics).
void divergenceSpan(float* __restrict out, const float* __restrict u, const float* __restrict v,
                    float halfInverseDx, std::size_t row, std::size_t begin, std::size_t end);

// u -= scale (q_E - q_W), v -= scale (q_N - q_S) at cells whose four neighbours are wet.
void subtractGradientSpan(float* __restrict u, float* __restrict v, const float* __restrict q,
                          float scale, std::size_t row, std::size_t begin, std::size_t end);

// Stam's advect at the cells [begin, end) of row j (any cells: the trace is clamped to the
// grid): back-trace by the displacement -dt u^{old} / dx in cells, clamp the departure point
// onto the outermost cell centres and sample u^{old}, v^{old} bilinearly: sampleBilinear
// (core/grid/interpolation.hpp) to float round-off. Written to vectorise: float arithmetic, 32-bit
// indices (grids stay below 2^31 cells), selects with constant or integer arms only (GCC will
// not if-convert float arithmetic under -ftrapping-math, nor vectorise std::floor). The weight
// is (cell - corner) + offset, so it keeps float precision relative to one cell however large
// the grid; a corner off by one through rounding of cell + offset gives a weight a rounding
// error outside [0, 1], the same value to round-off.
//
// Gathers are slow (GCC emulates them lane by lane on this CPU). A flow slower than a cell per
// step moves a whole block by the same whole-cell offset where it flows one way: such a block
// samples its 2 x 2 corners with contiguous loads. Where the flow turns, each cell's sample
// still lies at one of four places (its lower corner is the cell or its west, south or
// south-west neighbour): such a block loads each cell's 3 x 3 neighbourhood contiguously and
// selects the 2 x 2 (bilinearNear). Other blocks gather. All three compute the same values.
void advectSpan(float* __restrict u, float* __restrict v, const float* __restrict uOld,
                const float* __restrict vOld, float cellsPerVelocity, int nx, int ny, int j,
                int begin, int end);

}  // namespace wb::advected
