#include "app/gui/simulation/simulation_worker.hpp"

#include <chrono>
#include <cmath>
#include <new>

#include <sys/resource.h>
#include <unistd.h>

#include "app/gui/simulation/frame_pacing.hpp"
#include "core/errors.hpp"
#include "core/run/load_following_team.hpp"
#include "models/registry.hpp"

namespace wb::gui {

namespace {
using Clock = std::chrono::steady_clock;
// The worker wakes at least this often to pace frames (s); finer than a 60 Hz frame.
constexpr double kPollSeconds = 0.004;
// The worker (and the OpenMP threads it starts, which inherit it) runs at this nice level: on
// a saturated machine the views and the controls keep their share of the cores and the
// simulation falls behind real time (the status bar and the captions say by how much).
constexpr int kWorkerNice = 10;
// Window over which the real-time ratio is measured (s).
constexpr double kRatioWindowSeconds = 1.0;

double secondsBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

SimulationWorker::SimulationWorker() {
  thread_ = std::thread([this] { run(); });
}

SimulationWorker::~SimulationWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void SimulationWorker::rebuild(const Scenario& scenario, const std::vector<std::string>& ids) {
  ++rebuildRequests_;
  {
    std::lock_guard lock(mutex_);
    pendingBuild_.emplace(scenario, ids);
    commands_.clear();
    pendingSteps_ = 0;
  }
  wake_.notify_all();
}

void SimulationWorker::post(Command command) {
  {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
  }
  wake_.notify_all();
}

void SimulationWorker::setPlaying(bool playing) {
  playing_ = playing;
  wake_.notify_all();
}

void SimulationWorker::stepOnce() {
  {
    std::lock_guard lock(mutex_);
    ++pendingSteps_;
  }
  wake_.notify_all();
}

std::shared_ptr<const Snapshot> SimulationWorker::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

SimulationWorker::RecordBatch SimulationWorker::takeRecords(std::uint64_t generation) {
  std::lock_guard lock(mutex_);
  if (records_.generation != generation) return {records_.generation, {}, {}};
  RecordBatch batch{records_.generation, std::move(records_.perModel),
                    std::move(records_.gaugeSamples)};
  records_.perModel.assign(batch.perModel.size(), {});
  records_.gaugeSamples.assign(batch.gaugeSamples.size(), {});
  return batch;
}

WorkerTiming SimulationWorker::timing() const {
  std::lock_guard lock(mutex_);
  return timing_;
}

void SimulationWorker::run() {
  // Linux: a thread's nice value is its own (PRIO_PROCESS with the thread id).
  setpriority(PRIO_PROCESS, id_t(gettid()), kWorkerNice);
  std::optional<FixedStepAccumulator> accumulator;
  // The team follows the load of the cores (core/run/load_following_team.hpp): at this nice
  // level a thread sharing its core with another program gets a tenth of it.
  std::optional<LoadFollowingTeam> team = defaultLoadFollowingTeam(0);
  auto last = Clock::now();
  auto windowStart = last;
  double windowSimulated = 0.0;
  for (;;) {
    std::deque<Command> commands;
    int steps = 0;
    bool build = false;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::duration<double>(kPollSeconds));
      if (stop_) return;
      build = pendingBuild_.has_value();
      commands.swap(commands_);
      steps = std::exchange(pendingSteps_, 0);
    }
    if (build) {
      buildPending();
      if (comparison_) accumulator.emplace(comparison_->scenario().frameDt);
    }
    if (!comparison_) continue;
    for (auto& command : commands) {
      try {
        command(*comparison_);
      } catch (const std::exception& error) {
        emit commandFailed(QString::fromStdString(error.what()));
      }
    }
    const auto now = Clock::now();
    const double elapsed = secondsBetween(last, now);
    last = now;
    int frames = steps;
    if (playing_) frames += accumulator->framesFor(elapsed * speed_);
    const int limit = frameLimit_;
    if (limit >= 0 && comparison_->frame() + frames >= limit) {
      frames = std::max(0, limit - comparison_->frame());
      playing_ = false;
    }
    if (frames > 0) {
      if (team) team->update();
      advance(frames);
      windowSimulated += frames * comparison_->scenario().frameDt;
    }
    const double window = secondsBetween(windowStart, Clock::now());
    if (window >= kRatioWindowSeconds) {
      realTimeRatio_ = windowSimulated / window;
      windowSimulated = 0.0;
      windowStart = Clock::now();
    }
    if (frames > 0 || build || !commands.empty()) publish();
  }
}

