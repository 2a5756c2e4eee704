// The vectorised spans of advected-wave's step (models/advected_wave/advected_wave.cpp says
// which equation each evaluates): free functions with restrict pointers so that the compiler
// vectorises them, with an AVX2 version chosen at load time (WB_SPAN_KERNEL,
// core/grid/parallel.hpp). Fields are row-major; `row` is the grid's row length.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/grid/wave_levels.hpp"

namespace wb::advected {

// u += dt f, v += dt g on the wet cells among [begin, end).
void addForceSpan(float* __restrict u, float* __restrict v, const float* __restrict fx,
                  const float* __restrict fy, const std::uint8_t* __restrict wet, float dt,
                  std::size_t begin, std::size_t end);

// Eq. 10 with eq. 7's change dz = -div / kappa at cells whose four neighbours are wet
// (updateHeight explains the form).
void waveSpan(const WaveLevels& z, const float* __restrict divergence, float a, float b,
              float inverseKappa, std::size_t row, std::size_t begin, std::size_t end);
// The same where the divergence is 0 everywhere (dz = 0).
void waveSpan(const WaveLevels& z, float a, float b, std::size_t row, std::size_t begin,
              std::size_t end);

// The same with the local depth's speed (speed = local): L_d with link factors halfDepth_a +
// halfDepth_b (core/grid/stencil.hpp) on z and on eq. 7's depth flux divergence.
void waveSpanLocal(const WaveLevels& z, const float* __restrict flux,
                   const float* __restrict halfDepth, float a, float b, float inverseKappa,
                   std::size_t row, std::size_t begin, std::size_t end);
void waveSpanLocal(const WaveLevels& z, const float* __restrict halfDepth, float a, float b,
                   std::size_t row, std::size_t begin, std::size_t end);
// div(d u) / d_max at cells whose four neighbours are wet: face velocity the mean of two cells,
// face depth / d_max = halfDepth_a + halfDepth_b. Returns max |div(d u) / d_max|.
float depthFluxSpan(float* __restrict out, const float* __restrict u, const float* __restrict v,
                    const float* __restrict halfDepth, float halfInverseDx, std::size_t row,
                    std::size_t begin, std::size_t end);

// The divergence at cells whose four neighbours are wet: the face velocities are means of two
// cells, so (u_{i+1/2} - u_{i-1/2} + v_{j+1/2} - v_{j-1/2}) / dx =
// (u_{i+1} - u_{i-1} + v_{j+1} - v_{j-1}) / 2dx. Returns max |div|.
float divergenceSpan(float* __restrict out, const float* __restrict u, const float* __restrict v,
                     float halfInverseDx, std::size_t row, std::size_t begin, std::size_t end);

// u -= scale (q_E - q_W), v -= scale (q_N - q_S) at cells whose four neighbours are wet.
void subtractGradientSpan(float* __restrict u, float* __restrict v, const float* __restrict q,
                          float scale, std::size_t row, std::size_t begin, std::size_t end);

}  // namespace wb::advected
