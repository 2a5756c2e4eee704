// Land above the rest level (docs/wet-dry.md, "Land above the rest level") in both
// shallow-water models: a lake at rest around an island whose ground stands 0.5 m above rest
// (negative rest depths), and a wave that floods a beach's dry ground and drains from it.
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

}  // namespace

std::vector<VerifyCase> landCases() {
  const std::string sl = "swe-semi-lagrangian", adi = "swe-adi";
  return {
      {sl, "lake around land", [=] { return lakeAroundLandCase<SweSemiLagrangian>(sl); }},
      {adi, "lake around land", [=] { return lakeAroundLandCase<SweAdi>(adi); }},
      {sl, "beach", [=] { return beachCase<SweSemiLagrangian>(sl); }},
      {adi, "beach", [=] { return beachCase<SweAdi>(adi); }},
  };
}

}  // namespace wb
