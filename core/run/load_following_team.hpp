#pragma once
// A run's OpenMP team that follows the load of the cores it may use. A parallel region waits
// at its barriers for its slowest thread, and a thread that shares its core with another
// program gets half of it (a tenth at the workbench worker's nice 10): beside one busy program
// on a 2-core machine two threads took 1.2x (wavebench-cli run) to 4.3x (the workbench) the
// time of one (docs/performance.md, "Under load"). So between frames the run looks at how much
// of its cores other programs used over the last half second and keeps as many threads as the
// cores left to it: all of them on an idle machine, one beside a busy program.
//
// The models give the same surface on any number of threads (their tests run 1 to 12), so the
// team size changes the speed of a run, never its physics. It follows the load only when the
// thread count is the default one: OMP_NUM_THREADS or a program's --threads fixes it.
#include <chrono>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace wb {

// Cumulative CPU times, in seconds, at one moment.
struct CpuTimesSample {
  double wall = 0.0;       // a monotonic clock
  double coresBusy = 0.0;  // summed over the cores this process may use, every program's work
  double ownBusy = 0.0;    // this process's own work, every thread of it
};

// The busy seconds /proc/stat gives for the CPUs `cpus` (user, nice, system, irq, softirq and
// steal; idle and iowait are not work), or nothing when the text has no line for one of them.
// `ticksPerSecond` is USER_HZ (sysconf(_SC_CLK_TCK)).
std::optional<double> busySecondsOf(std::string_view procStat, const std::vector<int>& cpus,
                                    double ticksPerSecond);

// The team size for `usable` cores when other programs keep `otherCores` of them busy: the
// nearest whole number of cores left, at least one; a size within 0.15 of a core of the
// half-way point keeps `current`, so that a load near the threshold does not flip it every
// half second.
int teamSizeFor(int usable, double otherCores, int current);

class LoadFollowingTeam {
 public:
  using Sampler = std::function<CpuTimesSample()>;
  // The cores of this process's affinity mask, sampled from /proc/stat and the process clock.
  static Sampler procSampler();
  // Looks at the load once at least `interval` of the monotonic clock has passed since the
  // last look (every call when it is 0), over the window the samples' wall times span.
  LoadFollowingTeam(int usable, Sampler sampler, double intervalSeconds = 0.5);
  // Samples when due and returns the team size to use now; also sets it as the calling
  // thread's OpenMP default (omp_set_num_threads) when it changed.
  int update();
  int size() const { return size_; }

 private:
  int usable_;
  Sampler sampler_;
  double interval_;
  std::optional<CpuTimesSample> last_;
  double lastLook_ = 0.0;  // the monotonic clock, s
  int size_;
};

// The team of a run with the default thread count, or nothing when OMP_NUM_THREADS is set or
// `threadsOption` (a program's --threads, 0 when not given) fixes it.
std::optional<LoadFollowingTeam> defaultLoadFollowingTeam(int threadsOption);

}  // namespace wb
