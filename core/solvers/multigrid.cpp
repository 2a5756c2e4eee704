#include "core/solvers/multigrid.hpp"

#include <algorithm>
#include <cmath>

#include <omp.h>

#include "core/grid/parallel.hpp"

namespace wb {

namespace {

// The kernels below work on one colour's cells m in [begin, end) (Multigrid::Colour): x and b
// of that colour, y the other colour's x shifted by the colour, so that a cell's east
// neighbour is y[m], west y[m - 1], north y[m + h] and south y[m - h - 1]. Every load is
// stride-1; the stride-2 loops over the interleaved layout that they replaced needed permuted
// loads and one call per row piece (docs/performance.md, seventh round).
//
// Red-black Gauss-Seidel: x_c = (b_c + sum_f w_f x_f) / diag_c, written as the correction
// x_c += (b_c - s_c x_c + sum_f w_f (x_f - x_c)) / diag_c. The differences of neighbouring
// values are exact in float, so x is rounded once per update; summing the neighbours' values
// would round at about 4 eps |x| and stall a solve at a residual of 1.3e-4 (256^2) to 3.9e-4
// (512^2) on a windy pool, above the tolerance. The cells of one colour read only the other
// colour, so the iterations are independent.

// One cell's coefficients: shift, the weights of its east, west, north and south faces, and
// 1 / diagonal (0 on dry and ghost cells, which therefore keep x = 0). Multigrid::Exception has
// the same members.
struct CellCoefficients {
  float shift, east, west, north, south, inverse;
};
// The float coefficient arrays of one colour (a level with many cells that are not unit cells).
struct CoefficientArrays {
  const float *shift, *east, *west, *north, *south, *inverse;
  CellCoefficients at(std::size_t m) const {
    return {shift[m], east[m], west[m], north[m], south[m], inverse[m]};
  }
};
template <class Colour>
CoefficientArrays arraysOf(const Colour& colour) {
  return {colour.shift.data(), colour.east.data(),  colour.west.data(),
          colour.north.data(), colour.south.data(), colour.inverse.data()};
}

// The relaxed value of cell m whose value is c (a: CellCoefficients or Multigrid::Exception).
template <class Cell>
inline float relaxed(const Cell& a, float c, float b, const float* y, std::size_t h,
                     std::size_t m) {
  return c + a.inverse * (b - a.shift * c + a.east * (y[m] - c) + a.west * (y[m - 1] - c) +
                          a.north * (y[m + h] - c) + a.south * (y[m - h - 1] - c));
}

// (A y')_m for y' = y - offset and c = x_m - offset (as rounded in float); offset 0: A x.
template <class Cell>
inline float applyAt(const Cell& a, float c, const float* y, std::size_t h, std::size_t m,
                     float offset) {
  return a.shift * c + a.east * (c - (y[m] - offset)) + a.west * (c - (y[m - 1] - offset)) +
         a.north * (c - (y[m + h] - offset)) + a.south * (c - (y[m - h - 1] - offset));
}
inline float applyUnitAt(float c, const float* y, std::size_t h, std::size_t m, float offset) {
  return (c - (y[m] - offset)) + (c - (y[m - 1] - offset)) + (c - (y[m + h] - offset)) +
         (c - (y[m - h - 1] - offset));
}

WB_SPAN_KERNEL void relaxSpan(float* __restrict x, const float* __restrict y,
                              const float* __restrict b, CoefficientArrays a, std::size_t h,
                              std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t m = begin; m < end; ++m)
    x[m] = relaxed(a.at(m), x[m], b[m], y, h, m);
}

// The update of unit cells (shift 0, four faces 1: inverse diagonal 1/4), term for term the
// general one with those coefficients, so the same to the bit; other cells (unit[m] = 0) keep
// their x: dry and ghost cells their 0, the others for Multigrid's exception pass. The unit
// flag is a float 0 or 1 (a byte would make GCC unroll to 32 cells and spill).
WB_SPAN_KERNEL void relaxUnitSpan(float* __restrict x, const float* __restrict y,
                                  const float* __restrict b, const float* __restrict unit,
                                  std::size_t h, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t m = begin; m < end; ++m) {
    const float c = x[m];
    x[m] = c + (unit[m] * 0.25f) *
                   (b[m] + (y[m] - c) + (y[m - 1] - c) + (y[m + h] - c) + (y[m - h - 1] - c));
  }
}

// r = b - A x (0 on dry and ghost cells).
WB_SPAN_KERNEL void residualSpan(float* __restrict r, const float* __restrict x,
                                 const float* __restrict y, const float* __restrict b,
                                 CoefficientArrays a, std::size_t h, std::size_t begin,
                                 std::size_t end) {
#pragma omp simd
  for (std::size_t m = begin; m < end; ++m)
    r[m] = b[m] - applyAt(a.at(m), x[m], y, h, m, 0.0f);
}
// The same for unit cells, 0 on the others (the exception pass then sets the wet ones).
WB_SPAN_KERNEL void unitResidualSpan(float* __restrict r, const float* __restrict x,
                                     const float* __restrict y, const float* __restrict b,
                                     const float* __restrict unit, std::size_t h, std::size_t begin,
                                     std::size_t end) {
#pragma omp simd
  for (std::size_t m = begin; m < end; ++m)
    r[m] = unit[m] * (b[m] - applyUnitAt(x[m], y, h, m, 0.0f));
}

