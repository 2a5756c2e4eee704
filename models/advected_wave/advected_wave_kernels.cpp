#include "models/advected_wave/advected_wave_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "core/grid/parallel.hpp"
#include "core/grid/stencil.hpp"

namespace wb::advected {

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
WB_SPAN_KERNEL void waveSpan(const WaveLevels& z, const float* __restrict divergence, float a,
                             float b, float inverseKappa, std::size_t row, std::size_t begin,
                             std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float lift = -inverseKappa * divergence[k];
    const float push =
        b * (interiorLaplacian(StencilKind::FivePoint, z.h, k, row) -
             inverseKappa * interiorLaplacian(StencilKind::FivePoint, divergence, k, row));
    z.advanceLifted(k, a, push, lift);
  }
}

WB_SPAN_KERNEL void waveSpan(const WaveLevels& z, float a, float b, std::size_t row,
                             std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    z.advance(k, a, b * interiorLaplacian(StencilKind::FivePoint, z.h, k, row));
}

// waveSpanLocal: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL void waveSpanLocal(const WaveLevels& z, const float* __restrict flux,
                                  const float* __restrict halfDepth, float a, float b,
                                  float inverseKappa, std::size_t row, std::size_t begin,
                                  std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float lift = -inverseKappa * flux[k];
    const float push =
        b * (interiorLinkLaplacian(StencilKind::FivePoint, z.h, halfDepth, k, row) -
             inverseKappa * interiorLinkLaplacian(StencilKind::FivePoint, flux, halfDepth, k, row));
    z.advanceLifted(k, a, push, lift);
  }
}

WB_SPAN_KERNEL void waveSpanLocal(const WaveLevels& z, const float* __restrict halfDepth, float a,
                                  float b, std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    z.advance(k, a, b * interiorLinkLaplacian(StencilKind::FivePoint, z.h, halfDepth, k, row));
}

// depthFluxSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL float depthFluxSpan(float* __restrict out, const float* __restrict u,
                                   const float* __restrict v, const float* __restrict halfDepth,
                                   float halfInverseDx, std::size_t row, std::size_t begin,
                                   std::size_t end) {
  float worst = 0.0f;
#pragma omp simd reduction(max : worst)
  for (std::size_t k = begin; k < end; ++k) {
    const float d = halfDepth[k];
    const float flux =
        ((u[k] + u[k + 1]) * (d + halfDepth[k + 1]) - (u[k - 1] + u[k]) * (halfDepth[k - 1] + d) +
         (v[k] + v[k + row]) * (d + halfDepth[k + row]) -
         (v[k - row] + v[k]) * (halfDepth[k - row] + d)) *
        halfInverseDx;
    out[k] = flux;
    worst = std::max(worst, std::fabs(flux));
  }
  return worst;
}

// divergenceSpan: see advected_wave_kernels.hpp.
WB_SPAN_KERNEL float divergenceSpan(float* __restrict out, const float* __restrict u,
                                    const float* __restrict v, float halfInverseDx, std::size_t row,
                                    std::size_t begin, std::size_t end) {
  float worst = 0.0f;
#pragma omp simd reduction(max : worst)
  for (std::size_t k = begin; k < end; ++k) {
    const float div = (u[k + 1] - u[k - 1] + v[k + row] - v[k - row]) * halfInverseDx;
    out[k] = div;
    worst = std::max(worst, std::fabs(div));
  }
  return worst;
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

}  // namespace wb::advected
