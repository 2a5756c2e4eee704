// The workbench's frame pacing (app/gui/simulation/frame_pacing.hpp): plain C++, no Qt, so it is
// tested here with the headless tests.
#include <gtest/gtest.h>

#include "app/gui/simulation/frame_pacing.hpp"

namespace wb {
namespace {

TEST(FixedStepAccumulator, CarriesTheRemainderAndCapsTheBacklog) {
  FixedStepAccumulator clock(0.01, 5);
  EXPECT_EQ(clock.framesFor(0.025), 2);
  EXPECT_NEAR(clock.remainder(), 0.005, 1e-12);
  EXPECT_EQ(clock.framesFor(0.006), 1);
  EXPECT_EQ(clock.framesFor(1.0), 5);  // a stall does not make the simulation race
  EXPECT_EQ(clock.remainder(), 0.0);
}

}  // namespace
}  // namespace wb
