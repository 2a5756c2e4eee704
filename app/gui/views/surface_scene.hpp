// The VTK scene of one 3-D view: the water surface (eta at cell corners, coloured by height,
// with a colour bar), the land (solid cells as raised blocks with walls), the pool floor
// shaped by the rest depth (painted bathymetry, terrain), the wall rims and open edges' layers
// (edge_actors.hpp), the boats and floating bodies as
// boxes, and a caption. Qt-free; SurfaceView hosts it.
//
// The water is updated in place every frame: heights, normals and colours are written into
// the arrays the mapper reads, which are only marked Modified; no filter runs and the cells
// (the mapper's index buffer) stay as built by setDomain. A render mesh may take every
// meshStride-th corner of the grid, so that a software renderer draws one vertex per few
// pixels of a big grid.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include "app/gui/views/body_actors.hpp"
#include "app/gui/views/edge_actors.hpp"
#include "app/gui/views/gauge_actors.hpp"
#include "core/forcing/excitations.hpp"
#include "core/forcing/floating_bodies.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

class vtkActor;
class vtkCamera;
class vtkCubeSource;
class vtkFloatArray;
class vtkLookupTable;
class vtkPoints;
class vtkPolyData;
class vtkRenderer;
class vtkScalarBarActor;
class vtkTextActor;

namespace wb::gui {

class WaterMapper;

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
  // vertical exaggeration so that a wave of that height is visible at any pool size, at most
  // maxVerticalScale (bodies drawn true to size stay above the water drawn around them).
  // meshStride >= 1: the render mesh takes every meshStride-th cell corner.
  void setDomain(const Domain& domain, double etaRange, int meshStride = 1,
                 double maxVerticalScale = std::numeric_limits<double>::infinity());
  // The water's heights; its colours from `colourValues` (the error against a reference, the
  // difference to another model: same grid) or, when null, from eta itself.
  void setEta(const Field2D& eta, const Field2D* colourValues = nullptr);
  // The colour bar's half-width (m); cheap: no geometry is rebuilt.
  void setColourRange(double range);
  // The drawn height of eta is verticalScale times eta (the next setEta draws it so).
  void setVerticalScale(double scale) { verticalScale_ = scale; }
  // The water's colours (deep blue, blue, white) for eta, or cool-to-warm (blue, light grey,
  // red) for signed differences, where the middle colour means "no difference".
  void setDivergingColours(bool on);
  bool divergingColours() const { return diverging_; }
  // The colour bar's title as shown.
  std::string colourTitle() const;
  void setCaption(const std::string& text, bool warning);
  void setBoxes(const std::vector<BoxMarker>& boxes);
  // Up to kMaxGlyphTracers tracers are boxes (setBoxes); more are dots: one vertex each, one
  // draw call, as wide on screen as a box of edge `size` (m) at the focal point. A cube is 24
  // vertices, and a software renderer shades every vertex on the GUI thread. At most one dot
  // per kPixelsPerTracerDot pixels of the view is drawn (every tracerDotStride()-th tracer).
  static constexpr std::size_t kMaxGlyphTracers = 4000;
  static constexpr std::size_t kPixelsPerTracerDot = 4, kMinTracerDots = 10000;
  void setTracerDots(const std::vector<FloatingBody>& tracers, double size);
  // The tracers drawn as dots now (0 when there are none or they are boxes), and one in how many.
  std::size_t tracerDotCount() const;
  std::size_t tracerDotStride() const { return dotStride_; }
  void setColourTitle(const std::string& title);
  // A dark-to-light background (default), or one colour (cheaper on a software renderer).
  void setGradientBackground(bool on);
  // Keeps the colour bar and its labels inside a view of this many pixels.
  void fitToView(int width, int height);
  // The colour bar's strip at the right of a view (pixels, with its margins).
  static constexpr int kColourBarStripPixels = 92;
  // Places the shared camera so the whole pool is seen from the south-west, above, in a
  // view of this width / height, centred in the width left of the colour bar; with
  // `framedShare` < 1, only that share of the pool around its centre (a travelling window's
  // boat and its wake).
  void resetCamera(double aspect, double framedShare = 1.0);
  // The displayed height of eta = 0 is z = 0; world x, y are the domain's metres.
  double verticalScale() const { return verticalScale_; }
  // The colour range (m, +-): setDomain's, then setColourRange's.
  double colourRange() const { return colourRange_; }
  int meshStride() const { return stride_; }
  // The water's render mesh and how often its mapper rebuilt the index buffer (the cells)
  // and the vertex buffers; setEta must change the second count, never the first.
  vtkPolyData* waterMesh() { return water_; }
  // The floor's mesh: z follows the rest depth.
  vtkPolyData* floorMesh();
  int waterIndexBuilds() const;
  int waterVertexBuilds() const;
  EdgeActors& edges() { return edges_; }
  // The buoyant rigid bodies: their meshes once per comparison, their poses every frame.
  BodyActors& bodies() { return bodies_; }
  // The scenario's gauges and transects (docs/gauges.md).
  GaugeActors& gauges() { return gauges_; }
  // Shows a snapshot's buoyant bodies (call after setEta): the actors are rebuilt only when
  // `meshes` is not the set they hold, then each body is placed at its pose over the drawn
  // water (BodyActors::setPoses).
  void setRigidBodies(const std::shared_ptr<const std::vector<BodyMesh>>& meshes,
                      const std::vector<RigidBodyFrame>& bodies);
  // eta (m) of the water as drawn at world (x, y): linear on the render mesh's triangles.
  double drawnEta(double x, double y) const;
  // The mapper reads the mesh directly (no filter between them).
  bool waterMapperReadsMesh() const;

