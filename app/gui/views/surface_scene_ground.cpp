// SurfaceScene built from the domain: which mesh cells are water, the land as raised blocks, and
// the floor following the rest depth (the per-frame water and colours: surface_scene.cpp).
#include <cmath>

#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include "app/gui/views/surface_scene.hpp"
#include "app/gui/views/surface_scene_parts.hpp"

namespace wb::gui {

using namespace scene;

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

}  // namespace wb::gui