void SimulationWorker::buildPending() {
  std::pair<Scenario, std::vector<std::string>> request;
  {
    std::lock_guard lock(mutex_);
    request = std::move(*pendingBuild_);
    pendingBuild_.reset();
  }
  try {
    auto models = createScenarioModels(request.first, request.second, {}, false);
    comparison_ = std::make_unique<Comparison>(request.first, std::move(models));
    domain_ = std::make_shared<const Domain>(comparison_->domain());
    maskChanges_ = comparison_->maskChanges();
    // The gauges record every model step, as for the CLI's gauges.csv (docs/gauges.md).
    if (!request.first.gauges.empty()) comparison_->setRecordGauges(true);
    // The "highest so far" colour mode: every step's surface, from the build on.
    comparison_->recordMaxMaps({});
    reportedFailure_.assign(comparison_->modelCount(), false);
    rigidMeshes_.assign(comparison_->modelCount(), nullptr);
    lastRecords_.clear();
    for (std::size_t k = 0; k < comparison_->modelCount(); ++k)
      lastRecords_.push_back(comparison_->record(k));
    ++generation_;
    std::lock_guard lock(mutex_);
    records_ = {generation_, std::vector<std::vector<FrameRecord>>(comparison_->modelCount()),
                std::vector<std::vector<GaugeSample>>(comparison_->modelCount())};
  } catch (const std::bad_alloc&) {
    // The CLI's line for the same failure (app/cli/run_command.cpp), not "std::bad_alloc".
    const Grid& grid = request.first.grid;
    emit buildFailed(QString::fromStdString(outOfMemoryMessage(
        request.first.source, "building the models on a " + std::to_string(grid.nx) + " x " +
                                  std::to_string(grid.ny) + " grid")));
  } catch (const std::exception& error) {
    emit buildFailed(QString::fromStdString(error.what()));
  }
}

void SimulationWorker::advance(int frames) {
  const auto start = Clock::now();
  std::vector<std::vector<FrameRecord>> produced(comparison_->modelCount());
  std::vector<std::vector<GaugeSample>> samples(comparison_->modelCount());
  for (int f = 0; f < frames; ++f) {
    comparison_->advanceFrame();
    for (std::size_t k = 0; k < comparison_->modelCount(); ++k) {
      produced[k].push_back(comparison_->record(k));
      for (const GaugeSample& sample : comparison_->takeGaugeSamples(k))
        samples[k].push_back(sample);
    }
  }
  const double busy = secondsBetween(start, Clock::now());
  for (std::size_t k = 0; k < produced.size(); ++k)
    lastRecords_[k] = produced[k].back();
  for (std::size_t k = 0; k < comparison_->modelCount(); ++k)
    if (comparison_->failure(k) && !reportedFailure_[k]) {
      reportedFailure_[k] = true;
      emit modelFailed(QString::fromStdString(*comparison_->failure(k)));
    }
  std::lock_guard lock(mutex_);
  timing_.busySeconds += busy;
  timing_.framesAdvanced += frames;
  auto& perModel = records_.perModel;
  for (std::size_t k = 0; k < produced.size() && k < perModel.size(); ++k)
    perModel[k].insert(perModel[k].end(), produced[k].begin(), produced[k].end());
  auto& gauges = records_.gaugeSamples;
  for (std::size_t k = 0; k < samples.size() && k < gauges.size(); ++k)
    gauges[k].insert(gauges[k].end(), samples[k].begin(), samples[k].end());
}

