// Semi-Lagrangian sampling: the values of a few cell-centred fields at the departure points
// x - dt u(x) / dx of the cells of a row (Stam's advect; Layton & van de Panne eqs. 31-32),
// bilinear between the four cell centres around the point. The point is clamped onto the
// outermost cell centres, as core/grid/interpolation.hpp's sampleBilinear does.
//
// The wall rule (SampleRule) says what a solid corner of the interpolation cell contributes:
//   - SolidIsZero: the fields hold 0 in solid cells and are interpolated as they are (a trace
//     into a wall picks up no flow from it; advected-wave). Reference: sampleBilinear.
//   - Renormalise: solid corners are weighted 0 and the wet corners' weights renormalised (the
//     Neumann extension of the wet values, Layton & van de Panne 4.1); if all four are solid the
//     cell keeps its own values; a solid arrival cell gets 0 (swe-semi-lagrangian). Reference:
//     SweWalls::bilinear (models/swe_semi_lagrangian/swe_walls.hpp).
//
// Written to vectorise (semi_lagrangian.cpp says how), by paths that give the same values bit
// for bit: a row is taken in blocks of 32 cells; each block finds its departure points, then
// fetches the 2 x 2 corners: a block whose corners all lie at one offset from their cells (a
// flow slower than a cell per step, running one way) loads them contiguously; a block whose
// points lie less than a cell away loads each cell's 3 x 3 neighbourhood contiguously and
// selects the 2 x 2 (near); other blocks gather (far). Whole rows with Renormalise are first
// taken in one pass that weighs each cell's 3 x 3 (swe's common case of near points, without
// the per-block set-up), or only its 2 x 2 in chunks of cells whose offsets keep their signs;
// the blocks that hold a far point are then sampled again.
#pragma once

namespace wb {

enum class SampleRule { SolidIsZero, Renormalise };

// The velocity that carries the fields, in m/s, on a row-major nx x ny grid (nx, ny >= 2);
// cellsPerVelocity = dt / dx. wet (1 wet, 0 solid) is read by Renormalise only.
struct Departures {
  const float* u;
  const float* v;
  float cellsPerVelocity;
  int nx, ny;
  const float* wet = nullptr;
};

// The fields sampled (count: 2 or 3) and where their departure values go (other arrays).
struct SampledFields {
  int count;
  const float* in[3];
  float* out[3];
};

// How many blocks of 32 cells took each path (tests check that each path was exercised), and
// how many chunks of near points whole rows weighed on their 2 x 2 alone (quad).
struct SamplePaths {
  int block = 0, near = 0, far = 0, quad = 0;
};

// Samples the cells [begin, end) of row j.
SamplePaths sampleAtDepartures(const Departures& d, const SampledFields& f, SampleRule rule, int j,
                               int begin, int end);

// Samples the whole rows [j0, j1): the same values. With Renormalise the rows that have both
// neighbours are first sampled in one pass as near points (less than a cell away), and the
// cells that are not near again by the paths above.
SamplePaths sampleRowsAtDepartures(const Departures& d, const SampledFields& f, SampleRule rule,
                                   int j0, int j1);

}  // namespace wb
