#include "app/gui/views/surface_scene.hpp"

#include <algorithm>
#include <cmath>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkFloatArray.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

namespace wb::gui {

namespace {
// Displayed heights are shares of the pool's larger extent, so every pool looks alike:
// a wave of the colour range's height rises this much, land and floor sit at these levels.
constexpr double kWaveHeightShare = 0.04;
constexpr double kLandHeightShare = 0.05;
constexpr double kFloorDepthShare = 0.08;
constexpr int kColourCount = 256;
constexpr double kBoxHeightShare = 0.5;  // box height relative to its edge
constexpr double kViewAngleDegrees = 30.0;
constexpr double kFitRadiusShare = 0.58;

struct Rgb {
  double r, g, b;
};
// Troughs deep blue, rest level mid blue, crests nearly white.
constexpr Rgb kTrough{0.02, 0.12, 0.42}, kRest{0.10, 0.45, 0.78}, kCrest{0.88, 0.96, 1.0};
constexpr Rgb kLand{0.45, 0.55, 0.30}, kFloor{0.76, 0.70, 0.52}, kBox{0.85, 0.25, 0.15},
    kBody{0.95, 0.80, 0.20};

Rgb mix(const Rgb& a, const Rgb& b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

void addQuad(vtkPoints* points, vtkCellArray* cells, const double (&corners)[4][3]) {
  vtkIdType ids[4];
  for (int c = 0; c < 4; ++c)
    ids[c] = points->InsertNextPoint(corners[c]);
  cells->InsertNextCell(4, ids);
}

vtkSmartPointer<vtkActor> polyActor(vtkPolyData* data, const Rgb& colour) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(colour.r, colour.g, colour.b);
  return actor;
}
}  // namespace

SurfaceScene::SurfaceScene(vtkCamera* sharedCamera) {
  renderer_->SetActiveCamera(sharedCamera);
  renderer_->GradientBackgroundOn();
  renderer_->SetBackground(0.10, 0.11, 0.14);
  renderer_->SetBackground2(0.34, 0.38, 0.45);

  for (int k = 0; k < kColourCount; ++k) {
    const double t = double(k) / (kColourCount - 1);
    const Rgb c = t < 0.5 ? mix(kTrough, kRest, 2 * t) : mix(kRest, kCrest, 2 * t - 1);
    colours_->SetTableValue(k, c.r, c.g, c.b, 1.0);
  }
  colours_->SetNumberOfTableValues(kColourCount);

  waterHeights_->SetName("eta");
  water_->SetPoints(waterPoints_);
  water_->GetPointData()->SetScalars(waterHeights_);
  waterNormals_->SetInputData(water_);
  waterNormals_->SplittingOff();
  waterNormals_->ConsistencyOff();
  vtkNew<vtkPolyDataMapper> waterMapper;
  waterMapper->SetInputConnection(waterNormals_->GetOutputPort());
  waterMapper->SetLookupTable(colours_);
  waterMapper->SetScalarModeToUsePointData();
  waterMapper->ScalarVisibilityOn();
  waterActor_->SetMapper(waterMapper);
  waterActor_->GetProperty()->SetSpecular(0.35);
  waterActor_->GetProperty()->SetSpecularPower(40.0);
  renderer_->AddActor(waterActor_);
  renderer_->AddActor(landActor_);
  renderer_->AddActor(floorActor_);

  colourBar_->SetLookupTable(colours_);
  colourBar_->SetTitle("eta (m)");
  colourBar_->SetNumberOfLabels(3);
  colourBar_->SetLabelFormat("%+.3f");
  colourBar_->SetMaximumWidthInPixels(70);
  colourBar_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  colourBar_->GetPositionCoordinate()->SetValue(0.86, 0.06);
  colourBar_->SetWidth(0.12);
  colourBar_->SetHeight(0.42);
  colourBar_->GetTitleTextProperty()->SetFontSize(12);
  colourBar_->GetLabelTextProperty()->SetFontSize(11);
  colourBar_->UnconstrainedFontSizeOn();
  renderer_->AddViewProp(colourBar_);

  caption_->GetTextProperty()->SetFontSize(14);
  caption_->GetTextProperty()->SetVerticalJustificationToTop();
  caption_->GetTextProperty()->SetFontFamilyToCourier();
  caption_->GetTextProperty()->BoldOn();
  caption_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  caption_->GetPositionCoordinate()->SetValue(0.02, 0.97);
  renderer_->AddViewProp(caption_);
}

SurfaceScene::~SurfaceScene() = default;

void SurfaceScene::setDomain(const Domain& domain, double etaRange) {
  nx_ = domain.nx();
  ny_ = domain.ny();
  dx_ = domain.grid().dx;
  wet_ = domain.wetMask();
  const double extent = std::max(domain.grid().width(), domain.grid().height());
  verticalScale_ = kWaveHeightShare * extent / etaRange;
  waterActor_->GetMapper()->SetScalarRange(-etaRange, etaRange);
  buildWaterCells(domain);
  buildLand(domain);
  buildFloor(domain);
}

void SurfaceScene::buildWaterCells(const Domain& domain) {
  waterPoints_->SetNumberOfPoints(vtkIdType(nx_ + 1) * (ny_ + 1));
  for (int j = 0; j <= ny_; ++j)
    for (int i = 0; i <= nx_; ++i)
      waterPoints_->SetPoint(vtkIdType(j) * (nx_ + 1) + i, i * dx_, j * dx_, 0.0);
  waterHeights_->SetNumberOfTuples(waterPoints_->GetNumberOfPoints());
  waterHeights_->Fill(0.0);
  vtkNew<vtkCellArray> cells;
  for (int j = 0; j < ny_; ++j)
    for (int i = 0; i < nx_; ++i) {
      if (!domain.isWet(i, j)) continue;
      const vtkIdType corner = vtkIdType(j) * (nx_ + 1) + i;
      const vtkIdType ids[4] = {corner, corner + 1, corner + nx_ + 2, corner + nx_ + 1};
      cells->InsertNextCell(4, ids);
    }
  water_->SetPolys(cells);
  water_->Modified();
}

// Solid cells as raised blocks: a top at the land level and a wall on every side that faces
// water or the edge of the grid, down to the floor.
void SurfaceScene::buildLand(const Domain& domain) {
  const double extent = std::max(domain.grid().width(), domain.grid().height());
  const double top = kLandHeightShare * extent, bottom = -kFloorDepthShare * extent;
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> cells;
  for (int j = 0; j < ny_; ++j)
    for (int i = 0; i < nx_; ++i) {
      if (domain.isWet(i, j)) continue;
      const double x0 = i * dx_, x1 = x0 + dx_, y0 = j * dx_, y1 = y0 + dx_;
      addQuad(points, cells, {{x0, y0, top}, {x1, y0, top}, {x1, y1, top}, {x0, y1, top}});
      const auto faces = [&](int di, int dj) {
        const int ni = i + di, nj = j + dj;
        return ni < 0 || nj < 0 || ni >= nx_ || nj >= ny_ || domain.isWet(ni, nj);
      };
      if (faces(-1, 0))
        addQuad(points, cells, {{x0, y0, bottom}, {x0, y1, bottom}, {x0, y1, top}, {x0, y0, top}});
      if (faces(1, 0))
        addQuad(points, cells, {{x1, y0, bottom}, {x1, y0, top}, {x1, y1, top}, {x1, y1, bottom}});
      if (faces(0, -1))
        addQuad(points, cells, {{x0, y0, bottom}, {x0, y0, top}, {x1, y0, top}, {x1, y0, bottom}});
      if (faces(0, 1))
        addQuad(points, cells, {{x0, y1, bottom}, {x1, y1, bottom}, {x1, y1, top}, {x0, y1, top}});
    }
  vtkNew<vtkPolyData> land;
  land->SetPoints(points);
  land->SetPolys(cells);
  auto actor = polyActor(land, kLand);
  landActor_->SetMapper(actor->GetMapper());
  landActor_->GetProperty()->DeepCopy(actor->GetProperty());
}

void SurfaceScene::buildFloor(const Domain& domain) {
  const double extent = std::max(domain.grid().width(), domain.grid().height());
  const double z = -kFloorDepthShare * extent;
  const double w = domain.grid().width(), h = domain.grid().height();
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> cells;
  addQuad(points, cells, {{0, 0, z}, {w, 0, z}, {w, h, z}, {0, h, z}});
  vtkNew<vtkPolyData> floor;
  floor->SetPoints(points);
  floor->SetPolys(cells);
  auto actor = polyActor(floor, kFloor);
  floorActor_->SetMapper(actor->GetMapper());
  floorActor_->GetProperty()->DeepCopy(actor->GetProperty());
}

// eta lives at cell centres; a corner shows the mean of the wet cells around it.
void SurfaceScene::setEta(const Field2D& eta) {
  if (eta.nx() != nx_ || eta.ny() != ny_) return;
  const auto wetAt = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < nx_ && j < ny_ && wet_[std::size_t(j) * nx_ + i] != 0;
  };
  float* heights = waterHeights_->GetPointer(0);
  for (int j = 0; j <= ny_; ++j)
    for (int i = 0; i <= nx_; ++i) {
      double sum = 0.0;
      int count = 0;
      for (int dj = -1; dj <= 0; ++dj)
        for (int di = -1; di <= 0; ++di)
          if (wetAt(i + di, j + dj)) {
            sum += eta(i + di, j + dj);
            ++count;
          }
      const double value = count ? sum / count : 0.0;
      const vtkIdType id = vtkIdType(j) * (nx_ + 1) + i;
      heights[id] = float(value);
      waterPoints_->SetPoint(id, i * dx_, j * dx_, value * verticalScale_);
    }
  waterPoints_->Modified();
  waterHeights_->Modified();
  water_->Modified();
}

