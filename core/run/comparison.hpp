// The Comparison runner owns time: every model advances the same simulated time per frame,
// each with its own stable substep, and receives the same excitations at the same simulated
// times from one seeded stream (docs/architecture.md, how a step flows).
//
// Time is counted in ticks (Scenario::tick): every model reaches each tick boundary in steps
// its own rules choose, re-evaluated after every step, and a frame is a whole number of ticks.
// So frames sample one simulation: the step sequence, and with it every field, budget and
// body, is the same for any frame_dt (tests/unit/output_cadence_test.cpp).
//
// Sharing the cores: with several models and several OpenMP threads, the models advance
// concurrently, each on one thread (the most expensive first, by the last frame's cost), and
// each measures its own record on that thread: a model's passes over a grid of a few MB scale
// poorly past one core on a shared machine, and its serial parts (solver set-up, coarse
// levels, reductions) would idle the other cores. A model always runs on one thread then, so
// the results do not depend on which thread it lands on: they are bitwise those of the serial
// order with one thread (tests/unit/core_test.cpp). With fewer models than threads (a thread
// would idle), or one thread, the models run one after another on all threads.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/forcing/excitations.hpp"
#include "core/forcing/floating_bodies.hpp"
#include "core/forcing/rigid_bodies.hpp"
#include "core/grid/domain.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/measure/references.hpp"
#include "core/model/model.hpp"
#include "core/ocean/ocean_layer.hpp"
#include "core/run/model_slot.hpp"
#include "core/run/travelling_window.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {

class Comparison {
 public:
  // Builds the domain and the initial state from the scenario, applies the scenario's
  // per-model parameters (then `overrides`, already applied by the caller, win) and resets
  // every model. Throws InputError for unusable input.
  Comparison(const Scenario& scenario, std::vector<std::unique_ptr<Model>> models);

  const Scenario& scenario() const { return scenario_; }
  const Domain& domain() const { return *domain_; }
  // The scenario's exact solution, or null.
  const Reference* reference() const { return reference_ ? &*reference_ : nullptr; }
  Excitations& excitations() { return *excitations_; }
  int frame() const { return frame_; }
  // The simulated time of the current state: a whole number of ticks.
  double time() const { return tickTime(ticks_); }

  // The travelling window (scenario "ocean.window", core/run/travelling_window.hpp): the point
  // at (x, y) of the grid lies at (x, y) + windowOrigin() on the open sea, where excitations and
  // bodies were placed; (0, 0) without a window. The same for every model, a whole number of
  // cells, moved when a tick starts.
  std::array<double, 2> windowOrigin() const {
    return window_ ? window_->originMetres() : std::array<double, 2>{0.0, 0.0};
  }
  // The boat the window follows (an index of excitations().boats()), if the scenario has one.
  std::optional<std::size_t> windowBoat() const {
    return window_ ? std::optional<std::size_t>(window_->boat()) : std::nullopt;
  }

  // The open sea under every model (scenario "ocean", core/ocean/ocean_layer.hpp), or null.
  const OceanLayer* ocean() const { return ocean_.get(); }
  // What model k shows and every output records: its own surface, plus the ocean's where the
  // scenario has one (evaluated once per frame; the budgets and energies stay the model's).
  const Field2D& surface(std::size_t k) const { return shownSurface(slots_[k]); }

  std::size_t modelCount() const { return slots_.size(); }
  Model& model(std::size_t k) { return *slots_[k].model; }
  const Model& model(std::size_t k) const { return *slots_[k].model; }
  // Set when the model blew up or refused an edit its method cannot hold; it is no longer
  // advanced.
  const std::optional<std::string>& failure(std::size_t k) const { return slots_[k].failure; }
  // Whether the model was stopped because it refused an edit (bad input for its method),
  // not because it blew up.
  bool refused(std::size_t k) const { return slots_[k].refused; }
  bool anyFailed() const;
  // What a user should know before the run, one line each (a model's own dt longer than the
  // tick, which bounds every step).
  const std::vector<std::string>& notes() const { return notes_; }
  // The floating boxes on model k's water (scenario "bodies"), advanced after every substep
  // with that model's velocity (or surface, core/forcing/floating_bodies.hpp); nullptr when the
  // scenario has none.
  const FloatingBodies* bodies(std::size_t k) const;
  // The buoyant bodies on model k's water (scenario "bodies": [...]), coupled both ways after
  // every substep (core/forcing/rigid_bodies.hpp); nullptr when the scenario has none.
  const RigidBodies* rigidBodies(std::size_t k) const;
  // Adds a buoyant body to every model's water now (a click in the workbench); its index in
  // error messages is the number of bodies before it. Throws InputError for a bad spec.
  void addRigidBody(const BodySpec& spec);

