// The scenario's gauges and transects in a 3-D view (docs/gauges.md): a gauge is a post from
// the floor to above the highest drawn wave with a ball on top; a transect is a wire above the
// water between two posts. Built when the markers change, never per frame. All the gauges of a
// view are one actor (the posts as tubes, a ball glyphed onto each post's top), built in time
// that grows with the gauges; with many gauges the balls and posts have fewer facets, so the
// triangles drawn in every view at every frame stay about kGaugeTriangleBudget (a software
// renderer draws each one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <vtkNew.h>

#include "core/measure/gauges.hpp"

class vtkActor;
class vtkRenderer;

namespace wb::gui {

// Triangles of all gauge markers together in a view, beyond which their facets are coarsened.
constexpr std::size_t kGaugeTriangleBudget = 60000;
// Facets of a gauge's ball (theta x phi) and sides of its post: 16 x 12 and 10 with up to about
// 150 gauges, down to 3 x 3 and 3, and posts drawn as lines (0 sides) past about 3,000.
struct GaugeMarkerDetail {
  int theta = 16, phi = 12, sides = 10;
};
GaugeMarkerDetail gaugeMarkerDetail(std::size_t gauges);

class GaugeActors {
 public:
  explicit GaugeActors(vtkRenderer* renderer);
  ~GaugeActors();
  // Draws these markers in a pool whose longer side is `extent` (m), those of the comparison
  // `generation` (SimulationWorker's; a view made later for the same one asks for them).
  void set(const std::vector<GaugeSpec>& gauges, const std::vector<TransectSpec>& transects,
           double extent, std::uint64_t generation);
  std::uint64_t generation() const { return generation_; }
  vtkActor* gaugeActor() const { return gauges_; }
  vtkActor* transectActor() const { return transects_; }

 private:
  vtkNew<vtkActor> gauges_, transects_;
  std::uint64_t generation_ = 0;
};

}  // namespace wb::gui
