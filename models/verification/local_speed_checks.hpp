// The wave models' local wave speed (speed = local, docs/models.md "Local wave speed") against
// long-wave theory, shared by the verification rows (local_speed_cases.cpp) and the tests that
// check each measurement fails on the mean-speed form (tests/unit/local_speed_test.cpp).
#pragma once

#include <string>

namespace wb {

// Lamb (Hydrodynamics, sect. 176): a long wave meeting a depth step from d1 to d2 sends on
// 2 c1 / (c1 + c2) and back (c1 - c2) / (c1 + c2) of its height.
struct DepthStepWaves {
  double incident = 0.0, transmitted = 0.0, reflected = 0.0;  // peak heights (m)
  double expectedTransmission = 0.0, expectedReflection = 0.0;
  double transmissionError() const;  // |measured / expected - 1|
  double reflectionError() const;
};
// A one-wavelength raised-cosine pulse of 20 cells per wavelength in the shallower water (40
// in the deeper, c2 = c1 / 2: d1 = 1 m, d2 = 0.25 m) along a channel, measured at gauges in
// both waters; `speed` is the model's speed parameter ("mean" or "local").
DepthStepWaves measureDepthStep(const std::string& modelId, const std::string& speed);

// Green's law: a long wave's height on a gentle slope grows as d^(-1/4). The ratio of the peak
// heights at the foot (0.25 m) and the top (1 m) of a 1:50 slope, over (1/4)^(-1/4) = sqrt(2).
double measureGreensLaw(const std::string& modelId, const std::string& speed);

}  // namespace wb

namespace wb {

// The harbour's coast (builtin:harbour's terrain, walls on every side) under `speed`, from a
// drop at rest, over `steps` steps without damping.
struct HarbourRun {
  double restMax = 0.0;       // max |eta| of the same run from a flat surface (lake at rest), m
  double volumeStep = 0.0;    // max per-step |dV - dV_prev| / sum|eta0| dA (as the volume rows)
  double volumeDrift = 0.0;   // max |V - V0| / sum|eta0| dA, the float sums' random walk
  double energyChange = 0.0;  // max |E - E1| / E1 of potential + kinetic, E1 after step 1
};
HarbourRun measureHarbour(const std::string& modelId, const std::string& speed, int steps);

}  // namespace wb
