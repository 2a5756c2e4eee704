// The row and column kernels of swe-adi's step (models/swe_adi/swe_adi.cpp says which
// equation each evaluates). Fields are row-major, nx floats a row; `row` is the index of a
// row's first cell. A closed face (wall, solid cell, grid edge) has face depth and coupling 0,
// which is all the kernels know of walls; the first and last cells of a row and the first and
// last rows pass their own values for the missing neighbour.
#pragma once

#include <cstddef>
#include <utility>

namespace wb {

// Rows per band of the row sweep: that many independent Thomas recurrences in SIMD lanes
// (two AVX registers, so that one hides the other's latency).
inline constexpr int kRowBand = 16;
// Columns per band of the column sweep: SIMD lanes across the band, one band per task. The
// sweep walks down the rows, a stride of a row: on wide grids, 128 columns (512 B) a row give
// the hardware prefetcher longer runs (at 1024^2 3-6 % faster steps than 64 in A/B runs);
// narrower grids keep 64 for at least 4 bands to share between threads.
inline int columnBandWidth(int nx) {
  return nx >= 512 ? 128 : 64;
}

inline int rowBands(int ny) {
  return (ny + kRowBand - 1) / kRowBand;
}
inline int columnBands(int nx) {
  return (nx + columnBandWidth(nx) - 1) / columnBandWidth(nx);
}
inline std::pair<int, int> columnBand(int band, int nx) {
  const int width = columnBandWidth(nx), i0 = band * width;
  return {i0, i0 + width < nx ? i0 + width : nx};
}

struct FaceInputs {
  const float* h;
  const float* ground;
  const float* openEast;
  const float* openNorth;
  float dryThreshold;
};
void faceDepthRow(const FaceInputs& in, float* depthX, float* depthY, std::size_t row,
                  std::size_t nx, bool hasNorth);
// Only the north faces of the row at `row` (which has a row north of it), into depth[0..nx).
void northFaceDepthRow(const FaceInputs& in, float* depth, std::size_t row, std::size_t nx);

struct RhsInputs {
  const float* h;
  const float* depthX;
  const float* depthY;
  float couple;     // q g / dx^2: the couplings are couple D_f
  const float* ax;  // nullptr: no force
  const float* ay;
  const float* wet;
  float rateMean;  // sum(rate) / wet cells, round-off to take out
  float dt;
  float dx;
};
// Also takes the round-off mean out of the rate. southDepth: the depths of the row's south
// faces (nx values; read only with hasSouth), wherever they were computed.
void rhsRow(const RhsInputs& in, const float* southDepth, float* rate, float* rhs, std::size_t row,
            std::size_t nx, bool hasSouth, bool hasNorth);

void residualRow(const float* rhs, const float* delta, const float* depthX, const float* depthY,
                 float couple, float* out, std::size_t row, std::size_t nx, bool hasSouth,
                 bool hasNorth);

// The couplings c_f = q g D_f / dx^2 of the tridiagonal systems are formed where needed from
// the face depths, c = couple D_f (the same float product every time).
//
// Thomas factors of a band of `rows` rows (at most kRowBand) staged lane by lane: band[i *
// kRowBand + r] is row r's value at cell i; lanes beyond `rows` get the identity. bandC gets
// the couplings c_i (of the east face depths `depth`), bandP the pivots p_i. With rows up to
// 2 kRowBand, two bands, the second's after the first's (nx * kRowBand values each).
void factorRowBands(const float* depth, float couple, std::size_t stride, int nx, int rows,
                    float* bandC, float* bandP);
// Thomas solves of such a band, SIMD lanes across its rows: the rows of src are staged
// through `stage` (nx * kRowBand floats), solved, and written back to out (which may be src:
// every row of the band is read before any is written).
void solveRowBandStaged(const float* src, float* out, const float* bandC, const float* bandP,
                        float* stage, std::size_t stride, int nx, int rows);
// Thomas solves of the columns i0..i1 - 1: c = (1 - q L_y)^-1 w into out (which may be w: the
// forward elimination reads each w before it writes that cell), then delta += c
// unless delta is null (the first iteration solves straight into delta). With factor, the
// pivots p (of the couplings c = couple D of the north face depths) are computed on the way,
// else read; the back substitution forms its upper factors c p from them, as the row sweep
// does (an array fewer to keep in cache and write). With measure
// (and delta), max |c| and max |delta| of the band (else 0).
struct ColumnResult {
  float maxCorrection = 0.0f;
  float maxDelta = 0.0f;
};
ColumnResult solveColumns(const float* w, float* out, const float* depth, float couple, float* p,
                          float* delta, std::size_t nx, int ny, int i0, int i1, bool factor,
                          bool measure);

// sum over the row of delta res, res = r - (1 - q L) delta (residualRow's defect): the energy
// the step takes out (docs/swe-adi.md, "Stability").
double energyLossRow(const float* rhs, const float* delta, const float* depthX, const float* depthY,
                     float couple, std::size_t row, std::size_t nx, bool hasSouth, bool hasNorth);
// The Galerkin (Rayleigh-Ritz) projection of the step onto span{delta, c} (the last iterate
// and the last correction): the inner products u^T (1 - q L) v and u^T r of the two, summed
// over a row. u^T (1 - q L) v = sum_cells u v + sum_faces c_f (u_C - u_N)(v_C - v_N), with the
// row's east faces and, with hasNorth, its north faces. correction may be delta (one
// iteration: only dd and dr are used).
struct Gram {
  double dd = 0.0, dc = 0.0, cc = 0.0, dr = 0.0, cr = 0.0;
};
Gram gramRow(const float* delta, const float* correction, const float* rhs, const float* depthX,
             const float* depthY, float couple, std::size_t row, std::size_t nx, bool hasNorth);
// delta <- a delta + b c and c <- a c over the row (c may be delta: then only delta <- a delta).
void combineRow(float* delta, float* correction, double a, double b, std::size_t row,
                std::size_t nx);

struct FluxInputs {
  const float* h;
  const float* delta;       // the step's change
  const float* correction;  // the last ADI iteration's correction c (delta with one iteration)
  const float* depthX;
  const float* depthY;
  const float* ax;  // nullptr: no force
  const float* ay;
  float dt;
  float gDtPerDx;
  float couple;  // q g / dx^2: the column systems' couplings are couple D_f
  float keep;    // 1 - damping
};
// Updates the face discharges q of a row: the east faces from the mid surface
// h + delta / 2 - q L_y c / 4, the north ones from h + delta / 2 - q L_x c / 4 (formed into
// mids, 3 nx floats). With belowReady, the call for the row below, with the same mids, has
// formed this row's north-face mid surface already.
void fluxRow(const FluxInputs& in, float* qx, float* qy, float* mids, std::size_t row,
             std::size_t nx, bool hasSouth, bool hasNorth, bool belowReady);
// The discharges' disagreement with the rate, M = -div(q) - rate, on a row: max |M| and
// max |rate| over it (the measure of SweAdi::syncDischarges), and with out, out = scale M.
struct Mismatch {
  float mismatch = 0.0f, rate = 0.0f;
};
Mismatch mismatchRow(const float* qx, const float* qy, const float* rate, float* out, float scale,
                     float invDx, std::size_t row, std::size_t nx, bool hasSouth);
// q -= D_f (phi_N - phi_C) / dx on the row's east and north faces.
void dischargeCorrectionRow(const float* phi, const float* depthX, const float* depthY, float* qx,
                            float* qy, float invDx, std::size_t row, std::size_t nx, bool hasNorth);
// u = q / D_f (0 where D_f = 0) on the row's east and north faces but those of the east edge
// and, without hasNorth, the north ones, which are left as they are (0).
void faceVelocityRow(const float* qx, const float* qy, const float* depthX, const float* depthY,
                     float* u, float* v, std::size_t row, std::size_t nx, bool hasNorth);
void cellVelocityRow(const float* u, const float* v, float* cellU, float* cellV, std::size_t row,
                     std::size_t nx, bool hasSouth);

struct RowCounts {
  int drained = 0;  // wet cells below their ground
  int dry = 0;      // wet cells with depth at most the dry threshold
  double rateSum = 0.0;
};
struct SurfaceInputs {
  const float* delta;
  const float* ground;
  const float* wet;
  float dryThreshold;
  float twoPerDt;
  float keep;  // 1 - damping
};
// The surface update of `rows` (at most kSurfaceRows) consecutive rows from the one at `row`:
// counts[r] gets row r's counts and the sum of its rates.
inline constexpr int kSurfaceRows = 8;
void surfaceRows(const SurfaceInputs& in, float* h, float* rate, std::size_t row, std::size_t nx,
                 int rows, RowCounts* counts);

}  // namespace wb
