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
#pragma once

#include <cstdint>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

enum class StencilKind { FivePoint, NinePoint };
enum class WallRule { Mirror, Zero };

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
  WetStencil(const Domain& domain, StencilKind kind, WallRule rule);

  StencilKind kind() const { return kind_; }
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

}  // namespace wb
