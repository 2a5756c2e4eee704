// Maximum maps, as GeoClaw's fgmax grids keep them (Berger & LeVeque, GeoClaw's "fgmax"
// documentation): per cell, the highest surface eta_max, the largest depth h_max and the first
// arrival time, sampled after every step of a model (docs/exports.md, "Maximum maps").
//
// A cell is wet when its depth h = eta + d0 (d0 the signed rest depth, core/grid/domain.hpp)
// exceeds `wetDepth`; for the shallow-water models that is their own depth (they report the
// surface over dry ground as the ground itself, docs/wet-dry.md), for the wave models, which
// take land as a wall, only cells under water at rest can be wet. eta_max and the arrival are
// taken over wet samples only, as GeoClaw updates its maxima only where h > dry_tolerance: a
// cell never wet has eta_max NaN, h_max 0 and no arrival (NaN). The arrival is the first
// sample time at which the cell is wet and |eta| > arrivalTolerance.
//
// The run-up is the highest ground above the still water, b = -d0 >= 0, among cells open to
// water but dry at rest (d0 <= 0) that were ever wet; a model without wet/dry physics has none.
#pragma once

#include <optional>
#include <ostream>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

struct MaxMapSettings {
  // |eta| (m) that counts as the wave's arrival. GeoClaw's arrival_tol is 1e-2 m for field
  // tsunamis of metres; laboratory tanks (Monai's 1:400 model, waves of about 1 cm) need a
  // tenth of it, and a drop in a pool of a few centimetres less still.
  double arrivalTolerance = 1e-3;
  // Depth (m) above which a cell counts as wet: GeoClaw's dry_tolerance default, 1 mm.
  double wetDepth = 1e-3;
};

struct RunUp {
  double height = 0.0;      // m above the still water
  double x = 0.0, y = 0.0;  // the cell's centre (m)
};

class MaxMap {
 public:
  MaxMap() = default;
  // For a model that floods land (Model::floodsLand) or not, on the domain's grid.
  MaxMap(const Domain& domain, MaxMapSettings settings, bool floodsLand);

  // The domain changed (a mask stroke): which cells are sampled, and their rest depth.
  void setDomain(const Domain& domain);
  // Takes the model's surface at `time` into the maps: one vectorised pass over the grid.
  void update(const Field2D& eta, double time);

  bool empty() const { return etaMax_.empty(); }
  bool floodsLand() const { return floodsLand_; }
  const MaxMapSettings& settings() const { return settings_; }
  const Field2D& etaMax() const { return etaMax_; }      // m, NaN where never wet
  const Field2D& depthMax() const { return depthMax_; }  // m, 0 where never wet
  const Field2D& arrival() const { return arrival_; }    // s, NaN where nothing arrived
  // Whether the cell was ever wet: its largest depth is above 0 only then.
  bool everWet(int i, int j) const { return depthMax_(i, j) > 0.0f; }

  // The highest land wetted (see the top of this file): nullopt for a model without wet/dry
  // physics, and for one whose water reached no land.
  std::optional<RunUp> runUp(const Domain& domain) const;

 private:
  MaxMapSettings settings_;
  bool floodsLand_ = false;
  Field2D etaMax_, depthMax_, arrival_;
  // A sample counts where eta > wetThreshold_ = wetDepth - d0 (h > wetDepth); +inf where the
  // cell is never sampled (solid; land, for a model that takes it as a wall).
  Field2D restDepth_, wetThreshold_;
};

// max_maps.csv's run_up_note (docs/exports.md): "measured", "no_land_wetted", or "no_wet_dry"
// for a model that takes land as a wall.
const char* runUpNote(const MaxMap& map, const Domain& domain);

// max_map.csv (docs/exports.md): the header `i,j,x,y,eta_max,depth_max,arrival_time`, then one
// row per open cell in row-major order (j, then i), x and y the cell's centre (m); eta_max and
// arrival_time are empty where the cell was never wet or nothing arrived.
void writeMaxMapCsv(std::ostream& out, const MaxMap& map, const Domain& domain);

}  // namespace wb
