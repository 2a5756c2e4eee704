#include "core/solvers/red_black_cg.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/grid/parallel.hpp"

namespace wb {

namespace {

// Packed row j of a colour (0 kept, 1 eliminated) starts at full cell i = offset (j, colour).
int offsetOf(int j, int colour) {
  return (j + colour) & 1;
}

// The rows [begin, end) of this thread's share of ny rows in a parallel region.
std::pair<int, int> rowBand(int ny) {
  const int threads = omp_get_num_threads(), t = omp_get_thread_num();
  return {int(long(ny) * t / threads), int(long(ny) * (t + 1) / threads)};
}

// One row of x_E = D_E^{-1} (plus + C p_K): the E cell k's K neighbours in its row are the
// packed values k - 1 + shift and k + shift (shift = 1 - row parity), above and below k.
WB_SPAN_KERNEL void eliminatedRow(float* __restrict out, const float* __restrict inverse,
                                  const float* __restrict east, const float* __restrict west,
                                  const float* __restrict north, const float* __restrict south,
                                  const float* __restrict p, const float* __restrict pAbove,
                                  const float* __restrict pBelow, const float* __restrict plus,
                                  int shift, int width) {
#pragma omp simd
  for (int k = 0; k < width; ++k) {
    const float coupled = (east[k] * p[k + shift] + west[k] * p[k - 1 + shift]) +
                          (north[k] * pAbove[k] + south[k] * pBelow[k]);
    out[k] = inverse[k] * (plus[k] + coupled);
  }
}

// The count values of one colour of a full row (stride 2 from the colour's first cell).
WB_SPAN_KERNEL void gatherRow(float* __restrict out, const float* __restrict in, int count) {
#pragma omp simd
  for (int k = 0; k < count; ++k)
    out[k] = in[2 * k];
}

// One row of out_K = scale p_K + sign C^T t_E; returns p.out over the row, summed in float
// (a row's sum has a relative error of about 1e-6; the rows' sums are added in double). The K cell
// k's east neighbour is E value k + shift (shift = row parity) and meets it at that cell's west
// face.
WB_SPAN_KERNEL double keptRow(float* __restrict out, const float* __restrict scale,
                              const float* __restrict p, const float* __restrict t,
                              const float* __restrict tAbove, const float* __restrict tBelow,
                              const float* __restrict westOfE, const float* __restrict eastOfE,
                              const float* __restrict southOfAbove,
                              const float* __restrict northOfBelow, float sign, int shift,
                              int width) {
  float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
  for (int k = 0; k < width; ++k) {
    const float coupled =
        (westOfE[k + shift] * t[k + shift] + eastOfE[k - 1 + shift] * t[k - 1 + shift]) +
        (southOfAbove[k] * tAbove[k] + northOfBelow[k] * tBelow[k]);
    out[k] = scale[k] * p[k] + sign * coupled;
    dot += p[k] * out[k];
  }
  return dot;
}

// A cell's 0 or all bits: selects with arithmetic arms do not vectorise under -ftrapping-math.
inline float keepIf(float value, std::uint8_t keep) {
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(value) &
                              (0u - std::uint32_t(keep != 0)));
}

// The count values of one colour of a full row (stride 2 from the colour's first cell) into
// out; returns the sum of their squares over the wet ones (mask non-zero), in float.
WB_SPAN_KERNEL double gatherWetSquares(float* __restrict out, const float* __restrict in,
                                       const std::uint8_t* __restrict wet, int count) {
  float squares = 0.0f;
#pragma omp simd reduction(+ : squares)
  for (int k = 0; k < count; ++k) {
    out[k] = in[2 * k];
    squares += keepIf(out[k] * out[k], wet[k]);
  }
  return squares;
}

// The same for E cells, wet where 1 / D_E is not 0.
WB_SPAN_KERNEL double gatherEliminatedSquares(float* __restrict out, const float* __restrict in,
                                              const float* __restrict inverse, int count) {
  float squares = 0.0f;
#pragma omp simd reduction(+ : squares)
  for (int k = 0; k < count; ++k) {
    out[k] = in[2 * k];
    squares += keepIf(out[k] * out[k], std::uint8_t(inverse[k] != 0.0f));
  }
  return squares;
}

// new where keep is non-zero, else old (bit masks, as keepIf).
inline float keepNew(float fresh, float old, bool keep) {
  const std::uint32_t mask = 0u - std::uint32_t(keep);
  return std::bit_cast<float>((std::bit_cast<std::uint32_t>(fresh) & mask) |
                              (std::bit_cast<std::uint32_t>(old) & ~mask));
}

// Both colours of a full row from their packed rows: cell 2k + keptOffset from kept[k] where
// keptWet[k], cell 2k + 1 - keptOffset from eliminated[k] where its 1 / D_E is not 0; the
// other cells keep their values. Each pair of cells is written whole, so the loop vectorises.
WB_SPAN_KERNEL void interleaveWetRow(float* __restrict out, const float* __restrict kept,
                                     const std::uint8_t* __restrict keptWet,
                                     const float* __restrict eliminated,
                                     const float* __restrict inverse, int keptOffset, int nx) {
  const int pairs = nx / 2;
  if (keptOffset == 0) {
#pragma omp simd
    for (int k = 0; k < pairs; ++k) {
      out[2 * k] = keepNew(kept[k], out[2 * k], keptWet[k] != 0);
      out[2 * k + 1] = keepNew(eliminated[k], out[2 * k + 1], inverse[k] != 0.0f);
    }
    if (nx & 1) out[nx - 1] = keepNew(kept[pairs], out[nx - 1], keptWet[pairs] != 0);
  } else {
#pragma omp simd
    for (int k = 0; k < pairs; ++k) {
      out[2 * k] = keepNew(eliminated[k], out[2 * k], inverse[k] != 0.0f);
      out[2 * k + 1] = keepNew(kept[k], out[2 * k + 1], keptWet[k] != 0);
    }
    if (nx & 1) out[nx - 1] = keepNew(eliminated[pairs], out[nx - 1], inverse[pairs] != 0.0f);
  }
}

// One packed row of kept cells from full rows starting at the row's first kept cell (stride 2):
// D_K = s + the 4 faces, and the wet mask. faceX[-1] is the west face of cell 2k.
WB_SPAN_KERNEL void keptDiagonalRow(float* __restrict diagonal, std::uint8_t* __restrict keptWet,
                                    const float* __restrict shift, const float* __restrict faceX,
                                    const float* __restrict faceY,
                                    const float* __restrict faceYBelow,
                                    const std::uint8_t* __restrict wet, int begin, int count) {
#pragma omp simd
  for (int k = begin; k < count; ++k) {
    const int i = 2 * k;
    diagonal[k] = shift[i] + (faceX[i] + faceX[i - 1]) + (faceY[i] + faceYBelow[i]);
    keptWet[k] = wet[i];
  }
}

// The same for eliminated cells, which store their faces and 1 / D_E (0 on solid cells).
WB_SPAN_KERNEL void eliminatedCoefficientRow(
    float* __restrict east, float* __restrict west, float* __restrict north,
    float* __restrict south, float* __restrict inverse, const float* __restrict shift,
    const float* __restrict faceX, const float* __restrict faceY,
    const float* __restrict faceYBelow, const std::uint8_t* __restrict wet, int count) {
#pragma omp simd
  for (int k = 0; k < count; ++k) {
    const int i = 2 * k;
    const float e = faceX[i], w = faceX[i - 1], n = faceY[i], s = faceYBelow[i];
    east[k] = e, west[k] = w, north[k] = n, south[k] = s;
    const float diagonal = shift[i] + (e + w) + (n + s);
    inverse[k] = keepIf(1.0f / (diagonal + float(wet[i] == 0)), wet[i]);
  }
}

// r = b - q on wet cells (mask 1), 0 elsewhere; returns r.r, summed in float like keptRow's.
WB_SPAN_KERNEL double wetResidualRow(float* __restrict r, const float* __restrict b,
                                     const float* __restrict q, const std::uint8_t* __restrict wet,
                                     int count) {
  float rr = 0.0f;
#pragma omp simd reduction(+ : rr)
  for (int k = 0; k < count; ++k) {
    r[k] = keepIf(b[k] - q[k], wet[k]);
    rr += r[k] * r[k];
  }
  return rr;
}

// One iteration's vector updates of Chronopoulos & Gear's CG over a packed row:
//   p = r + beta p,  s = w + beta s,  x += alpha p,  r -= alpha s;
// returns r.r, summed in float like keptRow's. On the first iteration (first) p = r, s = w:
// whatever p and s held is not read.
WB_SPAN_KERNEL double cgUpdateRow(float* __restrict x, float* __restrict r, float* __restrict p,
                                  float* __restrict s, const float* __restrict w, float alpha,
                                  float beta, bool first, int count) {
  float rr = 0.0f;
  if (first) {
#pragma omp simd reduction(+ : rr)
    for (int k = 0; k < count; ++k) {
      p[k] = r[k];
      s[k] = w[k];
      x[k] += alpha * p[k];
      r[k] -= alpha * s[k];
      rr += r[k] * r[k];
    }
  } else {
#pragma omp simd reduction(+ : rr)
    for (int k = 0; k < count; ++k) {
      p[k] = r[k] + beta * p[k];
      s[k] = w[k] + beta * s[k];
      x[k] += alpha * p[k];
      r[k] -= alpha * s[k];
      rr += r[k] * r[k];
    }
  }
  return rr;
}

// Packed row pointer: value (k, j) of a packed field with its zero border.
const float* packedRow(const Field2D& f, int j) {
  return f.row(j + 1) + 1;
}
float* packedRow(Field2D& f, int j) {
  return f.row(j + 1) + 1;
}

}  // namespace

