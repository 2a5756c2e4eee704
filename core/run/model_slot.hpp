// One model of a Comparison and what the runner keeps for it, in named parts: the model and
// its failure, its volume budget, the timing of its steps, where its travelling window is
// (core/run/travelling_window.hpp), the bodies on its water, and the outputs of its frame.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/forcing/excitations.hpp"
#include "core/forcing/floating_bodies.hpp"
#include "core/forcing/rigid_bodies.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/measure/gauges.hpp"
#include "core/measure/max_map.hpp"
#include "core/model/model.hpp"
#include "core/ocean/ocean_layer.hpp"
#include "core/run/travelling_window.hpp"

namespace wb {

// The volume budget of one model's water (docs/architecture.md, "The volume budget"):
//   volume(t) = initial + sources + sink + displaced + masked + windowed + drift
// where sink is the model's own (Model::volumeSink) and drift is the model's error.
struct VolumeBudget {
  double initial = 0.0;    // m^3 at the start
  double sources = 0.0;    // drops, rain and wakes put in on purpose (m^3)
  double displaced = 0.0;  // volume the bodies pushed into the water (m^3)
  double masked = 0.0;     // volume mask strokes added (m^3)
  double windowed = 0.0;   // volume the window's re-centring added (m^3, < 0: took out)
  double drift(double volume, double sink) const {
    return volume - initial - sources - sink - displaced - masked - windowed;
  }
};

// The wall time of one model's steps: the step_ms, substeps and dt of its records, and the cost
// of its last frame, which orders the models of the next one (core/run/comparison.hpp).
struct StepTiming {
  double frameStepSeconds = 0.0;  // wall time of this frame's steps so far
  int frameSteps = 0;             // steps this frame so far
  double lastStepMs = 0.0;        // the last frame's mean step (ms)
  int lastSubsteps = 0;
  double lastDt = 0.0;
  double frameSeconds = 0.0;  // wall time of the last frame's work
  void startFrame() { frameStepSeconds = 0.0, frameSteps = 0; }
  void addStep(double seconds, double dt) {
    frameStepSeconds += seconds, ++frameSteps, lastDt = dt;
  }
  void endFrame() {
    lastStepMs = frameSteps > 0 ? 1e3 * frameStepSeconds / frameSteps : 0.0;
    lastSubsteps = frameSteps;
  }
};

// The bodies on one model's water (scenario "bodies") and what couples them to it.
struct SlotBodies {
  FloatingBodies tracers;
  RigidBodies rigid;
  Field2D shadow;  // the rigid bodies' extra damping rate per cell (1/s)
  // With an ocean: the sea at this model's own step times (one thread's copy of the
  // Comparison's, the same sea) and the water the bodies float on, eta and u, v with it.
  std::unique_ptr<OceanLayer> sea;
  Field2D eta, u, v;
  bool any() const { return tracers.size() > 0 || rigid.size() > 0; }
};

// The wind and stirs acting, and which entries make them: rebuilt only when that changes.
struct ForcingCache {
  std::optional<ForceField> field;
  std::optional<std::vector<int>> key;
};

struct ModelSlot {
  std::unique_ptr<Model> model;
  std::optional<std::string> failure;
  bool refused = false;  // failure is a refused edit, not a blow-up
  VolumeBudget budget;
  StepTiming timing;
  WindowOrigin window;  // the origin the model's state is at
  SlotBodies bodies;
  ForcingCache forcing;
  Field2D scratch;     // the excitations' stamps, per model so models run at once
  FrameRecord record;  // of the current frame
  Field2D surface;     // eta + the ocean's, with an ocean (Comparison::surface)
  std::vector<GaugeSample> gaugeSamples;  // since the last Comparison::takeGaugeSamples
  MaxMap maxMap;                          // empty unless Comparison::recordMaxMaps
  WindowedWater windowed() { return {*model, bodies.tracers, bodies.rigid}; }
};

}  // namespace wb