// Sums for Multigrid::solve's checks: ||b - A x||^2, the rounding floor's ||diag(A) x||^2 and
// sum(x) (x is 0 on dry cells), in float (one row at a time: its rounding is far below the
// tolerances; rows are summed in double). With offset != 0, of x - offset as it is stored
// (Multigrid::storeFinest; sum(x) is then not used).
struct RowSums {
  float residual = 0.0f, scaledSolution = 0.0f, solution = 0.0f;
  RowSums& operator+=(const RowSums& o) {
    residual += o.residual, scaledSolution += o.scaledSolution, solution += o.solution;
    return *this;
  }
};
// The scaled term of one cell, diag(A) c (the diagonal summed as computeInverseDiagonal does).
template <class Cell>
inline float scaledAt(const Cell& a, float c) {
  return (a.shift + a.east + a.west + a.north + a.south) * c;
}
WB_SPAN_KERNEL RowSums residualSumsSpan(const float* __restrict x, const float* __restrict y,
                                        const float* __restrict b, CoefficientArrays a,
                                        float offset, std::size_t h, std::size_t begin,
                                        std::size_t end) {
  float residual = 0.0f, scaled = 0.0f, solution = 0.0f;
#pragma omp simd reduction(+ : residual, scaled, solution)
  for (std::size_t m = begin; m < end; ++m) {
    const float c = x[m] - offset;
    const float r = b[m] - applyAt(a.at(m), c, y, h, m, offset);
    const float scaledCell = scaledAt(a.at(m), c);
    residual += r * r;
    scaled += scaledCell * scaledCell;
    solution += c;
  }
  return {residual, scaled, solution};
}
// The same over unit cells only (the exception pass adds the others' residual and scaled
// terms); sum(x) over all cells.
WB_SPAN_KERNEL RowSums unitResidualSumsSpan(const float* __restrict x, const float* __restrict y,
                                            const float* __restrict b, const float* __restrict unit,
                                            float offset, std::size_t h, std::size_t begin,
                                            std::size_t end) {
  float residual = 0.0f, scaled = 0.0f, solution = 0.0f;
#pragma omp simd reduction(+ : residual, scaled, solution)
  for (std::size_t m = begin; m < end; ++m) {
    const float keep = unit[m];
    const float c = x[m] - offset;
    const float r = b[m] - applyUnitAt(c, y, h, m, offset);
    residual += keep * (r * r);
    scaled += keep * (16.0f * c * c);  // diag(A) = 4
    solution += c;
  }
  return {residual, scaled, solution};
}

// Every other value of a row: out[t] = in[2 t] (one colour's cells of an interleaved row).
WB_SPAN_KERNEL void takeEveryOther(float* __restrict out, const float* __restrict in,
                                   std::size_t count) {
#pragma omp simd
  for (std::size_t t = 0; t < count; ++t)
    out[t] = in[2 * t];
}

// The reverse: out[2 t] = in[t].
WB_SPAN_KERNEL void putEveryOther(float* __restrict out, const float* __restrict in,
                                  std::size_t count) {
#pragma omp simd
  for (std::size_t t = 0; t < count; ++t)
    out[2 * t] = in[t];
}

// out[i] = a[i] + b[i] + c[i] + d[i]: the restriction's sum of a coarse cell's children (west
// and east in the lower row, then in the upper one, as in the interleaved layout).
WB_SPAN_KERNEL void sumChildren(float* __restrict out, const float* __restrict a,
                                const float* __restrict b, const float* __restrict c,
                                const float* __restrict d, std::size_t count) {
#pragma omp simd
  for (std::size_t i = 0; i < count; ++i)
    out[i] = a[i] + b[i] + c[i] + d[i];
}

// x[t] += coarse[t] on wet cells (dry cells stay 0: the relaxation leaves them as they are).
WB_SPAN_KERNEL void addOnWet(float* __restrict x, const std::uint8_t* __restrict wet,
                             const float* __restrict coarse, std::size_t count) {
#pragma omp simd
  for (std::size_t t = 0; t < count; ++t)
    x[t] += float(wet[t]) * coarse[t];  // the 0/1 mask as a factor: a select is a branch here
}

// Loads a caller's row into the two colours: even columns to one (bEven, xEven), odd columns
// to the other, in one pass with contiguous loads (de-interleaved in registers): b and the
// first guess latest + (latest - x) (x itself when latest is x), 0 on dry cells; returns the
// sum and the sum of squares of the loaded b. The mask is a 0/1 factor (GCC turns selects on
// it into a branch and does not vectorise the loop); b, x and latest are finite.
struct LoadSums {
  float sum = 0.0f, squares = 0.0f;
};
WB_SPAN_KERNEL LoadSums loadRowPairs(float* __restrict bEven, float* __restrict xEven,
                                     const std::uint8_t* __restrict wetEven, float* __restrict bOdd,
                                     float* __restrict xOdd, const std::uint8_t* __restrict wetOdd,
                                     const float* __restrict b, const float* __restrict x,
                                     const float* __restrict latest, std::size_t pairs) {
  float sum = 0.0f, squares = 0.0f;
#pragma omp simd reduction(+ : sum, squares)
  for (std::size_t t = 0; t < pairs; ++t) {
    const float keepEven = float(wetEven[t]), keepOdd = float(wetOdd[t]);
    const float even = keepEven * b[2 * t], odd = keepOdd * b[2 * t + 1];
    bEven[t] = even;
    bOdd[t] = odd;
    xEven[t] = keepEven * (latest[2 * t] + (latest[2 * t] - x[2 * t]));
    xOdd[t] = keepOdd * (latest[2 * t + 1] + (latest[2 * t + 1] - x[2 * t + 1]));
    sum += even + odd;
    squares += even * even + odd * odd;
  }
  return {sum, squares};
}

