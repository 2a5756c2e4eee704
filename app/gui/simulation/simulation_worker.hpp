// The simulation runs on a worker thread: it owns the Comparison, paces frames in real time
// with Bressler's fixed-step accumulator (4.1) and publishes immutable snapshots that the
// views read. The GUI never waits for a step: it only swaps a shared pointer under a mutex.
// The buoyant rigid bodies (docs/bodies.md) go out as poses in every snapshot and as meshes
// built once per comparison and body count, shared by the snapshots that follow.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <QObject>

#include "app/export/vti_writer.hpp"
#include "core/run/comparison.hpp"

namespace wb::gui {

struct ModelSnapshot {
  std::string id;
  std::string title;
  Field2D eta;
  FrameRecord record;
  std::optional<std::string> failure;
  std::vector<FloatingBody> bodies;  // floating boxes on this model's water
  double bodySize = 0.0;             // m, edge of a box
  // The buoyant bodies on this model's water: their shapes in the body frame (the same
  // object from snapshot to snapshot until the comparison or the body count changes; null
  // when there are none) and their poses, each frame's mesh pointing into rigidMeshes.
  std::shared_ptr<const std::vector<BodyMesh>> rigidMeshes;
  std::vector<RigidBodyFrame> rigidBodies;
  // The highest surface so far, eta_max of the model's maximum map (core/measure/max_map.hpp),
  // 0 where the cell was never wet; since the comparison was built.
  std::shared_ptr<const Field2D> etaMax;
};

// Every model along one transect now (core/measure/gauges.hpp): samples[model][point].
struct TransectProfile {
  std::vector<TransectPoint> points;
  std::vector<std::vector<PointSample>> samples;  // per model
  std::vector<PointSample> reference;             // empty without one
};

// One published state of the comparison; never modified after publication.
struct Snapshot {
  std::uint64_t generation = 0;  // bumps on every rebuild of the comparison
  int frame = 0;
  double time = 0.0;
  // The same object from snapshot to snapshot until a rebuild or a mask stroke changes it.
  std::shared_ptr<const Domain> domain;
  // The scenario's exact solution (its "reference") at the cell centres at `time` (0 in
  // walls), null when it has none; made by the worker from the comparison's own reference,
  // which alone knows the drops the linear solution has taken.
  std::shared_ptr<const Field2D> referenceEta;
  // The open sea under every model at `time` (0 in walls; Comparison::ocean), null without
  // one: each model's eta minus it is the model's own waves.
  std::shared_ptr<const Field2D> seaEta;
  std::vector<ModelSnapshot> models;
  std::vector<BoatState> boats;  // on the open sea: minus windowOrigin in the views
  // The travelling window (Comparison::windowOrigin) and the boat it follows, if any.
  std::array<double, 2> windowOrigin{};
  std::optional<std::size_t> windowBoat;
  double realTimeRatio = 1.0;  // simulated seconds per wall second over the last second
  bool playing = false;
  // The comparison's gauges and transects (docs/gauges.md) and each transect's profile now.
  std::vector<GaugeSpec> gauges;
  std::vector<TransectSpec> transects;
  std::vector<TransectProfile> profiles;
};

// Wall time of the worker, for the report of simulate vs render shares.
struct WorkerTiming {
  double busySeconds = 0.0;  // inside advanceFrame
  int framesAdvanced = 0;
};

class SimulationWorker : public QObject {
  Q_OBJECT

 public:
  using Command = std::function<void(Comparison&)>;

  SimulationWorker();
  ~SimulationWorker() override;

  // Replaces the comparison (built on the worker thread); the next snapshot has a new
  // generation. Errors come back through buildFailed.
  void rebuild(const Scenario& scenario, const std::vector<std::string>& modelIds);
  // How many rebuilds were requested (GUI thread): session recording drops an interaction
  // that a rebuild overtook (app/gui/document/session_recorder.hpp).
  std::uint64_t rebuildRequests() const { return rebuildRequests_; }
  // Runs `command` on the worker thread before the next frame (drops, rain, boat, wind,
  // bodies); an exception it throws comes back through commandFailed.
  void post(Command command);

  void setPlaying(bool playing);
  bool playing() const { return playing_; }
  void stepOnce();
  void setSpeed(double speed) { speed_ = speed; }
  // Stops playing once this frame is reached (automation); -1 for no limit.
  void setFrameLimit(int frame) { frameLimit_ = frame; }

  std::shared_ptr<const Snapshot> latest() const;
  // Every frame record produced since the last call, per model in order (plots and CSV), and
  // every gauge sample (one per gauge per model step, Comparison::takeGaugeSamples), of the
  // comparison `generation`: pass that of the snapshot in hand. A new comparison advances its
  // first frames before its first snapshot is published; until they are asked for with that
  // snapshot's generation its records stay here (an empty batch of their generation comes
  // back), so a caller still showing the old comparison never takes them only to drop them.
  struct RecordBatch {
    std::uint64_t generation = 0;
    std::vector<std::vector<FrameRecord>> perModel;
    std::vector<std::vector<GaugeSample>> gaugeSamples;
  };
  RecordBatch takeRecords(std::uint64_t generation);
  WorkerTiming timing() const;

 signals:
  void buildFailed(QString message);
  void modelFailed(QString message);
  void commandFailed(QString message);

 private:
  void run();
  void buildPending();
  void advance(int frames);
  void publish();
  void publishTransects(Snapshot& snapshot) const;
  // Model k's body meshes: the last ones while the body count stays, else built anew.
  std::shared_ptr<const std::vector<BodyMesh>> rigidMeshes(std::size_t k);
  // Model k's eta_max with cells never wet at 0 (null without maximum maps).
  std::shared_ptr<const Field2D> highestSoFar(std::size_t k) const;

  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::optional<std::pair<Scenario, std::vector<std::string>>> pendingBuild_;
  std::deque<Command> commands_;
  int pendingSteps_ = 0;
  std::atomic<bool> playing_{false};
  std::atomic<double> speed_{1.0};
  std::atomic<int> frameLimit_{-1};
  std::uint64_t rebuildRequests_ = 0;  // GUI thread only

  // Owned by the worker thread.
  std::unique_ptr<Comparison> comparison_;
  std::shared_ptr<const Domain> domain_;
  int maskChanges_ = 0;  // the comparison's, when domain_ was copied from it
  std::uint64_t generation_ = 0;
  std::vector<bool> reportedFailure_;
  double realTimeRatio_ = 1.0;
  std::vector<FrameRecord> lastRecords_;  // of the current frame, per model
  std::vector<std::shared_ptr<const std::vector<BodyMesh>>> rigidMeshes_;  // per model

  // Shared, under mutex_.
  std::shared_ptr<const Snapshot> latest_;
  RecordBatch records_;
  WorkerTiming timing_;
};

}  // namespace wb::gui
