#include "app/gui/document/session_recorder.hpp"

#include <QMetaObject>

namespace wb::gui {

void SessionRecorder::drop(const SurfaceEvent& drop) {
  record([drop](ExcitationSpecs& specs, double time) { recordDrop(specs, time, drop); });
}

void SessionRecorder::stir(const StirImpulse& stir) {
  record([stir](ExcitationSpecs& specs, double time) { recordStir(specs, time, stir); });
}

void SessionRecorder::steerBoat(double x, double y) {
  record([x, y](ExcitationSpecs& specs, double time) { recordBoatSteer(specs, time, 0, x, y); });
}

void SessionRecorder::rain(std::optional<RainSpec> rain) {
  record([rain](ExcitationSpecs& specs, double time) { recordRain(specs, time, rain); });
}

void SessionRecorder::wind(std::optional<WindSpec> wind) {
  record([wind](ExcitationSpecs& specs, double time) { recordWind(specs, time, wind); });
}

void SessionRecorder::record(Edit edit) {
  // A rebuild requested after this point restarts the comparison from the document: the edit
  // must then reach neither (the worker drops queued commands on a rebuild).
  const std::uint64_t rebuilds = worker_.rebuildRequests();
  ScenarioDocument* document = &document_;
  SimulationWorker* worker = &worker_;
  worker_.post([edit, rebuilds, document, worker](Comparison& comparison) {
    const double time = comparison.time();
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
