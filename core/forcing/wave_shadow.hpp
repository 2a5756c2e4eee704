// The wave "shadow" of floating bodies (Jensen & Golias 2001: "for all grid elements touched by
// any object, we temporally increase the damping factor ... a place in which waves don't
// spread"): an extra damping rate c (1/s) per cell, applied by each model after its step as
// one implicit fractional step, x <- x / (1 + c dt), on the quantity that carries its waves.
#pragma once

#include "core/grid/field2d.hpp"

namespace wb {

// For a velocity (or discharge) stored per cell: u <- u / (1 + c dt). Volume is untouched.
void dampVelocity(const Field2D& rate, double dt, Field2D& velocity);

// For the increment r = h^n - h^{n-1} of a wave equation's three-level scheme (or any surface
// rate): r is damped toward its shadow-weighted mean m = sum(s r) / sum(s),
//   r <- r - s (r - m),  s = c dt / (1 + c dt),
// in place. sum(r) is kept, so the volume's rate of change stays what it was (a plain
// r <- r / (1 + c dt) under a body would make the volume drift).
void dampHeightRate(const Field2D& rate, double dt, Field2D& increment);

}  // namespace wb
