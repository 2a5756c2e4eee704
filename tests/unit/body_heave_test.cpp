// The heave of a long floating body on every model's water (core/forcing/rigid_bodies.hpp,
// core/forcing/body_displacement.cpp): dropped a few centimetres into still water it must
// settle, and the coupling must not feed energy into body and water. The same measurement is
// the verify case "buoyant long box settles" (models/verification/body_cases.cpp).
#include <gtest/gtest.h>

#include "models/verification/body_checks.hpp"

namespace wb {
namespace {

// The 3 x 0.8 x 0.35 box of density 350 released 4.75 cm above its rest into a closed pool
// (body_checks::longBoxDrop): after 6 s its heave amplitude over the last second is below 10%
// of that drop, and the energy of water and body never exceeds its start by more than 1%.
// Measured with the buoyancy's mean level taken from the water under the body (before the
// level of RigidBodies::levelShift), the heave doubled every two periods and the box left the
// water by 2.4 s, the energy 43 times its start.
TEST(BodyHeave, LongBoxDroppedIntoStillWaterSettlesInEveryModel) {
  for (const std::string id :
       {"damped-wave", "advected-wave", "swe-semi-lagrangian", "swe-adi", "fft-ocean"}) {
    const body_checks::Settling s = body_checks::settleLongBox(id);
    ASSERT_FALSE(s.failure) << id << ": " << *s.failure;
    EXPECT_LT(s.amplitude, 0.1 * s.drop) << id;
    EXPECT_LE(s.highestEnergy, 1.01 * s.initialEnergy) << id;
    EXPECT_LT(s.finalEnergy, s.initialEnergy) << id;
  }
}

}  // namespace
}  // namespace wb