void RedBlackCg::updateCoefficients(const Field2D& shift, const Field2D& faceX,
                                    const Field2D& faceY, const std::vector<std::uint8_t>& wet) {
  const int nx = shift.nx(), ny = shift.ny();
  if (nx != nx_ || ny != ny_) {
    nx_ = nx, ny_ = ny, width_ = (nx + 1) / 2;
    for (Field2D* f : {&faceEast_, &faceWest_, &faceNorth_, &faceSouth_, &inverseDiagonal_,
                       &keptDiagonal_, &keptSolution_})
      *f = Field2D(width_ + 2, ny + 2);
    keptWet_.assign(keptSolution_.size(), 0);
    for (Field2D* f : {&residual_, &direction_, &residualImage_, &directionImage_})
      *f = Field2D(width_ + 2, ny + 2);
    zeros_.assign(std::size_t(nx + 4), 0.0f);
  }
  const std::size_t padded = std::size_t(width_ + 2);
#pragma omp parallel for schedule(static) if (worthThreads(shift.size()))
  for (int j = 0; j < ny; ++j) {
    const float* below = j > 0 ? faceY.row(j - 1) : zeroRow();
    // Kept cells: D_K and the mask. Cell (0, 0) has no west face in the array: its west
    // neighbour in memory, face (nx - 1, j - 1), is a grid-edge face (0) in every other row.
    const int kept = offsetOf(j, 0), first = j == 0 ? 1 : 0;
    std::uint8_t* keptWet = keptWet_.data() + std::size_t(j + 1) * padded + 1;
    keptDiagonalRow(packedRow(keptDiagonal_, j), keptWet, shift.row(j) + kept, faceX.row(j) + kept,
                    faceY.row(j) + kept, below + kept, wet.data() + shift.index(kept, j), first,
                    (nx - kept + 1) / 2);
    if (first == 1) {
      keptDiagonal_(1, 1) = shift(0, 0) + faceX(0, 0) + faceY(0, 0);
      keptWet[0] = wet[0];
    }
    const int eliminated = offsetOf(j, 1);
    eliminatedCoefficientRow(
        packedRow(faceEast_, j), packedRow(faceWest_, j), packedRow(faceNorth_, j),
        packedRow(faceSouth_, j), packedRow(inverseDiagonal_, j), shift.row(j) + eliminated,
        faceX.row(j) + eliminated, faceY.row(j) + eliminated, below + eliminated,
        wet.data() + shift.index(eliminated, j), (nx - eliminated + 1) / 2);
  }
}

