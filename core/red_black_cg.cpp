#include "core/red_black_cg.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/parallel.hpp"

namespace wb {

namespace {

#define WB_SPAN_KERNEL __attribute__((target_clones("avx2", "default")))

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

// One row of out_K = scale p_K + sign C^T t_E; returns p.out over the row. The K cell k's east
// neighbour is E value k + shift (shift = row parity) and meets it at that cell's west face.
WB_SPAN_KERNEL double keptRow(float* __restrict out, const float* __restrict scale,
                              const float* __restrict p, const float* __restrict t,
                              const float* __restrict tAbove, const float* __restrict tBelow,
                              const float* __restrict westOfE, const float* __restrict eastOfE,
                              const float* __restrict southOfAbove,
                              const float* __restrict northOfBelow, float sign, int shift,
                              int width) {
  double dot = 0.0;
#pragma omp simd reduction(+ : dot)
  for (int k = 0; k < width; ++k) {
    const float coupled =
        (westOfE[k + shift] * t[k + shift] + eastOfE[k - 1 + shift] * t[k - 1 + shift]) +
        (southOfAbove[k] * tAbove[k] + northOfBelow[k] * tBelow[k]);
    out[k] = scale[k] * p[k] + sign * coupled;
    dot += double(p[k]) * out[k];
  }
  return dot;
}

// A cell's 0 or all bits: selects with arithmetic arms do not vectorise under -ftrapping-math.
inline float keepIf(float value, std::uint8_t keep) {
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(value) &
                              (0u - std::uint32_t(keep != 0)));
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
    for (Field2D* f :
         {&faceEast_, &faceWest_, &faceNorth_, &faceSouth_, &inverseDiagonal_, &keptDiagonal_,
          &keptRhs_, &keptSolution_, &eliminated_, &packedB_, &packedKeptB_})
      *f = Field2D(width_ + 2, ny + 2);
    keptWet_.assign(keptRhs_.size(), 0);
    cg_ = ConjugateGradient(width_ + 2, ny + 2);
    ones_.assign(std::size_t(width_), 1.0f);
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

void RedBlackCg::pack(const Field2D& full, int colour, Field2D& packed) const {
#pragma omp parallel for schedule(static) if (worthThreads(full.size()))
  for (int j = 0; j < ny_; ++j) {
    const float* in = full.row(j) + offsetOf(j, colour);
    float* out = packedRow(packed, j);
    const int count = (nx_ - offsetOf(j, colour) + 1) / 2;
    for (int k = 0; k < count; ++k)
      out[k] = in[2 * k];
  }
}

// Wet K cells are marked in keptWet_, wet E cells by their inverse diagonal (0 on solid ones).
void RedBlackCg::unpackWet(const Field2D& packed, int colour, Field2D& full) const {
  const std::size_t padded = std::size_t(width_ + 2);
#pragma omp parallel for schedule(static) if (worthThreads(full.size()))
  for (int j = 0; j < ny_; ++j) {
    const int offset = offsetOf(j, colour);
    const float* in = packedRow(packed, j);
    const float* inverse = packedRow(inverseDiagonal_, j);
    const std::uint8_t* keptWet = keptWet_.data() + std::size_t(j + 1) * padded + 1;
    float* out = full.row(j) + offset;
    const int count = (nx_ - offset + 1) / 2;
    for (int k = 0; k < count; ++k)
      if (colour == 0 ? keptWet[k] != 0 : inverse[k] != 0.0f) out[2 * k] = in[k];
  }
}

void RedBlackCg::eliminatedValuesRow(const Field2D& pKept, const Field2D* plusE, float* out,
                                     int j) const {
  eliminatedRow(out, packedRow(inverseDiagonal_, j), packedRow(faceEast_, j),
                packedRow(faceWest_, j), packedRow(faceNorth_, j), packedRow(faceSouth_, j),
                packedRow(pKept, j), packedRow(pKept, j + 1), packedRow(pKept, j - 1),
                plusE ? packedRow(*plusE, j) : zeroRow(), 1 - (j & 1), width_);
}

void RedBlackCg::reducedRightSideRows(const Field2D& tE, int rowBegin, int rowEnd) {
  for (int j = rowBegin; j < rowEnd; ++j)
    keptRow(packedRow(keptRhs_, j), ones_.data(), packedRow(packedKeptB_, j), packedRow(tE, j),
            packedRow(tE, j + 1), packedRow(tE, j - 1), packedRow(faceWest_, j),
            packedRow(faceEast_, j), packedRow(faceSouth_, j + 1), packedRow(faceNorth_, j - 1),
            1.0f, j & 1, width_);
}

// S p = D_K p - C^T D_E^{-1} C p, row by row: t = D_E^{-1} C p of E row j + 1 goes into the
// thread's ring of three rows, then K row j reads t rows j - 1 to j + 1 and the faces that
// computed them, still in cache. Each thread also computes the E rows on either side of its
// band, so the threads never wait for each other.
double RedBlackCg::applyReduced(const Field2D& p, Field2D& q) {
  const std::size_t ringFloats = 3 * std::size_t(width_ + 2);
  const bool threads = worthThreads(std::size_t(nx_) * std::size_t(ny_));
  const std::size_t teams = threads ? std::size_t(omp_get_max_threads()) : 1;
  if (rings_.size() < teams * ringFloats) rings_.assign(teams * ringFloats, 0.0f);
  double dot = 0.0;
#pragma omp parallel reduction(+ : dot) if (threads)
  {
    const auto [begin, end] = rowBand(ny_);
    float* ring = rings_.data() + std::size_t(omp_get_thread_num()) * ringFloats;
    dot += reducedRows(p, q, ring, begin, end);
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
    if (j >= 0 && j < ny_) eliminatedValuesRow(p, nullptr, slot(j), j);
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

CgResult RedBlackCg::solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations) {
  pack(b, 1, packedB_);
  pack(b, 0, packedKeptB_);
  pack(x, 0, keptSolution_);
  // b^ = b_K + C^T D_E^{-1} b_E, and the norms of b (wet cells) and b^ (wet K cells).
  const std::size_t n = packedB_.size();
  const float *inverse = inverseDiagonal_.data(), *bE = packedB_.data();
  float* scaled = eliminated_.data();
  const float *bK = packedKeptB_.data(), *reducedB = keptRhs_.data();
  const std::uint8_t* keptWet = keptWet_.data();
  const bool threads = worthThreads(2 * n);
  double eliminatedNorm = 0.0, keptNorm = 0.0, reducedNorm = 0.0;
#pragma omp parallel for simd reduction(+ : eliminatedNorm) if (threads)
  for (std::size_t k = 0; k < n; ++k) {
    scaled[k] = inverse[k] * bE[k];
    eliminatedNorm += inverse[k] != 0.0f ? double(bE[k]) * bE[k] : 0.0;
  }
#pragma omp parallel if (threads)
  {
    const auto [begin, end] = rowBand(ny_);
    reducedRightSideRows(eliminated_, begin, end);
  }
#pragma omp parallel for simd reduction(+ : keptNorm, reducedNorm) if (threads)
  for (std::size_t k = 0; k < n; ++k) {
    const double weight = keptWet[k];
    keptNorm += weight * bK[k] * bK[k];
    reducedNorm += weight * reducedB[k] * reducedB[k];
  }
  const double bNorm = std::sqrt(keptNorm + eliminatedNorm), reduced = std::sqrt(reducedNorm);
  const double reducedTolerance = reduced > 0.0 ? tolerance * bNorm / reduced : tolerance;
  const auto apply = [this](const Field2D& in, Field2D& out) { return applyReduced(in, out); };
  CgResult result =
      cg_.solveFused(apply, keptRhs_, keptSolution_, keptWet_, reducedTolerance, maxIterations);
  // x_E = D_E^{-1} (b_E + C x_K), then both colours back into x.
#pragma omp parallel for schedule(static) if (threads)
  for (int j = 0; j < ny_; ++j)
    eliminatedValuesRow(keptSolution_, &packedB_, packedRow(eliminated_, j), j);
  unpackWet(keptSolution_, 0, x);
  unpackWet(eliminated_, 1, x);
  result.relativeResidual = bNorm > 0.0 ? result.relativeResidual * reduced / bNorm : 0.0;
  result.converged = result.relativeResidual <= tolerance * 1.0001;
  return result;
}

}  // namespace wb
