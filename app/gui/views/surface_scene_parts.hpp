// What the pieces of SurfaceScene share (surface_scene.cpp: the water, colours and camera;
// surface_scene_ground.cpp: the land, floor and water cells built from the domain): the
// displayed heights as shares of the pool's extent, the palette, and small VTK helpers.
#pragma once

#include <algorithm>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSmartPointer.h>

#include "app/gui/views/runs.hpp"
#include "app/gui/views/surface_scene.hpp"

namespace wb::gui::scene {
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

inline Rgb mix(const Rgb& a, const Rgb& b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

inline void addQuad(vtkPoints* points, vtkCellArray* cells, const double (&corners)[4][3]) {
  vtkIdType ids[4];
  for (int c = 0; c < 4; ++c)
    ids[c] = points->InsertNextPoint(corners[c]);
  cells->InsertNextCell(4, ids);
}

inline vtkSmartPointer<vtkActor> polyActor(vtkPolyData* data, const Rgb& colour) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(colour.r, colour.g, colour.b);
  return actor;
}

// The mesh's corner (I, J) lies on the fine grid's corner min(I * stride, n).
inline int fineCorner(int meshIndex, int stride, int n) {
  return std::min(meshIndex * stride, n);
}
}  // namespace wb::gui::scene
