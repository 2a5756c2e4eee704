// The buoyant rigid bodies in a 3-D view: one actor per body holding its shape's mesh (built
// once per comparison, in the body's frame), placed each frame by its pose alone (a user
// matrix from position and orientation): no filter runs and no buffer is rebuilt per frame.
// The water is drawn exaggerated in height (SurfaceScene::verticalScale); a body keeps its
// true shape and its true height relative to the water under it, so its waterline on the
// drawn surface is where the model floats it.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include <vtkSmartPointer.h>

#include "app/export/vti_writer.hpp"

class vtkActor;
class vtkRenderer;

namespace wb::gui {

struct BodyPose {
  std::array<double, 3> centre{};                   // m, z above the rest level
  std::array<double, 4> orientation{1.0, 0, 0, 0};  // unit quaternion (w, x, y, z)
  double waterUnder = 0.0;  // eta under the centre (m): the drawn water is exaggerated there
};

class BodyActors {
 public:
  explicit BodyActors(vtkRenderer* renderer) : renderer_(renderer) {}
  ~BodyActors();
  // One actor per mesh (none for null), replacing the actors of the last call; a call with
  // the set the actors were built from keeps them (a snapshot's meshes are shared until the
  // comparison or the body count changes).
  void setMeshes(std::shared_ptr<const std::vector<BodyMesh>> meshes);
  // Places body k at poses[k]; bodies without a pose, or with one that is not finite, are
  // hidden.
  void setPoses(const std::vector<BodyPose>& poses, double verticalScale);
  std::size_t size() const { return actors_.size(); }
  vtkActor* actor(std::size_t k) const;

 private:
  vtkRenderer* renderer_;
  std::vector<vtkSmartPointer<vtkActor>> actors_;
  std::shared_ptr<const std::vector<BodyMesh>> meshes_;  // the actors were built from these
};

}  // namespace wb::gui