float* RedBlackCg::ringOf(int thread) {
  return rings_.data() + std::size_t(thread) * kRingRows * std::size_t(width_ + 2);
}

void RedBlackCg::reserveRings(bool threads) {
  const std::size_t teams = threads ? std::size_t(omp_get_max_threads()) : 1;
  const std::size_t floats = teams * kRingRows * std::size_t(width_ + 2);
  if (rings_.size() < floats) rings_.assign(floats, 0.0f);
  if (partials_.size() < teams * kPartials) partials_.assign(teams * kPartials, 0.0);
}

double RedBlackCg::teamSum(int which) const {
  double sum = 0.0;
  for (int t = 0, threads = omp_get_num_threads(); t < threads; ++t)
    sum += partials_[std::size_t(t) * kPartials + std::size_t(which)];
  return sum;
}

const std::uint8_t* RedBlackCg::keptWetRow(int j) const {
  return keptWet_.data() + std::size_t(j + 1) * std::size_t(width_ + 2) + 1;
}

int RedBlackCg::countOf(int j, int colour) const {
  return (nx_ - offsetOf(j, colour) + 1) / 2;
}

void RedBlackCg::eliminatedValuesRow(const float* pKept, const float* pAbove, const float* pBelow,
                                     const float* plusE, float* out, int j) const {
  eliminatedRow(out, packedRow(inverseDiagonal_, j), packedRow(faceEast_, j),
                packedRow(faceWest_, j), packedRow(faceNorth_, j), packedRow(faceSouth_, j), pKept,
                pAbove, pBelow, plusE, 1 - (j & 1), width_);
}

