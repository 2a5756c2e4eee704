#pragma once
// The thread policy of every Wavebench program (wavebench-cli and the workbench): how many
// OpenMP threads a run uses unless told otherwise, and how idle OpenMP threads wait.
//
// A run's default thread count is the number of cores the process may use, never the
// machine's: its CPU affinity mask (taskset, cgroup cpusets, a Slurm task's binding), and no
// more than SLURM_CPUS_PER_TASK when Slurm gave the task that many CPUs on a node whose
// mask it does not narrow. An explicit OMP_NUM_THREADS (or a program's --threads) wins.
//
// Idle threads sleep instead of spinning (OMP_WAIT_POLICY=passive) unless the user set the
// policy: a spinning thread at a barrier burns a core that another program (or the partner
// thread it waits for) needs, and on a busy machine a team of spinners runs several times
// slower than one thread (docs/performance.md, "Under load").
#include <optional>

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

// When OMP_WAIT_POLICY is unset, sets it to passive and starts this program again with the
// same arguments (libgomp reads the policy once, when it is loaded, before main, and has no
// call to change it later). Returns only when no restart was needed or it failed (then with
// a warning on stderr naming `program`). Call first thing in main.
void ensurePassiveWaitPolicy(char** argv, const char* program);

}  // namespace wb
