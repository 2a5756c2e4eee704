// Verification rows of the wave models' local wave speed (speed = local): Lamb's depth step,
// Green's law, and the harbour's coast at rest, its volume and its energy
// (models/verification/local_speed_checks.hpp; docs/verification.md, "Local wave speed").
#include <algorithm>
#include <cmath>
#include <sstream>

#include "models/verification/local_speed_checks.hpp"
#include "models/verification/verification.hpp"

namespace wb {

namespace {

// Tolerances of the checks: Lamb's heights within 2 %, Green's law within 3 %; Snell's
// angle within 1 degree (20 cells per wavelength: the crest read to a tenth of a cell over 60
// rows, and the stencils' anisotropy moving c2 / c1 by parts in a thousand, are both far less).
constexpr double kStepTolerance = 0.02, kGreenTolerance = 0.03, kSnellToleranceDeg = 1.0;
constexpr int kSnellCells = 20;
constexpr int kHarbourSteps = 600;

VerifyResult relative(const std::string& model, const std::string& name, double measured,
                      double tolerance, const std::string& detail) {
  return {model, name, measured, tolerance, "rel", measured <= tolerance, detail};
}

std::vector<VerifyCase> casesOf(const std::string& model) {
  std::vector<VerifyCase> cases;
  cases.push_back({model, "depth step transmission (local)", [model] {
                     const DepthStepWaves w = measureDepthStep(model, "local");
                     std::ostringstream d;
                     d << "1 m -> 0.25 m, 20 cells per wavelength in the shallow water: "
                       << w.transmitted / w.incident << " of the incident height against Lamb's "
                       << w.expectedTransmission;
                     return relative(model, "depth step transmission (local)",
                                     w.transmissionError(), kStepTolerance, d.str());
                   }});
  cases.push_back({model, "depth step reflection (local)", [model] {
                     const DepthStepWaves w = measureDepthStep(model, "local");
                     std::ostringstream d;
                     d << "1 m -> 0.25 m: " << w.reflected / w.incident
                       << " of the incident height against Lamb's " << w.expectedReflection;
                     return relative(model, "depth step reflection (local)", w.reflectionError(),
                                     kStepTolerance, d.str());
                   }});
  cases.push_back({model, "Green's law on a 1:50 slope (local)", [model] {
                     const double ratio = measureGreensLaw(model, "local");
                     std::ostringstream d;
                     d << "peak height at 0.25 m over that at 1 m, over (1/4)^(-1/4): " << ratio;
                     return relative(model, "Green's law on a 1:50 slope (local)",
                                     std::fabs(ratio - 1.0), kGreenTolerance, d.str());
                   }});
  cases.push_back({model, "Snell's law at an oblique depth step (local)", [model] {
                     const Refraction r = measureRefraction(model, "local", 30.0, kSnellCells);
                     std::ostringstream d;
                     d << "1 m -> 0.25 m at " << r.incidentDeg << " deg, " << kSnellCells
                       << " cells per wavelength in the shallow water: the transmitted crest "
                       << "runs at " << r.measuredDeg << " deg against Snell's " << r.expectedDeg
                       << " deg";
                     return VerifyResult{model,
                                         "Snell's law at an oblique depth step (local)",
                                         std::fabs(r.error()),
                                         kSnellToleranceDeg,
                                         "deg",
                                         std::fabs(r.error()) <= kSnellToleranceDeg,
                                         d.str()};
                   }});
  cases.push_back(
      {model, "harbour coast at rest, volume, energy (local)", [model] {
         const HarbourRun r = measureHarbour(model, "local", kHarbourSteps);
         std::ostringstream d;
         d << kHarbourSteps << " steps on builtin:harbour's coast with walls: max |eta| "
           << r.restMax << " m from rest; from a drop, volume per step " << r.volumeStep
           << " (drift " << r.volumeDrift << ")"
           << " of sum|eta0| dA, energy change " << r.energyChange << " (no damping)";
         // The worst of the three, each against its own bound: rest exactly, volume
         // to round-off (1e-6 as the mean form's volume rows), energy to 1e-5.
         const double worst =
             std::max({r.restMax > 0.0 ? 1.0 : 0.0, r.volumeStep / 1e-6, r.energyChange / 1e-5});
         return VerifyResult{model,      "harbour coast at rest, volume, energy (local)",
                             worst,      1.0,
                             "of bound", worst <= 1.0,
                             d.str()};
       }});
  return cases;
}

}  // namespace

std::vector<VerifyCase> localSpeedCases() {
  std::vector<VerifyCase> cases = casesOf("damped-wave");
  const std::vector<VerifyCase> advected = casesOf("advected-wave");
  cases.insert(cases.end(), advected.begin(), advected.end());
  return cases;
}

}  // namespace wb
