// The default thread count follows the cores the process may use: its affinity mask and
// Slurm's SLURM_CPUS_PER_TASK, never the machine's core count (core/run/threads.hpp).
#include "core/run/threads.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace wb {
namespace {

TEST(ThreadPolicy, SlurmCpusPerTaskParsesOnlyPositiveIntegers) {
  EXPECT_EQ(parseCpusPerTask("1"), 1);
  EXPECT_EQ(parseCpusPerTask("4"), 4);
  EXPECT_EQ(parseCpusPerTask("064"), 64);
  for (const char* garbage : {"", "0", "-2", "+2", " 2", "2 ", "2.5", "two", "4k", "2(x3)",
                              "99999999999999999999", "0x10"})
    EXPECT_EQ(parseCpusPerTask(garbage), std::nullopt) << '"' << garbage << '"';
  EXPECT_EQ(parseCpusPerTask(nullptr), std::nullopt);
}

TEST(ThreadPolicy, TheAffinityMaskCappedBySlurmsCpusPerTask) {
  EXPECT_EQ(usableCores(8, nullptr), 8);
  EXPECT_EQ(usableCores(8, "2"), 2);   // Slurm gave the task 2 CPUs of a node it did not bind
  EXPECT_EQ(usableCores(2, "16"), 2);  // never more than the mask allows
  EXPECT_EQ(usableCores(6, "garbage"), 6);
  EXPECT_EQ(usableCores(6, "0"), 6);
  EXPECT_EQ(usableCores(0, nullptr), 1);  // at least one
}

// Restores the calling thread's affinity mask and an environment variable at scope exit.
class ProcessState {
 public:
  explicit ProcessState(const char* variable) : name_(variable) {
    sched_getaffinity(0, sizeof mask_, &mask_);
    if (const char* value = std::getenv(variable)) value_ = value;
    threads_ = omp_get_max_threads();
  }
  ~ProcessState() {
    sched_setaffinity(0, sizeof mask_, &mask_);
    if (value_)
      setenv(name_, value_->c_str(), 1);
    else
      unsetenv(name_);
    omp_set_num_threads(threads_);
  }
  const cpu_set_t& mask() const { return mask_; }

 private:
  const char* name_;
  cpu_set_t mask_;
  std::optional<std::string> value_;
  int threads_ = 1;
};

int firstCpu(const cpu_set_t& mask) {
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) return cpu;
  return -1;
}

TEST(ThreadPolicy, UsableCoresReadThisProcessesMaskAndEnvironment) {
  const ProcessState saved("SLURM_CPUS_PER_TASK");
  unsetenv("SLURM_CPUS_PER_TASK");
  EXPECT_EQ(usableCores(), CPU_COUNT(&saved.mask()));
  // Narrowed to one CPU (as taskset or a Slurm binding would), whatever the machine has.
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(firstCpu(saved.mask()), &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  EXPECT_EQ(usableCores(), 1);
  ASSERT_EQ(sched_setaffinity(0, sizeof saved.mask(), &saved.mask()), 0);
  setenv("SLURM_CPUS_PER_TASK", "1", 1);
  EXPECT_EQ(usableCores(), 1);
  setenv("SLURM_CPUS_PER_TASK", "not a number", 1);
  EXPECT_EQ(usableCores(), CPU_COUNT(&saved.mask()));
}

TEST(ThreadPolicy, DefaultThreadCountIsTheUsableCoresUnlessOmpNumThreadsIsSet) {
  const ProcessState saved("OMP_NUM_THREADS");
  const ProcessState slurm("SLURM_CPUS_PER_TASK");
  unsetenv("OMP_NUM_THREADS");
  setenv("SLURM_CPUS_PER_TASK", "1", 1);
  omp_set_num_threads(7);
  applyDefaultThreadCount();
  EXPECT_EQ(omp_get_max_threads(), 1);
  unsetenv("SLURM_CPUS_PER_TASK");
  applyDefaultThreadCount();
  EXPECT_EQ(omp_get_max_threads(), CPU_COUNT(&saved.mask()));
  // An explicit OMP_NUM_THREADS wins: the count OpenMP took from it is left alone.
  setenv("OMP_NUM_THREADS", "3", 1);
  omp_set_num_threads(3);
  setenv("SLURM_CPUS_PER_TASK", "1", 1);
  applyDefaultThreadCount();
  EXPECT_EQ(omp_get_max_threads(), 3);
}

}  // namespace
}  // namespace wb
