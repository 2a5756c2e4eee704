// Land above the rest level (docs/wet-dry.md, "Land above the rest level") in both
// shallow-water models: a lake at rest around an island whose ground stands 0.5 m above rest
// (negative rest depths), a wave that floods a beach's dry ground and drains from it,
// Thacker's planar oscillation in a paraboloid (the wet/dry line moving all round) and the
// run-up of a solitary wave on a plane beach (Synolakis 1987).
#include <cmath>
#include <sstream>

#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/verification/land_checks.hpp"
#include "models/verification/verification.hpp"

namespace wb {
namespace {

using namespace land_checks;

// 1000 steps of 1 s; surface, velocities and the water's volume may not move.
template <class M>
VerifyResult lakeAroundLandCase(const std::string& id) {
  Domain domain(Grid{32, 32, 1.0}, kG, 1.0);
  domain.setRestDepth(islandDepth());
  const LakeRun run = runLakeAtRest<M>(domain, Field2D(32, 32), 1.0, 1000);
  std::ostringstream d;
  d << "max(|eta - eta0| m, |u|, |v| m/s) after 1000 steps of 1 s around an island 0.5 m above "
       "rest (negative depths); max |volume drift| "
    << run.drift << " of the water";
  const bool passed = run.error <= 1e-6 && run.drift <= 1e-6;
  return {id, "lake at rest around land above rest", run.error, 1e-6, "m, m/s", passed, d.str()};
}

// The beach (land_checks.hpp) for 12 s: the measured value is the volume drift; the row
// passes only if dry ground floods and drains again with depth never negative.
template <class M>
VerifyResult beachCase(const std::string& id) {
  const BeachRun run = runBeach<M>(12.0);
  std::ostringstream d;
  d << "slope from 0.5 m below to 0.5 m above rest, 0.1 m hump; " << run.peakFlooded
    << " cells dry at rest flooded (> 1 mm) at once, then " << run.drainedAfter << "; min depth "
    << run.minDepth << " m; " << run.steps << " steps";
  return {
      id,     "beach floods and drains: volume drift", run.drift, 1e-6, "rel", floodsAndDrains(run),
      d.str()};
}

// Thacker's oscillation (land_checks.hpp) at 20 cells per metre over 3 periods, started from
// the analytic depth and velocity: the largest L1 depth error over the run, as a fraction of
// the bowl's depth scale h0 (mean over the wet disk); passes only if no depth went negative.
VerifyResult thackerCase() {
  const ThackerRun run = runThacker<SweSemiLagrangian>(20.0, 3.0);
  std::ostringstream d;
  d << "SWASHES 4.2.2: a 4 m square, h0 = 0.1 m, a = 1 m, eta = 0.5, 20 cells/m, 3 periods of "
    << Thacker().period() << " s in " << run.steps
    << " steps (auto dt); largest at t = " << run.maxAt << " s; at the end " << run.finalError
    << " (" << run.interior << " more than 2 cells inside the shoreline, " << run.shore
    << " near it); min depth " << run.minDepth << " m, max |volume drift| " << run.drift
    << " of the water";
  const bool passed = run.maxError <= kThackerTolerance && run.minDepth >= 0.0;
  return {"swe-semi-lagrangian",
          "Thacker's planar oscillation in a paraboloid: L1 / h0",
          run.maxError,
          kThackerTolerance,
          "rel",
          passed,
          d.str()};
}

// Synolakis's run-up law (land_checks.hpp) at 20 cells per metre and dt = dx / (2 sqrt(g d)):
// the run-up's relative error. swe-semi-lagrangian is judged (5 %: two cells of the beach's
// height, 0.0025 m each, plus the law's own approximation); swe-adi, started from rest with
// twice the wave (it has no initial velocity), is information.
template <class M>
VerifyResult runupCase(const std::string& id, bool judged) {
  const SolitaryRunup exact;
  const double dx = 0.05, dt = kRunupDtFraction * dx / std::sqrt(kG * exact.d);
  const RunupRun run = runRunup<M>(dx, kRunupDuration, dt);
  const double error = run.runup / exact.runup() - 1.0;
  std::ostringstream d;
  d << "H/d = " << exact.height << ", cot(beta) = " << exact.cotBeta << ", d = 1 m: run-up "
    << run.runup << " m at t = " << run.at
    << " s vs 2.831 sqrt(cot beta) (H/d)^(5/4) d = " << exact.runup() << " m; 20 cells/m, dt " << dt
    << " s, " << run.steps << " steps; min depth " << run.minDepth << " m, max |volume drift| "
    << run.drift << (judged ? "" : " (information: started from rest with twice the wave)");
  const bool sound = std::isfinite(run.runup) && run.minDepth >= 0.0 && run.drift <= 1e-5;
  const bool passed = sound && (!judged || std::fabs(error) <= kRunupTolerance);
  return {id,     "solitary wave run-up on a plane beach",
          error,  judged ? kRunupTolerance : 0.0,
          "rel",  passed,
          d.str()};
}

}  // namespace

std::vector<VerifyCase> landCases() {
  const std::string sl = "swe-semi-lagrangian", adi = "swe-adi";
  return {
      {sl, "lake around land", [=] { return lakeAroundLandCase<SweSemiLagrangian>(sl); }},
      {adi, "lake around land", [=] { return lakeAroundLandCase<SweAdi>(adi); }},
      {sl, "beach", [=] { return beachCase<SweSemiLagrangian>(sl); }},
      {adi, "beach", [=] { return beachCase<SweAdi>(adi); }},
      {sl, "thacker", [] { return thackerCase(); }},
      {sl, "runup", [=] { return runupCase<SweSemiLagrangian>(sl, true); }},
      {adi, "runup", [=] { return runupCase<SweAdi>(adi, false); }},
  };
}

}  // namespace wb
