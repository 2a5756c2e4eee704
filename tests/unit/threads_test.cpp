// The default thread count follows the cores the process may use: its affinity mask and
// Slurm's SLURM_CPUS_PER_TASK, never the machine's core count (core/run/threads.hpp).
#include "core/run/threads.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

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

// The value of `name` in the environment process `pid` was started with (what libgomp read
// when the program was loaded), or nothing.
std::optional<std::string> environOf(pid_t pid, const std::string& name) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(file), {}};
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\0', start), text.size());
    const std::string entry = text.substr(start, end - start);
    if (entry.starts_with(name + "=")) return entry.substr(name.size() + 1);
    start = end + 1;
  }
  return std::nullopt;
}

struct WaitSetting {
  std::string policy = "(unset)", spinCount = "(unset)";
};

// How the wavebench-cli started with `args` and the environment's OMP_WAIT_POLICY and
// GOMP_SPINCOUNT (each left out when empty) runs once it has restarted itself.
WaitSetting waitSettingOf(const std::vector<std::string>& args, const WaitSetting& given) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    if (!entry.starts_with("OMP_WAIT_POLICY=") && !entry.starts_with("GOMP_SPINCOUNT="))
      env.push_back(entry);
  }
  if (given.policy != "(unset)") env.push_back("OMP_WAIT_POLICY=" + given.policy);
  if (given.spinCount != "(unset)") env.push_back("GOMP_SPINCOUNT=" + given.spinCount);
  std::vector<char*> envp;
  for (auto& entry : env)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> command{WAVEBENCH_CLI};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : command)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  // Until the running program has a setting (the restart happens at once; a hang guard).
  WaitSetting seen;
  bool exited = false;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < end) {
    const auto policy = environOf(pid, "OMP_WAIT_POLICY");
    const auto spinCount = environOf(pid, "GOMP_SPINCOUNT");
    if (policy || spinCount) {
      seen = {policy.value_or("(unset)"), spinCount.value_or("(unset)")};
      break;
    }
    if ((exited = waitpid(pid, nullptr, WNOHANG) == pid)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  return seen;
}

// wavebench-cli restarts itself once with a wait policy when the user set none: a `run` whose
// team follows the load spins briefly before its idle threads sleep (GOMP_SPINCOUNT), a fixed
// team (--threads) sleeps at once (OMP_WAIT_POLICY=passive); a setting the user made is kept.
TEST(ThreadPolicy, TheCliWaitsPassivelyOrSpinsBrieflyForALoadFollowingTeamUnlessSet) {
  const std::vector<std::string> run{"run",      "--scenario", "builtin:pi-pool",
                                     "--frames", "1000000",    "--quiet"};
  std::vector<std::string> fixed = run;
  fixed.insert(fixed.end(), {"--threads", "1"});
  const std::string shortSpin = std::to_string(kLoadFollowingSpinCount);
  const bool follows = teamFollowsLoad(0);  // the child inherits this process's cores
  const WaitSetting byDefault = waitSettingOf(run, {});
  EXPECT_EQ(byDefault.policy, follows ? "(unset)" : "passive");
  EXPECT_EQ(byDefault.spinCount, follows ? shortSpin : "(unset)");
  const WaitSetting byThreads = waitSettingOf(fixed, {});
  EXPECT_EQ(byThreads.policy, "passive");
  EXPECT_EQ(byThreads.spinCount, "(unset)");
  const WaitSetting active = waitSettingOf(run, {"active", "(unset)"});
  EXPECT_EQ(active.policy, "active");
  EXPECT_EQ(active.spinCount, "(unset)");
  const WaitSetting spin = waitSettingOf(fixed, {"(unset)", "500"});
  EXPECT_EQ(spin.policy, "(unset)");
  EXPECT_EQ(spin.spinCount, "500");
}

}  // namespace
}  // namespace wb
