#include "app/gui/views/body_actors.hpp"

#include <algorithm>
#include <cmath>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

namespace wb::gui {

namespace {
constexpr double kBodyColour[3] = {0.93, 0.62, 0.18};  // a crate's orange, apart from the water
}  // namespace

BodyActors::~BodyActors() = default;

vtkActor* BodyActors::actor(std::size_t k) const {
  return actors_[k];
}

void BodyActors::setMeshes(std::shared_ptr<const std::vector<BodyMesh>> meshes) {
  if (meshes == meshes_) return;
  meshes_ = std::move(meshes);
  for (auto& actor : actors_)
    renderer_->RemoveActor(actor);
  actors_.clear();
  if (!meshes_) return;
  for (const BodyMesh& mesh : *meshes_) {
    vtkNew<vtkPoints> points;
    for (const auto& v : mesh.vertices)
      points->InsertNextPoint(v.data());
    vtkNew<vtkCellArray> cells;
    for (const auto& t : mesh.triangles) {
      const vtkIdType ids[3] = {t[0], t[1], t[2]};
      cells->InsertNextCell(3, ids);
    }
    vtkNew<vtkPolyData> data;
    data->SetPoints(points);
    data->SetPolys(cells);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(data);
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(kBodyColour[0], kBodyColour[1], kBodyColour[2]);
    actor->SetVisibility(false);  // until it has a pose
    renderer_->AddActor(actor);
    actors_.push_back(actor);
  }
}

// The rotation matrix of the unit quaternion (w, x, y, z) and the drawn centre: the water
// under the body is drawn verticalScale times its height, the body keeps its height above it.
void BodyActors::setPoses(const std::vector<BodyPose>& poses, double verticalScale) {
  for (std::size_t k = 0; k < actors_.size(); ++k) {
    const BodyPose* p = k < poses.size() ? &poses[k] : nullptr;
    const double drawnZ = p ? p->centre[2] + (verticalScale - 1.0) * p->waterUnder : 0.0;
    // A pose that is not finite (the model blew up) would spoil the view's clipping range.
    const bool shown = p && std::isfinite(drawnZ) && std::isfinite(p->centre[0]) &&
                       std::isfinite(p->centre[1]) &&
                       std::all_of(p->orientation.begin(), p->orientation.end(),
                                   [](double q) { return std::isfinite(q); });
    actors_[k]->SetVisibility(shown);
    if (!shown) continue;
    const double w = p->orientation[0], x = p->orientation[1], y = p->orientation[2],
                 z = p->orientation[3];
    const double m[16] = {1 - 2 * (y * y + z * z),
                          2 * (x * y - w * z),
                          2 * (x * z + w * y),
                          p->centre[0],
                          2 * (x * y + w * z),
                          1 - 2 * (x * x + z * z),
                          2 * (y * z - w * x),
                          p->centre[1],
                          2 * (x * z - w * y),
                          2 * (y * z + w * x),
                          1 - 2 * (x * x + y * y),
                          drawnZ,
                          0,
                          0,
                          0,
                          1};
    vtkMatrix4x4* matrix = actors_[k]->GetUserMatrix();
    if (!matrix) {
      vtkNew<vtkMatrix4x4> created;
      actors_[k]->SetUserMatrix(created);
      matrix = created;
    }
    matrix->DeepCopy(m);
    matrix->Modified();
  }
}

}  // namespace wb::gui