// b -= offset on the wet cells of one colour (Multigrid::loadFinest, when b's mean matters).
WB_SPAN_KERNEL void subtractOnWet(float* __restrict b, const std::uint8_t* __restrict wet,
                                  float offset, std::size_t count) {
#pragma omp simd
  for (std::size_t m = 0; m < count; ++m)
    b[m] -= float(wet[m]) * offset;
}

// The reverse: x - offset on wet cells, 0 on dry ones (+ 0 turns -0 into 0), both colours
// interleaved in registers and stored contiguously (storing every other value in two passes
// made the next read of the row stall on store forwarding).
WB_SPAN_KERNEL void storeRowPairs(float* __restrict out, const float* __restrict xEven,
                                  const std::uint8_t* __restrict wetEven,
                                  const float* __restrict xOdd,
                                  const std::uint8_t* __restrict wetOdd, float offset,
                                  std::size_t pairs) {
#pragma omp simd
  for (std::size_t t = 0; t < pairs; ++t) {
    out[2 * t] = float(wetEven[t]) * (xEven[t] - offset) + 0.0f;
    out[2 * t + 1] = float(wetOdd[t]) * (xOdd[t] - offset) + 0.0f;
  }
}

// A x on the cells [begin, end) of one row away from the grid's edge (dry cells have shift
// and faces 0, so their result is 0 without a test). in, out: the row in the CG's layout
// (stride nx); coefficients at offset coefficientRow in the ghost-bordered layout (stride row).
WB_SPAN_KERNEL void applyRowSpan(const double* __restrict in, double* __restrict out,
                                 const float* __restrict s, const float* __restrict fx,
                                 const float* __restrict fy, std::size_t coefficientRow,
                                 std::size_t nx, std::size_t row, std::size_t begin,
                                 std::size_t end) {
  const float *sr = s + coefficientRow, *fxr = fx + coefficientRow, *fyr = fy + coefficientRow;
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) {
    const double centre = in[i];
    out[i] = sr[i] * centre + fxr[i] * (centre - in[i + 1]) + fxr[i - 1] * (centre - in[i - 1]) +
             fyr[i] * (centre - in[i + nx]) + fyr[i - row] * (centre - in[i - nx]);
  }
}

}  // namespace

FivePointSystem FivePointSystem::fromMask(int nx, int ny, const std::vector<std::uint8_t>& wet,
                                          float shift) {
  FivePointSystem system{Field2D(nx, ny), Field2D(nx, ny), Field2D(nx, ny), wet};
  const auto isWet = [&](int i, int j) { return wet[std::size_t(j) * nx + i] != 0; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!isWet(i, j)) continue;
      system.shift(i, j) = shift;
      system.faceX(i, j) = i + 1 < nx && isWet(i + 1, j) ? 1.0f : 0.0f;
      system.faceY(i, j) = j + 1 < ny && isWet(i, j + 1) ? 1.0f : 0.0f;
    }
  return system;
}

Multigrid::Level Multigrid::makeLevel(int nx, int ny) {
  Level level;
  level.nx = nx;
  level.ny = ny;
  level.row = std::size_t(nx) + (nx % 2 ? 2 : 3);  // odd (header)
  const std::size_t cells = level.row * std::size_t(ny + 2);
  level.wet.assign(cells, 0);
  for (Field2D* f : {&level.shift, &level.faceX, &level.faceY, &level.inverseDiagonal})
    *f = Field2D(int(level.row), ny + 2);
  for (Colour& colour : level.colour) {
    for (Field2D* f : {&colour.x, &colour.b, &colour.r, &colour.unit})
      *f = Field2D(int((cells + 1) / 2), 1);
    colour.wet.assign((cells + 1) / 2, 0);
    colour.rowFirst.assign(std::size_t(ny) + 1, 0);
  }
  return level;
}

void Multigrid::setup(const FivePointSystem& fine) {
  levels_.clear();
  fineWet_ = fine.wet;
  wetCount_ = std::size_t(
      std::count_if(fineWet_.begin(), fineWet_.end(), [](std::uint8_t w) { return w != 0; }));
  const int nx = fine.shift.nx(), ny = fine.shift.ny();
  levels_.push_back(makeLevel(nx, ny));
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      levels_[0].wet[levels_[0].at(i, j)] = fine.wet[std::size_t(j) * nx + i];
  while (std::max(levels_.back().nx, levels_.back().ny) > kCoarsestSide) {
    const Level& finer = levels_.back();
    Level coarse = makeLevel((finer.nx + 1) / 2, (finer.ny + 1) / 2);
    coarsenMask(finer, coarse);
    levels_.push_back(std::move(coarse));
  }
  updateCoefficients(fine.shift, fine.faceX, fine.faceY);
}

void Multigrid::coarsenMask(const Level& fine, Level& coarse) {
  for (int j = 0; j < coarse.ny; ++j)
    for (int i = 0; i < coarse.nx; ++i) {
      // Children beyond an odd fine side fall on the ghost border, which is dry.
      const std::size_t k = fine.at(2 * i, 2 * j);
      coarse.wet[coarse.at(i, j)] =
          fine.wet[k] | fine.wet[k + 1] | fine.wet[k + fine.row] | fine.wet[k + fine.row + 1];
    }
}

