// Geometric multigrid for the 5-point systems of the models: as the solver (float V-cycles
// from a warm start; advected-wave's pressure, swe-semi-lagrangian at large dt) and as the
// preconditioner of conjugate gradients (MGPCG; the kinetic-energy potential, whose 9-point
// operator the 5-point cycle preconditions). The systems have the form
//   (A x)_c = s_c x_c + sum over the 4 faces f of c: w_f (x_c - x_neighbour)
// on wet cells, with a shift s_c >= 0 (0 for the Poisson equations, 1 for the Helmholtz
// equation of Layton eq. 25) and face weights w_f >= 0 (0 across walls and at the grid edge:
// Neumann). Such an A is symmetric positive (semi-)definite.
//
// Hierarchy: cell-centred 2 x 2 coarsening until no side exceeds kCoarsestSide cells. A coarse
// cell is wet if any child is. Restriction sums the children's residuals (the coarse equation
// is the fine one integrated over the coarse cell), prolongation copies the coarse value to the
// wet children (R = P^T). The coarse operator is the same equation rediscretised on the coarse
// cells: the shift is the sum of the children's (a mass term integrates over the area), a face
// weight is half the sum of the two fine faces it covers (flux = weight x difference; the coarse
// face is twice as long and its centres twice as far apart). Galerkin's P^T A P would double the
// faces and halve every coarse correction.
//
// V-cycle: red-black Gauss-Seidel, pre-smoothing red then black, post-smoothing black then red,
// and a palindromic sequence of sweeps on the coarsest level, all from a zero guess: the cycle
// is a symmetric linear map, positive definite on the wet cells (Gauss-Seidel converges for SPD
// A), so it can precondition CG. Working fields are float with a one-cell ghost border (faces
// to it are 0), so the passes need no bounds tests, stored in red-black order (Colour, below):
// a sweep is one stride-1 pass per colour over each thread's band of rows, with a barrier
// between the colours; levels below core/grid/parallel.hpp's threshold, including the coarsest, run
// without an OpenMP team, one pass per colour over the whole level.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/grid/field2d.hpp"
#include "core/solvers/conjugate_gradient.hpp"

namespace wb {

struct FivePointSystem {
  Field2D shift;  // s_c on wet cells
  Field2D faceX;  // w of the face between (i, j) and (i + 1, j)
  Field2D faceY;  // w of the face between (i, j) and (i, j + 1)
  std::vector<std::uint8_t> wet;

  // Weight 1 on every face between two wet cells and shift s on wet cells: -dx^2 lap(x) + s x
  // with mirror (Neumann) walls, the operator of WetStencil's FivePoint / Mirror negated.
  static FivePointSystem fromMask(int nx, int ny, const std::vector<std::uint8_t>& wet,
                                  float shift);
};

// How Multigrid::solve treats its system and its first guess.
struct MultigridSolveOptions {
  // Constants are in A's null space (pure Neumann walls): b is projected to zero mean over the
  // wet cells, and so is x on return once its mean has drifted beyond kMaxMeanDrift
  // (multigrid.cpp) of its scale.
  bool removeMean = false;
  // Run the first cycle without checking the warm start: one pass less for a warm start that
  // rarely meets the tolerance, like the projection's, whose right side changes every step
  // (iterations is then at least 1).
  bool firstCycleUnchecked = false;
  // For a sequence of solves whose solutions change smoothly (a projection each time step):
  // the last solution, with x holding the one before it. The first guess is then their linear
  // extrapolation latest + (latest - x), read in the same pass as x; x receives the solution
  // as always (the caller swaps the two for the next solve).
  const Field2D* latest = nullptr;
};

class Multigrid {
 public:
  // Coarsening stops when neither side exceeds this many cells.
  static constexpr int kCoarsestSide = 8;
  // Gauss-Seidel sweeps (red + black) before and after the coarse correction.
  static constexpr int kSmoothingSweeps = 2;
  // Symmetric sweeps on the coarsest level (its few dozen cells): a near-exact solve.
  static constexpr int kCoarsestSweeps = 30;

  Multigrid() = default;
  // Builds the levels (allocates) and their coefficients.
  void setup(const FivePointSystem& fine);
  // New coefficients on the same mask: recomputes every level's coefficients without
  // allocating. Faces touching a solid cell or the grid edge are taken as 0.
  void updateCoefficients(const Field2D& shift, const Field2D& faceX, const Field2D& faceY);

  bool ready() const { return !levels_.empty(); }
  int levelCount() const { return int(levels_.size()); }
  int nx() const { return levels_.front().nx; }
  int ny() const { return levels_.front().ny; }
  const std::vector<std::uint8_t>& wet() const { return fineWet_; }

  // out = A in on the finest level in double (row-major nx x ny, 0 on solid cells).
  void applyOperator(const double* in, double* out) const;
  // z = B r, one V-cycle on A z = r from z = 0 (0 on solid cells).
  void vcycle(const double* r, double* z);
  // Solves A x = b in float by V-cycles from the initial guess in x until the residual,
  // checked before each cycle, meets ||b - A x|| <= tolerance ||b|| or maxCycles cycles have
  // run (iterations counts the cycles); options below.
  // The residual is recomputed from x each cycle (neighbouring values subtract without
  // rounding), so the solve reaches what a float x can represent; below that rounding floor
  // (multigrid.cpp: kRoundingFloor) it stops, reporting converged = false. The residual
  // reported is that of the x returned (with removeMean, of x after its mean is removed).
  CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxCycles,
                 const MultigridSolveOptions& options = {});

