#include "core/run/body_coupling.hpp"

namespace wb {

double coupleBodies(RigidBodies& bodies, Model& model, double dt, Field2D& scratch,
                    Field2D& shadow) {
  bodies.advance(dt, {model.eta(), model.velocityU(), model.velocityV()});
  bodies.stampDisplacement(scratch);
  const double added = model.addEta(scratch);
  bodies.clearStamped(scratch);
  bodies.stampShadow(shadow);
  model.dampUnderBodies(shadow, dt);
  return added;
}

}  // namespace wb