void Multigrid::updateCoefficients(const Field2D& shift, const Field2D& faceX,
                                   const Field2D& faceY) {
  Level& fine = levels_[0];
  const int nx = fine.nx, ny = fine.ny;
  const auto wetAt = [&](int i, int j) { return fine.wet[fine.at(i, j)] != 0; };
#pragma omp parallel for schedule(static) if (worthThreads(shift.size()))
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = fine.at(i, j);
      const bool wet = wetAt(i, j);
      fine.shift.data()[k] = wet ? shift(i, j) : 0.0f;
      fine.faceX.data()[k] = wet && i + 1 < nx && wetAt(i + 1, j) ? faceX(i, j) : 0.0f;
      fine.faceY.data()[k] = wet && j + 1 < ny && wetAt(i, j + 1) ? faceY(i, j) : 0.0f;
    }
  computeInverseDiagonal(fine);
  splitCoefficients(fine);
  for (std::size_t l = 1; l < levels_.size(); ++l) {
    coarsenCoefficients(levels_[l - 1], levels_[l]);
    computeInverseDiagonal(levels_[l]);
    splitCoefficients(levels_[l]);
  }
}

// Shift: sum of the children's. Face: half the sum of the two fine faces it covers (header).
void Multigrid::coarsenCoefficients(const Level& fine, Level& coarse) {
  const float* s = fine.shift.data();
  const float* fx = fine.faceX.data();
  const float* fy = fine.faceY.data();
  const std::size_t row = fine.row;
  for (int j = 0; j < coarse.ny; ++j)
    for (int i = 0; i < coarse.nx; ++i) {
      const std::size_t k = fine.at(2 * i, 2 * j), c = coarse.at(i, j);
      coarse.shift.data()[c] = s[k] + s[k + 1] + s[k + row] + s[k + row + 1];
      // The east face of coarse cell i is the east face of fine column 2i + 1 (ghost border
      // and last-column faces are 0); likewise north.
      coarse.faceX.data()[c] = 0.5f * (fx[k + 1] + fx[k + row + 1]);
      coarse.faceY.data()[c] = 0.5f * (fy[k + row] + fy[k + row + 1]);
    }
}

void Multigrid::computeInverseDiagonal(Level& level) {
  const std::size_t row = level.row;
  const float *s = level.shift.data(), *fx = level.faceX.data(), *fy = level.faceY.data();
  float* inverse = level.inverseDiagonal.data();
#pragma omp parallel for schedule(static) if (worthThreads(level.wet.size()))
  for (int j = 0; j < level.ny; ++j)
    for (int i = 0; i < level.nx; ++i) {
      const std::size_t k = level.at(i, j);
      const float diagonal = s[k] + fx[k] + fx[k - 1] + fy[k] + fy[k - row];
      // A wet cell cut off from every neighbour with no shift has a zero row: leave it at 0.
      inverse[k] = level.wet[k] && diagonal > 0.0f ? 1.0f / diagonal : 0.0f;
    }
}

// A level whose cells are mostly unit cells keeps only the others' coefficients, as exceptions
// (kMaxExceptionFraction); otherwise float coefficient arrays for every cell.
namespace {
constexpr double kMaxExceptionFraction = 0.25;
}  // namespace

void Multigrid::splitCoefficients(Level& level) {
  const std::size_t row = level.row, cells = level.wet.size(), half = (cells + 1) / 2;
  const float *s = level.shift.data(), *fx = level.faceX.data(), *fy = level.faceY.data();
  const float* inverse = level.inverseDiagonal.data();
  // Ghost cells before the first and after the last row are never processed; rows j of the
  // level are the bordered cells [(j + 1) row, (j + 2) row), with their ghost columns.
  // Cell k is entry k >> 1 of colour k & 1: each entry is written by one cell, so the passes
  // below may share their cells or rows among threads.
  const std::size_t first = row, last = cells - row;
  std::size_t units = 0;
#pragma omp parallel for schedule(static) reduction(+ : units) if (worthThreads(cells))
  for (std::size_t k = first; k < last; ++k) {
    const bool unit = level.wet[k] && s[k] == 0.0f && fx[k] == 1.0f && fx[k - 1] == 1.0f &&
                      fy[k] == 1.0f && fy[k - row] == 1.0f;
    Colour& colour = level.colour[k & 1];
    colour.wet[k >> 1] = level.wet[k] ? 1 : 0;
    colour.unit.data()[k >> 1] = unit ? 1.0f : 0.0f;
    units += unit;
  }
  level.useExceptions = double(cells - units) <= kMaxExceptionFraction * double(cells);
  for (Colour& colour : level.colour) {
    colour.exceptions.clear();
    for (Field2D* f :
         {&colour.shift, &colour.east, &colour.west, &colour.north, &colour.south, &colour.inverse})
      if (level.useExceptions)
        *f = Field2D();
      else if (f->empty())
        *f = Field2D(int(half), 1);
  }
  if (!level.useExceptions) {
    for (Colour& colour : level.colour)
      std::fill(colour.rowFirst.begin(), colour.rowFirst.end(), 0u);
#pragma omp parallel for schedule(static) if (worthThreads(cells))
    for (int j = 0; j < level.ny; ++j)
      for (std::size_t k = std::size_t(j + 1) * row; k < std::size_t(j + 2) * row; ++k) {
        Colour& colour = level.colour[k & 1];
        const std::size_t m = k >> 1;
        colour.shift.data()[m] = s[k];
        colour.east.data()[m] = fx[k];
        colour.west.data()[m] = fx[k - 1];
        colour.north.data()[m] = fy[k];
        colour.south.data()[m] = fy[k - row];
        colour.inverse.data()[m] = inverse[k];
      }
    return;
  }
  // With exceptions, the wet cells that are not unit cells are the exceptions (dry and ghost
  // cells need none: the unit passes leave their x at 0 and their residual 0), row by row.
  for (int j = 0; j < level.ny; ++j) {
    for (Colour& colour : level.colour)
      colour.rowFirst[std::size_t(j)] = std::uint32_t(colour.exceptions.size());
    for (std::size_t k = std::size_t(j + 1) * row; k < std::size_t(j + 2) * row; ++k) {
      Colour& colour = level.colour[k & 1];
      const std::size_t m = k >> 1;
      if (colour.wet[m] && colour.unit.data()[m] == 0.0f)
        colour.exceptions.push_back(
            {std::uint32_t(m), s[k], fx[k], fx[k - 1], fy[k], fy[k - row], inverse[k]});
    }
  }
  for (Colour& colour : level.colour)
    colour.rowFirst[std::size_t(level.ny)] = std::uint32_t(colour.exceptions.size());
}

