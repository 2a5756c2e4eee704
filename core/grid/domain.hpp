// Domain: the grid, the water mask and the rest depth shared by every model.
// Coordinates: x = (i + 0.5) dx is the centre of cell column i, y = (j + 0.5) dx of row j;
// the world origin is the corner of cell (0, 0). Rest water level is z = 0; the ground
// (bathymetry) is b = -restDepth, so a model's eta is the surface height above rest. An open
// cell's rest depth is signed: >= kMinDepth where water stands at rest, <= 0 where the ground
// is at or above the rest level (dry until water reaches it; docs/wet-dry.md, "Land above the
// rest level").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/grid/edges.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

struct Grid {
  int nx = 64;
  int ny = 64;
  double dx = 1.0;  // m, equal spacing in x and y

  double width() const { return nx * dx; }
  double height() const { return ny * dx; }
  double cellArea() const { return dx * dx; }
  double x(int i) const { return (i + 0.5) * dx; }
  double y(int j) const { return (j + 0.5) * dx; }
};

enum class MaskPreset { Rect, Pi };

class Domain {
 public:
  Domain() = default;
  // All-water rectangle of constant rest depth.
  Domain(const Grid& grid, double g, double depth);

  const Grid& grid() const { return grid_; }
  double g() const { return g_; }
  int nx() const { return grid_.nx; }
  int ny() const { return grid_.ny; }

  // 1 = open (water, or ground that water may flood), 0 = solid (wall); row-major like Field2D.
  bool isWet(int i, int j) const { return wet_[index(i, j)] != 0; }
  // Outside the grid counts as solid.
  bool isWetOrOutside(int i, int j) const {
    return i >= 0 && j >= 0 && i < grid_.nx && j < grid_.ny && isWet(i, j);
  }
  const std::vector<std::uint8_t>& wetMask() const { return wet_; }
  void setWet(int i, int j, bool wet) { wet_[index(i, j)] = wet ? 1 : 0; }
  void setMask(const std::vector<std::uint8_t>& wet);
  int wetCount() const;

  // Rest depth d0 on open cells (m): d0 >= kMinDepth under water, d0 <= 0 on ground at or
  // above the rest level; 0 on solid cells.
  const Field2D& restDepth() const { return restDepth_; }
  // Depths from 0 to kMinDepth are raised to kMinDepth; negative ones are ground above rest.
  void setRestDepth(const Field2D& depth);
  // Open and under water at rest (d0 > 0).
  bool isWetAtRest(int i, int j) const { return isWet(i, j) && restDepth_(i, j) > 0.0f; }
  bool hasLandAboveRest() const;
  // Over the cells wet at rest.
  double meanWetDepth() const;
  double maxWetDepth() const;
  // The same domain with the ground at or above rest made solid: what models without
  // wet/dry physics (damped-wave, advected-wave) run on (docs/models.md, "Land").
  Domain withLandAsWalls() const;

  // Cuts the preset's solid cells out of the current mask. Rect keeps every cell wet.
  // Pi: the Π-shaped pool of Nishidate & Nikishkov Fig. 5, a full-width bar over the top
  // 40 % of rows and two legs of a third of the width each; the middle third below the bar
  // is solid.
  void applyPreset(MaskPreset preset);

  // Bressler 4.3 setHeightMap: cells whose terrain height (m, same grid) is below the sea
  // level get rest depth seaLevel - terrain (at least minDepth); the others become solid
  // (Coast::Walls) or ground above rest with d0 = seaLevel - terrain <= 0 (Coast::Ground).
  enum class Coast { Walls, Ground };
  void applyTerrain(const Field2D& terrainHeight, double seaLevel, Coast coast = Coast::Walls);

  // Wall or open per side (core/grid/edges.hpp); all walls unless set.
  const Edges& edges() const { return edges_; }
  void setEdges(const Edges& edges) { edges_ = edges; }

  // Manning's n of the bed (s m^-1/3), the scenario's friction.manning: one value for every
  // model (core/model/manning_friction.hpp). 0: no bottom friction.
  double manning() const { return manning_; }
  void setManning(double n) { manning_ = n; }

  static constexpr double kMinDepth = 0.01;  // m, keeps sqrt(g d) > 0 on shelves

 private:
  std::size_t index(int i, int j) const {
    return static_cast<std::size_t>(j) * static_cast<std::size_t>(grid_.nx) +
           static_cast<std::size_t>(i);
  }
  void zeroDepthOnSolid();

  Grid grid_;
  double g_ = 9.81;
  std::vector<std::uint8_t> wet_;
  Field2D restDepth_;
  Edges edges_;
  double manning_ = 0.0;
};

// Parses "rect" / "pi"; throws InputError naming `where` otherwise.
MaskPreset parseMaskPreset(const std::string& name, const std::string& where);
// Parses "walls" / "ground"; throws InputError naming `where` otherwise.
Domain::Coast parseCoast(const std::string& name, const std::string& where);

}  // namespace wb
