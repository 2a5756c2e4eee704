#include "app/gui/views/surface_scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkFloatArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkIdTypeArray.h>
#include <vtkLookupTable.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLPolyDataMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTrivialProducer.h>
#include <vtkUnsignedCharArray.h>

namespace wb::gui {

namespace {
// Displayed heights are shares of the pool's larger extent, so every pool looks alike:
// a wave of the colour range's height rises this much, land and floor sit at these levels.
constexpr double kWaveHeightShare = 0.04;
constexpr double kLandHeightShare = 0.05;
constexpr double kFloorDepthShare = 0.08;
constexpr double kRimHeightShare = 0.025;  // wall rims and open layers' bands, above rest
constexpr int kFloorStrideFactor = 2;      // the floor mesh takes one water corner in this many
constexpr int kColourCount = 256;
constexpr double kBoxHeightShare = 0.5;  // box height relative to its edge
constexpr double kViewAngleDegrees = 30.0;
constexpr double kFitRadiusShare = 0.58;
// Seen from the south-west the pool is wider than tall: across, its corners reach this share
// of the extent from the centre (the diagonal's projection plus the near corners' perspective).
constexpr double kFitHalfWidthShare = 0.62;
// The colour bar with its labels takes this many pixels at the right of a view, any width.
constexpr int kColourBarPixels = 80;
constexpr int kColourBarMarginPixels = 6;
// The bar's title: right-aligned this share of the width from the view's right edge, just
// above the bar (which spans 0.06 to 0.48 of the height with its labels).
constexpr double kTitleMarginShare = 0.01;
constexpr double kColourTitleHeight = 0.50;
static_assert(SurfaceScene::kColourBarStripPixels == kColourBarPixels + 2 * kColourBarMarginPixels);

struct Rgb {
  double r, g, b;
};
constexpr Rgb kBackgroundBottom{0.10, 0.11, 0.14}, kBackgroundTop{0.34, 0.38, 0.45};
// Troughs deep blue, rest level mid blue, crests nearly white.
constexpr Rgb kTrough{0.02, 0.12, 0.42}, kRest{0.10, 0.45, 0.78}, kCrest{0.88, 0.96, 1.0};
// Signed differences: cool to warm with a light grey at zero (Moreland's map, as ParaView's).
constexpr Rgb kCool{0.23, 0.30, 0.75}, kNeutral{0.87, 0.87, 0.87}, kWarm{0.71, 0.02, 0.15};
constexpr Rgb kLand{0.45, 0.55, 0.30}, kBox{0.85, 0.25, 0.15}, kBody{0.95, 0.80, 0.20};
// The floor: shallow sand light, the deepest floor dark, so painted depth reads at a glance.
constexpr Rgb kShallowFloor{0.86, 0.80, 0.60}, kDeepFloor{0.36, 0.30, 0.22};

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

// Calls emit(first, end) for every run [first, end) of consecutive k in [0, n) with inRun(k).
template <class InRun, class Emit>
void forEachRun(int n, InRun inRun, Emit emit) {
  for (int k = 0; k < n;) {
    if (!inRun(k)) {
      ++k;
      continue;
    }
    int end = k + 1;
    while (end < n && inRun(end))
      ++end;
    emit(k, end);
    k = end;
  }
}

// The mesh's corner (I, J) lies on the fine grid's corner min(I * stride, n).
int fineCorner(int meshIndex, int stride, int n) {
  return std::min(meshIndex * stride, n);
}
}  // namespace

// The water's mapper, counting how often it rebuilds its index buffer (VTK rebuilds it when
// the state it keys the buffer on, the cells' MTime among others, has changed) and its
// vertex buffers, and keying the index buffer on the cells only.
class WaterMapper : public vtkOpenGLPolyDataMapper {
 public:
  static WaterMapper* New();
  vtkTypeMacro(WaterMapper, vtkOpenGLPolyDataMapper);
  int indexBuilds = 0;
  int vertexBuilds = 0;

