#include "core/run/body_coupling.hpp"

namespace wb {

double coupleBodies(RigidBodies& bodies, Model& model, double dt, Field2D& scratch,
                    Field2D& shadow) {
  return coupleBodies(bodies, model, {model.eta(), model.velocityU(), model.velocityV()}, dt,
                      scratch, shadow);
}

double coupleBodies(RigidBodies& bodies, Model& model, const WaterSurface& water, double dt,
                    Field2D& scratch, Field2D& shadow) {
  bodies.advance(dt, water);
  bodies.stampDisplacement(scratch);
  const double added = model.addEta(scratch);
  bodies.clearStamped(scratch);
  bodies.stampShadow(shadow);
  model.dampUnderBodies(shadow, dt);
  return added;
}

}  // namespace wb
