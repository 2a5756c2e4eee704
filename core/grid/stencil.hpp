// WetStencil: a Laplacian-like operator on the domain's wet cells with wall rules, laid out
// for speed. Cells whose whole stencil is wet are grouped into row spans for a branch-free,
// vectorisable loop; the few cells next to a wall or the grid edge get an explicit list of
// (neighbour, weight) pairs that encodes the wall rule once, at construction.
//
// Operators (dx^2 times a Laplacian approximation, acting on a cell-centred grid):
//   FivePoint: L4 h = h_E + h_W + h_N + h_S - 4 h_C                      (Nishidate eq. 5)
//   NinePoint: L8 h = 1/2 L4 h + 1/4 (h_NE + h_NW + h_SE + h_SW - 4 h_C)  (eq. 6, halved)
// Eq. 6's bracket is L4 + 1/2 Ldiag, which approximates 2 dx^2 lap(h) because the diagonal
// neighbours sit sqrt(2) dx away; halving it makes both stencils approximate dx^2 lap(h), so
// a wave travels at c with either (docs/models.md, damped-wave).
//
// Wall rules for a neighbour that is solid or outside the grid:
//   Mirror (the paper's symmetry condition): the wall is the face between the cells, so the
//     mirror image of an edge neighbour is the cell itself (zero flux through the face); a
//     diagonal neighbour is reflected across the wall it lies behind (the edge neighbour on
//     the wet side), or is the cell itself in a corner. Every wet-wet pair is then used with
//     the same weight from both sides, so sum(L h) = 0: volume is conserved to round-off.
//   Zero (Bressler 3.1): the missing value is 0; waves still reflect, but volume leaks.
//
// Link depths (the wave models' `speed = local`, docs/models.md): L_d h = dx^2 div(d grad h) /
// d_max in flux form, each link between cells a and b weighted by its stencil weight times
//   f_ab = (d_a + d_b) / (2 d_max)   (the arithmetic mean of the two rest depths, 0 < f <= 1),
// a solid or outside neighbour taking the cell's own depth. One coefficient per link, the same
// from both sides, keeps L_d symmetric: sum(L_d h) = 0 under mirror walls (volume to round-off)
// and the leapfrog energy of core/measure/wave_energy.hpp is still conserved. Since
// <h, -L_d h> = sum_links w f (h_a - h_b)^2 <= max f <h, -L h>, the spectral radius of L is still
// a bound, so the stability bounds hold with c_max = sqrt(g d_max). The arithmetic mean (not
// the harmonic one) is the face depth of swe-adi and swe-semi-lagrangian, stays well away from
// 0 next to a shallow cell, and costs no division: the kernels read one field D = d / (2 d_max)
// and form f_ab = D_a + D_b on the fly, 4 bytes a cell more than the uniform form rather than
// 8 or 16 for stored link coefficients (docs/performance.md).
#pragma once

#include <cstdint>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

enum class StencilKind { FivePoint, NinePoint };
enum class WallRule { Mirror, Zero };
// Uniform: every link weighs its stencil weight (c^2 lap(h) with one c). Local: times the link's
// depth f_ab (div(c^2 grad h) with c^2 = g d, above).
enum class LinkDepth { Uniform, Local };

class WetStencil {
 public:
  struct Span {
    int row, begin, end;  // wet cells [begin, end) of row, all with a full wet stencil
  };
  struct Term {
    std::uint32_t index;
    float weight;
  };
  struct EdgeCell {
    std::uint32_t index;
    float centreWeight;  // L h = sum(weight * h[index]) - centreWeight * h[centre]
    std::uint32_t firstTerm, termCount;
  };

  WetStencil() = default;
  // referenceDepth: d_max of the link factors, 0 for the domain's deepest wet cell; a model
  // keeps the one its step was chosen for across mask strokes (deeper cells are taken at it).
  WetStencil(const Domain& domain, StencilKind kind, WallRule rule,
             LinkDepth links = LinkDepth::Uniform, double referenceDepth = 0.0);

  StencilKind kind() const { return kind_; }
  bool localDepth() const { return !halfDepth_.empty(); }
  // With LinkDepth::Local: D = d / (2 d_max) per cell (0 on solid cells), for
  // interiorLinkLaplacian; d_max, the depth the coefficients are relative to.
  const float* halfDepth() const { return halfDepth_.data() + halfDepthStart_; }
  double referenceDepth() const { return referenceDepth_; }
  // Largest eigenvalue of -L over all grid modes (8 for FivePoint, 4 for NinePoint); the
  // stability bounds are derived from it.
  double spectralRadius() const { return kind_ == StencilKind::FivePoint ? 8.0 : 4.0; }

