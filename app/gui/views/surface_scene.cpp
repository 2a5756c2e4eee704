#include "app/gui/views/surface_scene.hpp"

#include "app/gui/views/surface_scene_parts.hpp"

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

using namespace scene;

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
