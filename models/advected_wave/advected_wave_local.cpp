// advected-wave's UpdateHeight with the local depth's speed (speed = local, docs/models.md):
// eq. 9 as z_tt + nu z_t = div(c^2 grad z), c^2 = g d, on the links of the 4-neighbour stencil
// (L_d of core/grid/stencil.hpp), and eq. 7 with the depth-weighted flow,
//   kappa dz = -div(d u) / d_mean,
// the linearised continuity equation dz = -div(d u) dt for the default kappa = 1 / (d_mean dt)
// and the mean form's dz = -div u / kappa where the ground is flat. A function of its own so
// that the mean-speed updateHeight stays as it was.
#include <algorithm>
#include <cmath>

#include "core/grid/parallel.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/advected_wave/advected_wave_kernels.hpp"

namespace wb {

using namespace advected;

// div(d u) / d_max at a wet cell next to a wall: on a face between two wet cells the velocity is
// their mean and the depth / d_max the link factor halfDepth_a + halfDepth_b; a wall face
// carries 0. The faces' fluxes cancel in pairs, so sum(dz) = 0: eq. 7 moves water, never makes it.
float AdvectedWave::edgeDepthFlux(std::size_t k, std::uint8_t open, float inverseDx) const {
  const float *u = u_.data(), *v = v_.data(), *d = stencil_.halfDepth();
  const std::size_t row = std::size_t(domain_->nx());
  const float east = open & kOpenEast ? 0.5f * (u[k] + u[k + 1]) * (d[k] + d[k + 1]) : 0.0f;
  const float west = open & kOpenWest ? 0.5f * (u[k - 1] + u[k]) * (d[k - 1] + d[k]) : 0.0f;
  const float north = open & kOpenNorth ? 0.5f * (v[k] + v[k + row]) * (d[k] + d[k + row]) : 0.0f;
  const float south = open & kOpenSouth ? 0.5f * (v[k - row] + v[k]) * (d[k - row] + d[k]) : 0.0f;
  return (east - west + north - south) * inverseDx;
}

// updateHeight's increment form (advected_wave.cpp) with L_d for L and F = div(d u) / d_max for
// the divergence: dz = -(d_max / (kappa d_mean)) F,
//   v^{k+1} = a (v^k + dz) + b L_d(z^k + dz),  z^{k+1} = (z^k + dz) + v^{k+1},
// mu = c_max^2 dt^2 / dx^2 in b. The plain divergence is still computed for Project. A uniform
// flow over a slope has div u = 0 but div(d u) != 0, so whether eq. 7 lifts follows F.
void AdvectedWave::updateHeightLocal(double dt) {
  const double dx = domain_->grid().dx;
  const float inverseDx = float(1.0 / dx), halfInverseDx = float(0.5 / dx);
  // depth_ is d_mean, set in reset (as kappa's default).
  const float inverseKappa = float(stencil_.referenceDepth() / (kappa(dt) * depth_));
  const float mu = float(c_ * c_ * dt * dt / (dx * dx));
  const float a = float((2.0 - nu_ * dt) / (2.0 + nu_ * dt));
  const float b = float(2.0 * mu / (2.0 + nu_ * dt));
  const WaveLevels levels{.h = current_->data(), .rate = rate_.data(), .hNew = next_->data()};
  float *divergence = divergence_.data(), *flux = depthFlux_.data();
  const float* depth = stencil_.halfDepth();
  const std::size_t nx = std::size_t(domain_->nx());
  const auto& spans = stencil_.spans();
  const auto& edgeCells = stencil_.edgeCells();
  pml_.holdPreviousLevel(levels.h, levels.rate, incomingAt(-dt));
  float worst = 0.0f, edgeWorst = 0.0f, fluxWorst = 0.0f;
  // A flow at rest (drops only) has neither divergence nor flux: eq. 7 is the identity, and
  // neither field is formed (Project skips on divergenceBefore_ = 0).
  const bool flowing = !flowAtRest_;
#pragma omp parallel if (worthThreads(current_->size()))
  {
#pragma omp for schedule(static) nowait reduction(max : edgeWorst, fluxWorst)
    for (std::size_t e = 0; e < (flowing ? edgeCells.size() : 0); ++e) {
      const std::size_t k = edgeCells[e].index;
      divergence[k] = edgeDivergence(k, openFaces_[e], inverseDx);
      flux[k] = edgeDepthFlux(k, openFaces_[e], inverseDx);
      edgeWorst = std::max(edgeWorst, std::fabs(divergence[k]));
      fluxWorst = std::max(fluxWorst, std::fabs(flux[k]));
    }
#pragma omp for schedule(static) reduction(max : worst, fluxWorst)
    for (std::size_t s = 0; s < (flowing ? spans.size() : 0); ++s) {
      const std::size_t begin = std::size_t(spans[s].row) * nx + spans[s].begin;
      const std::size_t end = std::size_t(spans[s].row) * nx + spans[s].end;
      worst = std::max(
          worst, divergenceSpan(divergence, u_.data(), v_.data(), halfInverseDx, nx, begin, end));
      fluxWorst = std::max(fluxWorst, depthFluxSpan(flux, u_.data(), v_.data(), depth,
                                                    halfInverseDx, nx, begin, end));
    }
    const bool lifted = fluxWorst > 0.0f;
#pragma omp for schedule(static) nowait
    for (std::size_t s = 0; s < spans.size(); ++s) {
      const std::size_t begin = std::size_t(spans[s].row) * nx + spans[s].begin;
      const std::size_t end = std::size_t(spans[s].row) * nx + spans[s].end;
      if (lifted)
        waveSpanLocal(levels, flux, depth, a, b, inverseKappa, nx, begin, end);
      else
        waveSpanLocal(levels, depth, a, b, nx, begin, end);
    }
#pragma omp for schedule(static) nowait
    for (std::size_t e = 0; e < edgeCells.size(); ++e) {
      const auto& cell = edgeCells[e];
      const std::size_t k = cell.index;
      if (!lifted) {
        levels.advance(k, a, b * stencil_.applyAt(cell, levels.h));
        continue;
      }
      const float push =
          b * (stencil_.applyAt(cell, levels.h) - inverseKappa * stencil_.applyAt(cell, flux));
      levels.advanceLifted(k, a, push, -inverseKappa * flux[k]);
    }
  }
  divergenceBefore_ = std::max(worst, edgeWorst);
  std::swap(current_, next_);
}

}  // namespace wb
