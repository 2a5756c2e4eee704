#include "core/multigrid.hpp"

#include <algorithm>
#include <cmath>

#include <omp.h>

#include "core/parallel.hpp"

namespace wb {

namespace {

// Red-black Gauss-Seidel on the cells [begin, end) of one row whose offset from begin is even
// (skipFirst = 0) or odd (skipFirst = 1): x_c = (b_c + sum_f w_f x_f) / diag_c, written as the
// correction x_c += (b_c - s_c x_c + sum_f w_f (x_f - x_c)) / diag_c. The differences of
// neighbouring values are exact in float, so x is rounded once per update; summing the
// neighbours' values would round at about 4 eps |x| and stall a solve at a residual of
// 1.3e-4 (256^2) to 3.9e-4 (512^2) on a windy pool, above the tolerance. Dry cells (inverse
// diagonal and faces 0) keep their x, which is 0. A stride-2 loop: the cells of one colour
// read only the other colour, so its iterations are independent, and the compiler vectorises
// it with permuted loads (GCC 12 -fopt-info-vec). It replaced a stride-1 loop over both
// colours with a blend, which did twice the arithmetic and stored the other colour back
// unchanged; windy advected-wave steps are 1.03-1.16x faster with the stride-2 one
// (docs/performance.md, sixth round).
WB_SPAN_KERNEL void relaxRowSpan(float* x, const float* __restrict s, const float* __restrict fx,
                                 const float* __restrict fy, const float* __restrict inverse,
                                 const float* __restrict b, std::size_t row, std::size_t begin,
                                 std::size_t end, unsigned skipFirst) {
  const std::size_t first = begin + skipFirst;
  const std::size_t count = end > first ? (end - first + 1) / 2 : 0;
#pragma omp simd
  for (std::size_t m = 0; m < count; ++m) {
    const std::size_t k = first + 2 * m;
    const float c = x[k];
    x[k] = c + inverse[k] * (b[k] - s[k] * c + fx[k] * (x[k + 1] - c) + fx[k - 1] * (x[k - 1] - c) +
                             fy[k] * (x[k + row] - c) + fy[k - row] * (x[k - row] - c));
  }
}

// The same update on the cells [begin, end) of a unit span (shift 0, every face 1, so the
// inverse diagonal is 1/4: the general update with those coefficients, term for term, so the
// result is the same to the bit). It reads only x and b, where relaxRowSpan also reads five
// coefficient fields.
WB_SPAN_KERNEL void relaxUnitSpan(float* x, const float* __restrict b, std::size_t row,
                                  std::size_t begin, std::size_t end, unsigned skipFirst) {
  const std::size_t first = begin + skipFirst;
  const std::size_t count = end > first ? (end - first + 1) / 2 : 0;
#pragma omp simd
  for (std::size_t m = 0; m < count; ++m) {
    const std::size_t k = first + 2 * m;
    const float c = x[k];
    x[k] =
        c + 0.25f * (b[k] + (x[k + 1] - c) + (x[k - 1] - c) + (x[k + row] - c) + (x[k - row] - c));
  }
}

// (A y)_k with y = x - offset (as rounded in float) of the 5-point row at cell k, and the same
// for a unit cell (shift 0, faces 1: the same terms, so the same value). offset 0: A x.
inline float applyAt(const float* x, const float* s, const float* fx, const float* fy,
                     std::size_t row, std::size_t k, float offset) {
  const float c = x[k] - offset;
  return s[k] * c + fx[k] * (c - (x[k + 1] - offset)) + fx[k - 1] * (c - (x[k - 1] - offset)) +
         fy[k] * (c - (x[k + row] - offset)) + fy[k - row] * (c - (x[k - row] - offset));
}
inline float applyUnitAt(const float* x, std::size_t row, std::size_t k, float offset) {
  const float c = x[k] - offset;
  return (c - (x[k + 1] - offset)) + (c - (x[k - 1] - offset)) + (c - (x[k + row] - offset)) +
         (c - (x[k - row] - offset));
}

// r = b - A x on the cells [begin, end) of a row (0 on dry cells, whose b, x and faces are 0).
WB_SPAN_KERNEL void residualSpan(float* __restrict r, const float* __restrict x,
                                 const float* __restrict s, const float* __restrict fx,
                                 const float* __restrict fy, const float* __restrict b,
                                 std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    r[k] = b[k] - applyAt(x, s, fx, fy, row, k, 0.0f);
}
WB_SPAN_KERNEL void unitResidualSpan(float* __restrict r, const float* __restrict x,
                                     const float* __restrict b, std::size_t row, std::size_t begin,
                                     std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    r[k] = b[k] - applyUnitAt(x, row, k, 0.0f);
}

// Sums over the cells of a row piece for Multigrid::solve's checks: ||b - A x||^2, the
// rounding floor's ||diag(A) x||^2 and sum(x) (x is 0 on dry cells), in float (a row's rounding
// is far below the tolerances; rows are summed in double). With offset != 0, of x - offset as
// it is stored (Multigrid::storeFinest).
struct RowSums {
  float residual = 0.0f, scaledSolution = 0.0f, solution = 0.0f;
  RowSums& operator+=(const RowSums& o) {
    residual += o.residual, scaledSolution += o.scaledSolution, solution += o.solution;
    return *this;
  }
};
WB_SPAN_KERNEL RowSums residualSumsSpan(const float* __restrict x, const float* __restrict s,
                                        const float* __restrict fx, const float* __restrict fy,
                                        const float* __restrict b, std::size_t row, float offset,
                                        std::size_t begin, std::size_t end) {
  float residual = 0.0f, scaled = 0.0f, solution = 0.0f;
#pragma omp simd reduction(+ : residual, scaled, solution)
  for (std::size_t k = begin; k < end; ++k) {
    const float c = x[k] - offset;
    const float r = b[k] - applyAt(x, s, fx, fy, row, k, offset);
    const float scaledCell = (s[k] + fx[k] + fx[k - 1] + fy[k] + fy[k - row]) * c;
    residual += r * r;
    scaled += scaledCell * scaledCell;
    solution += c;
  }
  return {residual, scaled, solution};
}
WB_SPAN_KERNEL RowSums unitResidualSumsSpan(const float* __restrict x, const float* __restrict b,
                                            std::size_t row, float offset, std::size_t begin,
                                            std::size_t end) {
  float residual = 0.0f, scaled = 0.0f, solution = 0.0f;
#pragma omp simd reduction(+ : residual, scaled, solution)
  for (std::size_t k = begin; k < end; ++k) {
    const float c = x[k] - offset;
    const float r = b[k] - applyUnitAt(x, row, k, offset);
    residual += r * r;
    scaled += 16.0f * c * c;  // diag(A) = 4
    solution += c;
  }
  return {residual, scaled, solution};
}

// Restriction of two fine residual rows to a coarse right-side row: each coarse cell sums its
// 2 x 2 children (a last odd column's second child is the ghost border, whose r is 0).
WB_SPAN_KERNEL void restrictRowSpan(float* __restrict coarse, const float* __restrict lower,
                                    const float* __restrict upper, int count) {
#pragma omp simd
  for (int i = 0; i < count; ++i)
    coarse[i] = lower[2 * i] + lower[2 * i + 1] + upper[2 * i] + upper[2 * i + 1];
}

// Adds each coarse value of a row to its two children in a fine row, on wet cells only (dry
// cells stay 0: the relaxation leaves them as they are).
WB_SPAN_KERNEL void prolongRowSpan(float* __restrict x, const std::uint8_t* __restrict wet,
                                   const float* __restrict coarse, int pairs) {
#pragma omp simd
  for (int i = 0; i < pairs; ++i) {
    x[2 * i] += wet[2 * i] ? coarse[i] : 0.0f;
    x[2 * i + 1] += wet[2 * i + 1] ? coarse[i] : 0.0f;
  }
}

// Copies a row of b (less offset) and x into the ghost-bordered finest level, 0 on dry cells;
// returns the sum of the loaded b's squares. The mask is a 0/1 factor (GCC turns the two
// selects on it into a branch and does not vectorise the loop); b and x are finite.
WB_SPAN_KERNEL float loadRowSpan(float* __restrict bOut, float* __restrict xOut,
                                 const float* __restrict b, const float* __restrict x,
                                 const std::uint8_t* __restrict wet, float offset, int count) {
  float squares = 0.0f;
#pragma omp simd reduction(+ : squares)
  for (int i = 0; i < count; ++i) {
    const float keep = wet[i] ? 1.0f : 0.0f;
    const float value = keep * (b[i] - offset);
    bOut[i] = value;
    xOut[i] = keep * x[i];
    squares += value * value;
  }
  return squares;
}

// x = source - offset on wet cells, 0 on dry ones (a select between loaded values and then
// the arithmetic: GCC does not vectorise arithmetic in a select's arm under -ftrapping-math).
WB_SPAN_KERNEL void storeRowSpan(float* __restrict x, const float* __restrict source,
                                 const std::uint8_t* __restrict wet, float offset, int count) {
#pragma omp simd
  for (int i = 0; i < count; ++i)
    x[i] = (wet[i] ? source[i] : offset) - offset;
}

// Sum of a row's values on wet cells (the mask as a 0/1 weight, so the loop vectorises).
WB_SPAN_KERNEL float wetRowSum(const float* __restrict values, const std::uint8_t* __restrict wet,
                               int count) {
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (int i = 0; i < count; ++i)
    sum += float(wet[i]) * values[i];
  return sum;
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
  level.wet.assign(level.row * std::size_t(ny + 2), 0);
  for (Field2D* f : {&level.shift, &level.faceX, &level.faceY, &level.inverseDiagonal, &level.x,
                     &level.b, &level.r})
    *f = Field2D(int(level.row), ny + 2);
  level.unitSpans.assign(std::size_t(ny) * kUnitSpansPerRow, UnitSpan{});
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
  findUnitSpans(fine);
  for (std::size_t l = 1; l < levels_.size(); ++l) {
    coarsenCoefficients(levels_[l - 1], levels_[l]);
    computeInverseDiagonal(levels_[l]);
    findUnitSpans(levels_[l]);
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
  for (int j = 0; j < level.ny; ++j)
    for (int i = 0; i < level.nx; ++i) {
      const std::size_t k = level.at(i, j);
      const float diagonal = s[k] + fx[k] + fx[k - 1] + fy[k] + fy[k - row];
      // A wet cell cut off from every neighbour with no shift has a zero row: leave it at 0.
      inverse[k] = level.wet[k] && diagonal > 0.0f ? 1.0f / diagonal : 0.0f;
    }
}

// The kUnitSpansPerRow longest runs of unit cells in each row, in column order. Runs shorter
// than kMinUnitSpan are left to the general relaxation (a call per run would cost more).
void Multigrid::findUnitSpans(Level& level) {
  const std::size_t row = level.row;
  const float *s = level.shift.data(), *fx = level.faceX.data(), *fy = level.faceY.data();
  const auto unit = [&](std::size_t k) {
    return level.wet[k] && s[k] == 0.0f && fx[k] == 1.0f && fx[k - 1] == 1.0f && fy[k] == 1.0f &&
           fy[k - row] == 1.0f;
  };
  for (int j = 0; j < level.ny; ++j) {
    UnitSpan* spans = level.unitSpans.data() + std::size_t(j) * kUnitSpansPerRow;
    std::fill(spans, spans + kUnitSpansPerRow, UnitSpan{});
    const auto length = [](const UnitSpan& span) { return span.end - span.begin; };
    for (int i = 0; i < level.nx;) {
      if (!unit(level.at(i, j))) {
        ++i;
        continue;
      }
      UnitSpan run{i, i};
      while (run.end < level.nx && unit(level.at(run.end, j)))
        ++run.end;
      i = run.end;
      UnitSpan* shortest = std::min_element(
          spans, spans + kUnitSpansPerRow,
          [&](const UnitSpan& a, const UnitSpan& b) { return length(a) < length(b); });
      if (length(run) >= kMinUnitSpan && length(run) > length(*shortest)) *shortest = run;
    }
    std::sort(spans, spans + kUnitSpansPerRow, [&](const UnitSpan& a, const UnitSpan& b) {
      return length(a) == 0 || length(b) == 0 ? length(a) > length(b) : a.begin < b.begin;
    });
  }
}

template <class General, class Unit>
void Multigrid::forEachRowPiece(const Level& level, int j, bool useUnitSpans,
                                const General& general, const Unit& unit) {
  const std::size_t rowBegin = level.at(0, j);
  const auto generalPiece = [&](int begin, int end) {
    if (end > begin) general(rowBegin + std::size_t(begin), rowBegin + std::size_t(end));
  };
  int done = 0;
  if (useUnitSpans)
    for (int s = 0; s < kUnitSpansPerRow; ++s) {
      const UnitSpan& span = level.unitSpans[std::size_t(j) * kUnitSpansPerRow + std::size_t(s)];
      if (span.end == span.begin) break;
      generalPiece(done, span.begin);
      unit(rowBegin + std::size_t(span.begin), rowBegin + std::size_t(span.end));
      done = span.end;
    }
  generalPiece(done, level.nx);
}

// One Gauss-Seidel half-sweep over one colour of row j: the general relaxation between the
// row's unit spans, the unit one on them. Cell (i, j) has colour (i + j) & 1.
void Multigrid::relaxRow(Level& level, int j, int colour) {
  const std::size_t rowBegin = level.at(0, j);
  const auto skipFirst = [&](std::size_t k) {
    return unsigned(((k - rowBegin + std::size_t(j)) & 1u) != unsigned(colour));
  };
  forEachRowPiece(
      level, j, true,
      [&](std::size_t begin, std::size_t end) {
        relaxRowSpan(level.x.data(), level.shift.data(), level.faceX.data(), level.faceY.data(),
                     level.inverseDiagonal.data(), level.b.data(), level.row, begin, end,
                     skipFirst(begin));
      },
      [&](std::size_t begin, std::size_t end) {
        relaxUnitSpan(level.x.data(), level.b.data(), level.row, begin, end, skipFirst(begin));
      });
}

// One colour of a whole level as one stride-2 span from its first to its last cell: with an
// odd row length a cell's colour is the parity of its index, and the ghost cells in between
// have inverse diagonal and faces 0, so they keep their 0. One call instead of one or more per
// row: on the small levels the calls cost more than the arithmetic.
void Multigrid::relaxLevel(Level& level, int colour) {
  const std::size_t begin = level.at(0, 0), end = level.at(level.nx - 1, level.ny - 1) + 1;
  relaxRowSpan(level.x.data(), level.shift.data(), level.faceX.data(), level.faceY.data(),
               level.inverseDiagonal.data(), level.b.data(), level.row, begin, end,
               unsigned(colour != 0));  // cell (0, 0) is red
}

// One Gauss-Seidel sweep, colour `first` then the other, in one pass over the level: the second
// colour of row j - 1 follows the first colour of row j (it reads rows j - 2 to j), so each
// field streams through the cache once per sweep instead of twice. With threads, each takes a
// band of rows and the second colour of a band's edge rows waits for the neighbouring bands'
// first colour. Small levels (and the coarsest level's many sweeps) run without a team.
void Multigrid::sweep(Level& level, int first) {
  const int second = 1 - first;
  if (!worthThreads(level.x.size())) {
    relaxLevel(level, first);
    relaxLevel(level, second);
    return;
  }
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const int j0 = level.ny * t / threads, j1 = level.ny * (t + 1) / threads;
    for (int j = j0; j < j1; ++j) {
      relaxRow(level, j, first);
      if (j - 1 > j0) relaxRow(level, j - 1, second);
    }
#pragma omp barrier
    if (j1 > j0) relaxRow(level, j0, second);
    if (j1 - 1 > j0) relaxRow(level, j1 - 1, second);
  }
}

// The sums of row j's pieces (residualSumsSpan) for x - offset, each row in float.
Multigrid::ResidualNorms Multigrid::rowNorms(const Level& level, int j, float offset) {
  const std::size_t row = level.row;
  const float *s = level.shift.data(), *fx = level.faceX.data(), *fy = level.faceY.data();
  const float *b = level.b.data(), *x = level.x.data();
  RowSums sums;
  forEachRowPiece(
      level, j, true,
      [&](std::size_t begin, std::size_t end) {
        sums += residualSumsSpan(x, s, fx, fy, b, row, offset, begin, end);
      },
      [&](std::size_t begin, std::size_t end) {
        sums += unitResidualSumsSpan(x, b, row, offset, begin, end);
      });
  return {sums.residual, sums.scaledSolution, sums.solution};
}

Multigrid::ResidualNorms Multigrid::measureResidual(const Level& level) {
  double residual = 0.0, scaled = 0.0, solution = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : residual, scaled, solution) if (worthThreads(level.x.size()))
  for (int j = 0; j < level.ny; ++j) {
    const ResidualNorms sums = rowNorms(level, j, 0.0f);
    residual += sums.residual;
    scaled += sums.scaledSolution;
    solution += sums.solution;
  }
  return {residual, scaled, solution};
}

// r = b - A x on the fine rows of each coarse row, then their 2 x 2 sums as the coarse right
// side, in one pass (the residual rows are still in cache when they are restricted); unit
// spans without the coefficients.
void Multigrid::restrictResidual(Level& fine, Level& coarse) {
  const std::size_t row = fine.row;
  const float *s = fine.shift.data(), *fx = fine.faceX.data(), *fy = fine.faceY.data();
  const float *b = fine.b.data(), *x = fine.x.data();
  float* r = fine.r.data();
  const auto restrictRow = [&](int jc) {
    const std::size_t k = fine.at(0, 2 * jc);
    restrictRowSpan(coarse.b.data() + coarse.at(0, jc), r + k, r + k + row, coarse.nx);
  };
  if (!worthThreads(fine.x.size())) {  // the whole level as one span, as relaxLevel
    residualSpan(r, x, s, fx, fy, b, row, fine.at(0, 0), fine.at(fine.nx - 1, fine.ny - 1) + 1);
    for (int jc = 0; jc < coarse.ny; ++jc)
      restrictRow(jc);
    return;
  }
#pragma omp parallel for schedule(static)
  for (int jc = 0; jc < coarse.ny; ++jc) {
    // A last odd fine row's second child is the ghost row, whose r stays 0.
    for (int j = 2 * jc; j < std::min(2 * jc + 2, fine.ny); ++j)
      forEachRowPiece(
          fine, j, true,
          [&](std::size_t begin, std::size_t end) {
            residualSpan(r, x, s, fx, fy, b, row, begin, end);
          },
          [&](std::size_t begin, std::size_t end) { unitResidualSpan(r, x, b, row, begin, end); });
    restrictRow(jc);
  }
}

void Multigrid::prolongAndAdd(const Level& coarse, Level& fine) {
#pragma omp parallel for schedule(static) if (worthThreads(fine.x.size()))
  for (int j = 0; j < fine.ny; ++j) {
    float* x = fine.x.data() + fine.at(0, j);
    const std::uint8_t* wet = fine.wet.data() + fine.at(0, j);
    const float* c = coarse.x.data() + coarse.at(0, j / 2);
    const int pairs = fine.nx / 2;
    prolongRowSpan(x, wet, c, pairs);
    if (fine.nx % 2 && wet[fine.nx - 1]) x[fine.nx - 1] += c[pairs];
  }
}

void Multigrid::cycle(std::size_t l, bool warmStart) {
  Level& level = levels_[l];
  if (!warmStart) level.x.fill(0.0f);
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

double Multigrid::loadFinest(const Field2D& b, const Field2D& x, bool removeMean) {
  Level& fine = levels_[0];
  const int nx = fine.nx;
  double bSum = 0.0;
  if (removeMean && wetCount_) {
#pragma omp parallel for schedule(static) reduction(+ : bSum) if (worthThreads(b.size()))
    for (int j = 0; j < fine.ny; ++j)
      bSum += wetRowSum(b.data() + std::size_t(j) * nx, fineWet_.data() + std::size_t(j) * nx, nx);
  }
  const float offset = removeMean && wetCount_ ? float(bSum / double(wetCount_)) : 0.0f;
  double squares = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : squares) if (worthThreads(b.size()))
  for (int j = 0; j < fine.ny; ++j) {
    const std::size_t source = std::size_t(j) * nx, target = fine.at(0, j);
    squares += loadRowSpan(fine.b.data() + target, fine.x.data() + target, b.data() + source,
                           x.data() + source, fineWet_.data() + source, offset, nx);
  }
  return squares;
}

// solutionSum: the sum of x over the wet cells (measureResidual), for removeMean. Returns the
// squared residual of the stored x when it removes the mean, else -1: x - offset rounded to
// float is not x - offset, and at a float solution's rounding floor that last rounding changes
// the residual by as much as the floor itself, so the solve reports the residual of the x it
// returns (the row sums of measureResidual for x - offset, in the same pass as the store).
double Multigrid::storeFinest(Field2D& x, bool removeMean, double solutionSum) const {
  const Level& fine = levels_[0];
  const int nx = fine.nx;
  const bool shift = removeMean && wetCount_;
  const float offset = shift ? float(solutionSum / double(wetCount_)) : 0.0f;
  double squares = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : squares) if (worthThreads(x.size()))
  for (int j = 0; j < fine.ny; ++j) {
    if (shift) squares += rowNorms(fine, j, offset).residual;
    storeRowSpan(x.data() + std::size_t(j) * nx, fine.x.data() + fine.at(0, j),
                 fineWet_.data() + std::size_t(j) * nx, offset, nx);
  }
  return shift ? squares : -1.0;
}

