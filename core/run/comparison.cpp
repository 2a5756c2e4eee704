#include "core/run/comparison.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <sstream>
#include <utility>

#include "core/errors.hpp"
#include "core/run/body_coupling.hpp"
#include "core/run/tick_steps.hpp"

namespace wb {

template <class Work>
void Comparison::forEachSlot(const Work& work) {
  const int threads = omp_get_max_threads(), count = int(slots_.size());
  // Concurrent only when no thread would idle (a model runs on one thread then).
  if (!concurrent_ || threads < 2 || count < threads) {
    for (auto& slot : slots_)
      work(slot);
    return;
  }
  std::vector<Slot*> order;
  for (auto& slot : slots_)
    order.push_back(&slot);
  std::stable_sort(order.begin(), order.end(), [](const Slot* a, const Slot* b) {
    return a->timing.frameSeconds > b->timing.frameSeconds;
  });
  std::vector<std::exception_ptr> errors(slots_.size());
#pragma omp parallel num_threads(threads)
  {
    omp_set_num_threads(1);  // this thread's nested regions: the model runs on it alone
#pragma omp for schedule(dynamic, 1)
    for (int k = 0; k < count; ++k) {
      try {
        const auto start = std::chrono::steady_clock::now();
        work(*order[k]);
        order[k]->timing.frameSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  }
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

Comparison::Comparison(const Scenario& scenario, std::vector<std::unique_ptr<Model>> models)
    : scenario_(scenario) {
  domain_ = std::make_unique<Domain>(buildDomain(scenario_));
  const Field2D eta0 = buildInitialEta(scenario_, *domain_);
  if (scenario_.reference) reference_.emplace(*scenario_.reference, *domain_, &eta0);
  if (scenario_.ocean)
    ocean_ = std::make_unique<OceanLayer>(oceanParams(scenario_), *domain_,
                                          scenario_.source + ": ocean");
  ticksPerFrame_ = scenario_.ticksPerFrame();
  excitations_ = std::make_unique<Excitations>(scenario_.excitations, *domain_, scenario_.seed);
  amplitudeScale_ = eta0.maxAbs();
  refuseDryDomain(eta0);
  for (std::size_t g = 0; g < scenario_.gauges.size(); ++g) {
    const GaugeSpec& gauge = scenario_.gauges[g];
    const Grid& grid = domain_->grid();
    const int i = std::min(grid.nx - 1, int(gauge.x / grid.dx));
    const int j = std::min(grid.ny - 1, int(gauge.y / grid.dx));
    if (!domain_->isWet(i, j)) {
      std::ostringstream why;
      why << scenario_.source << ": gauges[" << g << "]: (" << gauge.x << ", " << gauge.y
          << ") m is in a wall";
      throw InputError(why.str());
    }
  }
  checkIncomingSidesWet(*domain_, scenario_.source + ": domain.edges");
  maxWetDepth_ = domain_->maxWetDepth();
  if (ocean_) ocean_->evaluate(0.0);  // the bodies are placed on the sea
  for (auto& model : models) {
    Slot slot;
    slot.model = std::move(model);
    if (domain_->edges().anyOpen() && !slot.model->absorbsAtOpenEdges())
      throw InputError(scenario_.source + ": domain.edges: " + slot.model->id() +
                       " has no absorbing layer for open edges yet; use walls for it");
    if (domain_->edges().anyIncoming() && !slot.model->entersAtIncomingEdges())
      throw InputError(scenario_.source + ": domain.edges: " + slot.model->id() +
                       " has no incoming-wave edge; use walls or open edges for it");
    slot.model->reset(*domain_, eta0);
    const std::optional<double> userDt =
        slot.model->params().has("dt") ? slot.model->params().getOptional("dt") : std::nullopt;
    if (userDt && *userDt > scenario_.tick * (1.0 + 1e-9)) {
      std::ostringstream note;
      note << scenario_.source << ": " << slot.model->id() << ".dt = " << *userDt
           << " s is longer than the tick, " << scenario_.tick
           << " s: it steps the tick; set \"tick\" to step longer (docs/scenario.md)";
      notes_.push_back(note.str());
    }
    if (domain_->manning() > 0.0 && !slot.model->appliesBottomFriction()) {
      std::ostringstream note;
      note << scenario_.source << ": friction.manning = " << domain_->manning()
           << " is not applied by " << slot.model->id()
           << ": it has no bottom friction (docs/scenario.md, \"friction\")";
      notes_.push_back(note.str());
    }
    slot.scratch = Field2D(domain_->nx(), domain_->ny());
    if (scenario_.bodies.count > 0)
      slot.bodies.tracers =
          FloatingBodies(*domain_, scenario_.bodies.count, scenario_.bodies.size, scenario_.seed);
    if (ocean_) ocean_->mix(slot.model->eta(), *domain_, slot.surface);
    if (!scenario_.rigidBodies.empty()) {
      slot.bodies.rigid = RigidBodies(*domain_, scenario_.waterDensity);
      for (std::size_t b = 0; b < scenario_.rigidBodies.size(); ++b)
        try {
          slot.bodies.rigid.add(scenario_.rigidBodies[b], int(b), shownSurface(slot));
        } catch (const InputError& e) {
          throw InputError(scenario_.source + ": " + e.what());
        }
      slot.bodies.shadow = Field2D(domain_->nx(), domain_->ny());
    }
    slots_.push_back(std::move(slot));
  }
  if (scenario_.oceanWindow) startWindow();
  for (auto& slot : slots_) {  // the models start at rest: measuring is cheap
    const SurfaceSummary surface = summarizeSurface(slot.model->eta(), *domain_);
    slot.budget.initial = surface.volume;
    slot.record = measure(slot, surface);
  }
  mixOcean();
}

// The window starts centred on the boat; the water is at rest there, and bringing it there is not
// counted in the budget.
void Comparison::startWindow() {
  const std::size_t boat =
      std::size_t(*scenario_.rigidBodies[scenario_.oceanWindow->follow].towedBy);
  window_.emplace(domain_->grid(), boat, excitations_->boats()[boat]);
  for (auto& slot : slots_) {
    try {
      slot.model->shiftWindow(0, 0);  // refuses a model whose state cannot travel
    } catch (const InputError& e) {
      throw InputError(scenario_.source + ": ocean.window: " + e.what());
    }
    window_->carry(slot.windowed(), *domain_, slot.window, window_->origin());
  }
}

void Comparison::mixOcean() {
  if (!ocean_) return;
  const double t = time();
  const WindowOrigin origin = window_ ? window_->origin() : WindowOrigin{};
  ocean_->moveTo(origin.i, origin.j);
  ocean_->evaluate(t);
  const OceanLayer::Energies energies = ocean_->energies(t);
  for (Slot& slot : slots_) {
    ocean_->mix(slot.model->eta(), *domain_, slot.surface);
    slot.record.oceanPotential = energies.potential;
    slot.record.oceanKinetic = energies.kinetic;
  }
}

// Water stands where the surface is above the ground: eta0 + rest depth > 0 on a wet cell.
// Without any the models have nothing to move (the wave models' c = sqrt(g mean depth) would be
// NaN): refused, not run into NaN rows or a false blow-up.
void Comparison::refuseDryDomain(const Field2D& eta0) const {
  const Field2D& depth = domain_->restDepth();
  for (int j = 0; j < domain_->ny(); ++j)
    for (int i = 0; i < domain_->nx(); ++i)
      if (domain_->isWet(i, j) && eta0(i, j) + depth(i, j) > 0.0f) return;
  throw InputError(scenario_.source +
                   ": water: no water anywhere: the ground is at or above the surface on every "
                   "cell (water.bathymetry, terrain, initial)");
}

bool Comparison::anyFailed() const {
  return std::any_of(slots_.begin(), slots_.end(),
                     [](const Slot& s) { return s.failure.has_value(); });
}

const RigidBodies* Comparison::rigidBodies(std::size_t k) const {
  return slots_[k].bodies.rigid.size() > 0 ? &slots_[k].bodies.rigid : nullptr;
}

void Comparison::addRigidBody(const BodySpec& spec) {
  const double dx = domain_->grid().dx;
  for (Slot& slot : slots_) {
    BodySpec inWindow = spec;  // placed on the open sea
    inWindow.x = slot.window.gridX(spec.x, dx);
    inWindow.y = slot.window.gridY(spec.y, dx);
    RigidBodies& rigid = slot.bodies.rigid;
    if (rigid.size() == 0) {
      rigid = RigidBodies(*domain_, scenario_.waterDensity);
      slot.bodies.shadow = Field2D(domain_->nx(), domain_->ny());
    }
    rigid.add(inWindow, int(rigid.size()), shownSurface(slot));
  }
}

const FloatingBodies* Comparison::bodies(std::size_t k) const {
  return slots_[k].bodies.tracers.size() > 0 ? &slots_[k].bodies.tracers : nullptr;
}

// One frame: ticksPerFrame_ ticks. The ticks' events are made in tick order (the random
// stream and the boats advance tick by tick, whatever the frame), and the models step through
// runs of ticks without edits concurrently; bodies entering and mask strokes wait for every
// model at their tick's start.
void Comparison::advanceFrame() {
  for (Slot& slot : slots_)
    slot.timing.startFrame();
  const long long first = ticks_;
  if (reference_) reference_->forgetBefore(tickTime(first));
  std::vector<TickPlan> ticks;
  for (int k = 0; k < ticksPerFrame_; ++k) {
    const long long tick = first + k;
    const double t0 = tickTime(tick), t1 = tickTime(tick + 1);
    if (editsIn(t0, t1)) {
      runTicks(ticks, false);
      ticks.clear();
      ticks_ = tick;  // the edits' messages name the time they act at
      applyEdits(t0, t1);
    }
    ticks.push_back(planTick(tick));
  }
  ticks_ = first + ticksPerFrame_;
  ++frame_;
  runTicks(ticks, true);
  mixOcean();
}

Comparison::TickPlan Comparison::planTick(long long tick) {
  TickPlan plan{tickTime(tick), tickTime(tick + 1), {}, {}, {}};
  plan.events = excitations_->advance(plan.t0, plan.t1);
  for (const auto& event : plan.events)
    amplitudeScale_ = std::max(amplitudeScale_, std::fabs(event.amplitude));
  if (reference_ && reference_->takesDrops()) tellReferenceOf(plan.events);
  plan.boats = excitations_->boats();
  if (window_) plan.window = window_->follow(plan.boats);
  return plan;
}

// The linear reference takes each drop at its own time, the same stamp the models take.
void Comparison::tellReferenceOf(const std::vector<SurfaceEvent>& events) {
  for (const SurfaceEvent& event : events) {
    Field2D stamp(domain_->nx(), domain_->ny());
    stampGaussian(stamp, *domain_, event);
    reference_->addDrop(stamp, event.time);
  }
}

bool Comparison::editsIn(double t0, double t1) const {
  return !excitations_->bodiesEntering(t0, t1).empty() || !excitations_->strokesIn(t0, t1).empty();
}

void Comparison::applyEdits(double t0, double t1) {
  for (const BodySpec& body : excitations_->bodiesEntering(t0, t1)) {
    try {
      addRigidBody(body);
    } catch (const InputError& e) {
      std::ostringstream why;
      why << scenario_.source << ": excitations: the body entering at t = " << t0
          << " s: " << e.what();
      throw InputError(why.str());
    }
  }
  for (const MaskStroke& stroke : excitations_->strokesIn(t0, t1))
    applyStroke(stroke);
}

void Comparison::runTicks(const std::vector<TickPlan>& ticks, bool measureAfter) {
  if (ticks.empty() && !measureAfter) return;
  forEachSlot([&](Slot& slot) {
    if (slot.failure) return;
    for (const TickPlan& plan : ticks)
      advanceTick(slot, plan);
    if (!measureAfter) return;
    // The frame's surface is part of its cost: a model that computes eta on demand (fft-ocean's
    // inverse transform) does it here, the others return a reference.
    const auto start = std::chrono::steady_clock::now();
    slot.model->eta();
    slot.timing.frameStepSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    slot.timing.endFrame();
    const SurfaceSummary surface = summarizeSurface(slot.model->eta(), *domain_);
    checkBlowUp(slot, surface);
    slot.record = measure(slot, surface);
    if (!slot.failure && !std::isfinite(slot.record.energyKinetic)) {
      std::ostringstream message;
      message << slot.model->id() << " blew up at t = " << time() << " s (frame " << frame_
              << "): its kinetic energy became NaN or infinite";
      slot.failure = message.str();
    }
  });
}

// The model covers the tick in the steps its own rules choose (core/run/tick_steps.hpp), its
// water brought to the tick's window first. A surface event acts at the start of the step whose
// interval holds its time (the last step takes those at its end).
void Comparison::advanceTick(Slot& slot, const TickPlan& plan) {
  Model& model = *slot.model;
  if (window_)
    slot.budget.windowed += window_->carry(slot.windowed(), *domain_, slot.window, plan.window);
  towBodies(slot, plan);
  const double dx = domain_->grid().dx;
  std::size_t next = 0;
  for (TickSteps steps(plan.t0, plan.t1, model.preferredDt()); !steps.done();
       steps.next(model.preferredDt())) {
    bool stamped = false;
    while (next < plan.events.size() &&
           (steps.last() || plan.events[next].time < steps.time() + steps.dt())) {
      stampGaussian(slot.scratch, *domain_,
                    TravellingWindow::place(plan.events[next++], slot.window, dx));
      stamped = true;
    }
    if (stamped) {
      slot.budget.sources += model.addEta(slot.scratch);
      slot.scratch.fill(0.0f);
    }
    stepModel(slot, steps.time(), steps.dt());
  }
}

// The boats' positions are on the open sea; the bodies they tow are on the slot's grid.
void Comparison::towBodies(Slot& slot, const TickPlan& plan) {
  const double dx = domain_->grid().dx;
  const auto& bodies = slot.bodies.rigid.bodies();
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (const auto boat = bodies[b].spec.towedBy) {
      const BoatState& state = plan.boats[std::size_t(*boat)];
      slot.bodies.rigid.setTow(
          b, {slot.window.gridX(state.x, dx), slot.window.gridY(state.y, dx), 0.0},
          {state.vx, state.vy, 0.0});
    }
}

// One step of the model from t, with the wind and stirs acting at t and the bodies coupled.
void Comparison::stepModel(Slot& slot, double t, double dt) {
  Model& model = *slot.model;
  model.setForce(forceAt(slot, t));
  const auto start = std::chrono::steady_clock::now();
  model.step(dt);
  moveBodies(slot, t, dt);
  slot.timing.addStep(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), dt);
  model.setForce(nullptr);
  if (recordGauges_) sampleGauges(slot, t + dt);
  // Every step, as GeoClaw updates its fgmax grids: a crest between frames is not missed.
  if (!slot.maxMap.empty()) slot.maxMap.update(model.eta(), t + dt);
}

const ForceField* Comparison::forceAt(Slot& slot, double t) {
  ForcingCache& forcing = slot.forcing;
  std::vector<int> key = excitations_->forcingAt(t);
  if (!forcing.key || *forcing.key != key) {
    forcing.field = key.empty() ? std::nullopt : excitations_->windAt(t);
    forcing.key = std::move(key);
  }
  return forcing.field ? &*forcing.field : nullptr;
}

void Comparison::moveBodies(Slot& slot, double t, double dt) {
  Model& model = *slot.model;
  SlotBodies& bodies = slot.bodies;
  if (ocean_ && bodies.any()) {
    // Both kinds float on the sum, taken once for the step: tracers drift with the model's
    // velocity plus the sea's orbital one (their path integrates the Stokes drift). On a
    // model without a velocity they ride its local waves and the sea carries them.
    const WaterSurface water = bodyWater(slot, t + dt);
    if (bodies.tracers.size() > 0) {
      if (model.velocityU() && model.velocityV())
        bodies.tracers.advect(dt, *water.u, *water.v, &water.eta);
      else  // water.u is the sea's velocity alone here
        bodies.tracers.ride(dt, model.eta(), &water.eta, water.u, water.v);
    }
    if (bodies.rigid.size() > 0)
      slot.budget.displaced +=
          coupleBodies(bodies.rigid, model, water, dt, slot.scratch, bodies.shadow);
  } else {
    bodies.tracers.advance(dt, model);
    if (bodies.rigid.size() > 0)
      slot.budget.displaced += coupleBodies(bodies.rigid, model, dt, slot.scratch, bodies.shadow);
  }
}

WaterSurface Comparison::bodyWater(Slot& slot, double t) {
  const Model& model = *slot.model;
  if (!ocean_) return {model.eta(), model.velocityU(), model.velocityV()};
  SlotBodies& bodies = slot.bodies;
  if (!bodies.sea)  // the same sea as ocean_: the same section, grid and seed
    bodies.sea = std::make_unique<OceanLayer>(oceanParams(scenario_), *domain_,
                                              scenario_.source + ": ocean", 1);
  bodies.sea->moveTo(slot.window.i, slot.window.j);
  bodies.sea->evaluate(t, true);
  bodies.sea->mix(model.eta(), *domain_, bodies.eta);
  bodies.sea->mixVelocity(model.velocityU(), model.velocityV(), *domain_, bodies.u, bodies.v);
  return {bodies.eta, &bodies.u, &bodies.v};
}

void Comparison::sampleGauges(Slot& slot, double time) {
  for (std::size_t g = 0; g < scenario_.gauges.size(); ++g) {
    const GaugeSpec& gauge = scenario_.gauges[g];
    std::optional<PointSample> exact;
    if (gauge.record)
      exact = sampleRecord(*gauge.record, *domain_, gauge.x, gauge.y, time);
    else if (reference_)
      exact = sampleReference(*reference_, *domain_, gauge.x, gauge.y, time);
    PointSample sample = samplePoint(*slot.model, *domain_, gauge.x, gauge.y);
    if (ocean_) {  // the ocean at the step's own time, not the frame's
      // The slot's window may be ahead of ocean_'s, which moves once per frame.
      const double dx = domain_->grid().dx;
      const double sea = ocean_->heightAt(gauge.x + (slot.window.i - ocean_->originI()) * dx,
                                          gauge.y + (slot.window.j - ocean_->originJ()) * dx, time);
      sample.eta += sea;
      sample.depth += sea;
    }
    slot.gaugeSamples.push_back({time, int(g), sample, exact});
  }
}

void Comparison::setRecordGauges(bool record) {
  if (record && !recordGauges_ && ticks_ == 0)
    for (Slot& slot : slots_)
      sampleGauges(slot, 0.0);
  recordGauges_ = record;
}

void Comparison::recordMaxMaps(const MaxMapSettings& settings) {
  for (Slot& slot : slots_) {
    slot.maxMap = MaxMap(*domain_, settings, slot.model->floodsLand());
    slot.maxMap.update(slot.model->eta(), time());
  }
}

std::vector<GaugeSample> Comparison::takeGaugeSamples(std::size_t k) {
  return std::exchange(slots_[k].gaugeSamples, {});
}

int Comparison::applyStroke(const MaskStroke& stroke) {
  if (window_)
    throw InputError(scenario_.source +
                     ": a mask stroke is refused: the window travels (ocean.window), and walls "
                     "would travel with it");
  if (!unmasked_) {
    Scenario open = scenario_;
    open.mask.reset();
    open.maskPreset = "rect";
    unmasked_ = std::make_unique<Domain>(buildDomain(open));
  }
  std::vector<std::uint8_t> wet = domain_->wetMask();
  Field2D depth = domain_->restDepth();
  std::vector<std::uint32_t> changed;
  for (const std::uint32_t k : strokeCells(stroke, domain_->grid())) {
    const bool water = !stroke.solid && unmasked_->wetMask()[k] != 0;
    if ((wet[k] != 0) == water) continue;
    wet[k] = water ? 1 : 0;
    depth.data()[k] = water ? unmasked_->restDepth().data()[k] : 0.0f;
    changed.push_back(k);
  }
  if (changed.empty()) return 0;
  if (std::none_of(wet.begin(), wet.end(), [](std::uint8_t w) { return w != 0; })) {
    std::ostringstream why;
    why << scenario_.source << ": excitations: the mask stroke at t = " << stroke.time
        << " s leaves no water cell";
    throw InputError(why.str());
  }
  domain_->setMask(wet);
  domain_->setRestDepth(depth);
  for (Slot& slot : slots_)
    slot.forcing.key.reset();  // the wind acts on the wet cells
  maxWetDepth_ = std::max(maxWetDepth_, domain_->maxWetDepth());
  ++maskChanges_;
  for (Slot& slot : slots_)
    if (!slot.maxMap.empty()) slot.maxMap.setDomain(*domain_);
  for (Slot& slot : slots_) {
    if (slot.failure) continue;
    // A model whose method cannot hold the new walls (fft-ocean's basis) refuses the stroke:
    // it stops with the reason, like a blow-up, and the others take the stroke and run on.
    try {
      slot.budget.masked += slot.model->changeMask(*domain_, changed);
    } catch (const InputError& e) {
      std::ostringstream message;
      message << e.what() << " (t = " << time() << " s, frame " << frame_ << "); stopped";
      slot.failure = message.str();
      slot.refused = true;
    }
  }
  return int(changed.size());
}

void Comparison::checkBlowUp(Slot& slot, const SurfaceSummary& surface) {
  std::ostringstream why;
  if (!surface.finite) {
    why << "eta became NaN or infinite";
  } else {
    // Runaway growth: far beyond anything put in on purpose and beyond the water's depth.
    const double limit = 100.0 * (amplitudeScale_ + maxWetDepth_);
    if (surface.maxAbs > limit)
      why << "runaway growth: max |eta| = " << surface.maxAbs << " m exceeds " << limit << " m";
  }
  if (why.tellp() > 0) {
    std::ostringstream message;
    message << slot.model->id() << " blew up at t = " << time() << " s (frame " << frame_
            << "): " << why.str();
    slot.failure = message.str();
  }
}

FrameRecord Comparison::record(std::size_t k) const {
  FrameRecord r = slots_[k].record;
  r.frame = frame_;
  r.time = time();
  return r;
}

FrameRecord Comparison::measure(const Slot& slot, const SurfaceSummary& surface) const {
  const Model& model = *slot.model;
  FrameRecord r;
  r.frame = frame_;
  r.time = time();
  r.model = model.id();
  r.volume = surface.volume;
  const VolumeBudget& budget = slot.budget;
  r.volumeSources = budget.sources;
  r.volumeSink = model.volumeSink();
  r.volumeDisplaced = budget.displaced;
  r.volumeMasked = budget.masked;
  r.volumeWindow = budget.windowed;
  r.volumeDrift = budget.drift(r.volume, r.volumeSink);
  r.energyPotential = surface.potentialEnergy;
  r.energyKinetic = model.kineticEnergy();
  r.stepMs = slot.timing.lastStepMs;
  r.substeps = slot.timing.lastSubsteps;
  r.dt = slot.timing.lastDt;
  r.maxAbsEta = surface.maxAbs;
  r.solver = model.diagnostics();
  if (slot.bodies.tracers.size() > 0)
    r.solver["bodies_in_solid"] = slot.bodies.tracers.countInSolid();
  if (reference_) {
    const ReferenceErrors errors = referenceErrors(*reference_, model.eta(), *domain_, time());
    r.errorL1 = errors.l1, r.errorL2 = errors.l2, r.errorMax = errors.max;
    r.frontX = errors.front;
  }
  return r;
}

}  // namespace wb
