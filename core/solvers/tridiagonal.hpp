// Symmetric tridiagonal systems of the ADI form (1 - q L_1) x = s along many rows or columns
// of a row-major field at once, by the Thomas algorithm:
//   (1 + c_{i-1} + c_i) x_i - c_{i-1} x_{i-1} - c_i x_{i+1} = s_i,   c_i = scale w_i >= 0,
// with w_i the weight of the face between unknowns i and i + 1 (0 at the end of a line, where
// the face is closed). Diagonally dominant: no pivoting. Pivot p_0 = 1 / (1 + c_0),
// p_i = 1 / (1 + c_{i-1} + c_i - c_{i-1}^2 p_{i-1}); forward y_i = s_i p_i + c_{i-1} p_i y_{i-1},
// back x_i = y_i + c_i p_i x_{i+1}. Only the couplings c and the pivots p are stored; the
// factors c p are formed where needed (an array fewer to keep in cache and write), and the
// couplings from the weights with the same float product c = scale w every time.
//
// Lines along rows are solved kTridiagonalBand rows at a time, one row per SIMD lane, staged
// through a per-thread buffer by 8 x 8 transposes; lines along columns with SIMD lanes across
// the columns of a band, walking down the rows. The kernels have AVX-512, AVX2 and default
// clones that give the same results bit for bit (docs/swe-adi.md, "Speed").
#pragma once

#include <cstddef>
#include <utility>

namespace wb {

// Rows per band of the row solves: that many independent Thomas recurrences in SIMD lanes
// (two AVX registers, so that one hides the other's latency).
inline constexpr int kRowBand = 16;
// Columns per band of the column solves: SIMD lanes across the band, one band per task. The
// solve walks down the rows, a stride of a row: on wide grids 128 columns (512 B) a row give
// the hardware prefetcher longer runs (docs/swe-adi.md, "Results"); narrower grids keep 64.
// The bands are whole groups of kColumnGroup columns dealt as evenly as the groups allow into
// a count that is a multiple of kColumnBandMultiple, so that 2 or 4 threads share the columns
// evenly (393 columns in 64-wide bands, 4 and 3 bands a thread, made one thread do 256 of
// them). Each column's arithmetic does not depend on its band.
inline constexpr int kColumnGroup = 16;
inline constexpr int kColumnBandMultiple = 4;
inline int columnBandWidth(int nx) {
  return nx >= 512 ? 128 : 64;
}
inline int columnGroups(int nx) {
  return (nx + kColumnGroup - 1) / kColumnGroup;
}

inline int rowBands(int ny) {
  return (ny + kRowBand - 1) / kRowBand;
}
inline int columnBands(int nx) {
  const int groups = columnGroups(nx), perBand = columnBandWidth(nx) / kColumnGroup;
  const int bands = (groups + perBand - 1) / perBand;
  const int even = (bands + kColumnBandMultiple - 1) / kColumnBandMultiple * kColumnBandMultiple;
  return even < groups ? even : groups;
}
inline std::pair<int, int> columnBand(int band, int nx) {
  const int groups = columnGroups(nx), bands = columnBands(nx);
  const int i0 = band * groups / bands * kColumnGroup;
  const int i1 = (band + 1) * groups / bands * kColumnGroup;
  return {i0, i1 < nx ? i1 : nx};
}

// Thomas factors of a band of `rows` rows (at most kRowBand; row r at weight + r * stride)
// staged lane by lane: band[i * kRowBand + r] is row r's value at unknown i; lanes beyond
// `rows` get the identity. bandC gets the couplings c_i = scale weight_i, bandP the pivots
// p_i. With rows up to 2 kRowBand, two bands, the second's after the first's (nx * kRowBand
// values each): two bands side by side give the pivots' division-bound recurrence four
// independent chains in place of two.
void factorRowBands(const float* weight, float scale, std::size_t stride, int nx, int rows,
                    float* bandC, float* bandP);
// Solves of such a band, SIMD lanes across its rows: the rows of src are staged through
// `stage` (nx * kRowBand floats), solved, and written back to out (which may be src: every
// row of the band is read before any is written).
void solveRowBandStaged(const float* src, float* out, const float* bandC, const float* bandP,
                        float* stage, std::size_t stride, int nx, int rows);

// Solves of the columns i0..i1 - 1 of an nx x ny field: x = (1 - q L_y)^-1 w into out (which
// may be w: the forward elimination reads each w before it writes that cell), the couplings
// c = scale weight of the north faces (weight[row + i] between rows j and j + 1), then
// sum += x unless sum is null. With factor, the pivots p are computed on the way, else read.
// With measure (and sum), max |x| and max |sum| of the band (else 0).
struct ColumnResult {
  float maxCorrection = 0.0f;
  float maxDelta = 0.0f;
};
ColumnResult solveColumns(const float* w, float* out, const float* weight, float scale, float* p,
                          float* sum, std::size_t nx, int ny, int i0, int i1, bool factor,
                          bool measure);

}  // namespace wb