// Row j's values of one colour of a full field into a packed row of width_ values (0 beyond
// the row's count).
void RedBlackCg::gatherColour(const Field2D& full, int colour, int j, float* out) const {
  const int count = countOf(j, colour);
  gatherRow(out, full.row(j) + offsetOf(j, colour), count);
  if (count < width_) out[width_ - 1] = 0.0f;
}

// The K rows' residual r_K = b_K - D_K x_K + C^T x_E with x_E = D_E^{-1} (b_E + C x_K) (the
// residual of A at x, which is 0 on E cells, equals b^ - S x_K on K cells): the E values of row
// j + 1 go into the ring (slot j mod 3), then K row j reads them with the faces that made them.
// kept(j) gives x_K's row j (rows beside the band too), prepare(j) is called before E row j is
// made, and done(j, xE) after K row j's residual is in r (xE: E row j).
template <class Kept, class Prepare, class Done>
RedBlackCg::ResidualSums RedBlackCg::residualSweep(const Field2D& b, const Kept& kept,
                                                   const Prepare& prepare, const Done& done,
                                                   float* ring, int begin, int end) {
  const std::size_t rowFloats = std::size_t(width_ + 2);
  const auto slot = [&](int j) { return ring + std::size_t((j + 3) % 3) * rowFloats + 1; };
  const auto t = [&](int j) -> const float* { return j < 0 || j >= ny_ ? zeroRow() : slot(j); };
  float* bKept = ring + 3 * rowFloats + 1;
  float* bEliminated = ring + 4 * rowFloats + 1;
  float* product = ring + 5 * rowFloats + 1;
  ResidualSums sums;
  const auto eliminate = [&](int j) {
    prepare(j);
    if (j < 0 || j >= ny_) return;
    const int count = countOf(j, 1);
    const double squares = gatherEliminatedSquares(bEliminated, b.row(j) + offsetOf(j, 1),
                                                   packedRow(inverseDiagonal_, j), count);
    if (count < width_) bEliminated[width_ - 1] = 0.0f;
    eliminatedValuesRow(kept(j), kept(j + 1), kept(j - 1), bEliminated, slot(j), j);
    if (j >= begin && j < end) sums.rhs += squares;
  };
  if (begin < end) eliminate(begin - 1), eliminate(begin);
  for (int j = begin; j < end; ++j) {
    eliminate(j + 1);
    const int count = countOf(j, 0);
    sums.rhs += gatherWetSquares(bKept, b.row(j) + offsetOf(j, 0), keptWetRow(j), count);
    if (count < width_) bKept[width_ - 1] = 0.0f;
    keptRow(product, packedRow(keptDiagonal_, j), kept(j), t(j), t(j + 1), t(j - 1),
            packedRow(faceWest_, j), packedRow(faceEast_, j), packedRow(faceSouth_, j + 1),
            packedRow(faceNorth_, j - 1), -1.0f, j & 1, width_);
    sums.residual += wetResidualRow(packedRow(residual_, j), bKept, product, keptWetRow(j), width_);
    done(j, slot(j));
  }
  return sums;
}