 private:
  void buildLand(const Domain& domain);
  void buildFloor(const Domain& domain);
  void buildWaterCells(const Domain& domain);
  // Corner (i, j) of the fine grid: the mean eta of the wet cells around it.
  double cornerEta(const Field2D& eta, int i, int j) const;
  // Corner values of `field` on the render mesh into `out`.
  void writeCorners(const Field2D& field, float* out) const;
  void updateWaterNormals();

  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkPolyData> water_;
  vtkNew<vtkPoints> waterPoints_;
  vtkNew<vtkFloatArray> waterHeights_;
  vtkNew<vtkFloatArray> waterColourValues_;  // the scalars when colours are not eta
  bool colouredByHeights_ = true;
  vtkNew<vtkLookupTable> divergingColours_;
  bool diverging_ = false;
  vtkNew<vtkFloatArray> waterNormals_;
  vtkSmartPointer<WaterMapper> waterMapper_;
  vtkNew<vtkActor> waterActor_;
  vtkNew<vtkLookupTable> colours_;
  vtkNew<vtkActor> landActor_;
  vtkNew<vtkActor> floorActor_;
  EdgeActors edges_;
  BodyActors bodies_{renderer_};
  GaugeActors gauges_{renderer_};
  vtkNew<vtkLookupTable> floorColours_;
  vtkNew<vtkScalarBarActor> colourBar_;
  vtkNew<vtkTextActor> colourTitle_;
  vtkNew<vtkTextActor> caption_;
  void setUpBoxes();
  void setUpTracerDots();
  // Every box (tracers, the boat) is one glyph of one actor: a cube scaled, turned and coloured
  // per point, so 100000 tracers cost one draw call (instanced), not 100000 actors.
  vtkNew<vtkPolyData> boxes_;
  vtkNew<vtkActor> boxActor_;
  vtkNew<vtkPolyData> dots_;
  vtkNew<vtkActor> dotActor_;
  std::size_t dotStride_ = 1;
  const Domain* domain_ = nullptr;
  std::vector<std::uint8_t> wet_;
  int nx_ = 0, ny_ = 0;
  int stride_ = 1, meshNx_ = 0, meshNy_ = 0;  // render mesh: meshNx_ x meshNy_ corners
  double dx_ = 1.0;
  double verticalScale_ = 1.0;
  double colourRange_ = 1.0;
  double viewWidthPixels_ = 1.0;  // from fitToView
};

}  // namespace wb::gui
