// Conjugate gradients on the red-black reduced system (the Schur complement) of a 5-point
// system of core/solvers/multigrid.hpp's form
//   (A x)_c = s_c x_c + sum over the 4 faces f of c: w_f (x_c - x_neighbour),   s_c > 0,
// for swe-semi-lagrangian's Helmholtz equation (Layton eq. 25, s = 1).
//
// Colour the cells like a chessboard: kept cells K ((i + j) even) and eliminated cells E
// ((i + j) odd). Every face joins one K and one E cell, so with D = diag(A) and C the
// couplings, A = [D_K, -C^T; -C, D_E] and
//   S x_K = b_K + C^T D_E^{-1} b_E,   S = D_K - C^T D_E^{-1} C,
//   x_E = D_E^{-1} (b_E + C x_K).
// S is symmetric positive definite on half the cells and better conditioned: with a uniform
// face weight w, A's spectrum is [s, s + 8w] and S's [s (s + 8w) / (s + 4w), s + 4w], so for
// s = 1 and w = 16 (swe's default dt) kappa falls from 129 to 33 and CG needs about half the
// iterations, each over half the cells. The residual of A at x (K and E) equals that of S at
// x_K on K and is 0 on E, so stopping S's CG at tolerance ||b|| keeps A's criterion; that
// residual, b_K - D_K x_K + C^T D_E^{-1} (b_E + C x_K), is what the set-up and the finish make
// row by row beside the E values (b^ itself is never stored).
//
// The iterations are Chronopoulos & Gear's single-reduction CG, the whole solve in one
// parallel region over bands of rows (red_black_cg.cpp): per iteration one operator pass and
// one pass of vector updates, 34 B per cell of the full grid, and two barriers.
//
// Storage: each colour packed row by row, (nx + 1) / 2 values per row, with a zero border of
// one value and one row, so the operator runs without bounds tests: in row j the kept cell k
// is i = 2k + (j & 1), its E neighbours in the same row are the packed values k - 1 + (j & 1)
// and k + (j & 1), those in the rows above and below the value k. Only E cells store faces.
#pragma once

#include <cstdint>
#include <vector>

#include "core/grid/field2d.hpp"
#include "core/solvers/conjugate_gradient.hpp"  // CgResult

namespace wb {

class RedBlackCg {
 public:
  // The system's coefficients (packed; allocates when the grid changes). Faces touching a
  // solid cell or the grid edge must be 0 (as FivePointSystem::fromMask and swe-semi-lagrangian
  // make them); wet cells need s > 0.
  void updateCoefficients(const Field2D& shift, const Field2D& faceX, const Field2D& faceY,
                          const std::vector<std::uint8_t>& wet);
  // Solves A x = b from the initial guess in x (its K cells) until ||b - A x|| <= tolerance
  // ||b|| over the wet cells or maxIterations iterations. Solid cells of x keep their values.
  // One parallel region per solve (see solve in the .cpp for its passes).
  CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations);

  // q = S p on packed kept values; returns p.q. Public for tests and benchmarks.
  double applyReduced(const Field2D& p, Field2D& q);
  int packedWidth() const { return width_; }

 private:
  struct ResidualSums {
    double rhs = 0.0, residual = 0.0;  // b^2 over the wet cells, r.r over the wet K cells
  };
  // Each thread's rows, each after a zero guard value: three packed rows of t = D_E^{-1} (...),
  // three scratch rows (b_K, b_E, a product) and four rows of x_K beside the band.
  static constexpr std::size_t kRingRows = 10;
  float* ringOf(int thread);
  void reserveRings(bool threads);
  const std::uint8_t* keptWetRow(int j) const;
  // Values of colour `colour` (0 kept, 1 eliminated) in full row j.
  int countOf(int j, int colour) const;
  void gatherColour(const Field2D& full, int colour, int j, float* out) const;
  // Row j of out_E = D_E^{-1} (plusE + C p_K) on E cells (plusE a packed row, or zeroRow())
  // from p_K's rows j, j + 1 and j - 1.
  void eliminatedValuesRow(const float* pKept, const float* pAbove, const float* pBelow,
                           const float* plusE, float* out, int j) const;
  // Rows [begin, end) of q = S p with t in the ring; returns p.q.
  double reducedRows(const Field2D& p, Field2D& q, float* ring, int begin, int end) const;
  // A row of zeros with a zero before it, for rows beyond the grid.
  const float* zeroRow() const { return zeros_.data() + 1; }
  // Rows [begin, end) of the K cells' residual of A at x into residual_ (see the .cpp).
  template <class Kept, class Prepare, class Done>
  ResidualSums residualSweep(const Field2D& b, const Kept& kept, const Prepare& prepare,
                             const Done& done, float* ring, int begin, int end);
  // Rows [begin, end) of x_K from x and r = b^ - S x_K, in one pass over b and x.
  ResidualSums setUpRows(const Field2D& b, const Field2D& x, float* ring, int begin, int end);
  // Rows [begin, end) of x_E = D_E^{-1} (b_E + C x_K) and both colours into x's wet cells;
  // returns r.r of the solved x over them.
  double finishRows(const Field2D& b, Field2D& x, float* ring, int begin, int end);
  // Rows [begin, end) of one iteration's vector updates (p = r + beta p, s = w + beta s,
  // x += alpha p, r -= alpha s; p = r, s = w on the first); returns the new r.r over them.
  double updateRows(float alpha, float beta, bool first, int begin, int end);
  // This thread's partial sums, published for the team (a cache line per thread).
  double* partialsOf(int thread) { return partials_.data() + std::size_t(thread) * kPartials; }
  // The sum over the team's threads of partial `which` (the same order on every thread).
  double teamSum(int which) const;
  static constexpr std::size_t kPartials = 8;

  int nx_ = 0, ny_ = 0, width_ = 0;
  // E cells: the weights of their east, west, north, south faces and 1 / D (0 on solid cells).
  Field2D faceEast_, faceWest_, faceNorth_, faceSouth_, inverseDiagonal_;
  Field2D keptDiagonal_;  // D_K (1 on solid and padding cells)
  std::vector<std::uint8_t> keptWet_;
  Field2D keptSolution_;
  // CG's vectors on the kept cells: r, p, w = S r and s = S p.
  Field2D residual_, direction_, residualImage_, directionImage_;
  std::vector<float> zeros_;      // a full row of zeros (and guards)
  std::vector<float> rings_;      // kRingRows packed rows per thread
  std::vector<double> partials_;  // kPartials per thread
};

}  // namespace wb
