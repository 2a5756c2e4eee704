// Records what the user does while the models run (clicked drops, stirs, the boat steered by
// the mouse, rain and wind switched, bodies dropped or thrown in, mask strokes) as timed entries of
// the scenario's excitation list. Each interaction is one edit (core/forcing/excitations.hpp,
// record*): it runs on the simulation thread between two frames, where it edits the running
// comparison's list at the comparison's time, and the same edit with the same time is then applied
// to the document's scenario. Both lists stay equal, so "Save" keeps the session and `wavebench-cli
// run` on the saved file reproduces the session's series.csv.
#pragma once

#include <functional>
#include <optional>

#include "app/gui/document/scenario_document.hpp"
#include "app/gui/simulation/simulation_worker.hpp"

namespace wb::gui {

class SessionRecorder {
 public:
  // An edit of an excitation list at a simulated time.
  using Edit = std::function<void(ExcitationSpecs&, double time)>;

  // The document must outlive the worker's thread (declare it before the worker).
  SessionRecorder(ScenarioDocument& document, SimulationWorker& worker)
      : document_(document), worker_(worker) {}

  void drop(const SurfaceEvent& drop);
  void stir(const StirImpulse& stir);
  void steerBoat(double x, double y);
  void rain(std::optional<RainSpec> rain);
  void wind(std::optional<WindSpec> wind);
  // A dab of the domain editor's brush while the models run: walls (solid) or water, in every
  // model at the next frame (Model::changeMask); the dabs of one frame make one stroke.
  void maskDab(const MaskDab& dab, bool solid);
  // A body dropped or thrown in at the next frame, its bottom `dropHeight` above the highest
  // of the models' water under its centre. One the domain refuses (a wall cell) is not
  // recorded: the reason comes back through SimulationWorker::commandFailed.
  void throwBody(const BodySpec& body, double dropHeight);
  // Applies `edit` at the time of the next frame to the running comparison and the document.
  void record(Edit edit);
  // The same with the edit made on the simulation thread from the running comparison (which
  // it may refuse by throwing InputError).
  void recordWith(std::function<Edit(Comparison&)> make);

 private:
  ScenarioDocument& document_;
  SimulationWorker& worker_;
};

}  // namespace wb::gui