  // Changes the mask of every model's water now (a mask stroke of the session, applied by
  // advanceFrame at its time): the stroke's cells become solid, or water again where the
  // scenario's domain without its mask has water (a heightmap's land stays land) with the
  // rest depth the scenario gives them. Returns how many cells changed.
  int applyStroke(const MaskStroke& stroke);
  // How many strokes changed the domain since construction (a view redraws its walls).
  int maskChanges() const { return maskChanges_; }

  // Advances every model that has not failed by one frame (scenario.frameDt, a whole number of
  // ticks) and measures its diagnostics.
  void advanceFrame();
  // Diagnostics of model k at the current frame (measured at the end of advanceFrame or at
  // construction; a failed model keeps those of the frame it failed in).
  FrameRecord record(std::size_t k) const;
  // Gauges (scenario "gauges") are sampled after every step of every model once recording is
  // on (the CLI's gauges.csv); takeGaugeSamples hands over model k's samples since the last
  // call, in step order, the first call also those of time 0.
  void setRecordGauges(bool record);
  std::vector<GaugeSample> takeGaugeSamples(std::size_t k);
  // Maximum maps (core/measure/max_map.hpp): from now on, every model's eta is taken into its
  // maps after every step (the current state first). maxMap(k) is null until then.
  void recordMaxMaps(const MaxMapSettings& settings);
  const MaxMap* maxMap(std::size_t k) const {
    return slots_[k].maxMap.empty() ? nullptr : &slots_[k].maxMap;
  }
  // Models one after another on all threads instead of concurrently (see above).
  void setConcurrent(bool concurrent) { concurrent_ = concurrent; }

 private:
  // What every model needs of one tick [t0, t1), made once, in tick order, before the models
  // step through it: the surface events in it (sorted by time) and the boats' states after it.
  struct TickPlan {
    double t0 = 0.0, t1 = 0.0;
    std::vector<SurfaceEvent> events;
    std::vector<BoatState> boats;
    WindowOrigin window;  // the window's origin during the tick
  };
  using Slot = ModelSlot;
  double tickTime(long long tick) const { return double(tick) * scenario_.tick; }
  TickPlan planTick(long long tick);
  void tellReferenceOf(const std::vector<SurfaceEvent>& events);
  // Bodies entering and mask strokes made in [t0, t1): they change every model at once, at t0.
  bool editsIn(double t0, double t1) const;
  void applyEdits(double t0, double t1);
  // Steps every model that has not failed through the ticks (concurrently, see above), then,
  // with `measureAfter`, measures it.
  void runTicks(const std::vector<TickPlan>& ticks, bool measureAfter);
  void advanceTick(Slot& slot, const TickPlan& plan);
  void stepModel(Slot& slot, double t, double dt);
  // Tows the slot's buoyant bodies behind the boats of the tick.
  void towBodies(Slot& slot, const TickPlan& plan);
  // The wind and stirs acting at t on the slot's model (its cache updated).
  const ForceField* forceAt(Slot& slot, double t);
  // Couples the slot's bodies to its water after a step to t + dt.
  void moveBodies(Slot& slot, double t, double dt);
  void sampleGauges(Slot& slot, double time);
  void checkBlowUp(Slot& slot, const SurfaceSummary& surface);
  void refuseDryDomain(const Field2D& eta0) const;
  // The scenario's window (ocean.window) centred on its boat, every model's water in it.
  void startWindow();
  // The ocean at the current time, under every model's surface, and its energies in the
  // records.
  void mixOcean();
  // The water slot's bodies float on at time t: its model's surface and velocity, with the
  // ocean's when the scenario has one.
  WaterSurface bodyWater(Slot& slot, double t);
  const Field2D& shownSurface(const Slot& slot) const {
    return ocean_ ? slot.surface : slot.model->eta();
  }
  // Diagnostics of the slot's model now; surface is summarizeSurface of its eta.
  FrameRecord measure(const Slot& slot, const SurfaceSummary& surface) const;
  // Runs work(slot) for every slot, concurrently if worth it (see the top of this file).
  template <class Work>
  void forEachSlot(const Work& work);

  Scenario scenario_;
  std::unique_ptr<Domain> domain_;
  std::optional<Reference> reference_;  // the scenario's exact solution, if it names one
  std::unique_ptr<OceanLayer> ocean_;   // the scenario's open sea, if it has one
  std::unique_ptr<Excitations> excitations_;
  std::vector<Slot> slots_;
  int frame_ = 0;
  long long ticks_ = 0;  // ticks since the start
  int ticksPerFrame_ = 1;
  int maskChanges_ = 0;
  std::unique_ptr<Domain> unmasked_;  // the scenario's domain without its mask, at first stroke
  double amplitudeScale_ = 0.0;       // largest surface displacement put in on purpose (m)
  double maxWetDepth_ = 0.0;
  bool concurrent_ = true;
  bool recordGauges_ = false;
  std::optional<TravellingWindow> window_;  // the scenario's travelling window, if it has one
  std::vector<std::string> notes_;
};

}  // namespace wb
