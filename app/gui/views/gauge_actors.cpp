#include "app/gui/views/gauge_actors.hpp"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkLineSource.h>
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

void addSegment(vtkAppendPolyData* append, const double a[3], const double b[3]) {
  vtkNew<vtkLineSource> line;
  line->SetPoint1(a);
  line->SetPoint2(b);
  line->Update();
  append->AddInputData(line->GetOutput());
}

// The appended pieces as tubes (lines) in one mapper of the actor; hidden when empty.
void show(vtkActor* actor, vtkAppendPolyData* lines, vtkAppendPolyData* solids, double radius,
          const double colour[3]) {
  const bool any = lines->GetNumberOfInputConnections(0) > 0;
  actor->SetVisibility(any);
  if (!any) return;
  lines->Update();
  vtkNew<vtkTubeFilter> tubes;
  tubes->SetInputData(lines->GetOutput());
  tubes->SetRadius(radius);
  tubes->SetNumberOfSides(10);
  tubes->Update();
  solids->AddInputData(tubes->GetOutput());
  solids->Update();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(solids->GetOutput());
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(colour[0], colour[1], colour[2]);
  actor->GetProperty()->SetAmbient(0.35);
}
}  // namespace

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
  vtkNew<vtkAppendPolyData> gaugeLines, gaugeSolids;
  for (const GaugeSpec& g : gauges) {
    const double a[3] = {g.x, g.y, bottom}, b[3] = {g.x, g.y, top};
    addSegment(gaugeLines, a, b);
    vtkNew<vtkSphereSource> ball;
    ball->SetCenter(b);
    ball->SetRadius(kBallShare * extent);
    ball->SetThetaResolution(16);
    ball->SetPhiResolution(12);
    ball->Update();
    gaugeSolids->AddInputData(ball->GetOutput());
  }
  show(gauges_, gaugeLines, gaugeSolids, kTubeShare * extent, kGaugeColour);
  vtkNew<vtkAppendPolyData> transectLines, transectSolids;
  for (const TransectSpec& t : transects) {
    const double a[3] = {t.x0, t.y0, wire}, b[3] = {t.x1, t.y1, wire};
    const double a0[3] = {t.x0, t.y0, bottom}, b0[3] = {t.x1, t.y1, bottom};
    addSegment(transectLines, a, b);
    addSegment(transectLines, a0, a);
    addSegment(transectLines, b0, b);
  }
  show(transects_, transectLines, transectSolids, 0.8 * kTubeShare * extent, kTransectColour);
}

}  // namespace wb::gui
