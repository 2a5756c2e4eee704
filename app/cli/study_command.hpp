// wavebench-cli study plan|run|run-one|collect (docs/studies.md): a study's runs planned,
// run locally in parallel (each in a process of its own, `study run-one`), and collected into
// study.csv and eoc.csv.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

// The folder holds this study's plan (written now if it holds none); another study's results
// are never mixed in: InputError naming both plans.
void claimFolder(const std::filesystem::path& dir, const StudyPlan& plan);
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

// Runs one planned run in this process (study run-one) and writes its result. Returns the
// exit code: 0 ok, 3 blew up.
int runOneStudyRun(const std::filesystem::path& dir, int index);
// Runs the given runs in `jobs` processes of this program, with a progress bar on a terminal.
// Returns 0, or 128 + a signal that stopped it.
int runStudyJobs(const std::filesystem::path& dir, const StudyPlan& plan,
                 const std::vector<int>& pending, int jobs);
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
