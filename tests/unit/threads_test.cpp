// The default thread count follows the cores the process may use: its affinity mask and
// Slurm's SLURM_CPUS_PER_TASK, never the machine's core count (core/run/threads.hpp).
#include "core/run/threads.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
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

// How the idle threads of a wavebench-cli started with `args` and the environment's
// OMP_WAIT_POLICY and GOMP_SPINCOUNT (each left out when nullptr) waited, as its run summary
// states it once the program has restarted itself (read from its output to the end).
std::string waitSettingOf(const std::vector<std::string>& args, const char* policy,
                          const char* spinCount) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    if (!entry.starts_with("OMP_WAIT_POLICY=") && !entry.starts_with("GOMP_SPINCOUNT="))
      env.push_back(entry);
  }
  if (policy) env.push_back(std::string("OMP_WAIT_POLICY=") + policy);
  if (spinCount) env.push_back(std::string("GOMP_SPINCOUNT=") + spinCount);
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
  int out[2];
  EXPECT_EQ(pipe(out), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, std::size_t(n));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << text;
  const std::string label = "idle threads wait: ";
  const std::size_t at = text.find(label);
  if (at == std::string::npos) return "(no wait setting in the output: " + text + ")";
  const std::size_t begin = at + label.size();
  return text.substr(begin, text.find('\n', begin) - begin);
}

// wavebench-cli restarts itself once with a wait policy when the user set none: a `run` whose
// team follows the load spins briefly before its idle threads sleep (GOMP_SPINCOUNT), a fixed
// team (--threads) sleeps at once (OMP_WAIT_POLICY=passive); a setting the user made is kept.
TEST(ThreadPolicy, TheCliWaitsPassivelyOrSpinsBrieflyForALoadFollowingTeamUnlessSet) {
  const std::vector<std::string> run{"run", "--scenario", "builtin:pi-pool", "--frames", "1"};
  std::vector<std::string> fixed = run;
  fixed.insert(fixed.end(), {"--threads", "1"});
  const std::string shortSpin = "GOMP_SPINCOUNT=" + std::to_string(kLoadFollowingSpinCount);
  const bool follows = teamFollowsLoad(0);  // the child inherits this process's cores
  EXPECT_EQ(waitSettingOf(run, nullptr, nullptr), follows ? shortSpin : "OMP_WAIT_POLICY=passive");
  EXPECT_EQ(waitSettingOf(fixed, nullptr, nullptr), "OMP_WAIT_POLICY=passive");
  EXPECT_EQ(waitSettingOf(run, "active", nullptr), "OMP_WAIT_POLICY=active");
  EXPECT_EQ(waitSettingOf(fixed, nullptr, "500"), "GOMP_SPINCOUNT=500");
  EXPECT_EQ(waitSettingOf(run, "active", "500"), "OMP_WAIT_POLICY=active, GOMP_SPINCOUNT=500");
}

}  // namespace
}  // namespace wb
