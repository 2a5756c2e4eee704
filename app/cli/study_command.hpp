// wavebench-cli study plan|run|run-one|collect (docs/studies.md): a study's runs planned,
// run locally in parallel (each in a process of its own, `study run-one`), and collected into
// study.csv and eoc.csv.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/run/comparison.hpp"
#include "core/scenario/scenario.hpp"
#include "core/study/study_plan.hpp"
#include "core/study/study_results.hpp"
#include "core/study/study_spec.hpp"

namespace wb::cli {

// `study SUBCOMMAND ...`: args after "study".
int studyCommand(std::vector<std::string> args);

// A study file read, its scenario loaded, its runs expanded and checked, each run's dt
// resolved on its grid, and (with calibrate) each run's cost estimated.
struct PreparedStudy {
  StudySpec spec;
  Scenario base;
  StudyPlan plan;
  int calibrationGrid = 0;
};
PreparedStudy prepareStudy(const std::string& fileOrBuiltin, bool calibrate);

class FlagReader;

// The lock of a study's folder: flock(2) on the folder, which the kernel drops when the last
// process holding it dies. `study run` and `submit` hold it exclusively; each `run-one` holds it
// shared, so Slurm's tasks run side by side but never beside a `study run` or a `submit` of the
// folder. The runs a `study run` starts share its own lock through the descriptor they inherit
// (kInheritedLockFd), so a run outliving its parent still holds the folder.
class StudyLock {
 public:
  enum class Kind { Exclusive, Shared };
  // Throws InputError naming the folder and who holds it.
  StudyLock(const std::filesystem::path& dir, Kind kind);
  // The lock a `study run` parent passed down, when this process is one of its runs (the
  // descriptor kInheritedLockFd on the same folder, holding it); none otherwise.
  static std::optional<StudyLock> inherited(const std::filesystem::path& dir);
  StudyLock(StudyLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  StudyLock& operator=(StudyLock&&) = delete;
  ~StudyLock();
  int fd() const { return fd_; }

 private:
  explicit StudyLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};
// The descriptor a run started by `study run` finds its parent's lock on, and the variable
// naming that parent's pid (docs/studies.md).
constexpr int kInheritedLockFd = 9;
constexpr const char* kStudyParentVariable = "WAVEBENCH_STUDY_PARENT";
// Whether a `study run` or `submit` holds the folder now.
bool studyFolderBusy(const std::filesystem::path& dir);

// Locks the folder for a command that writes it (run, submit) and makes sure it holds this
// study's plan (written now if it holds none); another study's results are never mixed in:
// InputError naming both plans.
[[nodiscard]] StudyLock claimFolder(const std::filesystem::path& dir, const StudyPlan& plan);
// The runs without a result of this plan in the folder (and the failed ones when retryFailed).
std::vector<int> pendingRuns(const std::filesystem::path& dir, const StudyPlan& plan,
                             bool retryFailed);
// study submit FILE --out DIR --slurm [--dry-run]: one sbatch --array job of the pending runs.
int submitSubcommand(const FlagReader& flags, const std::string& file);

// The study's folder: its plan and one result file per run.
std::filesystem::path planFile(const std::filesystem::path& dir);
std::filesystem::path resultFile(const std::filesystem::path& dir, int index);
std::filesystem::path etaFile(const std::filesystem::path& dir, int index, std::size_t time);
StudyPlan readPlan(const std::filesystem::path& dir);
// The run's result when its file holds a whole one of this plan.
std::optional<RunResult> readResult(const std::filesystem::path& dir, const StudyPlan& plan,
                                    int index);
void writeResult(const std::filesystem::path& dir, const RunResult& result);

// The run's comparison, built as `run` builds one (the domain, the initial state, the reference,
// the gauges and each model's own checks), with the run's parameters and, when dt > 0, that
// step. Throws InputError for anything `run` would refuse.
Comparison studyComparison(const PlannedRun& run, const Scenario& scenario, double dt, bool force);

// Runs one planned run in this process (study run-one) and writes its result. Returns the
// exit code: 0 ok, 3 blew up.
int runOneStudyRun(const std::filesystem::path& dir, int index);
// Runs the given runs in `jobs` processes of this program, with a progress bar on a terminal.
// Returns 0, or 128 + a signal that stopped it.
// Each run shares `lock` and dies with this process (PR_SET_PDEATHSIG).
int runStudyJobs(const std::filesystem::path& dir, const StudyPlan& plan,
                 const std::vector<int>& pending, int jobs, const StudyLock& lock);
// Merges the results into DIR/study.csv and DIR/eoc.csv; returns the results.
std::vector<std::optional<RunResult>> collectStudy(const std::filesystem::path& dir,
                                                   const StudyPlan& plan);

// What a program printed on stdout when it exited with 0; none when it could not run or failed.
// Its stderr goes to `errorLog` (written anew), or nowhere when that is empty.
std::optional<std::string> programOutput(const std::vector<std::string>& argv,
                                         const std::filesystem::path& errorLog = {});
// The Slurm job name of a study's arrays (squeue -n).
std::string jobName(const StudyPlan& plan);

MachineInfo thisMachine();
std::string durationText(double seconds);  // "2.3 s", "4 min 12 s", "1 h 05 min"

}  // namespace wb::cli
