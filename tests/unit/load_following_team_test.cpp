// The team that follows the load (core/run/load_following_team.hpp): what it reads from
// /proc/stat, the size it picks for a load, and that a run whose team changes from frame to
// frame computes the same surfaces as one thread.
#include "core/run/load_following_team.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

// Two CPUs of a machine with four, in USER_HZ ticks (proc(5)).
const char* const kProcStat =
    "cpu  1000 10 300 9000 50 5 5 0 0 0\n"
    "cpu0 100 1 30 900 5 1 1 2 0 0\n"
    "cpu1 200 2 60 800 10 1 1 0 7 0\n"
    "cpu2 300 3 90 700 15 1 1 0 0 0\n"
    "cpu3 400 4 120 600 20 2 2 0 0 0\n"
    "intr 12345 0 0\n"
    "ctxt 999\n";

TEST(LoadFollowingTeam, ProcStatBusyTimeIsTheWorkOfTheCpusAsked) {
  // cpu1 and cpu3: user + nice + system + irq + softirq + steal (guest is inside user; idle
  // and iowait are not work); the aggregate "cpu" line is not a CPU.
  const double cpu1 = 200 + 2 + 60 + 1 + 1 + 0, cpu3 = 400 + 4 + 120 + 2 + 2 + 0;
  EXPECT_DOUBLE_EQ(*busySecondsOf(kProcStat, {1, 3}, 100.0), (cpu1 + cpu3) / 100.0);
  EXPECT_DOUBLE_EQ(*busySecondsOf(kProcStat, {0}, 100.0), (100 + 1 + 30 + 1 + 1 + 2) / 100.0);
  EXPECT_EQ(busySecondsOf(kProcStat, {1, 7}, 100.0), std::nullopt);  // no line for cpu7
  EXPECT_EQ(busySecondsOf(kProcStat, {}, 100.0), std::nullopt);
  EXPECT_EQ(busySecondsOf("", {0}, 100.0), std::nullopt);
}

TEST(LoadFollowingTeam, TheTeamIsTheCoresOtherProgramsLeave) {
  EXPECT_EQ(teamSizeFor(2, 0.0, 2), 2);  // idle
  EXPECT_EQ(teamSizeFor(2, 1.0, 2), 1);  // one busy program beside
  EXPECT_EQ(teamSizeFor(2, 0.98, 1), 1);
  EXPECT_EQ(teamSizeFor(2, 6.0, 2), 1);   // a crowded machine: still one thread
  EXPECT_EQ(teamSizeFor(2, 0.05, 1), 2);  // the busy program ended
  EXPECT_EQ(teamSizeFor(8, 3.2, 8), 5);
  EXPECT_EQ(teamSizeFor(8, -1.0, 3), 8);  // rounding of the counters cannot give more cores
  // Near the half-way point the size it has stays (no flipping every half second).
  EXPECT_EQ(teamSizeFor(2, 0.4, 1), 1);
  EXPECT_EQ(teamSizeFor(2, 0.6, 2), 2);
  EXPECT_EQ(teamSizeFor(2, 0.3, 1), 2);
  EXPECT_EQ(teamSizeFor(2, 0.7, 2), 1);
}

// Restores the calling thread's OpenMP default at scope exit.
struct OmpThreads {
  int before = omp_get_max_threads();
  ~OmpThreads() { omp_set_num_threads(before); }
};

TEST(LoadFollowingTeam, ItFollowsTheSamplesAndSetsTheCallingThreadsDefault) {
  OmpThreads restore;
  // Half-second windows: this process uses 0.4 cores throughout; another program is busy on
  // one core in the third and fourth window.
  std::vector<CpuTimesSample> samples;
  double wall = 0, cores = 0, own = 0;
  for (const double other : {0.0, 0.0, 1.0, 1.0, 0.1, 0.0}) {
    samples.push_back({wall, cores, own});
    wall += 0.5, own += 0.2, cores += 0.2 + 0.5 * other;
  }
  samples.push_back({wall, cores, own});
  std::size_t next = 0;
  LoadFollowingTeam team(
      2, [&] { return samples.at(next++); }, 0.0);
  std::vector<int> sizes;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    sizes.push_back(team.update());
    EXPECT_EQ(omp_get_max_threads(), sizes.back()) << "after sample " << k;
  }
  EXPECT_EQ(sizes, (std::vector<int>{2, 2, 2, 1, 1, 2, 2}));
}

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

TEST(LoadFollowingTeam, ProcSamplerCountsThisProcesssOwnWorkAsBusy) {
  const auto sample = LoadFollowingTeam::procSampler();
  const CpuTimesSample before = sample();
  // Work until this process has used 0.3 s of CPU (however long that takes on a busy machine).
  volatile double sink = 0;
  const double until = processCpuSeconds() + 0.3;
  while (processCpuSeconds() < until)
    for (int k = 0; k < 10000; ++k)
      sink = sink + 1e-9 * k;
  const CpuTimesSample after = sample();
  const double own = after.ownBusy - before.ownBusy, cores = after.coresBusy - before.coresBusy;
  EXPECT_GE(own, 0.3);
  EXPECT_GT(after.wall, before.wall);
  // The cores' counters saw that work, to their 10 ms ticks (one per core at each end).
  EXPECT_GE(cores, own - 4.0 / double(sysconf(_SC_CLK_TCK)));
}

TEST(LoadFollowingTeam, ARunWhoseTeamChangesEveryFrameHasTheOneThreadSurfaces) {
  OmpThreads restore;
  Scenario scenario = loadScenario("builtin:pi-pool");
  scenario.grid = Grid{160, 160, 6.4 / 160};  // above worthThreads' 128 x 128
  const std::vector<std::string> ids{"damped-wave", "advected-wave", "swe-semi-lagrangian",
                                     "swe-adi"};
  const auto run = [&](bool alternate) {
    omp_set_num_threads(1);
    Comparison comparison(scenario, createScenarioModels(scenario, ids, {}, false));
    comparison.setConcurrent(false);  // each model's own loops take the team
    for (int frame = 0; frame < 8; ++frame) {
      omp_set_num_threads(alternate && frame % 2 == 0 ? 2 : 1);
      comparison.advanceFrame();
    }
    std::vector<Field2D> surfaces;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      EXPECT_FALSE(comparison.failure(k).has_value()) << ids[k];
      surfaces.push_back(comparison.surface(k));
    }
    return surfaces;
  };
  const auto one = run(false), changing = run(true);
  ASSERT_EQ(one.size(), ids.size());
  for (std::size_t k = 0; k < one.size(); ++k)
    for (std::size_t c = 0; c < one[k].size(); ++c)
      ASSERT_EQ(one[k].data()[c], changing[k].data()[c]) << ids[k] << ", cell " << c;
}

}  // namespace
}  // namespace wb