void SurfaceScene::setCaption(const std::string& text, bool warning) {
  caption_->SetInput(text.c_str());
  if (warning)
    caption_->GetTextProperty()->SetColor(1.0, 0.65, 0.2);
  else
    caption_->GetTextProperty()->SetColor(0.95, 0.95, 0.95);
}

void SurfaceScene::setColourTitle(const std::string& title) {
  colourBar_->SetTitle(title.c_str());
}

void SurfaceScene::setBoxes(const std::vector<BoxMarker>& boxes) {
  while (boxActors_.size() < boxes.size()) {
    vtkNew<vtkCubeSource> cube;
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(cube->GetOutputPort());
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(kBox.r, kBox.g, kBox.b);
    renderer_->AddActor(actor);
    boxActors_.push_back(actor);
  }
  for (std::size_t k = 0; k < boxActors_.size(); ++k) {
    boxActors_[k]->SetVisibility(k < boxes.size());
    if (k >= boxes.size()) continue;
    const BoxMarker& box = boxes[k];
    vtkActor* actor = boxActors_[k];
    actor->SetOrientation(0.0, 0.0, 0.0);
    actor->SetScale(box.size, box.size * 0.5, box.size * kBoxHeightShare);
    actor->RotateX(box.tilt * 180.0 / M_PI);
    actor->RotateZ(box.heading * 180.0 / M_PI);
    actor->SetPosition(box.x, box.y, box.z * verticalScale_ + 0.5 * box.size * kBoxHeightShare);
    const Rgb& colour = box.boat ? kBox : kBody;
    actor->GetProperty()->SetColor(colour.r, colour.g, colour.b);
  }
}

void SurfaceScene::resetCamera(double aspect) {
  if (nx_ == 0) return;
  const double w = nx_ * dx_, h = ny_ * dx_, extent = std::max(w, h);
  // Far enough that a circle of kFitRadiusShare * extent fits the narrower field of view.
  const double halfTan = std::tan(0.5 * kViewAngleDegrees * M_PI / 180.0);
  const double distance = kFitRadiusShare * extent / (halfTan * std::min(1.0, aspect));
  const double direction[3] = {-0.25, -1.0, 1.1};  // from the south-west, above
  const double norm = std::sqrt(direction[0] * direction[0] + direction[1] * direction[1] +
                                direction[2] * direction[2]);
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->SetViewAngle(kViewAngleDegrees);
  camera->SetFocalPoint(0.5 * w, 0.5 * h, 0.0);
  camera->SetPosition(0.5 * w + distance * direction[0] / norm,
                      0.5 * h + distance * direction[1] / norm, distance * direction[2] / norm);
  camera->SetViewUp(0.0, 0.0, 1.0);
  renderer_->ResetCameraClippingRange();
}

}  // namespace wb::gui
