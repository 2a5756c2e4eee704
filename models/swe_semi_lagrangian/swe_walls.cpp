#include "models/swe_semi_lagrangian/swe_walls.hpp"

#include <algorithm>
#include <cmath>

namespace wb {

SweWalls::SweWalls(const Domain& domain)
    : nx_(domain.nx()), ny_(domain.ny()), wet_(domain.wetMask()), rule_(wet_.size(), 0) {
  for (int j = 0; j < ny_; ++j)
    for (int i = 0; i < nx_; ++i) {
      if (!wet(i, j)) continue;
      std::uint8_t bits = 0;
      const bool east = wetAt(i + 1, j), west = wetAt(i - 1, j);
      const bool north = wetAt(i, j + 1), south = wetAt(i, j - 1);
      if (!east || !west) bits |= kWallX;
      if (!north || !south) bits |= kWallY;
      if (east && west && north && south) {
        if (!wetAt(i + 1, j + 1)) bits |= kCornerNE;
        if (!wetAt(i - 1, j + 1)) bits |= kCornerNW;
        if (!wetAt(i + 1, j - 1)) bits |= kCornerSE;
        if (!wetAt(i - 1, j - 1)) bits |= kCornerSW;
      }
      rule_[std::size_t(j) * nx_ + i] = bits;
    }
  wetWeight_.assign(wet_.begin(), wet_.end());
  openEast_.assign(wet_.size(), 0.0f);
  openNorth_.assign(wet_.size(), 0.0f);
  for (int j = 0; j < ny_; ++j)
    for (int i = 0; i < nx_; ++i) {
      const std::size_t k = std::size_t(j) * nx_ + i;
      openEast_[k] = wet(i, j) && wetAt(i + 1, j) ? 1.0f : 0.0f;
      openNorth_[k] = wet(i, j) && wetAt(i, j + 1) ? 1.0f : 0.0f;
    }
  for (int j = 0; j < ny_; ++j) {
    solidRows_.push_back(std::uint32_t(solidCells_.size()));
    wallRows_.push_back(std::uint32_t(wallCells_.size()));
    for (std::size_t k = std::size_t(j) * nx_; k < std::size_t(j + 1) * nx_; ++k) {
      if (!wet_[k]) solidCells_.push_back(std::uint32_t(k));
      if (rule_[k]) wallCells_.push_back(std::uint32_t(k));
    }
  }
  solidRows_.push_back(std::uint32_t(solidCells_.size()));
  wallRows_.push_back(std::uint32_t(wallCells_.size()));
}

void SweWalls::enforceVelocity(Field2D& u, Field2D& v) const {
  enforceVelocityRows(u, v, 0, ny_);
}

void SweWalls::enforceVelocityRows(Field2D& u, Field2D& v, int j0, int j1) const {
  // The unit vectors towards the convex corners, (+-1, +-1) / sqrt(2).
  struct Corner {
    Bit bit;
    float sx, sy;
  };
  static constexpr Corner kCorners[] = {
      {kCornerNE, 1, 1}, {kCornerNW, -1, 1}, {kCornerSE, 1, -1}, {kCornerSW, -1, -1}};
  if (j0 >= j1) return;
  float* pu = u.data();
  float* pv = v.data();
  for (std::uint32_t c = solidRows_[j0]; c < solidRows_[j1]; ++c)
    pu[solidCells_[c]] = pv[solidCells_[c]] = 0.0f;
  for (std::uint32_t w = wallRows_[j0]; w < wallRows_[j1]; ++w) {
    const std::uint32_t k = wallCells_[w];
    const std::uint8_t bits = rule_[k];
    if (bits & kWallX) pu[k] = 0.0f;
    if (bits & kWallY) pv[k] = 0.0f;
    for (const Corner& c : kCorners) {
      if (!(bits & c.bit)) continue;
      // Remove the component along n = (sx, sy) / sqrt(2): w -= (w . n) n.
      const float along = 0.5f * (c.sx * pu[k] + c.sy * pv[k]);
      pu[k] -= along * c.sx;
      pv[k] -= along * c.sy;
    }
  }
}

}  // namespace wb
