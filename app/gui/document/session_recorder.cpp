#include "app/gui/document/session_recorder.hpp"

#include <cmath>
#include <limits>

#include <QMetaObject>

#include "core/errors.hpp"
#include "core/grid/interpolation.hpp"

namespace wb::gui {

// Clicks are in the window's coordinates; the session records points on the open sea
// (Comparison::windowOrigin, 0 without a travelling window).
void SessionRecorder::drop(const SurfaceEvent& drop) {
  recordWith([drop](Comparison& comparison) -> Edit {
    SurfaceEvent onSea = drop;
    onSea.x += comparison.windowOrigin()[0];
    onSea.y += comparison.windowOrigin()[1];
    return [onSea](ExcitationSpecs& specs, double time) { recordDrop(specs, time, onSea); };
  });
}

void SessionRecorder::stir(const StirImpulse& stir) {
  record([stir](ExcitationSpecs& specs, double time) { recordStir(specs, time, stir); });
}

void SessionRecorder::steerBoat(double x, double y) {
  recordWith([x, y](Comparison& comparison) -> Edit {
    const double seaX = x + comparison.windowOrigin()[0], seaY = y + comparison.windowOrigin()[1];
    return [seaX, seaY](ExcitationSpecs& specs, double time) {
      recordBoatSteer(specs, time, 0, seaX, seaY);
    };
  });
}

void SessionRecorder::rain(std::optional<RainSpec> rain) {
  record([rain](ExcitationSpecs& specs, double time) { recordRain(specs, time, rain); });
}

void SessionRecorder::wind(std::optional<WindSpec> wind) {
  record([wind](ExcitationSpecs& specs, double time) { recordWind(specs, time, wind); });
}

void SessionRecorder::maskDab(const MaskDab& dab, bool solid) {
  record([dab, solid](ExcitationSpecs& specs, double time) {
    recordMaskDab(specs, time, solid, dab);
  });
}

void SessionRecorder::throwBody(const BodySpec& body, double dropHeight) {
  recordWith([body, dropHeight](Comparison& comparison) -> Edit {
    BodySpec placed = body;
    double water = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < comparison.modelCount(); ++k)
      water = std::max<double>(
          water, sampleBilinear(comparison.surface(k), comparison.domain().grid(), body.x, body.y));
    placed.z = (std::isfinite(water) ? water : 0.0) + dropHeight + 0.5 * body.size.z();
    // Checked on the domain before it is recorded: a refused body is no entry of the session.
    const RigidBodies* present = comparison.rigidBodies(0);
    RigidBodies probe(comparison.domain(), comparison.scenario().waterDensity);
    try {
      probe.add(placed, present ? int(present->size()) : 0, comparison.surface(0));
    } catch (const InputError& error) {
      throw InputError(std::string("Body not placed: ") + error.what());
    }
    placed.x += comparison.windowOrigin()[0];
    placed.y += comparison.windowOrigin()[1];
    return [placed](ExcitationSpecs& specs, double time) { recordBody(specs, time, placed); };
  });
}

void SessionRecorder::record(Edit edit) {
  recordWith([edit](Comparison&) { return edit; });
}

void SessionRecorder::recordWith(std::function<Edit(Comparison&)> make) {
  // A rebuild requested after this point restarts the comparison from the document: the edit
  // must then reach neither (the worker drops queued commands on a rebuild).
  const std::uint64_t rebuilds = worker_.rebuildRequests();
  ScenarioDocument* document = &document_;
  SimulationWorker* worker = &worker_;
  worker_.post([make, rebuilds, document, worker](Comparison& comparison) {
    const double time = comparison.time();
    const Edit edit = make(comparison);
    comparison.excitations().record([&](ExcitationSpecs& specs) { edit(specs, time); });
    QMetaObject::invokeMethod(
        document,
        [edit, rebuilds, document, worker, time] {
          if (worker->rebuildRequests() != rebuilds) return;
          document->editExcitationsQuietly([&](ExcitationSpecs& specs) { edit(specs, time); });
        },
        Qt::QueuedConnection);
  });
}

}  // namespace wb::gui
