// Buoyant rigid bodies (core/forcing/rigid_bodies.hpp), coupled both ways with every model:
// Archimedes' draft, the volume budget, the heave period against the waterplane stiffness, on
// still water and on each model's responding water, and a long box that must settle.
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/run/comparison.hpp"
#include "models/registry.hpp"
#include "models/verification/body_checks.hpp"
#include "models/verification/verification.hpp"

namespace wb {

namespace {

constexpr double kDensity = 1000.0, kG = 9.81;
using body_checks::crate;
using body_checks::draftUnder;
using body_checks::kCrateHeight;
using body_checks::pool;

Comparison startOne(const Scenario& s, const std::string& id) {
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(createModel(id, "bodies"));
  Comparison run(s, std::move(models));
  run.setConcurrent(false);
  return run;
}

// Boxes of density 250, 500 and 750 dropped from 0.3 m; after 20 s the worst |draft -
// (rho_b / rho_w) h| relative to h.
VerifyResult archimedesCase(const std::string& id) {
  Scenario s = pool(true);
  for (const double density : {250.0, 500.0, 750.0})
    s.rigidBodies.push_back(crate(density, 4.0 + 4.0 * (density / 250.0 - 1.0), 8.0, 0.3));
  Comparison run = startOne(s, id);
  for (int f = 0; f < 20 * 60; ++f)
    run.advanceFrame();
  VerifyResult r{id, "buoyant boxes: Archimedes draft", 0.0, 0.01, "rel", false, ""};
  std::ostringstream detail;
  detail << "draft / height after 20 s for density 250, 500, 750:";
  for (const RigidBody& body : run.rigidBodies(0)->bodies()) {
    const double draft = draftUnder(run, body) / kCrateHeight;
    r.measured = std::max(r.measured, std::fabs(draft - body.spec.density / kDensity));
    detail << ' ' << draft;
  }
  detail << " (expected 0.25, 0.5, 0.75)";
  r.passed = !run.failure(0) && r.measured <= r.tolerance;
  r.detail = run.failure(0) ? *run.failure(0) : detail.str();
  return r;
}

// Two boxes dropped into a closed pool: the displaced term against the bodies' change of
// displaced volume, relative to their volume.
VerifyResult budgetCase(const std::string& id) {
  Scenario s = pool(false);
  s.rigidBodies.push_back(crate(500.0, 8.0, 8.0, 0.4));
  s.rigidBodies.push_back(crate(800.0, 5.0, 10.0, 0.2));
  const double bodiesVolume = 2 * kCrateHeight;
  Comparison run = startOne(s, id);
  const double volume0 = run.record(0).volume;
  const double displaced0 = run.rigidBodies(0)->displacedVolume();
  for (int f = 0; f < 3 * 60; ++f)
    run.advanceFrame();
  const FrameRecord record = run.record(0);
  const double displaced = run.rigidBodies(0)->displacedVolume() - displaced0;
  VerifyResult r{id, "buoyant boxes: displaced-volume budget", 0.0, 1e-6, "rel", false, ""};
  r.measured = std::fabs(record.volumeDisplaced - displaced) / bodiesVolume;
  r.passed = !run.failure(0) && r.measured <= r.tolerance;
  std::ostringstream detail;
  detail << "|displaced term - bodies' change| / bodies' volume after 3 s; the change " << displaced
         << " m^3, water volume change " << record.volume - volume0
         << " m^3, the model's own drift " << record.volumeDrift << " m^3";
  r.detail = run.failure(0) ? *run.failure(0) : detail.str();
  return r;
}

// Heave of a 1 m cube at half density released 2 cm low, without drag; the period from the
// upward crossings of its mean over 6 s, against T = 2 pi sqrt(m / (rho g A)) (no added mass:
// the force model has none). On still water the bound is judged; on a model's water the
// period and the decay per period are information (the water responds: radiated waves).
struct Heave {
  double period = 0.0, decay = 0.0;
};
Heave measureHeave(const std::string& id) {
  Scenario s = pool(true);
  BodySpec spec = crate(500.0, 8.0, 8.0, std::nullopt);
  spec.size = {1.0, 1.0, 1.0};
  spec.drag = spec.lift = 0.0;
  s.rigidBodies.push_back(spec);
  std::vector<double> times, heights;
  const double frameDt = 1.0 / 240.0;
  s.tick = s.frameDt = frameDt;
  if (id.empty()) {  // still water
    Domain domain(s.grid, kG, s.depth);
    Field2D eta(s.grid.nx, s.grid.ny);
    RigidBodies bodies(domain, kDensity);
    bodies.add(spec, 0, eta);
    spec.z = bodies.bodies()[0].position.z() - 0.02;
    RigidBodies released(domain, kDensity);
    released.add(spec, 0, eta);
    for (int k = 0; k < int(6.0 / frameDt); ++k) {
      released.advance(frameDt, {eta});
      times.push_back((k + 1) * frameDt);
      heights.push_back(released.bodies()[0].position.z() - (*spec.z + 0.02));
    }
  } else {
    Comparison resting = startOne(s, id);
    s.rigidBodies[0].z = resting.rigidBodies(0)->bodies()[0].position.z() - 0.02;
    const double rest = *s.rigidBodies[0].z + 0.02;
    Comparison run = startOne(s, id);
    for (int k = 0; k < int(6.0 / frameDt); ++k) {
      run.advanceFrame();
      times.push_back(run.time());
      heights.push_back(run.rigidBodies(0)->bodies()[0].position.z() - rest);
    }
  }
  std::vector<double> crossings, peaks;
  for (std::size_t k = 1; k < heights.size(); ++k) {
    if (heights[k - 1] < 0.0 && heights[k] >= 0.0)
      crossings.push_back(times[k - 1] + frameDt * heights[k - 1] / (heights[k - 1] - heights[k]));
    if (k + 1 < heights.size() && heights[k] < heights[k - 1] && heights[k] <= heights[k + 1])
      peaks.push_back(-heights[k]);
  }
  Heave h;
  if (crossings.size() >= 2)
    h.period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  if (peaks.size() >= 2 && peaks.front() > 0.0)
    h.decay = 1.0 - std::pow(peaks.back() / peaks.front(), 1.0 / double(peaks.size() - 1));
  return h;
}

VerifyResult heaveCase(const std::string& id) {
  const double expected = 2 * std::numbers::pi * std::sqrt(500.0 / (kDensity * kG * 1.0));
  const Heave h = measureHeave(id);
  const bool still = id.empty();
  VerifyResult r{still ? "bodies" : id,
                 still ? "heave period on still water" : "heave period on the model's water",
                 h.period / expected - 1.0,
                 still ? 0.005 : 0.0,
                 "rel",
                 false,
                 ""};
  r.passed = h.period > 0.0 && (!still || std::fabs(r.measured) <= r.tolerance);
  std::ostringstream detail;
  detail << "1 m cube at half density, released 2 cm low, no drag: period " << h.period
         << " s vs 2 pi sqrt(m / (rho g A)) = " << expected << " s; amplitude lost per period "
         << h.decay << (still ? "" : " (information: the water responds)");
  r.detail = detail.str();
  return r;
}

// The long box of body_checks::longBoxDrop released 4.75 cm above its rest: its heave
// amplitude over the last of 6 s relative to that drop (bound 0.1), and the energy of water and
// body never more than 1% above its start (the coupling creates none).
VerifyResult longBoxCase(const std::string& id) {
  const body_checks::Settling s = body_checks::settleLongBox(id);
  VerifyResult r{id, "buoyant long box settles", s.amplitude / s.drop, 0.1, "rel", false, ""};
  const double rise = s.highestEnergy / s.initialEnergy - 1.0;
  r.passed = !s.failure && r.measured <= r.tolerance && rise <= 0.01;
  std::ostringstream detail;
  detail << "3 x 0.8 x 0.35 box of density 350 dropped " << s.drop
         << " m: heave amplitude over 5-6 s / drop; energy of water + body: highest "
         << s.highestEnergy / s.initialEnergy << ", at 6 s " << s.finalEnergy / s.initialEnergy
         << " of its start (bound 1.01)";
  r.detail = s.failure ? *s.failure : detail.str();
  return r;
}

}  // namespace

std::vector<VerifyCase> bodyCases() {
  std::vector<VerifyCase> cases;
  cases.push_back({"bodies", "heave period on still water", [] { return heaveCase(""); }});
  for (const std::string id : {"damped-wave", "advected-wave", "swe-semi-lagrangian", "swe-adi"}) {
    cases.push_back({id, "buoyant boxes: Archimedes draft", [id] { return archimedesCase(id); }});
    cases.push_back(
        {id, "buoyant boxes: displaced-volume budget", [id] { return budgetCase(id); }});
    cases.push_back({id, "heave period on the model's water", [id] { return heaveCase(id); }});
    cases.push_back({id, "buoyant long box settles", [id] { return longBoxCase(id); }});
  }
  return cases;
}

}  // namespace wb
