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

namespace wb {

// Snell's law: a long plane wave crossing an oblique depth step from d1 to d2 turns so that
// sin(theta2) / sin(theta1) = c2 / c1, c = sqrt(g d), the angles from the step's normal (the
// crests' trace along the step moves at one speed on both sides).
struct Refraction {
  double incidentDeg = 0.0, expectedDeg = 0.0, measuredDeg = 0.0;
  double error() const { return measuredDeg - expectedDeg; }  // degrees
};
// A beam (a raised-cosine pulse of one wavelength along the ray, 14 wavelengths of flat crest
// across it with a wavelength of cosine taper at each end) crosses a step along y from 1 m to
// 0.25 m (c2 = c1 / 2) at `incidentDeg` to the step's normal, `cellsPerWavelength` cells per
// wavelength in the shallow water. The transmitted crest's direction is measured from its
// position on each grid row of a band 3 shallow wavelengths wide around the beam's centre,
// two shallow wavelengths past the step (the least-squares line through them). The beam is
// that wide because its ends bend the crest: what they send reaches a crest's peak from as far
// as sqrt(c t lambda) along it, about 4.5 wavelengths here; with 6 wavelengths of flat crest
// a narrower beam puts the band within that reach, and the reading then moves with the width.
Refraction measureRefraction(const std::string& modelId, const std::string& speed,
                             double incidentDeg, int cellsPerWavelength);

}  // namespace wb