void SimulationWorker::publish() {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->generation = generation_;
  snapshot->frame = comparison_->frame();
  snapshot->time = comparison_->time();
  if (comparison_->maskChanges() != maskChanges_) {  // a mask stroke: the views redraw walls
    domain_ = std::make_shared<const Domain>(comparison_->domain());
    maskChanges_ = comparison_->maskChanges();
  }
  snapshot->domain = domain_;
  if (const Reference* reference = comparison_->reference())
    snapshot->referenceEta = referenceSurface(*reference, *domain_, snapshot->time);
  if (const OceanLayer* ocean = comparison_->ocean()) {
    auto sea = std::make_shared<Field2D>(ocean->height());
    const auto& wet = domain_->wetMask();
    for (std::size_t k = 0; k < sea->size(); ++k)
      if (!wet[k]) sea->data()[k] = 0.0f;
    snapshot->seaEta = std::move(sea);
  }
  snapshot->boats = comparison_->excitations().boats();
  snapshot->windowOrigin = comparison_->windowOrigin();
  snapshot->windowBoat = comparison_->windowBoat();
  snapshot->realTimeRatio = realTimeRatio_;
  snapshot->playing = playing_;
  for (std::size_t k = 0; k < comparison_->modelCount(); ++k) {
    const Model& model = comparison_->model(k);
    ModelSnapshot m{model.id(),
                    model.title(),
                    comparison_->surface(k),
                    lastRecords_[k],
                    comparison_->failure(k),
                    {},
                    0.0,
                    rigidMeshes(k),
                    {},
                    highestSoFar(k)};
    if (const FloatingBodies* bodies = comparison_->bodies(k)) {
      m.bodies = bodies->bodies();
      m.bodySize = bodies->boxSize();
    }
    if (const RigidBodies* bodies = comparison_->rigidBodies(k)) {
      for (std::size_t b = 0; b < bodies->size(); ++b) {
        const RigidBody& body = bodies->bodies()[b];
        const Eigen::Quaterniond& q = body.orientation;
        m.rigidBodies.push_back({&(*m.rigidMeshes)[b],
                                 body.id,
                                 {body.position.x(), body.position.y(), body.position.z()},
                                 {q.w(), q.x(), q.y(), q.z()},
                                 {body.velocity.x(), body.velocity.y(), body.velocity.z()},
                                 body.displacedVolume});
      }
    }
    snapshot->models.push_back(std::move(m));
  }
  publishTransects(*snapshot);
  std::lock_guard lock(mutex_);
  latest_ = std::move(snapshot);
}

// A few hundred bilinear samples per transect and model: cheap beside a frame.
void SimulationWorker::publishTransects(Snapshot& snapshot) const {
  const Scenario& scenario = comparison_->scenario();
  snapshot.gauges = scenario.gauges;
  snapshot.transects = scenario.transects;
  for (const TransectSpec& transect : scenario.transects) {
    TransectProfile profile{transectPoints(transect), {}, {}};
    for (std::size_t k = 0; k < comparison_->modelCount(); ++k) {
      auto& samples = profile.samples.emplace_back();
      for (const TransectPoint& p : profile.points)
        samples.push_back(samplePoint(comparison_->model(k), comparison_->domain(), p.x, p.y));
    }
    if (const Reference* reference = comparison_->reference())
      for (const TransectPoint& p : profile.points)
        profile.reference.push_back(
            sampleReference(*reference, comparison_->domain(), p.x, p.y, snapshot.time));
    snapshot.profiles.push_back(std::move(profile));
  }
}

std::shared_ptr<const Field2D> SimulationWorker::highestSoFar(std::size_t k) const {
  const MaxMap* map = comparison_->maxMap(k);
  if (!map) return nullptr;
  auto highest = std::make_shared<Field2D>(map->etaMax());
  for (std::size_t c = 0; c < highest->size(); ++c)
    if (std::isnan(highest->data()[c])) highest->data()[c] = 0.0f;
  return highest;
}

std::shared_ptr<const std::vector<BodyMesh>> SimulationWorker::rigidMeshes(std::size_t k) {
  const RigidBodies* bodies = comparison_->rigidBodies(k);
  if (!bodies) return nullptr;
  auto& cached = rigidMeshes_[k];
  if (!cached || cached->size() != bodies->size()) {
    auto meshes = std::make_shared<std::vector<BodyMesh>>();
    for (const RigidBody& body : bodies->bodies())
      meshes->push_back(meshOf(*body.geometry));
    cached = std::move(meshes);
  }
  return cached;
}

}  // namespace wb::gui