// The relative residual below which a float x is rounding noise, per unit of
// ||diag(A) x|| / ||b||: rounding x to float perturbs a cell by ulp / sqrt(12) rms, about
// 0.42 2^-24 |x| (an ulp is 2^-23 to 2^-22 of |x|), which A turns into a residual of
// sqrt(1.25) diag times that (5-point rows: diag^2 + sum w^2 = 1.25 diag^2): 0.47 2^-24.
// Measured: solves stall at 0.7-0.8 of this estimate (a windy Pi pool at 512^2, the Poisson
// and Helmholtz equations of tests/unit/multigrid_test.cpp).
constexpr double kRoundingFloor = 0.5 * 0x1p-24;
// A cycle that keeps more than this fraction of the residual has met the rounding floor (the
// cycles cut the residual by 0.3 per cycle on the Poisson equation at 128^2 from zero and by
// 0.85 at 512^2: piecewise-constant transfers make the V-cycle converge more slowly on finer
// grids, which CG hides when it is the preconditioner; from the models' warm starts one
// cycle cuts it 25-fold).
constexpr double kStallRatio = 0.95;

// Residual check, then one V-cycle from the current x; the finest level holds b and x. Stops at
// the tolerance, at the rounding floor of a float x (estimated, or seen as a stalled cycle) or
// after maxCycles.
CgResult Multigrid::solve(const Field2D& b, Field2D& x, double tolerance, int maxCycles,
                          bool removeMean) {
  const double bNorm = std::sqrt(loadFinest(b, x, removeMean));
  CgResult result;
  if (bNorm == 0.0) {
    x.fill(0.0f);
    result.converged = true;
    return result;
  }
  double previous = HUGE_VAL;
  ResidualNorms norms;
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
  const double storedResidual = storeFinest(x, removeMean, norms.solution);
  if (storedResidual >= 0.0) {
    result.relativeResidual = std::sqrt(storedResidual) / bNorm;
    result.converged = result.relativeResidual <= tolerance;
  }
  return result;
}

void Multigrid::vcycle(const double* r, double* z) {
  Level& fine = levels_[0];
  const int nx = fine.nx;
#pragma omp parallel for schedule(static) if (worthThreads(fine.x.size()))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < nx; ++i)
      fine.b.data()[fine.at(i, j)] = float(r[std::size_t(j) * nx + i]);
  cycle(0);
#pragma omp parallel for schedule(static) if (worthThreads(fine.x.size()))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < nx; ++i)
      z[std::size_t(j) * nx + i] = fine.x.data()[fine.at(i, j)];
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
