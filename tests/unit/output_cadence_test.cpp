// Frames sample one simulation (core/run/comparison.hpp, docs/architecture.md "Time"): the same
// scenario written at frame_dt 1/60, 0.1 and 0.5 s gives bitwise the same fields, budgets and
// bodies at the output times the three share, for every model, with drops, rain, wind switched
// on and off, a stir, a towed hull, buoyant bodies (one thrown in mid-run), a mask stroke, open
// edges and a moving wet/dry front.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

namespace fs = std::filesystem;

// The state a run has at one output time: what series.csv, the dumps and bodies.csv show.
struct Sample {
  double time = 0.0;
  std::vector<Field2D> eta, u, v;
  std::vector<FrameRecord> records;
  std::vector<std::vector<double>> bodies;  // x, y, z, roll, pitch, yaw, vx, vy, vz per body
};

std::vector<double> bodyState(const Comparison& run, std::size_t k) {
  std::vector<double> state;
  if (const RigidBodies* bodies = run.rigidBodies(k))
    for (const RigidBody& body : bodies->bodies()) {
      const Eigen::Vector3d angles = body.rollPitchYaw();
      for (const Eigen::Vector3d& v : {body.position, angles, body.velocity})
        state.insert(state.end(), v.data(), v.data() + 3);
    }
  if (const FloatingBodies* tracers = run.bodies(k))
    for (const FloatingBody& box : tracers->bodies())
      state.insert(state.end(), {box.x, box.y, box.z, box.vx, box.vy});
  return state;
}

// Runs `text` with its frame_dt replaced by `frameDt` (written as in a saved file) and samples
// it every `every` seconds up to `until`.
std::vector<Sample> samples(std::string text, const std::string& frameDt, double every,
                            double until, const fs::path& baseDir = {}) {
  const auto at = text.find("FRAME_DT");
  text.replace(at, 8, frameDt);
  const Scenario scenario = parseScenarioText(text, "cadence.json", baseDir);
  Comparison run(scenario, createScenarioModels(scenario, {}, {}, false));
  std::vector<Sample> out;
  const int framesPerSample = int(std::lround(every / scenario.frameDt));
  const int frames = int(std::lround(until / scenario.frameDt));
  for (int f = 1; f <= frames; ++f) {
    run.advanceFrame();
    if (f % framesPerSample != 0) continue;
    Sample s;
    s.time = run.time();
    for (std::size_t k = 0; k < run.modelCount(); ++k) {
      EXPECT_FALSE(run.failure(k)) << *run.failure(k);
      const Model& model = run.model(k);
      s.eta.push_back(model.eta());
      s.u.push_back(model.velocityU() ? *model.velocityU() : Field2D());
      s.v.push_back(model.velocityV() ? *model.velocityV() : Field2D());
      s.records.push_back(run.record(k));
      s.bodies.push_back(bodyState(run, k));
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool sameField(const Field2D& a, const Field2D& b) {
  if (a.size() != b.size()) return false;
  // memcmp must not see the null data() of an empty field (models without velocities).
  return a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(*a.data())) == 0;
}

// Every frame_dt gives the 1/60 s run's samples to the bit.
void expectCadenceFree(const std::string& text, double every, double until,
                       const fs::path& baseDir = {}) {
  const auto reference = samples(text, "0.0166666666667", every, until, baseDir);
  ASSERT_EQ(reference.size(), std::size_t(std::lround(until / every)));
  for (const std::string frameDt : {"0.1", "0.5"}) {
    const auto other = samples(text, frameDt, every, until, baseDir);
    ASSERT_EQ(other.size(), reference.size());
    for (std::size_t s = 0; s < reference.size(); ++s) {
      const Sample &a = reference[s], &b = other[s];
      EXPECT_EQ(a.time, b.time);
      for (std::size_t k = 0; k < a.eta.size(); ++k) {
        const std::string& model = a.records[k].model;
        SCOPED_TRACE(model + " at t = " + std::to_string(a.time) + " s, frame_dt " + frameDt);
        EXPECT_TRUE(sameField(a.eta[k], b.eta[k])) << "eta differs";
        EXPECT_TRUE(sameField(a.u[k], b.u[k]) && sameField(a.v[k], b.v[k])) << "velocity";
        const FrameRecord &ra = a.records[k], &rb = b.records[k];
        EXPECT_EQ(ra.volume, rb.volume);
        EXPECT_EQ(ra.volumeDrift, rb.volumeDrift);
        EXPECT_EQ(ra.volumeSources, rb.volumeSources);
        EXPECT_EQ(ra.volumeDisplaced, rb.volumeDisplaced);
        EXPECT_EQ(ra.volumeSink, rb.volumeSink);
        EXPECT_EQ(ra.volumeMasked, rb.volumeMasked);
        EXPECT_EQ(ra.energyPotential, rb.energyPotential);
        // The wave models measure their kinetic energy by a solve to about 1e-6 relative
        // (core/measure/wave_energy.cpp), warm-started from the last frame's measurement: a
        // figure of the sampling, not of the state, which is equal to the bit above.
        EXPECT_NEAR(ra.energyKinetic, rb.energyKinetic, 1e-5 * std::fabs(ra.energyKinetic));
        EXPECT_EQ(a.bodies[k], b.bodies[k]) << "bodies differ";
      }
    }
  }
}

// A pool open to the west with everything a session can do in it.
const std::string kBusyPool = R"({
  "grid": {"nx": 48, "ny": 32, "dx": 0.1},
  "water": {"g": 9.81, "depth": 0.3},
  "domain": {"mask": "rect", "edges": {"west": "open"}},
  "initial": {"drops": [{"x": 1.2, "y": 1.6, "radius": 0.2, "amplitude": 0.02}]},
  "excitations": [
    {"type": "drop", "time": 0.05, "x": 3.3, "y": 1.0, "radius": 0.2, "amplitude": -0.02},
    {"type": "drop", "time": 0.337, "x": 2.0, "y": 2.2, "radius": 0.15, "amplitude": 0.015},
    {"type": "rain", "rate": 12, "radius": 0.12, "amplitude": -0.01, "start": 0.2, "end": 1.3},
    {"type": "wind", "direction": 30, "strength": 0.3, "start": 0.3, "end": 0.9},
    {"type": "stir", "time": 0.45, "x": 2.4, "y": 1.6, "radius": 0.3, "ax": 2.0, "ay": -1.0,
     "duration": 0.13},
    {"type": "boat", "x": 0.8, "y": 0.8, "path": [[4.0, 0.8], [4.0, 2.4]], "max_speed": 1.2,
     "wake_radius": 0.15, "wake_amplitude": -0.002},
    {"type": "body", "time": 0.7, "shape": "box", "size": [0.3, 0.3, 0.2], "density": 500,
     "x": 3.6, "y": 2.6},
    {"type": "mask", "time": 0.8, "solid": true, "dabs": [{"x": 2.45, "y": 0.35, "radius": 0.2}]}
  ],
  "bodies": [
    {"shape": "box", "size": [0.4, 0.3, 0.2], "density": 600, "x": 1.4, "y": 2.4},
    {"shape": "hull", "size": [0.6, 0.25, 0.15], "density": 350, "x": 0.5, "y": 0.8,
     "towed_by": 0}
  ],
  "models": {"damped-wave": {}, "advected-wave": {}, "swe-semi-lagrangian": {}, "swe-adi": {}},
  "frame_dt": FRAME_DT, "duration": 2.0, "seed": 7
})";

