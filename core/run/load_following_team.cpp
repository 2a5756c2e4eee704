#include "core/run/load_following_team.hpp"

#include <omp.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "core/run/threads.hpp"

namespace wb {
namespace {

double clockSeconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

std::vector<int> affinityCpus() {
  std::vector<int> cpus;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) cpus.push_back(cpu);
  return cpus;
}

}  // namespace

std::optional<double> busySecondsOf(std::string_view procStat, const std::vector<int>& cpus,
                                    double ticksPerSecond) {
  std::istringstream lines{std::string(procStat)};
  std::string line;
  double ticks = 0.0;
  std::size_t found = 0;
  while (std::getline(lines, line)) {
    // "cpuN user nice system idle iowait irq softirq steal guest guest_nice" (proc(5)); guest
    // time is already counted in user.
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream fields(line.substr(3));
    int cpu = -1;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq;
    if (!fields) continue;
    fields >> steal;  // absent on old kernels
    if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) continue;
    ticks += user + nice + system + irq + softirq + steal;
    ++found;
  }
  if (found != cpus.size() || cpus.empty()) return std::nullopt;
  return ticks / ticksPerSecond;
}

int teamSizeFor(int usable, double otherCores, int current) {
  const double left = std::clamp(double(usable) - otherCores, 1.0, double(usable));
  const int nearest = std::clamp(int(std::lround(left)), 1, usable);
  if (nearest != current && current >= 1 && current <= usable &&
      std::fabs(left - current) < 0.5 + 0.15)
    return current;
  return nearest;
}

LoadFollowingTeam::Sampler LoadFollowingTeam::procSampler() {
  const std::vector<int> cpus = affinityCpus();
  const double ticksPerSecond = double(sysconf(_SC_CLK_TCK));
  return [cpus, ticksPerSecond] {
    CpuTimesSample sample;
    sample.wall = clockSeconds(CLOCK_MONOTONIC);
    sample.ownBusy = clockSeconds(CLOCK_PROCESS_CPUTIME_ID);
    std::ifstream file("/proc/stat");
    const std::string text{std::istreambuf_iterator<char>(file), {}};
    // Unreadable (no /proc): nobody else counted, the team stays whole.
    sample.coresBusy = busySecondsOf(text, cpus, ticksPerSecond).value_or(sample.ownBusy);
    return sample;
  };
}

LoadFollowingTeam::LoadFollowingTeam(int usable, Sampler sampler, double intervalSeconds)
    : usable_(std::max(1, usable)),
      sampler_(std::move(sampler)),
      interval_(intervalSeconds),
      size_(usable_) {}

int LoadFollowingTeam::update() {
  // The clock first: a frame of a few microseconds should not read /proc/stat.
  if (last_ && clockSeconds(CLOCK_MONOTONIC) - lastLook_ < interval_) return size_;
  lastLook_ = clockSeconds(CLOCK_MONOTONIC);
  const CpuTimesSample now = sampler_();
  if (!last_) {
    // The calling thread's own default (a worker thread starts with libgomp's global one).
    last_ = now;
    omp_set_num_threads(size_);
    return size_;
  }
  const double wall = now.wall - last_->wall;
  if (wall < interval_) return size_;
  // Other programs' share of the cores, in cores; /proc/stat counts in ticks of 10 ms, so a
  // half-second window resolves a twentieth of a core.
  const double other =
      std::max(0.0, (now.coresBusy - last_->coresBusy) - (now.ownBusy - last_->ownBusy)) / wall;
  last_ = now;
  const int size = teamSizeFor(usable_, other, size_);
  if (size != size_) {
    size_ = size;
    omp_set_num_threads(size_);
  }
  return size_;
}

std::optional<LoadFollowingTeam> defaultLoadFollowingTeam(int threadsOption) {
  if (!teamFollowsLoad(threadsOption)) return std::nullopt;
  return LoadFollowingTeam(usableCores(), LoadFollowingTeam::procSampler());
}

}  // namespace wb
