// The simulation worker's hand-over of records (app/gui/simulation/simulation_worker.hpp): a
// new comparison advances its first frames before its first snapshot is published, and the
// window, which takes the records for the snapshot it shows, must get every one of them with
// that snapshot. No display: the worker has no widgets.
#include <QTest>

#include "app/gui/simulation/simulation_worker.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

namespace {
constexpr int kTimeoutMs = 300000;  // a hang guard, not a budget

// A small pool with two gauges and a drop.
wb::Scenario gaugedPool() {
  return wb::parseScenarioText(R"({
    "grid": {"nx": 16, "ny": 8, "dx": 0.1},
    "initial": {"drops": [{"x": 0.8, "y": 0.4, "radius": 0.2, "amplitude": 0.02}]},
    "gauges": [{"name": "a", "x": 0.3, "y": 0.4}, {"name": "b", "x": 1.2, "y": 0.4}],
    "duration": 1.0
  })",
                               "pool.json", ".");
}

std::size_t samplesOf(const wb::gui::SimulationWorker::RecordBatch& batch, int gauge) {
  std::size_t count = 0;
  for (const auto& perModel : batch.gaugeSamples)
    for (const wb::GaugeSample& s : perModel)
      count += s.gauge == gauge ? 1 : 0;
  return count;
}
}  // namespace

class SimulationWorkerTest : public QObject {
  Q_OBJECT

 private slots:
  // The window asks for the records of the comparison it shows; those of a comparison built
  // since (its frames advanced, its snapshot not yet shown) are not that comparison's: they
  // stay with the worker, none handed out to be dropped, until asked for with their own.
  void aNewComparisonsRecordsWaitForItsSnapshot() {
    const wb::Scenario scenario = gaugedPool();
    const std::vector<std::string> ids{wb::defaultModelIds().front()};
    wb::gui::SimulationWorker worker;
    worker.rebuild(scenario, ids);
    QTRY_VERIFY_WITH_TIMEOUT(worker.latest() != nullptr, kTimeoutMs);
    const std::uint64_t first = worker.latest()->generation;
    QCOMPARE(worker.latest()->frame, 0);

    worker.rebuild(scenario, ids);
    worker.stepOnce();
    QTRY_VERIFY_WITH_TIMEOUT(worker.latest()->generation != first && worker.latest()->frame == 1,
                             kTimeoutMs);
    const std::uint64_t second = worker.latest()->generation;

    // Asked for with the first comparison's generation (the snapshot the window showed when
    // the new comparison had advanced and not yet published): nothing of the second's.
    const auto old = worker.takeRecords(first);
    QVERIFY(old.generation != first);
    for (const auto& records : old.perModel)
      QVERIFY(records.empty());
    for (const auto& samples : old.gaugeSamples)
      QVERIFY(samples.empty());

    // With its own: the frame and both gauges' samples, once.
    const auto batch = worker.takeRecords(second);
    QCOMPARE(batch.generation, second);
    QCOMPARE(batch.perModel.size(), ids.size());
    QCOMPARE(batch.perModel[0].size(), std::size_t(1));
    QCOMPARE(batch.perModel[0][0].frame, 1);
    QVERIFY(samplesOf(batch, 0) > 0);
    QCOMPARE(samplesOf(batch, 1), samplesOf(batch, 0));
    const auto again = worker.takeRecords(second);
    QVERIFY(again.perModel[0].empty() && again.gaugeSamples[0].empty());
  }
};

QTEST_GUILESS_MAIN(SimulationWorkerTest)
#include "simulation_worker_test.moc"