TEST(OutputCadence, BusyPoolIsTheSameSimulationAtEveryFrameDt) {
  expectCadenceFree(kBusyPool, 0.5, 1.5);
}

// fft-ocean needs the whole rectangle wet at one depth behind walls: drops, rain, tracers.
TEST(OutputCadence, FftOceanAndTracersAreTheSameAtEveryFrameDt) {
  expectCadenceFree(R"({
    "grid": {"nx": 32, "ny": 32, "dx": 0.1}, "water": {"g": 9.81, "depth": 0.4},
    "initial": {"drops": [{"x": 1.2, "y": 1.6, "radius": 0.2, "amplitude": 0.02}]},
    "excitations": [
      {"type": "drop", "time": 0.21, "x": 2.3, "y": 1.0, "radius": 0.2, "amplitude": -0.02},
      {"type": "rain", "rate": 10, "radius": 0.12, "amplitude": -0.01, "start": 0.1}],
    "bodies": {"count": 40, "size": 0.05},
    "models": {"fft-ocean": {}, "swe-semi-lagrangian": {}},
    "frame_dt": FRAME_DT, "duration": 2.0, "seed": 3})",
                    0.5, 1.5);
}

// A dam break onto a dry bed: the front moves every step, and swe-semi-lagrangian's automatic
// dt follows its Courant number.
TEST(OutputCadence, DryBedFrontIsTheSameAtEveryFrameDt) {
  const fs::path dir = fs::temp_directory_path() / "wavebench_cadence_front";
  fs::create_directories(dir);
  {
    std::ofstream eta(dir / "eta.csv");
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 160; ++i)
        eta << (i < 40 ? "0" : "-0.5") << (i + 1 < 160 ? "," : "\n");
  }
  expectCadenceFree(R"({
    "grid": {"nx": 160, "ny": 4, "dx": 0.05}, "water": {"g": 9.81, "depth": 0.5},
    "initial": {"eta": {"csv": "eta.csv"}},
    "models": {"swe-semi-lagrangian": {}, "swe-adi": {}},
    "frame_dt": FRAME_DT, "duration": 2.0})",
                    0.5, 1.5, dir);
  fs::remove_all(dir);
}

TEST(OutputCadence, BadTickOrFrameDtIsRefusedNamingTheKey) {
  const std::string text = R"({"grid": {"nx": 8, "ny": 8, "dx": 0.1}, "frame_dt": 0.025})";
  try {
    parseScenarioText(text, "s.json", {});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "s.json: frame_dt: 0.025 s is not a whole number of ticks of 0.0166667 s; use "
                 "a multiple of the tick or set \"tick\" (docs/scenario.md)");
  }
  for (const auto& [tick, why] : std::vector<std::pair<std::string, std::string>>{
           {"0", "s.json: tick: 0 is outside [1e-05, 60]"},
           {"-0.1", "s.json: tick: -0.1 is outside [1e-05, 60]"},
           {"\"nan\"", "s.json: tick: must be a number"},
           {"0.02",
            "s.json: frame_dt: 0.0166667 s is not a whole number of ticks of 0.02 s; use a "
            "multiple of the tick or set \"tick\" (docs/scenario.md)"}}) {
    const std::string bad = R"({"grid": {"nx": 8, "ny": 8, "dx": 0.1}, "tick": )" + tick + "}";
    try {
      parseScenarioText(bad, "s.json", {});
      ADD_FAILURE() << "tick " << tick << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), why);
    }
  }
  const std::string ticked = R"({"grid": {"nx": 8, "ny": 8, "dx": 0.1}, "tick": 0.005,
                                 "frame_dt": 0.025})";
  EXPECT_EQ(parseScenarioText(ticked, "s.json", {}).ticksPerFrame(), 5);
}

}  // namespace
}  // namespace wb
