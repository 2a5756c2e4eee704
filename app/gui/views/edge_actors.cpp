#include "app/gui/views/edge_actors.hpp"

#include <algorithm>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include "app/gui/views/runs.hpp"
#include "core/grid/domain.hpp"

namespace wb::gui {

namespace {
constexpr double kRimColour[3] = {0.72, 0.72, 0.68};    // concrete
constexpr double kLayerColour[3] = {0.30, 0.60, 1.00};  // the domain editor's band, lighter
constexpr double kLineColour[3] = {0.05, 0.35, 0.95};
constexpr double kLayerOpacity = 0.35;
constexpr double kLineWidth = 3.0;
constexpr double kRimCells = 0.6;        // the rim's thickness, in cells, outside the grid
constexpr double kLineLift = 1.05;       // the inner line sits just above its band
constexpr double kEdgeRimShare = 0.004;  // at least this share of the extent thick

struct Mesh {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> cells;
  // A quad from its corners in order, as (x, y, z) triples.
  void quad(std::initializer_list<std::array<double, 3>> corners) {
    vtkIdType ids[4];
    int c = 0;
    for (const auto& p : corners)
      ids[c++] = points->InsertNextPoint(p.data());
    cells->InsertNextCell(4, ids);
  }
  void line(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    const vtkIdType ids[2] = {points->InsertNextPoint(a.data()), points->InsertNextPoint(b.data())};
    cells->InsertNextCell(2, ids);
  }
};

void show(vtkActor* actor, Mesh& mesh, bool lines) {
  vtkNew<vtkPolyData> data;
  data->SetPoints(mesh.points);
  if (lines)
    data->SetLines(mesh.cells);
  else
    data->SetPolys(mesh.cells);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(data);
  mapper->ScalarVisibilityOff();
  actor->SetMapper(mapper);
  actor->SetVisibility(mesh.cells->GetNumberOfCells() > 0);
}
}  // namespace

EdgeActors::EdgeActors() {
  rims_->GetProperty()->SetColor(kRimColour[0], kRimColour[1], kRimColour[2]);
  layers_->GetProperty()->SetColor(kLayerColour[0], kLayerColour[1], kLayerColour[2]);
  layers_->GetProperty()->SetOpacity(kLayerOpacity);
  // Drawn in the opaque pass, blended over the water drawn before it (the renderer adds it
  // last): a translucent pass (order-independent transparency, full-view buffers) would cost
  // a software renderer more than the whole water.
  layers_->ForceOpaqueOn();
  lines_->GetProperty()->SetColor(kLineColour[0], kLineColour[1], kLineColour[2]);
  lines_->GetProperty()->SetLineWidth(kLineWidth);
  lines_->GetProperty()->LightingOff();
}

EdgeActors::~EdgeActors() = default;

void EdgeActors::addTo(vtkRenderer* renderer) {
  renderer->AddActor(rims_);
  renderer->AddActor(lines_);
  renderer->AddActor(layers_);
}

// Each side in its own frame: `along` runs over the side's cells, `across` from the edge into
// the domain; place() maps (along, across, z) in metres to world (x, y, z).
void EdgeActors::build(const Domain& domain, double bottom, double top) {
  const Grid& grid = domain.grid();
  const Edges& edges = domain.edges();
  const double dx = grid.dx;
  const double rim =
      std::max(kRimCells * dx, kEdgeRimShare * std::max(grid.width(), grid.height()));
  Mesh rims, layers, lines;
  for (Side side : kSides) {
    const bool alongX = side == Side::South || side == Side::North;
    const int count = alongX ? grid.nx : grid.ny, depthCells = alongX ? grid.ny : grid.nx;
    const bool high = side == Side::East || side == Side::North;
    const double span = depthCells * dx;
    const auto place = [&](double along, double across, double z) -> std::array<double, 3> {
      const double d = high ? span - across : across;
      return alongX ? std::array{along, d, z} : std::array{d, along, z};
    };
    const auto wetAtEdge = [&](int k) {
      const int edgeCell = high ? depthCells - 1 : 0;
      return alongX ? domain.isWet(k, edgeCell) : domain.isWet(edgeCell, k);
    };
    // The bands of the sides along x leave the corners to the open sides along y.
    double lowCut = 0.0, highCut = count * dx;
    const double layer = std::min(edges.layerCells, depthCells) * dx;
    if (alongX) {
      if (edges.isOpen(Side::West)) lowCut = std::min(grid.nx, edges.layerCells) * dx;
      if (edges.isOpen(Side::East)) highCut -= std::min(grid.nx, edges.layerCells) * dx;
    }
    forEachRun(count, wetAtEdge, [&](int k, int end) {
      const double a0 = k * dx, a1 = end * dx;
      if (!edges.isOpen(side)) {
        // Outer face, top and inner face of a rim just outside the grid.
        rims.quad({place(a0, -rim, bottom), place(a1, -rim, bottom), place(a1, -rim, top),
                   place(a0, -rim, top)});
        rims.quad(
            {place(a0, -rim, top), place(a1, -rim, top), place(a1, 0.0, top), place(a0, 0.0, top)});
        rims.quad({place(a0, 0.0, bottom), place(a1, 0.0, bottom), place(a1, 0.0, top),
                   place(a0, 0.0, top)});
      } else {
        layers.quad({place(a0, 0.0, bottom), place(a1, 0.0, bottom), place(a1, 0.0, top),
                     place(a0, 0.0, top)});
        const double b0 = std::max(a0, lowCut), b1 = std::min(a1, highCut);
        if (b1 > b0)
          layers.quad({place(b0, 0.0, top), place(b1, 0.0, top), place(b1, layer, top),
                       place(b0, layer, top)});
        lines.line(place(a0, layer, kLineLift * top), place(a1, layer, kLineLift * top));
      }
    });
  }
  show(rims_, rims, false);
  show(layers_, layers, false);
  show(lines_, lines, true);
}

}  // namespace wb::gui
