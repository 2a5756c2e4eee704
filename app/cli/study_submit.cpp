// study submit --slurm: the pending runs of a study as one Slurm job array, a task per run
// (`wavebench-cli study run-one DIR`, its index from SLURM_ARRAY_TASK_ID). The scheduler does
// the scheduling: this writes DIR/submit.sbatch and hands it to sbatch (or, with --dry-run,
// only writes it). The program and the folder must be reachable from the compute nodes.
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/cli/options.hpp"
#include "app/cli/study_command.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"

extern char** environ;

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

// "0-3,7,9-10": the indices as Slurm's --array takes them.
std::string arraySpec(const std::vector<int>& indices) {
  std::string spec;
  for (std::size_t k = 0; k < indices.size();) {
    std::size_t end = k;
    while (end + 1 < indices.size() && indices[end + 1] == indices[end] + 1)
      ++end;
    if (!spec.empty()) spec += ',';
    spec += std::to_string(indices[k]);
    if (end > k) {
      spec += '-';
      spec += std::to_string(indices[end]);
    }
    k = end + 1;
  }
  return spec;
}

// Slurm's D-HH:MM:SS for a task's limit: three times the longest estimate, at least 10 min.
std::string timeLimit(const StudyPlan& plan, const std::vector<int>& indices) {
  double longest = 0.0;
  for (int index : indices)
    longest = std::max(longest, plan.runs.at(std::size_t(index)).estimateSeconds);
  const long seconds = std::max(600L, long(std::ceil(3.0 * longest)));
  char text[32];
  std::snprintf(text, sizeof text, "%ld-%02ld:%02ld:%02ld", seconds / 86400, seconds / 3600 % 24,
                seconds / 60 % 60, seconds % 60);
  return text;
}

// Single quotes for the shell.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string batchScript(const fs::path& dir, const StudyPlan& plan, const std::vector<int>& pending,
                        const FlagReader& flags) {
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::string script = "#!/bin/bash\n# " + plan.source + ": " + std::to_string(pending.size()) +
                       " runs of " + std::to_string(plan.runs.size()) +
                       " (written by wavebench-cli study submit; docs/studies.md)\n";
  script += "#SBATCH --job-name=wavebench-study-" + plan.hash.substr(0, 8) + "\n";
  script += "#SBATCH --array=" + arraySpec(pending) + "\n";
  script += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" + std::to_string(plan.threads) + "\n";
  script += "#SBATCH --time=" + flags.value("--time").value_or(timeLimit(plan, pending)) + "\n";
  script += "#SBATCH --output=" + (dir / "runs" / "%4a.log").string() + "\n";
  for (const char* option : {"--partition", "--mem", "--account"})
    if (const auto value = flags.value(option))
      script += std::string("#SBATCH ") + option + "=" + *value + "\n";
  script += "export OMP_NUM_THREADS=" + std::to_string(plan.threads) + "\n";
  script += "exec " + quoted(self) + " study run-one " + quoted(dir.string()) + "\n";
  return script;
}

}  // namespace

int submitSubcommand(const FlagReader& flags, const std::string& file) {
  if (!flags.isSet("--slurm"))
    throw InputError("study submit: --slurm is required (the one scheduler it submits to)");
  const auto out = flags.value("--out");
  if (!out) throw InputError("study submit: --out DIR is required");
  const PreparedStudy study = prepareStudy(file, true);
  const fs::path dir = fs::absolute(*out);
  fs::create_directories(dir / "runs");
  claimFolder(dir, study.plan);
  const std::vector<int> pending = pendingRuns(dir, study.plan, flags.isSet("--retry-failed"));
  if (pending.empty()) {
    std::printf("every run of %s is done in %s; nothing to submit\n", file.c_str(), dir.c_str());
    return 0;
  }
  const fs::path script = dir / "submit.sbatch";
  writeWholeFile(script, batchScript(dir, study.plan, pending, flags));
  if (flags.isSet("--dry-run")) {
    std::printf("wrote %s (%zu runs); submit it with: sbatch %s\n", script.c_str(), pending.size(),
                script.c_str());
    return 0;
  }
  const std::string scriptText = script.string();
  const char* argv[] = {"sbatch", scriptText.c_str(), nullptr};
  pid_t pid = 0;
  if (const int error =
          posix_spawnp(&pid, "sbatch", nullptr, nullptr, const_cast<char* const*>(argv), environ))
    throw InputError("study submit: cannot run sbatch: " + std::string(std::strerror(error)) +
                     " (wrote " + scriptText + ")");
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw InputError("study submit: sbatch refused " + scriptText);
  std::printf("submitted %zu runs; when they are done: wavebench-cli study collect %s\n",
              pending.size(), dir.c_str());
  return 0;
}

}  // namespace wb::cli
