// The domain's edges in a 3-D view, so that a wall and an open side read apart at a glance:
// a wall side is a low concrete rim standing at the grid's edge; an open side has no rim but
// a translucent blue band lying over its absorbing layer (the cells that damp the outgoing
// waves, core/grid/edges.hpp) with a translucent curtain at the grid's edge below it, and a
// blue line along the layer's inner side, as the domain editor draws it (mask_editor.hpp).
// Only sides of wet cells get either: land at the edge has its own walls (surface_scene.hpp).
// Built with the domain; nothing changes per frame.
#pragma once

#include <vtkNew.h>

class vtkActor;
class vtkRenderer;

namespace wb {
class Domain;
}

namespace wb::gui {

class EdgeActors {
 public:
  EdgeActors();
  ~EdgeActors();
  void addTo(vtkRenderer* renderer);
  // bottom, top: the displayed floor and the rim's top (z, world units).
  void build(const Domain& domain, double bottom, double top);
  // Quads of the wall rims / of the open sides' bands and curtains, and line segments of the
  // layers' inner sides (what a test can count).
  vtkActor* rims() { return rims_; }
  vtkActor* layers() { return layers_; }
  vtkActor* layerLines() { return lines_; }

 private:
  vtkNew<vtkActor> rims_, layers_, lines_;
};

}  // namespace wb::gui
