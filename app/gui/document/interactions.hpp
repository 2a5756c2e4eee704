// The user's gestures on the running water, turned into session entries (SessionRecorder): a
// click drops, a Shift + drag stirs, a Ctrl + click or drag drops or throws a crate, the mouse
// steers the boat, the Controls dock switches rain and wind, the domain editor's brush paints
// walls or water. A point picked just beyond the pool's edge is moved onto it, and while the
// models do not play, the frame that takes the entry is stepped at once so that it shows.
#pragma once

#include <optional>

#include <QPointF>

#include "app/gui/document/scenario_document.hpp"
#include "app/gui/document/session_recorder.hpp"
#include "app/gui/simulation/simulation_worker.hpp"

namespace wb::gui {

class Interactions {
 public:
  // The document must outlive the worker's thread (declare it before the worker).
  Interactions(ScenarioDocument& document, SimulationWorker& worker)
      : document_(document), worker_(worker) {}

  SessionRecorder& recorder() { return recorder_; }

  // A drop of the Controls dock's radius and height (m) where the user clicked.
  void drop(QPointF clicked, double radius, double amplitude);
  // A stir from `clicked` towards `to`, twice the drop radius wide.
  void stir(QPointF clicked, QPointF to, double dropRadius);
  // The crate a Ctrl + click at `from` drops, or a Ctrl + drag to `to` throws.
  static BodySpec crate(QPointF from, QPointF to);
  // `body` dropped or thrown in at the next frame (refused on a wall cell through
  // SimulationWorker::commandFailed).
  void throwBody(const BodySpec& body);
  // The boat steered towards `point`, while it follows the mouse.
  void steerBoat(QPointF point);
  // A boat that follows the mouse needs a boat: one is added in the middle of the pool if the
  // scenario has none (a scenario edit, so the comparison restarts with it).
  void setBoatFollow(bool on);
  // Rain at `rate` drops per second, each of the drop radius and half the drop height, below
  // the rest level.
  void setRain(bool on, double rate, double dropRadius, double dropAmplitude);
  void setWind(bool on, double direction, double strength);
  // A dab of the domain editor's brush: while the models run, a session entry that they take
  // at the next frame (true); paused or before the start, false: the dab edits the document's
  // mask instead (one undo step a stroke).
  bool maskDab(const MaskDab& dab, bool water);

 private:
  void stepIfPaused();
  QPointF ontoPool(QPointF point) const;

  ScenarioDocument& document_;
  SimulationWorker& worker_;
  SessionRecorder recorder_{document_, worker_};
  bool boatFollow_ = false;
};

}  // namespace wb::gui