// x_K from x (the rows beside the band into the ring's last four rows), with r and its sums.
RedBlackCg::ResidualSums RedBlackCg::setUpRows(const Field2D& b, const Field2D& x, float* ring,
                                               int begin, int end) {
  const std::size_t rowFloats = std::size_t(width_ + 2);
  const auto beside = [&](int j) {
    const int index = j < begin ? j - begin + 2 : j - end + 2;  // 0-1 above, 2-3 below
    return ring + std::size_t(6 + index) * rowFloats + 1;
  };
  const auto kept = [&](int j) -> const float* {
    if (j < 0 || j >= ny_) return zeroRow();
    return j >= begin && j < end ? packedRow(keptSolution_, j) : beside(j);
  };
  const auto load = [&](int j) {
    if (j < 0 || j >= ny_) return;
    gatherColour(x, 0, j, j >= begin && j < end ? packedRow(keptSolution_, j) : beside(j));
  };
  // E row j reads K rows j - 1 to j + 1; the first one also loads the rows before it.
  const auto prepare = [&](int j) {
    if (j == begin - 1) load(j - 1), load(j);
    load(j + 1);
  };
  return residualSweep(
      b, kept, prepare, [](int, const float*) {}, ring, begin, end);
}

// The true residual at the solved x_K, and both colours back into x's wet cells.
double RedBlackCg::finishRows(const Field2D& b, Field2D& x, float* ring, int begin, int end) {
  const auto kept = [&](int j) -> const float* {
    return j < 0 || j >= ny_ ? zeroRow() : packedRow(keptSolution_, j);
  };
  const auto done = [&](int j, const float* xEliminated) {
    interleaveWetRow(x.row(j), packedRow(keptSolution_, j), keptWetRow(j), xEliminated,
                     packedRow(inverseDiagonal_, j), offsetOf(j, 0), nx_);
  };
  return residualSweep(
             b, kept, [](int) {}, done, ring, begin, end)
      .residual;
}

// S p = D_K p - C^T D_E^{-1} C p, row by row: t = D_E^{-1} C p of E row j + 1 goes into the
// thread's ring of three rows, then K row j reads t rows j - 1 to j + 1 and the faces that
// computed them, still in cache. Each thread also computes the E rows on either side of its
// band, so the threads never wait for each other.
double RedBlackCg::applyReduced(const Field2D& p, Field2D& q) {
  const bool threads = worthThreads(std::size_t(nx_) * std::size_t(ny_));
  reserveRings(threads);
  double dot = 0.0;
#pragma omp parallel reduction(+ : dot) if (threads)
  {
    const auto [begin, end] = rowBand(ny_);
    dot += reducedRows(p, q, ringOf(omp_get_thread_num()), begin, end);
  }
  return dot;
}

double RedBlackCg::reducedRows(const Field2D& p, Field2D& q, float* ring, int begin,
                               int end) const {
  // t row j in slot j mod 3 (after its zero guard value); rows beyond the grid are 0.
  const std::size_t rowFloats = std::size_t(width_ + 2);
  const auto slot = [&](int j) { return ring + std::size_t((j + 3) % 3) * rowFloats + 1; };
  const auto t = [&](int j) -> const float* { return j < 0 || j >= ny_ ? zeroRow() : slot(j); };
  const auto eliminate = [&](int j) {
    if (j >= 0 && j < ny_)
      eliminatedValuesRow(packedRow(p, j), packedRow(p, j + 1), packedRow(p, j - 1), zeroRow(),
                          slot(j), j);
  };
  if (begin < end) eliminate(begin - 1), eliminate(begin);
  double dot = 0.0;
  for (int j = begin; j < end; ++j) {
    eliminate(j + 1);
    dot +=
        keptRow(packedRow(q, j), packedRow(keptDiagonal_, j), packedRow(p, j), t(j), t(j + 1),
                t(j - 1), packedRow(faceWest_, j), packedRow(faceEast_, j),
                packedRow(faceSouth_, j + 1), packedRow(faceNorth_, j - 1), -1.0f, j & 1, width_);
  }
  return dot;
}

