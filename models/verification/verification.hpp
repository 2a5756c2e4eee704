// Built-in analytic verification cases, shared by `wavebench-cli verify` and the test suite.
// Each case runs a model against an analytic solution or a derived bound and states the
// measured value, the tolerance and whether it passed.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace wb {

struct VerifyResult {
  std::string model;
  std::string name;
  double measured = 0.0;
  double tolerance = 0.0;  // pass when |measured| <= tolerance (or as `comparison` says)
  std::string unit;        // of measured and tolerance, e.g. "rel", "m^3", "s"
  bool passed = false;
  std::string detail;  // one line: what was measured against what
};

struct VerifyCase {
  std::string model;
  std::string name;
  std::function<VerifyResult()> run;
};

std::vector<VerifyCase> verificationCases();

// Each model's cases, registered by verificationCases().
std::vector<VerifyCase> dampedWaveCases();
std::vector<VerifyCase> advectedWaveCases();
std::vector<VerifyCase> sweSemiLagrangianCases();
// Wet/dry fronts of swe-semi-lagrangian (models/verification/swe_wet_dry_cases.cpp).
std::vector<VerifyCase> sweWetDryCases();
std::vector<VerifyCase> sweAdiCases();
// Tessendorf's FFT ocean in a walled basin (models/verification/fft_ocean_cases.cpp).
std::vector<VerifyCase> fftOceanCases();
// Open edges of every model (models/verification/open_edges_cases.cpp).
std::vector<VerifyCase> openEdgesCases();
// Buoyant rigid bodies on every model (models/verification/body_cases.cpp).
std::vector<VerifyCase> bodyCases();
// Land above the rest level in the shallow-water models (models/verification/land_cases.cpp).
std::vector<VerifyCase> landCases();
// Bottom friction by Manning's n in the shallow-water models
// (models/verification/manning_friction_cases.cpp).
std::vector<VerifyCase> manningFrictionCases();
// The wave models' local wave speed (models/verification/local_speed_cases.cpp).
std::vector<VerifyCase> localSpeedCases();
// A plane pulse at angleDegrees sent at open west and east edges (walls south and north),
// measured once it has been through the layers, against the same run with walls there and,
// when asked, against free space: the same run on a channel long enough that nothing comes
// back from its ends in the run's time.
struct OpenEdgeReflection {
  double energyOpen = 0.0, energyWall = 0.0;       // potential + kinetic (m^5/s^2)
  double volume0 = 0.0, volume = 0.0, sink = 0.0;  // of the open run (m^3)
  int steps = 0;
  // Potential energy of (open run - free-space run) on the cells inside the layers, over the
  // free-space run's potential energy on its whole channel; -1 when not measured. What the
  // edges send back, apart from what the model itself keeps in the water (diffusion, energy
  // still on its way), which the wall ratio counts too.
  double reflected = -1.0;
  double energyLeft() const { return energyOpen / energyWall; }
  double drift() const { return volume - volume0 - sink; }
};
enum class PulseReference { Walls, WallsAndFreeSpace };
// params: the model's parameters as text ({"neighbours", "4"}), the defaults otherwise.
OpenEdgeReflection measureOpenEdgeReflection(const std::string& modelId, double angleDegrees,
                                             const std::map<std::string, std::string>& params = {},
                                             PulseReference reference = PulseReference::Walls);
// The target: less than 0.1 % of the pulse's energy left behind.
inline constexpr double kOpenEdgeEnergyLeft = 1e-3;

// Incoming-wave edges (models/verification/incoming_edges_cases.cpp).
std::vector<VerifyCase> incomingEdgesCases();
// A solitary wave entering a flat channel through an incoming west edge, at gauges 30 to 120 m
// in at `time` (s), on cells of dx (m).
struct IncomingArrival {
  double error = 0.0;  // max |eta - eta_in(t - x / c)| over the gauges, over the amplitude
  double volume = 0.0, sink = 0.0;  // m^3: the volume now (0 at the start) and the sink
  double drift() const { return volume - sink; }
};
IncomingArrival measureIncomingArrival(const std::string& modelId, double dx, double time,
                                       const std::map<std::string, std::string>& params = {});
// A pulse sent from inside at the incoming edge while a sine enters: the potential energy of the
// difference from the sine alone, once the pulse has left, over the pulse's.
double measureIncomingReflection(const std::string& modelId,
                                 const std::map<std::string, std::string>& params = {});
// The parameters the incoming-edge checks run each model with: advected-wave at nu = 0 (with
// its default nu = 0.2 1/s waves longer than 200 m are overdamped, docs/open-edges.md, and the
// solitary wave is that long); swe-semi-lagrangian at dt = 0.1 s (c dt / dx = 0.31 at dx = 1 m),
// since at its automatic dt (4 times the explicit limit) its own first-order damping takes 25 %
// of the solitary wave's crest in 60 s, which is the scheme's, not the edge's (docs/open-edges.md).
std::map<std::string, std::string> incomingCheckParams(const std::string& modelId);
// Tolerances: of the arrival error (over a), of the volume in the channel against w c integral
// eta_in dt (relative), and of the energy a pulse leaves behind.
inline constexpr double kIncomingArrivalError = 0.02;
inline constexpr double kIncomingArrivalErrorImplicit = 0.05;
inline constexpr double kIncomingVolumeError = 0.03;
inline constexpr double kIncomingReflection = 1e-3;

}  // namespace wb
