#pragma once
// The thread policy of every Wavebench program (wavebench-cli and the workbench): how many
// OpenMP threads a run uses unless told otherwise, and how idle OpenMP threads wait.
//
// A run's default thread count is the number of cores the process may use, never the
// machine's: its CPU affinity mask (taskset, cgroup cpusets, a Slurm task's binding), and no
// more than SLURM_CPUS_PER_TASK when Slurm gave the task that many CPUs on a node whose
// mask it does not narrow. An explicit OMP_NUM_THREADS (or a program's --threads) wins.
//
// Idle threads of a fixed team sleep at once (OMP_WAIT_POLICY=passive) unless the user set the
// policy: a spinning thread at a barrier burns a core that another program (or the partner
// thread it waits for) needs, and on a busy machine a team of spinners runs several times
// slower than one thread (docs/performance.md, "Under load"). A team that follows the load
// (core/run/load_following_team.hpp) is one thread beside a busy program, so nothing of it
// spins there; on idle cores wavebench-cli's lets its threads spin briefly before they sleep,
// since waking a sleeping thread at every barrier costs a virtual machine more than the step's
// second thread gains (docs/monai.md, "swe-adi on this day's machine"). The workbench's team
// shares its cores with the software renderer's threads, which it counts as its own: there the
// spin was slower (docs/gui-performance.md).
#include <optional>
#include <string>

namespace wb {

// The positive integer a SLURM_CPUS_PER_TASK value names, or nothing for an unset, empty,
// non-numeric, zero, negative or out-of-range value (Slurm writes a plain decimal integer;
// anything else is not trusted).
std::optional<int> parseCpusPerTask(const char* text);

// The rule: the CPUs of the affinity mask (at least 1), capped by SLURM_CPUS_PER_TASK's value
// when that parses. Pure, for tests; usableCores() applies it to this process.
int usableCores(int affinityCpus, const char* slurmCpusPerTask);

// The cores this process may use: sched_getaffinity's CPU count and the environment's
// SLURM_CPUS_PER_TASK (hardware_concurrency() when the mask cannot be read).
int usableCores();

// Sets OpenMP's default thread count to usableCores() unless OMP_NUM_THREADS is set. Call
// once at the start of main, before any parallel region.
void applyDefaultThreadCount();

// libgomp's spin count (GOMP_SPINCOUNT) before an idle thread of a load-following team sleeps:
// of those measured on builtin:monai, the one with the fastest two-thread run.
constexpr int kLoadFollowingSpinCount = 10000;

// Whether a run's team follows the load: its thread count is the default one (no
// OMP_NUM_THREADS; `threadsOption`, a program's --threads, 0) and the process may use at least
// two cores.
bool teamFollowsLoad(int threadsOption);

// When the user set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT: sets how idle threads wait,
// GOMP_SPINCOUNT=kLoadFollowingSpinCount for a team that follows the load, else
// OMP_WAIT_POLICY=passive, and starts this program again with the same arguments (libgomp reads
// both once, when it is loaded, before main, and has no call to change them later). Returns
// only when no restart was needed or it failed (then with a warning on stderr naming
// `program`). Call first thing in main.
void ensureWaitPolicy(char** argv, const char* program, bool followsLoad);

// How this process's idle OpenMP threads wait, as libgomp read it when loaded: its settings of
// OMP_WAIT_POLICY and GOMP_SPINCOUNT ("OMP_WAIT_POLICY=passive", both joined by ", "), or
// "libgomp's default" when neither is set. Printed beside a run's timings, which depend on it.
std::string waitSetting();

}  // namespace wb
