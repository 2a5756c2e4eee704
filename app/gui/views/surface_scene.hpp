// The VTK scene of one 3-D view: the water surface (eta at cell corners, coloured by height,
// with a colour bar), the land (solid cells as raised blocks with walls), the pool floor, the
// boats and floating bodies as boxes, and a caption. Qt-free; SurfaceView hosts it.
#pragma once

#include <string>
#include <vector>

#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include "core/forcing/excitations.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

class vtkActor;
class vtkCamera;
class vtkCubeSource;
class vtkFloatArray;
class vtkLookupTable;
class vtkPoints;
class vtkPolyData;
class vtkPolyDataNormals;
class vtkRenderer;
class vtkScalarBarActor;
class vtkTextActor;

namespace wb::gui {

// A box drawn on the water: a boat or a floating body (centre, edge, heading in radians).
struct BoxMarker {
  double x = 0.0, y = 0.0, size = 0.3, heading = 0.0, tilt = 0.0;
  double z = 0.0;  // surface height under the box (m, before exaggeration)
  bool boat = false;
};

class SurfaceScene {
 public:
  explicit SurfaceScene(vtkCamera* sharedCamera);
  ~SurfaceScene();

  vtkRenderer* renderer() { return renderer_; }
  // Rebuilds the geometry for a new domain. etaRange (m) sets the colour range (+-) and the
  // vertical exaggeration so that a wave of that height is visible at any pool size.
  void setDomain(const Domain& domain, double etaRange);
  void setEta(const Field2D& eta);
  void setCaption(const std::string& text, bool warning);
  void setBoxes(const std::vector<BoxMarker>& boxes);
  void setColourTitle(const std::string& title);
  // Places the shared camera so the whole pool is seen from the south-west, above, in a
  // view of this width / height.
  void resetCamera(double aspect);
  // The displayed height of eta = 0 is z = 0; world x, y are the domain's metres.
  double verticalScale() const { return verticalScale_; }

 private:
  void buildLand(const Domain& domain);
  void buildFloor(const Domain& domain);
  void buildWaterCells(const Domain& domain);

  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkPolyData> water_;
  vtkNew<vtkPoints> waterPoints_;
  vtkNew<vtkFloatArray> waterHeights_;
  vtkNew<vtkPolyDataNormals> waterNormals_;
  vtkNew<vtkActor> waterActor_;
  vtkNew<vtkLookupTable> colours_;
  vtkNew<vtkActor> landActor_;
  vtkNew<vtkActor> floorActor_;
  vtkNew<vtkScalarBarActor> colourBar_;
  vtkNew<vtkTextActor> caption_;
  std::vector<vtkSmartPointer<vtkActor>> boxActors_;
  const Domain* domain_ = nullptr;
  std::vector<std::uint8_t> wet_;
  int nx_ = 0, ny_ = 0;
  double dx_ = 1.0;
  double verticalScale_ = 1.0;
};

}  // namespace wb::gui