// The exceptions of a colour in rows [j0, j1).
std::pair<const Multigrid::Exception*, const Multigrid::Exception*> Multigrid::exceptionsIn(
    const Colour& colour, int j0, int j1) {
  const Exception* data = colour.exceptions.data();
  return {data + colour.rowFirst[std::size_t(j0)], data + colour.rowFirst[std::size_t(j1)]};
}

void Multigrid::relaxColour(Level& level, int c, int j0, int j1) {
  if (j1 <= j0) return;
  Colour& own = level.colour[c];
  const float* y = level.colour[1 - c].x.data() + c;
  const std::size_t h = level.northOffset();
  const std::size_t begin = Level::colourBegin(level.rowsBegin(j0), c);
  const std::size_t end = Level::colourEnd(level.rowsEnd(j1), c);
  float *x = own.x.data(), *b = own.b.data();
  if (!level.useExceptions) {
    relaxSpan(x, y, b, arraysOf(own), h, begin, end);
    return;
  }
  relaxUnitSpan(x, y, b, own.unit.data(), h, begin, end);
  const auto [first, last] = exceptionsIn(own, j0, j1);
  for (const Exception* e = first; e != last; ++e)
    x[e->m] = relaxed(*e, x[e->m], b[e->m], y, h, e->m);
}

// One Gauss-Seidel sweep, colour `first` then the other. With threads, each takes a band of
// rows for both colours, with a barrier between them; small levels (and the coarsest level's
// many sweeps) run without a team, each colour one pass over the whole level.
void Multigrid::sweep(Level& level, int first) {
  const int second = 1 - first;
  if (!worthThreads(std::size_t(level.nx) * std::size_t(level.ny))) {
    relaxColour(level, first, 0, level.ny);
    relaxColour(level, second, 0, level.ny);
    return;
  }
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const int j0 = level.ny * t / threads, j1 = level.ny * (t + 1) / threads;
    relaxColour(level, first, j0, j1);
#pragma omp barrier
    relaxColour(level, second, j0, j1);
  }
}

// The sums of row j (residualSumsSpan) for x - offset, each colour in float.
Multigrid::ResidualNorms Multigrid::rowNorms(const Level& level, int j, float offset) {
  const std::size_t h = level.northOffset();
  ResidualNorms norms;
  for (int c = 0; c < 2; ++c) {
    const Colour& own = level.colour[c];
    const float* y = level.colour[1 - c].x.data() + c;
    const float *x = own.x.data(), *b = own.b.data();
    const std::size_t begin = Level::colourBegin(level.rowsBegin(j), c);
    const std::size_t end = Level::colourEnd(level.rowsEnd(j + 1), c);
    RowSums sums;
    if (!level.useExceptions) {
      sums = residualSumsSpan(x, y, b, arraysOf(own), offset, h, begin, end);
    } else {
      sums = unitResidualSumsSpan(x, y, b, own.unit.data(), offset, h, begin, end);
      const auto [first, last] = exceptionsIn(own, j, j + 1);
      for (const Exception* e = first; e != last; ++e) {
        const std::size_t m = e->m;
        const float v = x[m] - offset;
        const float r = b[m] - applyAt(*e, v, y, h, m, offset);
        const float scaledCell = scaledAt(*e, v);
        sums.residual += r * r;
        sums.scaledSolution += scaledCell * scaledCell;
      }
    }
    norms.residual += sums.residual;
    norms.scaledSolution += sums.scaledSolution;
    norms.solution += sums.solution;
  }
  return norms;
}

Multigrid::ResidualNorms Multigrid::measureResidual(const Level& level) {
  double residual = 0.0, scaled = 0.0, solution = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : residual, scaled, solution) if (worthThreads(std::size_t(level.nx) * std::size_t(level.ny)))
  for (int j = 0; j < level.ny; ++j) {
    const ResidualNorms sums = rowNorms(level, j, 0.0f);
    residual += sums.residual;
    scaled += sums.scaledSolution;
    solution += sums.solution;
  }
  return {residual, scaled, solution};
}