 protected:
  void BuildBufferObjects(vtkRenderer* renderer, vtkActor* actor) override {
    ++vertexBuilds;
    vtkOpenGLPolyDataMapper::BuildBufferObjects(renderer, actor);
  }
  void BuildIBO(vtkRenderer* renderer, vtkActor* actor, vtkPolyData* poly) override {
    // VTK 9.1 appends the index buffer's key to TempState without clearing it first, so the
    // key also holds what BuildBufferObjects appended before (the polydata's MTime): every
    // new height would rebuild the index buffer. VTK fixed this later ("reset TempState
    // before building the IBO cache key"); this is that fix.
    this->TempState.Clear();
    vtkStateStorage before;  // copyable by assignment only
    before = this->IBOBuildState;
    vtkOpenGLPolyDataMapper::BuildIBO(renderer, actor, poly);
    if (this->IBOBuildState != before) ++indexBuilds;
  }
};
vtkStandardNewMacro(WaterMapper);

SurfaceScene::SurfaceScene(vtkCamera* sharedCamera) {
  renderer_->SetActiveCamera(sharedCamera);
  setGradientBackground(true);

  for (int k = 0; k < kColourCount; ++k) {
    const double t = double(k) / (kColourCount - 1);
    const Rgb c = t < 0.5 ? mix(kTrough, kRest, 2 * t) : mix(kRest, kCrest, 2 * t - 1);
    colours_->SetTableValue(k, c.r, c.g, c.b, 1.0);
  }
  colours_->SetNumberOfTableValues(kColourCount);
  for (int k = 0; k < kColourCount; ++k) {
    const double t = double(k) / (kColourCount - 1);
    const Rgb c = t < 0.5 ? mix(kCool, kNeutral, 2 * t) : mix(kNeutral, kWarm, 2 * t - 1);
    divergingColours_->SetTableValue(k, c.r, c.g, c.b, 1.0);
  }
  divergingColours_->SetNumberOfTableValues(kColourCount);

  for (int k = 0; k < kColourCount; ++k) {
    const Rgb c = mix(kShallowFloor, kDeepFloor, double(k) / (kColourCount - 1));
    floorColours_->SetTableValue(k, c.r, c.g, c.b, 1.0);
  }
  floorColours_->SetNumberOfTableValues(kColourCount);

  waterHeights_->SetName("eta");
  waterColourValues_->SetName("colour");
  waterNormals_->SetName("normals");
  waterNormals_->SetNumberOfComponents(3);
  waterPoints_->SetDataTypeToFloat();
  water_->SetPoints(waterPoints_);
  water_->GetPointData()->SetScalars(waterHeights_);
  water_->GetPointData()->SetNormals(waterNormals_);
  waterMapper_ = vtkSmartPointer<WaterMapper>::New();
  waterMapper_->SetInputData(water_);
  waterMapper_->SetLookupTable(colours_);
  waterMapper_->SetScalarModeToUsePointData();
  waterMapper_->ScalarVisibilityOn();
  waterActor_->SetMapper(waterMapper_);
  waterActor_->GetProperty()->SetSpecular(0.35);
  waterActor_->GetProperty()->SetSpecularPower(40.0);
  renderer_->AddActor(waterActor_);
  renderer_->AddActor(landActor_);
  renderer_->AddActor(floorActor_);
  edges_.addTo(renderer_);
  setUpBoxes();
  setUpTracerDots();

  colourBar_->SetLookupTable(colours_);
  // The bar's own title is centred over the bar and cut at the view's edge when it is wider
  // ("eta - swe-semi-lagrangian (m)"): a text actor right-aligned at the edge stands in for it.
  colourBar_->SetTitle("");
  colourBar_->SetNumberOfLabels(3);
  colourBar_->SetLabelFormat("%.3g");  // any range, from mm to km
  colourBar_->SetMaximumWidthInPixels(70);
  colourBar_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  colourBar_->SetHeight(0.42);
  fitToView(kColourBarPixels * 4, kColourBarPixels * 4);
  colourBar_->GetTitleTextProperty()->SetFontSize(12);
  colourBar_->GetLabelTextProperty()->SetFontSize(11);
  colourBar_->UnconstrainedFontSizeOn();
  renderer_->AddViewProp(colourBar_);
  colourTitle_->GetTextProperty()->SetFontSize(12);
  colourTitle_->GetTextProperty()->BoldOn();
  colourTitle_->GetTextProperty()->ItalicOn();
  colourTitle_->GetTextProperty()->SetJustificationToRight();
  colourTitle_->GetTextProperty()->SetVerticalJustificationToBottom();
  colourTitle_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  colourTitle_->GetPositionCoordinate()->SetValue(1.0 - kTitleMarginShare, kColourTitleHeight);
  setColourTitle("eta (m)");
  renderer_->AddViewProp(colourTitle_);

  caption_->GetTextProperty()->SetFontSize(14);
  caption_->GetTextProperty()->SetVerticalJustificationToTop();
  caption_->GetTextProperty()->SetFontFamilyToCourier();
  caption_->GetTextProperty()->BoldOn();
  caption_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  caption_->GetPositionCoordinate()->SetValue(0.02, 0.97);
  renderer_->AddViewProp(caption_);
}

SurfaceScene::~SurfaceScene() = default;

void SurfaceScene::setDomain(const Domain& domain, double etaRange, int meshStride,
                             double maxVerticalScale) {
  nx_ = domain.nx();
  ny_ = domain.ny();
  dx_ = domain.grid().dx;
  stride_ = std::max(1, meshStride);
  meshNx_ = (nx_ + stride_ - 1) / stride_ + 1;
  meshNy_ = (ny_ + stride_ - 1) / stride_ + 1;
  wet_ = domain.wetMask();
  const double extent = std::max(domain.grid().width(), domain.grid().height());
  colourRange_ = etaRange;
  verticalScale_ = std::min(kWaveHeightShare * extent / etaRange, maxVerticalScale);
  waterActor_->GetMapper()->SetScalarRange(-etaRange, etaRange);
  buildWaterCells(domain);
  buildLand(domain);
  buildFloor(domain);
  edges_.build(domain, -kFloorDepthShare * extent, kRimHeightShare * extent);
}

// A mesh cell is water when any grid cell it covers is wet (land blocks stand above it).
void SurfaceScene::buildWaterCells(const Domain& domain) {
  waterPoints_->SetNumberOfPoints(vtkIdType(meshNx_) * meshNy_);
  for (int J = 0; J < meshNy_; ++J)
    for (int I = 0; I < meshNx_; ++I)
      waterPoints_->SetPoint(vtkIdType(J) * meshNx_ + I, fineCorner(I, stride_, nx_) * dx_,
                             fineCorner(J, stride_, ny_) * dx_, 0.0);
  waterHeights_->SetNumberOfTuples(waterPoints_->GetNumberOfPoints());
  waterHeights_->Fill(0.0);
  waterColourValues_->SetNumberOfTuples(waterPoints_->GetNumberOfPoints());
  waterColourValues_->Fill(0.0);
  waterNormals_->SetNumberOfTuples(waterPoints_->GetNumberOfPoints());
  for (vtkIdType p = 0; p < waterNormals_->GetNumberOfTuples(); ++p)
    waterNormals_->SetTuple3(p, 0.0, 0.0, 1.0);
  vtkNew<vtkCellArray> cells;
  for (int J = 0; J + 1 < meshNy_; ++J)
    for (int I = 0; I + 1 < meshNx_; ++I) {
      bool wet = false;
      for (int j = J * stride_; j < std::min((J + 1) * stride_, ny_) && !wet; ++j)
        for (int i = I * stride_; i < std::min((I + 1) * stride_, nx_) && !wet; ++i)
          wet = domain.isWet(i, j);
      if (!wet) continue;
      // Two triangles per mesh cell, as the index buffer holds them.
      const vtkIdType corner = vtkIdType(J) * meshNx_ + I;
      const vtkIdType lower[3] = {corner, corner + 1, corner + meshNx_ + 1};
      const vtkIdType upper[3] = {corner, corner + meshNx_ + 1, corner + meshNx_};
      cells->InsertNextCell(3, lower);
      cells->InsertNextCell(3, upper);
    }
  water_->SetPolys(cells);
  water_->Modified();
}

// Solid cells as raised blocks: a top at the land level and a wall on every side that faces
// water or the edge of the grid, down to the floor. Neighbouring cells share one quad (runs
// along rows for tops and south/north walls, along columns for west/east walls): a software
// renderer pays per triangle, and a land mass drawn cell by cell costs more than the water.
void SurfaceScene::buildLand(const Domain& domain) {
  const double extent = std::max(domain.grid().width(), domain.grid().height());
  const double top = kLandHeightShare * extent, bottom = -kFloorDepthShare * extent;
  const auto solid = [&](int i, int j) { return !domain.isWet(i, j); };
  const auto open = [&](int i, int j) {  // water or outside the grid
    return i < 0 || j < 0 || i >= nx_ || j >= ny_ || domain.isWet(i, j);
  };
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> cells;
  for (int j = 0; j < ny_; ++j) {
    const double y0 = j * dx_, y1 = y0 + dx_;
    forEachRun(
        nx_, [&](int i) { return solid(i, j); },
        [&](int first, int end) {
          const double x0 = first * dx_, x1 = end * dx_;
          addQuad(points, cells, {{x0, y0, top}, {x1, y0, top}, {x1, y1, top}, {x0, y1, top}});
        });
    forEachRun(
        nx_, [&](int i) { return solid(i, j) && open(i, j - 1); },
        [&](int first, int end) {
          const double x0 = first * dx_, x1 = end * dx_;
          addQuad(points, cells,
                  {{x0, y0, bottom}, {x0, y0, top}, {x1, y0, top}, {x1, y0, bottom}});
        });
    forEachRun(
        nx_, [&](int i) { return solid(i, j) && open(i, j + 1); },
        [&](int first, int end) {
          const double x0 = first * dx_, x1 = end * dx_;
          addQuad(points, cells,
                  {{x0, y1, bottom}, {x1, y1, bottom}, {x1, y1, top}, {x0, y1, top}});
        });
  }
  for (int i = 0; i < nx_; ++i) {
    const double x0 = i * dx_, x1 = x0 + dx_;
    forEachRun(
        ny_, [&](int j) { return solid(i, j) && open(i - 1, j); },
        [&](int first, int end) {
          const double y0 = first * dx_, y1 = end * dx_;
          addQuad(points, cells,
                  {{x0, y0, bottom}, {x0, y1, bottom}, {x0, y1, top}, {x0, y0, top}});
        });
    forEachRun(
        ny_, [&](int j) { return solid(i, j) && open(i + 1, j); },
        [&](int first, int end) {
          const double y0 = first * dx_, y1 = end * dx_;
          addQuad(points, cells,
                  {{x1, y0, bottom}, {x1, y0, top}, {x1, y1, top}, {x1, y1, bottom}});
        });
  }
  vtkNew<vtkPolyData> land;
  land->SetPoints(points);
  land->SetPolys(cells);
  auto actor = polyActor(land, kLand);
  landActor_->SetMapper(actor->GetMapper());
  landActor_->GetProperty()->DeepCopy(actor->GetProperty());
}

// The floor follows the rest depth (painted bathymetry, terrain below sea level): the deepest
// wet cell sits at kFloorDepthShare of the extent below rest, a uniform pool is flat there.
// A corner takes the mean depth of the wet cells around it; under land it rises to rest.
void SurfaceScene::buildFloor(const Domain& domain) {
  const double extent = std::max(domain.grid().width(), domain.grid().height());
  const double maxDepth = std::max(domain.maxWetDepth(), Domain::kMinDepth);
  const double scale = kFloorDepthShare * extent / maxDepth;
  const Field2D& depth = domain.restDepth();
  // The floor lies under the water, smooth and still: half the water's corners per side.
  const int stride = kFloorStrideFactor * stride_;
  const int floorNx = (nx_ + stride - 1) / stride + 1, floorNy = (ny_ + stride - 1) / stride + 1;
  vtkNew<vtkPoints> points;
  vtkNew<vtkFloatArray> depths;
  depths->SetName("depth");
  for (int J = 0; J < floorNy; ++J)
    for (int I = 0; I < floorNx; ++I) {
      const int i = fineCorner(I, stride, nx_), j = fineCorner(J, stride, ny_);
      double sum = 0.0;
      int count = 0;
      for (int cj = j - 1; cj <= j; ++cj)
        for (int ci = i - 1; ci <= i; ++ci)
          if (ci >= 0 && cj >= 0 && ci < nx_ && cj < ny_ && domain.isWet(ci, cj)) {
            sum += depth(ci, cj);
            ++count;
          }
      const double d = count ? sum / count : 0.0;
      points->InsertNextPoint(i * dx_, j * dx_, -scale * d);
      depths->InsertNextValue(float(d));
    }
  vtkNew<vtkCellArray> cells;
  for (int J = 0; J + 1 < floorNy; ++J)
    for (int I = 0; I + 1 < floorNx; ++I) {
      const vtkIdType corner = vtkIdType(J) * floorNx + I;
      const vtkIdType ids[4] = {corner, corner + 1, corner + floorNx + 1, corner + floorNx};
      cells->InsertNextCell(4, ids);
    }
  vtkNew<vtkPolyData> floor;
  floor->SetPoints(points);
  floor->SetPolys(cells);
  floor->GetPointData()->SetScalars(depths);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(floor);
  mapper->SetLookupTable(floorColours_);
  mapper->SetScalarRange(0.0, maxDepth);
  mapper->SetScalarModeToUsePointData();
  mapper->ScalarVisibilityOn();
  floorActor_->SetMapper(mapper);
}

// eta lives at cell centres; a corner shows the mean of the wet cells around it.
double SurfaceScene::cornerEta(const Field2D& eta, int i, int j) const {
  double sum = 0.0;
  int count = 0;
  for (int cj = std::max(0, j - 1); cj <= std::min(j, ny_ - 1); ++cj)
    for (int ci = std::max(0, i - 1); ci <= std::min(i, nx_ - 1); ++ci)
      if (wet_[std::size_t(cj) * nx_ + ci] != 0) {
        sum += eta(ci, cj);
        ++count;
      }
  return count ? sum / count : 0.0;
}

void SurfaceScene::writeCorners(const Field2D& field, float* out) const {
  for (int J = 0; J < meshNy_; ++J)
    for (int I = 0; I < meshNx_; ++I)
      out[std::size_t(J) * meshNx_ + I] =
          float(cornerEta(field, fineCorner(I, stride_, nx_), fineCorner(J, stride_, ny_)));
}

// Heights, colours and normals are written into the arrays the mapper already holds; marking
// them Modified makes the mapper upload the vertex buffers and keep the index buffer. The
// scalars array is swapped only when the colours change between eta and another field.
void SurfaceScene::setEta(const Field2D& eta, const Field2D* colourValues) {
  if (eta.nx() != nx_ || eta.ny() != ny_) return;
  if (colourValues && (colourValues->nx() != nx_ || colourValues->ny() != ny_)) return;
  float* heights = waterHeights_->GetPointer(0);
  writeCorners(eta, heights);
  float* xyz = vtkFloatArray::SafeDownCast(waterPoints_->GetData())->GetPointer(0);
  const std::size_t corners = std::size_t(meshNx_) * meshNy_;
  for (std::size_t id = 0; id < corners; ++id)
    xyz[3 * id + 2] = float(heights[id] * verticalScale_);
  if (colourValues) writeCorners(*colourValues, waterColourValues_->GetPointer(0));
  if (colouredByHeights_ != (colourValues == nullptr)) {
    colouredByHeights_ = colourValues == nullptr;
    water_->GetPointData()->SetScalars(colouredByHeights_ ? waterHeights_.GetPointer()
                                                          : waterColourValues_.GetPointer());
  }
  updateWaterNormals();
  waterPoints_->Modified();
  waterHeights_->Modified();
  waterColourValues_->Modified();
  waterNormals_->Modified();
}

void SurfaceScene::setColourRange(double range) {
  if (!(range > 0.0) || range == colourRange_) return;
  colourRange_ = range;
  waterActor_->GetMapper()->SetScalarRange(-range, range);
}

void SurfaceScene::setDivergingColours(bool on) {
  if (on == diverging_) return;
  diverging_ = on;
  vtkLookupTable* table = on ? divergingColours_.GetPointer() : colours_.GetPointer();
  waterMapper_->SetLookupTable(table);
  colourBar_->SetLookupTable(table);
  // The mapper's scalar range is copied into the table it uses.
  waterMapper_->SetScalarRange(-colourRange_, colourRange_);
}

std::string SurfaceScene::colourTitle() const {
  return colourTitle_->GetInput() ? colourTitle_->GetInput() : "";
}

// The normal of the displayed surface z(x, y) by central differences on the mesh (one-sided
// at its edges): n = (-dz/dx, -dz/dy, 1) / |.|.
void SurfaceScene::updateWaterNormals() {
  const float* xyz = vtkFloatArray::SafeDownCast(waterPoints_->GetData())->GetPointer(0);
  float* normals = waterNormals_->GetPointer(0);
  const auto at = [&](int I, int J, int c) { return xyz[3 * (std::size_t(J) * meshNx_ + I) + c]; };
  for (int J = 0; J < meshNy_; ++J) {
    const int down = std::max(0, J - 1), up = std::min(meshNy_ - 1, J + 1);
    for (int I = 0; I < meshNx_; ++I) {
      const int left = std::max(0, I - 1), right = std::min(meshNx_ - 1, I + 1);
      const double dzdx = (at(right, J, 2) - at(left, J, 2)) / (at(right, J, 0) - at(left, J, 0));
      const double dzdy = (at(I, up, 2) - at(I, down, 2)) / (at(I, up, 1) - at(I, down, 1));
      const double norm = std::sqrt(dzdx * dzdx + dzdy * dzdy + 1.0);
      float* n = normals + 3 * (std::size_t(J) * meshNx_ + I);
      n[0] = float(-dzdx / norm);
      n[1] = float(-dzdy / norm);
      n[2] = float(1.0 / norm);
    }
  }
}

vtkPolyData* SurfaceScene::floorMesh() {
  return floorActor_->GetMapper() ? vtkPolyData::SafeDownCast(floorActor_->GetMapper()->GetInput())
                                  : nullptr;
}

int SurfaceScene::waterIndexBuilds() const {
  return waterMapper_->indexBuilds;
}
int SurfaceScene::waterVertexBuilds() const {
  return waterMapper_->vertexBuilds;
}
bool SurfaceScene::waterMapperReadsMesh() const {
  return vtkTrivialProducer::SafeDownCast(waterMapper_->GetInputAlgorithm()) != nullptr &&
         waterMapper_->GetInput() == water_.GetPointer();
}

void SurfaceScene::setCaption(const std::string& text, bool warning) {
  caption_->SetInput(text.c_str());
  if (warning)
    caption_->GetTextProperty()->SetColor(1.0, 0.65, 0.2);
  else
    caption_->GetTextProperty()->SetColor(0.95, 0.95, 0.95);
}

// A software renderer pays a full-view pass for the gradient (about a fifth of its frame with
// three views at 1600x1000): there the background is one colour, the gradient's middle.
void SurfaceScene::setGradientBackground(bool on) {
  renderer_->SetGradientBackground(on);
  if (on) {
    renderer_->SetBackground(kBackgroundBottom.r, kBackgroundBottom.g, kBackgroundBottom.b);
    renderer_->SetBackground2(kBackgroundTop.r, kBackgroundTop.g, kBackgroundTop.b);
  } else {
    const Rgb middle = mix(kBackgroundBottom, kBackgroundTop, 0.5);
    renderer_->SetBackground(middle.r, middle.g, middle.b);
  }
}

void SurfaceScene::fitToView(int width, int height) {
  if (width <= 0 || height <= 0) return;
  const double w = double(width);
  viewWidthPixels_ = width;
  colourBar_->GetPositionCoordinate()->SetValue(
      1.0 - (kColourBarPixels + kColourBarMarginPixels) / w, 0.06);
  colourBar_->SetWidth(kColourBarPixels / w);
}

void SurfaceScene::setColourTitle(const std::string& title) {
  colourTitle_->SetInput(title.c_str());
}

void SurfaceScene::setRigidBodies(const std::shared_ptr<const std::vector<BodyMesh>>& meshes,
                                  const std::vector<RigidBodyFrame>& bodies) {
  bodies_.setMeshes(meshes);
  std::vector<BodyPose> poses;
  for (const RigidBodyFrame& body : bodies)
    poses.push_back({body.centre, body.orientation, drawnEta(body.centre[0], body.centre[1])});
  bodies_.setPoses(poses, verticalScale_);
}

// The mesh cell around (x, y), then the triangle of it that holds the point: the lower one
// (corner, corner + 1, corner + meshNx_ + 1) below the diagonal, the upper one above.
double SurfaceScene::drawnEta(double x, double y) const {
  if (meshNx_ < 2 || meshNy_ < 2) return 0.0;
  const auto cellOf = [&](double coordinate, int corners, int n, double& share) {
    const int c = std::clamp(int(coordinate / (stride_ * dx_)), 0, corners - 2);
    const double lo = fineCorner(c, stride_, n) * dx_, hi = fineCorner(c + 1, stride_, n) * dx_;
    share = std::clamp((coordinate - lo) / (hi - lo), 0.0, 1.0);
    return c;
  };
  double s = 0.0, t = 0.0;
  const int I = cellOf(x, meshNx_, nx_, s), J = cellOf(y, meshNy_, ny_, t);
  const float* h = waterHeights_->GetPointer(0);
  const std::size_t c = std::size_t(J) * meshNx_ + I;
  const double h00 = h[c], h10 = h[c + 1], h01 = h[c + meshNx_], h11 = h[c + meshNx_ + 1];
  return s >= t ? h00 + s * (h10 - h00) + t * (h11 - h10) : h00 + t * (h01 - h00) + s * (h11 - h01);
}

// The glyph: a unit cube; per box a position (its centre), a scale (edge, half the edge across,
// kBoxHeightShare of it up), a rotation (tilt about x, then heading about z: vtkGlyph3DMapper
// applies z, x, y as vtkProp3D does) and a colour.
void SurfaceScene::setUpBoxes() {
  vtkNew<vtkPoints> points;
  boxes_->SetPoints(points);
  for (const auto& [name, components] : {std::pair{"scale", 3}, std::pair{"rotation", 3}}) {
    vtkNew<vtkFloatArray> array;
    array->SetName(name);
    array->SetNumberOfComponents(components);
    boxes_->GetPointData()->AddArray(array);
  }
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetName("colour");
  colours->SetNumberOfComponents(3);
  boxes_->GetPointData()->AddArray(colours);
  vtkNew<vtkCubeSource> cube;
  vtkNew<vtkGlyph3DMapper> mapper;
  mapper->SetInputData(boxes_);
  mapper->SetSourceConnection(cube->GetOutputPort());
  mapper->SetScaleArray("scale");
  mapper->SetScaleModeToScaleByVectorComponents();
  mapper->SetOrientationArray("rotation");
  mapper->SetOrientationModeToRotation();
  mapper->SetScalarModeToUsePointFieldData();
  mapper->SelectColorArray("colour");
  mapper->SetColorModeToDirectScalars();
  mapper->ScalarVisibilityOn();
  boxActor_->SetMapper(mapper);
  boxActor_->SetVisibility(false);
  renderer_->AddActor(boxActor_);
}

void SurfaceScene::setBoxes(const std::vector<BoxMarker>& boxes) {
  const auto count = vtkIdType(boxes.size());
  vtkPoints* points = boxes_->GetPoints();
  auto* scale = vtkFloatArray::SafeDownCast(boxes_->GetPointData()->GetArray("scale"));
  auto* rotation = vtkFloatArray::SafeDownCast(boxes_->GetPointData()->GetArray("rotation"));
  auto* colour = vtkUnsignedCharArray::SafeDownCast(boxes_->GetPointData()->GetArray("colour"));
  points->SetNumberOfPoints(count);
  scale->SetNumberOfTuples(count);
  rotation->SetNumberOfTuples(count);
  colour->SetNumberOfTuples(count);
  constexpr double kDegrees = 180.0 / M_PI;
  for (vtkIdType k = 0; k < count; ++k) {
    const BoxMarker& box = boxes[std::size_t(k)];
    const double height = box.size * kBoxHeightShare;
    points->SetPoint(k, box.x, box.y, box.z * verticalScale_ + 0.5 * height);
    scale->SetTypedTuple(
        k, std::array<float, 3>{float(box.size), float(box.size * 0.5), float(height)}.data());
    rotation->SetTypedTuple(
        k, std::array<float, 3>{float(box.tilt * kDegrees), 0.0f, float(box.heading * kDegrees)}
               .data());
    const Rgb& c = box.boat ? kBox : kBody;
    colour->SetTypedTuple(
        k, std::array<unsigned char, 3>{(unsigned char)(255 * c.r), (unsigned char)(255 * c.g),
                                        (unsigned char)(255 * c.b)}
               .data());
  }
  points->Modified();
  scale->Modified();
  rotation->Modified();
  colour->Modified();
  boxes_->Modified();
  boxActor_->SetVisibility(count > 0);
}

void SurfaceScene::setUpTracerDots() {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToFloat();
  dots_->SetPoints(points);
  dots_->SetVerts(vtkNew<vtkCellArray>());
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(dots_);
  mapper->ScalarVisibilityOff();
  dotActor_->SetMapper(mapper);
  dotActor_->GetProperty()->SetColor(kBody.r, kBody.g, kBody.b);
  dotActor_->GetProperty()->LightingOff();
  dotActor_->SetVisibility(false);
  renderer_->AddActor(dotActor_);
}

// A dot covers the pixels the box's edge spans at the camera's focal distance (at least one).
// No more dots are drawn than one per kPixelsPerTracerDot of the view: denser tracers overdraw
// pixels already drawn, and each point costs a software renderer about as much as its pixels.
// Then every stride-th tracer is drawn, the same ones every frame.
void SurfaceScene::setTracerDots(const std::vector<FloatingBody>& tracers, double size) {
  const int* viewSize = renderer_->GetSize();
  const auto budget = std::max<std::size_t>(
      kMinTracerDots, std::size_t(viewSize[0]) * std::size_t(viewSize[1]) / kPixelsPerTracerDot);
  dotStride_ = tracers.empty() ? 1 : (tracers.size() + budget - 1) / budget;
  const auto count = vtkIdType((tracers.size() + dotStride_ - 1) / dotStride_);
  dotActor_->SetVisibility(count > 0);
  if (count == 0) return;
  vtkPoints* points = dots_->GetPoints();
  points->SetNumberOfPoints(count);
  auto* xyz = vtkFloatArray::SafeDownCast(points->GetData())->GetPointer(0);
  for (vtkIdType k = 0; k < count; ++k) {
    const FloatingBody& tracer = tracers[std::size_t(k) * dotStride_];
    xyz[3 * k] = float(tracer.x), xyz[3 * k + 1] = float(tracer.y);
    xyz[3 * k + 2] = float(tracer.z * verticalScale_ + size * kBoxHeightShare);
  }
  points->Modified();
  vtkCellArray* verts = dots_->GetVerts();
  if (verts->GetNumberOfCells() != count) {
    vtkNew<vtkIdTypeArray> offsets, connectivity;
    offsets->SetNumberOfValues(count + 1);
    connectivity->SetNumberOfValues(count);
    for (vtkIdType k = 0; k <= count; ++k)
      offsets->SetValue(k, k);
    for (vtkIdType k = 0; k < count; ++k)
      connectivity->SetValue(k, k);
    verts->SetData(offsets, connectivity);
  }
  dots_->Modified();
  vtkCamera* camera = renderer_->GetActiveCamera();
  const double halfTan = std::tan(0.5 * camera->GetViewAngle() * M_PI / 180.0);
  const double pixelsPerMetre = viewSize[1] / (2.0 * camera->GetDistance() * halfTan);
  dotActor_->GetProperty()->SetPointSize(float(std::max(1.0, size * pixelsPerMetre)));
}

std::size_t SurfaceScene::tracerDotCount() const {
  return dotActor_->GetVisibility() ? std::size_t(dots_->GetNumberOfPoints()) : 0;
}

void SurfaceScene::resetCamera(double aspect, double framedShare) {
  if (nx_ == 0) return;
  const double w = nx_ * dx_, h = ny_ * dx_, extent = framedShare * std::max(w, h);
  // Far enough that the pool fits the view's height and the width the colour bar leaves
  // (the view angle is vertical; across, the half angle's tangent is halfTan * aspect).
  const double halfTan = std::tan(0.5 * kViewAngleDegrees * M_PI / 180.0);
  const double barShare = std::min(0.5, kColourBarStripPixels / viewWidthPixels_);
  const double usable = 1.0 - barShare;
  const double distance = std::max(kFitRadiusShare * extent / halfTan,
                                   kFitHalfWidthShare * extent / (halfTan * aspect * usable));
  const double direction[3] = {-0.25, -1.0, 1.1};  // from the south-west, above
  const double norm = std::sqrt(direction[0] * direction[0] + direction[1] * direction[1] +
                                direction[2] * direction[2]);
  // The pool's centre in the middle of the width left of the colour bar: camera and focal
  // point move together along the view's right, (1, -0.25, 0) normalised.
  const double shift = 0.5 * barShare * 2.0 * distance * halfTan * aspect;
  const double right[2] = {1.0 / std::hypot(1.0, 0.25), -0.25 / std::hypot(1.0, 0.25)};
  const double cx = 0.5 * w + shift * right[0], cy = 0.5 * h + shift * right[1];
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->SetViewAngle(kViewAngleDegrees);
  camera->SetFocalPoint(cx, cy, 0.0);
  camera->SetPosition(cx + distance * direction[0] / norm, cy + distance * direction[1] / norm,
                      distance * direction[2] / norm);
  camera->SetViewUp(0.0, 0.0, 1.0);
  renderer_->ResetCameraClippingRange();
}

}  // namespace wb::gui
