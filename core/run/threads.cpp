#include "core/run/threads.hpp"

#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace wb {

std::optional<int> parseCpusPerTask(const char* text) {
  if (!text || !*text) return std::nullopt;
  for (const char* c = text; *c; ++c)
    if (*c < '0' || *c > '9') return std::nullopt;  // signs, spaces, "2(x3)", "4k"
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (errno == ERANGE || value < 1 || value > 1 << 20) return std::nullopt;
  return int(value);
}

int usableCores(int affinityCpus, const char* slurmCpusPerTask) {
  int cores = std::max(1, affinityCpus);
  if (const auto slurm = parseCpusPerTask(slurmCpusPerTask)) cores = std::min(cores, *slurm);
  return cores;
}

int usableCores() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  const int affinity = sched_getaffinity(0, sizeof mask, &mask) == 0
                           ? CPU_COUNT(&mask)
                           : int(std::thread::hardware_concurrency());
  return usableCores(affinity, std::getenv("SLURM_CPUS_PER_TASK"));
}

void applyDefaultThreadCount() {
  if (const char* set = std::getenv("OMP_NUM_THREADS"); set && *set) return;
  omp_set_num_threads(usableCores());
}

bool teamFollowsLoad(int threadsOption) {
  if (threadsOption > 0) return false;
  if (const char* set = std::getenv("OMP_NUM_THREADS"); set && *set) return false;
  return usableCores() >= 2;
}

void ensureWaitPolicy(char** argv, const char* program, bool followsLoad) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  if (followsLoad)
    setenv("GOMP_SPINCOUNT", std::to_string(kLoadFollowingSpinCount).c_str(), 1);
  else
    setenv("OMP_WAIT_POLICY", "passive", 1);
  // The program's own path (not /proc/self/exe, whose name ps and top would then show).
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) {
    self[length] = '\0';
    execv(self, argv);
  }
  std::fprintf(stderr, "%s: restart with %s failed (%s); idle threads will spin\n", program,
               followsLoad ? "a short spin" : "OMP_WAIT_POLICY=passive", std::strerror(errno));
}

std::string waitSetting() {
  std::string setting;
  for (const char* name : {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT"})
    if (const char* value = std::getenv(name))
      setting += (setting.empty() ? "" : ", ") + std::string(name) + "=" + value;
  return setting.empty() ? "libgomp's default" : setting;
}

}  // namespace wb