// r = b - A x on the rows [j0, j1) of a level (both colours).
void Multigrid::residualRows(Level& level, int j0, int j1) {
  const std::size_t h = level.northOffset();
  for (int c = 0; c < 2; ++c) {
    Colour& own = level.colour[c];
    const float* y = level.colour[1 - c].x.data() + c;
    const float *x = own.x.data(), *b = own.b.data();
    float* r = own.r.data();
    const std::size_t begin = Level::colourBegin(level.rowsBegin(j0), c);
    const std::size_t end = Level::colourEnd(level.rowsEnd(j1), c);
    if (!level.useExceptions) {
      residualSpan(r, x, y, b, arraysOf(own), h, begin, end);
      continue;
    }
    unitResidualSpan(r, x, y, b, own.unit.data(), h, begin, end);
    const auto [first, last] = exceptionsIn(own, j0, j1);
    for (const Exception* e = first; e != last; ++e)
      r[e->m] = b[e->m] - applyAt(*e, x[e->m], y, h, e->m, 0.0f);
  }
}

namespace {
// Cells per block of the row buffers below (even, so that a block starts on an even column).
constexpr std::size_t kRowBlock = 256;
}  // namespace

// r = b - A x on the fine rows of each coarse row, then their 2 x 2 sums as the coarse right
// side, in one pass with threads (the residual rows are still in cache when they are
// restricted); without a team, one residual pass over the level first (small levels: fewer
// calls). A row's
// cells alternate in colour, so the west children of a coarse row's cells are every other
// value of one colour's fine row and the east children the other's; the sums, in column order,
// are then split into the coarse colours.
void Multigrid::restrictResidual(Level& fine, Level& coarse) {
  const bool threaded = worthThreads(std::size_t(fine.nx) * std::size_t(fine.ny));
  if (!threaded) residualRows(fine, 0, fine.ny);
#pragma omp parallel for schedule(static) if (threaded)
  for (int jc = 0; jc < coarse.ny; ++jc) {
    // A last odd fine row's second child is the ghost row, whose r stays 0.
    if (threaded) residualRows(fine, 2 * jc, std::min(2 * jc + 2, fine.ny));
    // Children of coarse cell i: fine cells lower + 2 i and lower + 2 i + 1, and the same in
    // the upper row (a last odd column's east child is the ghost column, whose r is 0).
    const std::size_t lower = fine.at(0, 2 * jc), upper = lower + fine.row;
    const auto child = [&](std::size_t k) { return fine.colour[k & 1].r.data() + (k >> 1); };
    const std::size_t first = coarse.at(0, jc);
    alignas(64) float sums[kRowBlock];
    for (std::size_t i0 = 0; i0 < std::size_t(coarse.nx); i0 += kRowBlock) {
      const std::size_t count = std::min(kRowBlock, std::size_t(coarse.nx) - i0);
      sumChildren(sums, child(lower) + i0, child(lower + 1) + i0, child(upper) + i0,
                  child(upper + 1) + i0, count);
      for (int c = 0; c < 2; ++c) {  // coarse cell first + i0 + i has colour (first + i0 + i) & 1
        const std::size_t skip = (first + i0 + c) & 1;
        if (skip >= count) continue;
        takeEveryOther(coarse.colour[c].b.data() + ((first + i0 + skip) >> 1), sums + skip,
                       (count - skip + 1) / 2);
      }
    }
  }
}

// Adds each coarse value to its four children (on wet ones). The coarse row is gathered into
// column order, then fine row j's cells of colour c (columns (c + j) & 1, + 2, ...) take the
// coarse values of columns 0, 1, ...: one stride-1 loop per colour and fine row.
void Multigrid::prolongAndAdd(const Level& coarse, Level& fine) {
#pragma omp parallel for schedule( \
    static) if (worthThreads(std::size_t(fine.nx) * std::size_t(fine.ny)))
  for (int jc = 0; jc < coarse.ny; ++jc) {
    const std::size_t first = coarse.at(0, jc);
    alignas(64) float values[kRowBlock];
    for (std::size_t i0 = 0; i0 < std::size_t(coarse.nx); i0 += kRowBlock) {
      const std::size_t count = std::min(kRowBlock, std::size_t(coarse.nx) - i0);
      for (int c = 0; c < 2; ++c) {
        const std::size_t skip = (first + i0 + c) & 1;
        if (skip >= count) continue;
        putEveryOther(values + skip, coarse.colour[c].x.data() + ((first + i0 + skip) >> 1),
                      (count - skip + 1) / 2);
      }
      const std::size_t fineEnd = std::min(std::size_t(fine.nx), 2 * (i0 + count));
      for (int j = 2 * jc; j < std::min(2 * jc + 2, fine.ny); ++j)
        for (int c = 0; c < 2; ++c) {
          // Fine columns 2 i0 + column + 2 t have parent i0 + t.
          const std::size_t column = 2 * i0 + std::size_t((c + j) & 1);
          if (column >= fineEnd) continue;
          const std::size_t m = fine.at(int(column), j) >> 1;
          Colour& own = fine.colour[c];
          addOnWet(own.x.data() + m, own.wet.data() + m, values, (fineEnd - column + 1) / 2);
        }
    }
  }
}

void Multigrid::cycle(std::size_t l, bool warmStart) {
  Level& level = levels_[l];
  if (!warmStart)
    for (Colour& colour : level.colour)
      colour.x.fill(0.0f);
  constexpr int kRed = 0, kBlack = 1;
  if (l + 1 == levels_.size()) {
    for (int s = 0; s < kCoarsestSweeps; ++s)
      sweep(level, kRed);
    for (int s = 0; s < kCoarsestSweeps; ++s)
      sweep(level, kBlack);
    return;
  }
  for (int s = 0; s < kSmoothingSweeps; ++s)
    sweep(level, kRed);
  restrictResidual(level, levels_[l + 1]);
  cycle(l + 1, false);
  prolongAndAdd(levels_[l + 1], level);
  for (int s = 0; s < kSmoothingSweeps; ++s)
    sweep(level, kBlack);
}

