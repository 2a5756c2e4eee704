// Grid operations of the semi-Lagrangian shallow-water model that know about walls:
// the wall rule for the velocity (Layton & van de Panne, section 4.1), bilinear values at
// departure points (appendix A, eq. 32; the scalar reference of core/grid/semi_lagrangian.hpp)
// and centred differences with Neumann ghosts.
//
// Where the walls are: Wavebench's grid is cell-centred and a wall is the face between a wet
// cell and a solid one (or the grid edge). The paper's grid points "along a wall" are the wet
// cells that touch a wall; section 4.1's rules are applied to them:
//   - a wall to the east or west: u = 0; to the north or south: v = 0;
//   - a concave corner (walls in x and in y, e.g. the pool's corners): u = v = 0;
//   - a convex corner (all four edge neighbours wet, a diagonal one solid, e.g. the corner
//     of a block in the water): the velocity component pointing at that corner, at 45
//     degrees, is set to zero.
// Height: homogeneous Neumann, a solid neighbour takes the value of the wet cell itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

class SweWalls {
 public:
  SweWalls() = default;
  explicit SweWalls(const Domain& domain);

  // Section 4.1: zero normal velocity at walls, both components at concave corners, the
  // 45-degree component at convex corners. Solid cells get u = v = 0.
  void enforceVelocity(Field2D& u, Field2D& v) const;
  // The same on the rows [j0, j1) only (each cell's rule reads and writes that cell alone).
  void enforceVelocityRows(Field2D& u, Field2D& v, int j0, int j1) const;

  // Eq. 32 in two dimensions: bilinear interpolation at the departure point (x, y) in
  // cell-index units (cell centre (i, j) is at (i, j)). Unlike core/grid/interpolation.hpp it knows
  // the walls: a solid corner of the interpolation cell is left out and the weights of the wet
  // corners renormalised (the Neumann extension of the wet values); if all four are solid,
  // fallback is returned. The weights are found once and applied to several fields. The
  // scalar reference of the vectorised sampler's Renormalise rule (core/grid/
  // semi_lagrangian.hpp; tests/unit/semi_lagrangian_test.cpp compares them).
  struct Bilinear {
    std::size_t corner[4];
    double weight[4];     // 0 for a solid corner
    double inverseTotal;  // 1 / sum(weight); 0 when every corner is solid
    float at(const Field2D& f, float fallback) const {
      if (inverseTotal == 0.0) return fallback;
      const float* p = f.data();
      double sum = 0.0;
      for (int c = 0; c < 4; ++c)
        sum += weight[c] * p[corner[c]];
      return float(sum * inverseTotal);
    }
  };
  Bilinear bilinear(double x, double y) const {
    x = std::clamp(x, 0.0, double(nx_ - 1));
    y = std::clamp(y, 0.0, double(ny_ - 1));
    // The interpolation cell [i0, i0 + 1] x [j0, j0 + 1]; grids have at least 4 cells a side.
    const int i0 = std::min(int(x), nx_ - 2);
    const int j0 = std::min(int(y), ny_ - 2);
    const double fx = x - i0, fy = y - j0;
    const std::size_t k0 = std::size_t(j0) * nx_ + i0;
    Bilinear b{{k0, k0 + 1, k0 + nx_, k0 + nx_ + 1},
               {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy},
               0.0};
    double total = 0.0;
    for (int c = 0; c < 4; ++c) {
      if (!wet_[b.corner[c]]) b.weight[c] = 0.0;
      total += b.weight[c];
    }
    b.inverseTotal = total > 0.0 ? 1.0 / total : 0.0;
    return b;
  }
  float interpolate(const Field2D& f, double x, double y, float fallback) const {
    return bilinear(x, y).at(f, fallback);
  }

  // Centred differences (f_E - f_W) / 2 and (f_N - f_S) / 2 (per cell, not per metre) at a
  // wet cell. With neumann a solid neighbour takes the cell's own value (height, ground);
  // otherwise it is 0 (velocity: the wall does not move).
  float centredX(const Field2D& f, int i, int j, bool neumann) const {
    const float centre = f(i, j), ghost = neumann ? centre : 0.0f;
    const float east = wetAt(i + 1, j) ? f(i + 1, j) : ghost;
    const float west = wetAt(i - 1, j) ? f(i - 1, j) : ghost;
    return 0.5f * (east - west);
  }
  float centredY(const Field2D& f, int i, int j, bool neumann) const {
    const float centre = f(i, j), ghost = neumann ? centre : 0.0f;
    const float north = wetAt(i, j + 1) ? f(i, j + 1) : ghost;
    const float south = wetAt(i, j - 1) ? f(i, j - 1) : ghost;
    return 0.5f * (north - south);
  }

  bool wet(int i, int j) const { return wet_[std::size_t(j) * nx_ + i] != 0; }
  // 1 on wet cells, 0 on solid ones, as a factor for the branch-free kernels.
  const float* wetWeights() const { return wetWeight_.data(); }
  // 1 where the face between a cell and its east (north) neighbour joins two wet cells, else 0
  // (solid cells, walls, the grid's edge): the wall rules as factors and selects for the
  // branch-free kernels of SweSemiLagrangian.
  const float* openEast() const { return openEast_.data(); }
  const float* openNorth() const { return openNorth_.data(); }

 private:
  enum Bit : std::uint8_t {
    kWallX = 1,     // wall east or west: u = 0
    kWallY = 2,     // wall north or south: v = 0
    kCornerNE = 4,  // convex corners: the solid diagonal neighbour
    kCornerNW = 8,
    kCornerSE = 16,
    kCornerSW = 32,
  };
  // Outside the grid counts as solid.
  bool wetAt(int i, int j) const { return i >= 0 && j >= 0 && i < nx_ && j < ny_ && wet(i, j); }

  int nx_ = 0, ny_ = 0;
  std::vector<std::uint8_t> wet_;
  std::vector<std::uint8_t> rule_;  // Bit flags per cell
  std::vector<float> wetWeight_, openEast_, openNorth_;
  // The cells enforceVelocity touches: solid cells and wet cells with rule bits, in row-major
  // order, and where each row's begin in the lists (ny + 1 entries).
  std::vector<std::uint32_t> solidCells_, wallCells_;
  std::vector<std::uint32_t> solidRows_, wallRows_;
};

}  // namespace wb
