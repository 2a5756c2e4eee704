#include "app/gui/views/gauge_actors.hpp"

#include <algorithm>
#include <cmath>

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkCellArray.h>
#include <vtkGlyph3D.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTubeFilter.h>

namespace wb::gui {

namespace {
// Shares of the pool's longer side: the floor is drawn at -0.08 and waves reach +-0.04
// (surface_scene.cpp), so posts and wires stand clear of the water.
constexpr double kPostBottomShare = -0.08, kPostTopShare = 0.09;
constexpr double kWireShare = 0.055;
constexpr double kBallShare = 0.014, kTubeShare = 0.0035;
constexpr double kGaugeColour[3] = {1.0, 0.82, 0.1};
constexpr double kTransectColour[3] = {1.0, 0.35, 0.75};

// Straight segments (pairs of points) as one polydata of line cells: built in one pass, so
// its cost grows with the segments (a source and an append input per segment does not).
class Segments {
 public:
  void add(const double a[3], const double b[3]) {
    const vtkIdType ids[2] = {points_->InsertNextPoint(a), points_->InsertNextPoint(b)};
    lines_->InsertNextCell(2, ids);
  }
  bool empty() const { return lines_->GetNumberOfCells() == 0; }
  // The segments as tubes of this radius and number of sides; as lines if `sides` is 0.
  vtkSmartPointer<vtkPolyData> tubes(double radius, int sides) const {
    vtkNew<vtkPolyData> polyData;
    polyData->SetPoints(points_);
    polyData->SetLines(lines_);
    if (sides == 0) return polyData;
    vtkNew<vtkTubeFilter> tubes;
    tubes->SetInputData(polyData);
    tubes->SetRadius(radius);
    tubes->SetNumberOfSides(sides);
    tubes->Update();
    return tubes->GetOutput();
  }

 private:
  vtkNew<vtkPoints> points_;
  vtkNew<vtkCellArray> lines_;
};

// The pieces in one mapper of the actor; hidden when there are none.
void show(vtkActor* actor, std::initializer_list<vtkPolyData*> pieces, const double colour[3]) {
  vtkNew<vtkAppendPolyData> append;
  for (vtkPolyData* piece : pieces)
    if (piece) append->AddInputData(piece);
  const bool any = append->GetNumberOfInputConnections(0) > 0;
  actor->SetVisibility(any);
  if (!any) return;
  append->Update();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(append->GetOutput());
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(colour[0], colour[1], colour[2]);
  actor->GetProperty()->SetAmbient(0.35);
}
}  // namespace

GaugeMarkerDetail gaugeMarkerDetail(std::size_t gauges) {
  // A ball of theta x phi facets has about 2 theta (phi - 1) triangles, so about 1.5 theta^2
  // with phi = 3 theta / 4, and a post 2 x sides (sides ~ theta / 2 + 2).
  const double perGauge = double(kGaugeTriangleBudget) / double(std::max<std::size_t>(gauges, 1));
  const int theta = std::clamp(int(std::sqrt(perGauge / 1.5)), 3, 16);
  const int sides = std::clamp(theta / 2 + 2, 3, 10);
  // Past the coarsest ball and tube the posts are lines: under software rendering, thousands of
  // tall tubes cost each view more than the water surface does.
  const bool coarsest = perGauge < 1.5 * 9 + 2 * 3;
  return {theta, std::max(3, theta * 3 / 4), coarsest ? 0 : sides};
}

GaugeActors::GaugeActors(vtkRenderer* renderer) {
  gauges_->SetVisibility(false);
  transects_->SetVisibility(false);
  renderer->AddActor(gauges_);
  renderer->AddActor(transects_);
}

GaugeActors::~GaugeActors() = default;

void GaugeActors::set(const std::vector<GaugeSpec>& gauges,
                      const std::vector<TransectSpec>& transects, double extent,
                      std::uint64_t generation) {
  generation_ = generation;
  const double bottom = kPostBottomShare * extent, top = kPostTopShare * extent;
  const double wire = kWireShare * extent;
  // The posts as tubes and one ball glyphed onto every post's top: one actor, whose pipeline
  // runs a fixed number of filters however many gauges there are.
  const GaugeMarkerDetail detail = gaugeMarkerDetail(gauges.size());
  Segments posts;
  vtkNew<vtkPoints> tops;
  for (const GaugeSpec& g : gauges) {
    const double a[3] = {g.x, g.y, bottom}, b[3] = {g.x, g.y, top};
    posts.add(a, b);
    tops->InsertNextPoint(b);
  }
  vtkSmartPointer<vtkPolyData> postTubes, balls;
  if (!posts.empty()) {
    postTubes = posts.tubes(kTubeShare * extent, detail.sides);
    vtkNew<vtkSphereSource> ball;
    ball->SetRadius(kBallShare * extent);
    ball->SetThetaResolution(detail.theta);
    ball->SetPhiResolution(detail.phi);
    vtkNew<vtkPolyData> centres;
    centres->SetPoints(tops);
    vtkNew<vtkGlyph3D> glyphs;
    glyphs->SetInputData(centres);
    glyphs->SetSourceConnection(ball->GetOutputPort());
    glyphs->SetScaling(false);
    glyphs->SetOrient(false);
    glyphs->Update();
    balls = glyphs->GetOutput();
  }
  show(gauges_, {postTubes, balls}, kGaugeColour);
  Segments wires;
  for (const TransectSpec& t : transects) {
    const double a[3] = {t.x0, t.y0, wire}, b[3] = {t.x1, t.y1, wire};
    const double a0[3] = {t.x0, t.y0, bottom}, b0[3] = {t.x1, t.y1, bottom};
    wires.add(a, b);
    wires.add(a0, a);
    wires.add(b0, b);
  }
  vtkSmartPointer<vtkPolyData> wireTubes;
  if (!wires.empty()) wireTubes = wires.tubes(0.8 * kTubeShare * extent, 10);
  show(transects_, {wireTubes}, kTransectColour);
}

}  // namespace wb::gui