 private:
  // A level's cells in red-black order: with an odd row length a cell's colour (i + j) & 1 is
  // the parity of its ghost-bordered index k, and colour c holds cell k = 2 m + c at [m]. Seen
  // from a cell m of colour c, the other colour's array shifted by c holds the east neighbour
  // at [m], west at [m - 1], north at [m + h] and south at [m - h - 1], h = (row - 1) / 2: a
  // pass over one colour is a stride-1 loop over contiguous arrays.
  //
  // Unit cells (wet, shift 0, four faces 1: the interior of a Poisson equation's pool) need no
  // coefficients. On a level where most cells are unit cells the passes run a coefficient-free
  // kernel over every cell (with a 0/1 unit byte) and then treat the others, exceptions with
  // their coefficients, one by one; otherwise every cell has float coefficient arrays.
  struct Exception {
    std::uint32_t m;
    float shift, east, west, north, south, inverse;
  };
  struct Colour {
    Field2D x, b, r;
    Field2D unit;  // 1 on unit cells, else 0
    std::vector<std::uint8_t> wet;
    // With useExceptions: the wet cells that are not unit cells, by m; those of row j are
    // [rowFirst[j], rowFirst[j + 1]).
    std::vector<Exception> exceptions;
    std::vector<std::uint32_t> rowFirst;
    // Without useExceptions: every cell's shift, faces, 1 / diagonal (0 on dry and ghost
    // cells, which therefore keep x = 0).
    Field2D shift, east, west, north, south, inverse;
  };
  struct Level {
    int nx = 0, ny = 0;
    std::size_t row = 0;  // nx + 2 or nx + 3, odd: fields carry a ghost border
    // Ghost-bordered row-major coefficients (set-up, coarsening and applyOperator).
    std::vector<std::uint8_t> wet;
    Field2D shift, faceX, faceY, inverseDiagonal;
    Colour colour[2];
    bool useExceptions = false;
    std::size_t at(int i, int j) const { return std::size_t(j + 1) * row + std::size_t(i + 1); }
    std::size_t northOffset() const { return (row - 1) / 2; }
    // [begin, end) of colour c's indices m for the bordered cells [kBegin, kEnd).
    static std::size_t colourBegin(std::size_t kBegin, int c) { return (kBegin + 1 - c) / 2; }
    static std::size_t colourEnd(std::size_t kEnd, int c) { return (kEnd + 1 - c) / 2; }
    // The bordered cells of rows [j0, j1), with the ghost cells between them.
    std::size_t rowsBegin(int j0) const { return at(0, j0); }
    std::size_t rowsEnd(int j1) const { return at(nx - 1, j1 - 1) + 1; }
  };

  static Level makeLevel(int nx, int ny);
  static void coarsenMask(const Level& fine, Level& coarse);
  static void coarsenCoefficients(const Level& fine, Level& coarse);
  static void computeInverseDiagonal(Level& level);
  // Copies the bordered coefficients into the colours: unit bytes and exceptions, or arrays.
  static void splitCoefficients(Level& level);
  static std::pair<const Exception*, const Exception*> exceptionsIn(const Colour& colour, int j0,
                                                                    int j1);
  // Colour c on rows [j0, j1).
  static void relaxColour(Level& level, int c, int j0, int j1);
  static void sweep(Level& level, int first);
  // ||b - A x||^2, the rounding floor's ||diag(A) x||^2 and sum(x) (Multigrid::solve).
  struct ResidualNorms {
    double residual = 0.0, scaledSolution = 0.0, solution = 0.0;
  };
  static ResidualNorms measureResidual(const Level& level);
  static ResidualNorms rowNorms(const Level& level, int j, float offset);
  static void residualRows(Level& level, int j0, int j1);
  // The coarse right side: the fine residual r = b - A x, restricted.
  static void restrictResidual(Level& fine, Level& coarse);
  static void prolongAndAdd(const Level& coarse, Level& fine);
  // One V-cycle on level l from its current x (warmStart) or from x = 0.
  void cycle(std::size_t l, bool warmStart = false);
  // Copies b (and the wet mean removed) and the first guess latest + (latest - x) into the
  // finest level (latest = x: x itself); returns b.b.
  double loadFinest(const Field2D& b, const Field2D& x, const Field2D& latest, bool removeMean);
  double storeFinest(Field2D& x, float offset) const;

  std::vector<Level> levels_;
  std::vector<std::uint8_t> fineWet_;
  std::size_t wetCount_ = 0;
};

// Conjugate gradients preconditioned by one multigrid V-cycle per iteration, with the CG
// vectors in double (PreconditionedCg).
class MultigridPcg {
 public:
  void setup(const FivePointSystem& system) { multigrid_.setup(system); }
  Multigrid& multigrid() { return multigrid_; }
  const Multigrid& multigrid() const { return multigrid_; }

  // Solves the system of setup / updateCoefficients, from the initial guess in x.
  CgResult solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations,
                 bool removeMean = false);
  // Solves apply x = b with the 5-point system as preconditioner (apply spectrally equivalent
  // to it, e.g. the 9-point Laplacian).
  CgResult solve(const PreconditionedCg::Operator& apply, const Field2D& b, Field2D& x,
                 double tolerance, int maxIterations, bool removeMean = false);

 private:
  Multigrid multigrid_;
  PreconditionedCg cg_;
};

}  // namespace wb