// A caller's row j: its even columns are the cells of colour j & 1 from at(0, j) on, its odd
// columns those of the other colour from at(1, j) on.
namespace {
// The wet mean of b left in a singular solve: its share of the relative residual, which no
// solution can remove, is far below any tolerance the models use (1e-4).
constexpr double kMaxMeanOfB = 0x1p-20;
}  // namespace

double Multigrid::loadFinest(const Field2D& b, const Field2D& x, const Field2D& latest,
                             bool removeMean) {
  Level& fine = levels_[0];
  const int nx = fine.nx;
  double sum = 0.0, squares = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum, squares) if (worthThreads(b.size()))
  for (int j = 0; j < fine.ny; ++j) {
    Colour &even = fine.colour[j & 1], &odd = fine.colour[(j + 1) & 1];
    const std::size_t evenM = fine.at(0, j) >> 1, oddM = fine.at(1, j) >> 1;
    const std::size_t source = std::size_t(j) * nx, pairs = std::size_t(nx) / 2;
    const LoadSums row =
        loadRowPairs(even.b.data() + evenM, even.x.data() + evenM, even.wet.data() + evenM,
                     odd.b.data() + oddM, odd.x.data() + oddM, odd.wet.data() + oddM,
                     b.data() + source, x.data() + source, latest.data() + source, pairs);
    sum += row.sum;
    squares += row.squares;
    if (nx % 2) {  // the last column, even
      const std::size_t m = evenM + pairs, i = source + std::size_t(nx) - 1;
      const float keep = float(even.wet[m]);
      const float value = keep * b.data()[i];
      even.b.data()[m] = value;
      even.x.data()[m] = keep * (latest.data()[i] + (latest.data()[i] - x.data()[i]));
      sum += value;
      squares += double(value) * value;
    }
  }
  if (!removeMean || !wetCount_) return squares;
  // The wet mean of b is removed where it could matter: a mean m leaves a residual of |m| /
  // rms(b) that no x can remove. A divergence in flux form has none but its rounding (1e-8 to
  // 1.5e-7 of rms(b) measured on the windy pools), far below kMaxMeanOfB, and skips this pass.
  const double cells = double(wetCount_), mean = sum / cells;
  if (std::fabs(mean) <= kMaxMeanOfB * std::sqrt(squares / cells)) return squares;
  for (Colour& colour : fine.colour)
    subtractOnWet(colour.b.data(), colour.wet.data(), float(mean), colour.wet.size());
  return squares - 2.0 * mean * sum + cells * mean * mean;
}

// Stores x - offset. Returns the squared residual of the stored x when offset != 0, else -1:
// x - offset rounded to float is not x - offset, and at a float solution's rounding floor that
// last rounding changes the residual by as much as the floor itself, so the solve reports the
// residual of the x it returns (the row sums of measureResidual for x - offset, in the same
// pass as the store).
double Multigrid::storeFinest(Field2D& x, float offset) const {
  const Level& fine = levels_[0];
  const int nx = fine.nx;
  const bool shift = offset != 0.0f;
  double squares = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : squares) if (worthThreads(x.size()))
  for (int j = 0; j < fine.ny; ++j) {
    if (shift) squares += rowNorms(fine, j, offset).residual;
    const Colour &even = fine.colour[j & 1], &odd = fine.colour[(j + 1) & 1];
    const std::size_t evenM = fine.at(0, j) >> 1, oddM = fine.at(1, j) >> 1;
    const std::size_t target = std::size_t(j) * nx, pairs = std::size_t(nx) / 2;
    storeRowPairs(x.data() + target, even.x.data() + evenM, even.wet.data() + evenM,
                  odd.x.data() + oddM, odd.wet.data() + oddM, offset, pairs);
    if (nx % 2) {  // the last column, even
      const std::size_t m = evenM + pairs;
      x.data()[target + std::size_t(nx) - 1] =
          float(even.wet[m]) * (even.x.data()[m] - offset) + 0.0f;
    }
  }
  return shift ? squares : -1.0;
}

// The relative residual below which a float x is rounding noise, per unit of
// ||diag(A) x|| / ||b||: rounding x to float perturbs a cell by ulp / sqrt(12) rms, about
// 0.42 2^-24 |x| (an ulp is 2^-23 to 2^-22 of |x|), which A turns into a residual of
// sqrt(1.25) diag times that (5-point rows: diag^2 + sum w^2 = 1.25 diag^2): 0.47 2^-24.
// Solves stall a little below this estimate (docs/performance.md, "The multigrid's stopping
// constants").
constexpr double kRoundingFloor = 0.5 * 0x1p-24;
// A cycle that keeps more than this fraction of the residual has met the rounding floor: even
// on the finest grids, where piecewise-constant transfers make the V-cycle converge more slowly
// (which CG hides when it is the preconditioner), a working cycle keeps well below it
// (docs/performance.md, "The multigrid's stopping constants").
constexpr double kStallRatio = 0.95;

