// The row and column kernels of swe-adi's step (models/swe_adi/swe_adi.cpp says which
// equation each evaluates). Fields are row-major, nx floats a row; `row` is the index of a
// row's first cell. A closed face (wall, solid cell, grid edge) has face depth and coupling 0,
// which is all the kernels know of walls; the first and last cells of a row and the first and
// last rows pass their own values for the missing neighbour.
#pragma once

#include <cstddef>

#include "core/solvers/tridiagonal.hpp"

namespace wb {

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
  float theta;  // the step's time weight (0.5: the trapezoidal rule)
};
// Also takes the round-off mean out of the rate. southDepth: the depths of the row's south
// faces (nx values; read only with hasSouth), wherever they were computed.
void rhsRow(const RhsInputs& in, const float* southDepth, float* rate, float* rhs, std::size_t row,
            std::size_t nx, bool hasSouth, bool hasNorth);

void residualRow(const float* rhs, const float* delta, const float* depthX, const float* depthY,
                 float couple, float* out, std::size_t row, std::size_t nx, bool hasSouth,
                 bool hasNorth);

// The row and column systems (1 - q L_x), (1 - q L_y) are core/solvers/tridiagonal.hpp's,
// with the face depths D_f as weights and couple = q g / dx^2 as scale.

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
  float theta;   // the step's time weight (0.5: the trapezoidal rule)
};
// Updates the face discharges q of a row: the east faces from the mid surface
// h + theta (delta - q L_y c / 2), the north ones from h + theta (delta - q L_x c / 2) (formed into
// mids, 3 nx floats). With belowReady, the call for the row below, with the same mids, has
// formed this row's north-face mid surface already. A face closed by the flooding rule (D = 0)
// keeps its discharge: the rate, whose trapezoidal update never sees the face, still carries
// it (SweAdi::updateDischarges). Their velocities u = q / D go to u and v (faceVelocityRow's,
// the east edge's and without hasNorth the north faces' left as they are).
void fluxRow(const FluxInputs& in, float* qx, float* qy, float* u, float* v, float* mids,
             std::size_t row, std::size_t nx, bool hasSouth, bool hasNorth, bool belowReady);
// The discharges' disagreement with the rate, M = -div(q) - rate, on a row: max |M| and
// max |rate| over it (the measure of DischargeSync), and with out, out = scale M.
struct Mismatch {
  float mismatch = 0.0f, rate = 0.0f;
};
Mismatch mismatchRow(const float* qx, const float* qy, const float* rate, float* out, float scale,
                     float invDx, std::size_t row, std::size_t nx, bool hasSouth);
// q -= D_f (phi_N - phi_C) / dx on the row's east and north faces.
void dischargeCorrectionRow(const float* phi, const float* depthX, const float* depthY, float* qx,
                            float* qy, float invDx, std::size_t row, std::size_t nx, bool hasNorth);
// Manning friction on a row's faces (SweAdi::applyFriction): each discharge q <- keep q with
// ManningFriction::keepFloat of its face depth and speed (its normal velocity and the mean of
// the four faces of the other direction around it; without hasSouth / the west neighbour the
// missing ones are left out, as closed), its change into the row buffers changeX / changeY (0
// on the east edge face and, without hasNorth, on the north ones). Returns the row's sum of 1/2 D
// un^2 (1 - keep^2), the kinetic energy per unit area friction took out.
struct FrictionInputs {
  const float* u;
  const float* v;
  const float* depthX;
  const float* depthY;
  float gn2Dt;  // g n^2 dt
  float floor;  // m: faces this shallow or shallower stop
};
double frictionRow(const FrictionInputs& in, float* qx, float* qy, float* changeX, float* changeY,
                   std::size_t row, std::size_t nx, bool hasSouth, bool hasNorth);
// rate -= div(change) / dx over a row: the rate hdot = -div(q) follows the discharges' change,
// given as row buffers, the south row's null on the grid's first row.
void followDischargeChangeRow(const float* changeX, const float* changeY, const float* changeSouth,
                              float* rate, float invDx, std::size_t row, std::size_t nx);
// q / D on a face, 0 where it is closed (D = 0, never negative), as arithmetic on every lane
// (divided by D + 1 = 1 and multiplied by 0 where closed; + 0 turns the -0 of a negative q
// into 0): GCC does not vectorise the division under a select.
inline float faceVelocity(float q, float depth) {
  const float open = float(__builtin_isgreater(depth, 0.0f));
  return q / (depth + (1.0f - open)) * open + 0.0f;
}
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
  float ratePerDelta;  // 1 / (theta dt)
  float rateCarry;     // (1 - theta) / theta
  float keep;          // 1 - damping
};
// The surface update of `rows` (at most kSurfaceRows) consecutive rows from the one at `row`:
// counts[r] gets row r's counts and the sum of its rates.
inline constexpr int kSurfaceRows = 8;
void surfaceRows(const SurfaceInputs& in, float* h, float* rate, std::size_t row, std::size_t nx,
                 int rows, RowCounts* counts);

}  // namespace wb