  const std::vector<Span>& spans() const { return spans_; }
  const std::vector<EdgeCell>& edgeCells() const { return edgeCells_; }
  const std::vector<Term>& terms() const { return terms_; }

  // out = L h on wet cells (out is untouched on solid cells). Reference implementation for
  // tests and for models whose step is not fused.
  void apply(const Field2D& h, Field2D& out) const;
  // out = L h in double precision (for solvers whose vectors are double).
  void apply(const double* h, double* out) const;
  // Runs a fused pass over every wet cell on one OpenMP team (when threaded): edgeKernel(e)
  // for each edge cell e (an index into edgeCells()), then spanKernel(begin, end) for each
  // interior span, as flat indices of the field. Both may write only the cell they are given,
  // so the team shares the edge cells and then the spans without a barrier between; both
  // lists run by row and are split statically, so each thread keeps to roughly the rows it
  // handles in the other passes (their data stays in its cache).
  template <class SpanKernel, class EdgeKernel>
  void forEachCell(const SpanKernel& spanKernel, const EdgeKernel& edgeKernel,
                   bool threaded) const {
    const std::size_t nx = std::size_t(nx_);
#pragma omp parallel if (threaded)
    {
#pragma omp for schedule(static) nowait
      for (std::size_t e = 0; e < edgeCells_.size(); ++e)
        edgeKernel(e);
#pragma omp for schedule(static) nowait
      for (std::size_t s = 0; s < spans_.size(); ++s) {
        const std::size_t rowStart = std::size_t(spans_[s].row) * nx;
        spanKernel(rowStart + spans_[s].begin, rowStart + spans_[s].end);
      }
    }
  }
  // L h at one edge cell.
  template <class Real>
  Real applyAt(const EdgeCell& cell, const Real* h) const {
    Real sum = -Real(cell.centreWeight) * h[cell.index];
    for (std::uint32_t t = cell.firstTerm; t < cell.firstTerm + cell.termCount; ++t)
      sum += Real(terms_[t].weight) * h[terms_[t].index];
    return sum;
  }

 private:
  template <class Real>
  void applyTo(const Real* h, Real* out) const;

  StencilKind kind_ = StencilKind::FivePoint;
  int nx_ = 0;
  std::vector<Span> spans_;
  std::vector<EdgeCell> edgeCells_;
  std::vector<Term> terms_;
  // LinkDepth::Local only: D from halfDepthStart_ on, 64-byte aligned as a Field2D but half a
  // page away from the domain's fields modulo 4 KiB (stencil.cpp says why).
  std::vector<float, AlignedAllocator<float, Field2D::kAlignment>> halfDepth_;
  std::size_t halfDepthStart_ = 0;
  double referenceDepth_ = 0.0;
};

// L h at an interior cell (index k of a row-major field with row length nx).
template <class Real>
inline Real interiorLaplacian(StencilKind kind, const Real* h, std::size_t k, std::size_t nx) {
  const Real edges = h[k - 1] + h[k + 1] + h[k - nx] + h[k + nx] - Real(4) * h[k];
  if (kind == StencilKind::FivePoint) return edges;
  const Real corners =
      h[k - nx - 1] + h[k - nx + 1] + h[k + nx - 1] + h[k + nx + 1] - Real(4) * h[k];
  return Real(0.5) * edges + Real(0.25) * corners;
}

// L_d h at an interior cell with link depths f_ab = D_a + D_b (LinkDepth::Local); with D = 1/2
// everywhere it is interiorLaplacian.
template <class Real, class Depth>
inline Real interiorLinkLaplacian(StencilKind kind, const Real* h, const Depth* d, std::size_t k,
                                  std::size_t nx) {
  const Real c = h[k], dc = Real(d[k]);
  const Real edges =
      (dc + Real(d[k - 1])) * (h[k - 1] - c) + (dc + Real(d[k + 1])) * (h[k + 1] - c) +
      (dc + Real(d[k - nx])) * (h[k - nx] - c) + (dc + Real(d[k + nx])) * (h[k + nx] - c);
  if (kind == StencilKind::FivePoint) return edges;
  const Real corners = (dc + Real(d[k - nx - 1])) * (h[k - nx - 1] - c) +
                       (dc + Real(d[k - nx + 1])) * (h[k - nx + 1] - c) +
                       (dc + Real(d[k + nx - 1])) * (h[k + nx - 1] - c) +
                       (dc + Real(d[k + nx + 1])) * (h[k + nx + 1] - c);
  return Real(0.5) * edges + Real(0.25) * corners;
}

}  // namespace wb
