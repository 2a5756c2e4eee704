// The scenario's gauges and transects in a 3-D view (docs/gauges.md): a gauge is a post from
// the floor to above the highest drawn wave with a ball on top; a transect is a wire above the
// water between two posts. Built when the markers change, never per frame.
#pragma once

#include <cstdint>
#include <vector>

#include <vtkNew.h>

#include "core/measure/gauges.hpp"

class vtkActor;
class vtkRenderer;

namespace wb::gui {

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
