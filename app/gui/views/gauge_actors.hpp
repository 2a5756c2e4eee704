// The scenario's gauges and transects in a 3-D view (docs/gauges.md): a gauge is a post from
// the floor to above the highest drawn wave with a ball on top; a transect is a wire above the
// water between two posts. Built when the markers change, never per frame.
#pragma once

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
  // Draws these markers in a pool whose longer side is `extent` (m).
  void set(const std::vector<GaugeSpec>& gauges, const std::vector<TransectSpec>& transects,
           double extent);
  vtkActor* gaugeActor() const { return gauges_; }
  vtkActor* transectActor() const { return transects_; }

 private:
  vtkNew<vtkActor> gauges_, transects_;
};

}  // namespace wb::gui