// The wet mean of a singular solve's x is removed when it exceeds this fraction of
// rms(diag(A) x) (about 4 rms(x)). Constants are in A's null space, so the mean only has to be
// kept from drifting, which it does slowly (docs/performance.md, "The multigrid's stopping
// constants"), and a mean of 1e-3 rms(x) moves few values of x across a power of two, so the
// rounding floor barely moves. Removing it rounds x once more, which costs a pass to measure the
// residual of the stored x (storeFinest); below the threshold x is stored as it is, with the
// residual of the last check.
constexpr double kMaxMeanDrift = 0x1p-12;

// Residual check, then one V-cycle from the current x; the finest level holds b and x. Stops at
// the tolerance, at the rounding floor of a float x (estimated, or seen as a stalled cycle) or
// after maxCycles.
CgResult Multigrid::solve(const Field2D& b, Field2D& x, double tolerance, int maxCycles,
                          const MultigridSolveOptions& options) {
  const bool removeMean = options.removeMean;
  const double bNorm =
      std::sqrt(loadFinest(b, x, options.latest ? *options.latest : x, removeMean));
  CgResult result;
  if (bNorm == 0.0) {
    x.fill(0.0f);
    result.converged = true;
    return result;
  }
  double previous = HUGE_VAL;
  ResidualNorms norms;
  if (options.firstCycleUnchecked && maxCycles > 0) {
    cycle(0, true);
    ++result.iterations;
  }
  for (;;) {
    norms = measureResidual(levels_[0]);
    result.relativeResidual = std::sqrt(norms.residual) / bNorm;
    const double floor = kRoundingFloor * std::sqrt(norms.scaledSolution) / bNorm;
    result.converged = result.relativeResidual <= tolerance;
    if (result.converged || result.relativeResidual <= floor ||
        result.relativeResidual > kStallRatio * previous || result.iterations >= maxCycles ||
        !std::isfinite(result.relativeResidual))
      break;
    previous = result.relativeResidual;
    cycle(0, true);
    ++result.iterations;
  }
  // The wet mean of x, removed once it matters (kMaxMeanDrift).
  const double mean = removeMean && wetCount_ ? norms.solution / double(wetCount_) : 0.0;
  const bool drifted =
      std::fabs(mean) > kMaxMeanDrift * std::sqrt(norms.scaledSolution / double(wetCount_));
  const double storedResidual = storeFinest(x, drifted ? float(mean) : 0.0f);
  if (storedResidual >= 0.0) {
    result.relativeResidual = std::sqrt(storedResidual) / bNorm;
    result.converged = result.relativeResidual <= tolerance;
  }
  return result;
}

void Multigrid::vcycle(const double* r, double* z) {
  Level& fine = levels_[0];
  const int nx = fine.nx;
#pragma omp parallel for schedule(static) if (worthThreads(std::size_t(nx) * std::size_t(fine.ny)))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = fine.at(i, j);
      fine.colour[k & 1].b.data()[k >> 1] = float(r[std::size_t(j) * nx + i]);
    }
  cycle(0);
#pragma omp parallel for schedule(static) if (worthThreads(std::size_t(nx) * std::size_t(fine.ny)))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = fine.at(i, j);
      z[std::size_t(j) * nx + i] = fine.colour[k & 1].x.data()[k >> 1];
    }
}

void Multigrid::applyOperator(const double* in, double* out) const {
  const Level& fine = levels_[0];
  const std::size_t nx = std::size_t(fine.nx), ny = std::size_t(fine.ny), row = fine.row;
  const float *s = fine.shift.data(), *fx = fine.faceX.data(), *fy = fine.faceY.data();
  // Cells on the grid's edge: faces there are 0 and the missing neighbour is not read.
  const auto edgeCell = [&](std::size_t i, std::size_t j) {
    const std::size_t k = j * nx + i, c = (j + 1) * row + i + 1;
    const double centre = in[k];
    const double east = i + 1 < nx ? in[k + 1] : 0.0, west = i > 0 ? in[k - 1] : 0.0;
    const double north = j + 1 < ny ? in[k + nx] : 0.0, south = j > 0 ? in[k - nx] : 0.0;
    out[k] = s[c] * centre + fx[c] * (centre - east) + fx[c - 1] * (centre - west) +
             fy[c] * (centre - north) + fy[c - row] * (centre - south);
  };
#pragma omp parallel for schedule(static) if (worthThreads(nx * ny))
  for (std::size_t j = 0; j < ny; ++j) {
    edgeCell(0, j);
    if (nx > 1) edgeCell(nx - 1, j);
    if (j == 0 || j + 1 == ny) {
      for (std::size_t i = 1; i + 1 < nx; ++i)
        edgeCell(i, j);
    } else if (nx > 2) {
      applyRowSpan(in + j * nx, out + j * nx, s, fx, fy, (j + 1) * row + 1, nx, row, 1, nx - 1);
    }
  }
}

CgResult MultigridPcg::solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations,
                             bool removeMean) {
  const auto apply = [this](const double* in, double* out) { multigrid_.applyOperator(in, out); };
  return solve(apply, b, x, tolerance, maxIterations, removeMean);
}

CgResult MultigridPcg::solve(const PreconditionedCg::Operator& apply, const Field2D& b, Field2D& x,
                             double tolerance, int maxIterations, bool removeMean) {
  const auto precondition = [this](const double* r, double* z) { multigrid_.vcycle(r, z); };
  return cg_.solve(apply, precondition, b, x, multigrid_.wet(), tolerance, maxIterations,
                   removeMean);
}

}  // namespace wb
