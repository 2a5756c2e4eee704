// One substep of the two-way coupling between buoyant bodies and a model's water (Jensen &
// Golias 2001, core/forcing/rigid_bodies.hpp): after the model's step of dt the bodies move on
// the water, their change of displaced volume is pushed into it, and the water under them is
// damped (the wave shadow, core/forcing/wave_shadow.hpp). `scratch` is a zero field on the
// grid (left zero); `shadow` receives the damping rates. Returns the volume added (m^3).
#pragma once

#include "core/forcing/rigid_bodies.hpp"
#include "core/model/model.hpp"

namespace wb {

// The bodies float on the model's own surface and velocity.
double coupleBodies(RigidBodies& bodies, Model& model, double dt, Field2D& scratch,
                    Field2D& shadow);
// The bodies float on `water` (the model's surface with an ocean under it,
// core/ocean/ocean_layer.hpp); what they push back goes into the model's own surface.
double coupleBodies(RigidBodies& bodies, Model& model, const WaterSurface& water, double dt,
                    Field2D& scratch, Field2D& shadow);

}  // namespace wb