double RedBlackCg::updateRows(float alpha, float beta, bool first, int begin, int end) {
  double rr = 0.0;
  for (int j = begin; j < end; ++j)
    rr += cgUpdateRow(packedRow(keptSolution_, j), packedRow(residual_, j),
                      packedRow(direction_, j), packedRow(directionImage_, j),
                      packedRow(residualImage_, j), alpha, beta, first, width_);
  return rr;
}

// CG on S x_K = b^ in Chronopoulos & Gear's form ("s-step iterative methods for symmetric
// linear systems", J. Comput. Appl. Math. 25, 1989): with w = S r and s = S p kept by
// recurrence, the two dot products of an iteration, r.r and w.r, come from one reduction,
//   alpha = r.r / (w.r - beta r.r / alpha_old),   beta = r.r / (r.r)_old,
// so an iteration is two passes (w = S r with w.r; the four vector updates with r.r) and two
// barriers (the rows of r beside a band, the sums), all in one parallel region per solve: the
// set-up (x_K and r = b^ - S x_K, residualSweep), the iterations and the finish (x_E, x and the
// true residual, residualSweep again). Each thread sums the team's partial sums in the same
// order, so all take the same branch. The stopping test is the recurrence's ||r|| <= tolerance
// ||b||; the true residual is reported.
CgResult RedBlackCg::solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations) {
  const bool threads = worthThreads(std::size_t(nx_) * std::size_t(ny_));
  reserveRings(threads);
  CgResult result;
  // Partials: 0 r.r, 1 w.r, 2 the true residual, 3 b.b.
#pragma omp parallel if (threads)
  {
    const int thread = omp_get_thread_num();
    const auto [begin, end] = rowBand(ny_);
    float* ring = ringOf(thread);
    double* partial = partialsOf(thread);
    const ResidualSums start = setUpRows(b, x, ring, begin, end);
    partial[0] = start.residual, partial[3] = start.rhs;
#pragma omp barrier
    const double norm = std::sqrt(teamSum(3));
    // b = 0 has the solution 0.
    if (norm == 0.0) std::fill(keptSolution_.row(begin + 1), keptSolution_.row(end + 1), 0.0f);
    double rr = norm == 0.0 ? 0.0 : teamSum(0), alpha = 0.0, beta = 0.0;
    const double target = tolerance * norm;
    int iterations = 0;
    while (std::sqrt(rr) > target && iterations < maxIterations) {
      partial[1] = reducedRows(residual_, residualImage_, ring, begin, end);  // w = S r, w.r
#pragma omp barrier
      const double wr = teamSum(1);
      const double pAp = iterations == 0 ? wr : wr - beta * rr / alpha;
      if (pAp <= 0.0) break;  // not positive definite on this subspace: stop honestly
      alpha = rr / pAp;
      partial[0] = updateRows(float(alpha), float(beta), iterations == 0, begin, end);
#pragma omp barrier
      const double rrNew = teamSum(0);
      beta = rrNew / rr;
      rr = rrNew;
      ++iterations;
    }
    // x_E and the true residual read x_K's rows beside the band (final after the iterations'
    // last barrier, or after this one).
    if (norm == 0.0 || iterations == 0) {
#pragma omp barrier
    }
    partial[2] = finishRows(b, x, ring, begin, end);
#pragma omp barrier
    if (thread == 0) {
      result.iterations = iterations;
      result.relativeResidual = norm > 0.0 ? std::sqrt(teamSum(2)) / norm : 0.0;
    }
  }
  result.converged = result.relativeResidual <= tolerance * 1.0001;
  return result;
}

}  // namespace wb
