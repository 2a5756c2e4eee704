// study submit --slurm: the pending runs of a study as one Slurm job array. Task t of the
// array runs the t-th stretch of `per_task` pending runs (`wavebench-cli study run-one DIR
// INDEX` each, its output in runs/NNNN.log): one run per task unless the runs outnumber the
// cluster's MaxArraySize (read from `scontrol show config`), then as few per task as fit.
// The scheduler does the scheduling: this writes DIR/submit.sbatch and hands it to sbatch
// (or, with --dry-run, only writes it). The program and the folder must be reachable from the
// compute nodes.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <regex>

#include "app/cli/options.hpp"
#include "app/cli/study_command.hpp"
#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

extern char** environ;

namespace wb::cli {
namespace fs = std::filesystem;

std::optional<std::string> programOutput(const std::vector<std::string>& argv,
                                         const fs::path& errorLog) {
  int pipeEnds[2];
  if (pipe2(pipeEnds, O_CLOEXEC) != 0) return std::nullopt;
  const std::string errors = errorLog.empty() ? "/dev/null" : errorLog.string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeEnds[1]);
  std::string output;
  if (error == 0) {
    char buffer[4096];
    for (ssize_t got; (got = read(pipeEnds[0], buffer, sizeof buffer)) != 0;) {
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) break;
      output.append(buffer, std::size_t(got));
    }
  }
  close(pipeEnds[0]);
  if (error != 0) return std::nullopt;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return output;
}

std::string jobName(const StudyPlan& plan) {
  return "wavebench-study-" + plan.hash.substr(0, 8);
}

namespace {

// Slurm's default MaxArraySize, taken when scontrol cannot say (a --dry-run off the cluster).
constexpr int kDefaultMaxArraySize = 1001;

// The cluster's MaxArraySize: task ids run from 0 to one less.
int maxArraySize() {
  const auto config = programOutput({"scontrol", "show", "config"});
  std::smatch match;
  static const std::regex line(R"(MaxArraySize\s*=\s*(\d+))");
  if (config && std::regex_search(*config, match, line)) return std::max(1, std::stoi(match[1]));
  return kDefaultMaxArraySize;
}

// Slurm's D-HH:MM:SS for a task's limit: three times the longest estimate per run it takes, at
// least 10 min.
std::string timeLimit(const StudyPlan& plan, const std::vector<int>& indices, std::size_t perTask) {
  double longest = 0.0;
  for (int index : indices)
    longest = std::max(longest, plan.runs.at(std::size_t(index)).estimateSeconds);
  const long seconds = std::max(600L, long(std::ceil(3.0 * longest * double(perTask))));
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

// The text with control characters written as C escapes (\n, \x1b): for a comment line of the
// script and for one-line messages.
std::string printable(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "\\x%02x", c);
      out += code;
    } else {
      out += char(c);
    }
  }
  return out;
}

// A value as one word of a #SBATCH line. sbatch reads those lines itself (src/sbatch/opt.c,
// _get_argument): words split at white space, grouped by "..." or '...', a backslash escaping
// the next character, an unquoted # starting a comment. A value of plain characters goes in as
// it is, any other in double quotes with " and \ escaped. A line break cannot be written in
// one line, nor any other control character but a tab: refused.
std::string slurmWord(const std::string& option, const std::string& value) {
  for (unsigned char c : value)
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      throw InputError(option + ": '" + printable(value) +
                       "' holds a line break or another control character, which a #SBATCH "
                       "line of the batch script cannot hold");
  static const std::string plain =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,%=+@-";
  if (!value.empty() && value.find_first_not_of(plain) == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A Slurm time limit (sbatch --time): "M", "M:S", "H:M:S", "D-H", "D-H:M" or "D-H:M:S", whole
// numbers; minutes and seconds after a colon below 60, hours after a day below 24.
bool isSlurmTime(const std::string& text) {
  static const std::regex form(R"((?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?)");
  std::smatch m;
  if (text.size() > 16 || !std::regex_match(text, m, form)) return false;
  if (m[1].matched && std::stol(m[2]) >= 24) return false;
  for (int field : {3, 4})
    if (m[field].matched && std::stol(m[field]) >= 60) return false;
  return true;
}

// The Slurm options given on the command line, checked before anything is written: a value
// Slurm would refuse or read otherwise is refused here, with its reason.
struct SlurmOptions {
  std::optional<std::string> time, partition, mem, account;
  std::optional<int> arrayLimit;
};

SlurmOptions slurmOptions(const FlagReader& flags, const fs::path& dir) {
  SlurmOptions o;
  if (flags.value("--array-limit")) o.arrayLimit = flags.integer("--array-limit", 0, 1, 1000000);
  if ((o.time = flags.value("--time"))) {
    std::string lower = *o.time;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (!isSlurmTime(*o.time) && lower != "infinite" && lower != "unlimited")
      throw InputError("--time: '" + printable(*o.time) +
                       "' is not a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, "
                       "D-HH:MM:SS or UNLIMITED)");
  }
  static const std::regex name(R"([A-Za-z0-9_.-]+)"),
      names(R"([A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*)");
  static const std::regex size(R"(\d+[KMGTkmgt]?)");
  auto check = [&](const char* option, const std::regex& form, const char* what) {
    const auto value = flags.value(option);
    if (value && !std::regex_match(*value, form))
      throw InputError(std::string(option) + ": '" + printable(*value) + "' is not " + what);
    return value;
  };
  o.partition = check("--partition", names,
                      "a Slurm partition name (letters, digits, _ . -; several separated by ,)");
  o.account = check("--account", name, "a Slurm account name (letters, digits, _ . -)");
  o.mem = check("--mem", size,
                "a Slurm memory size (a whole number of megabytes, or with K, M, G "
                "or T: 4000, 16G)");
  // The job's log path goes into #SBATCH --output, where Slurm reads % patterns (%a the task,
  // %% a plain %) and a backslash anywhere turns them all off: refused.
  if (dir.string().find('\\') != std::string::npos)
    throw InputError("--out: '" + printable(dir.string()) +
                     "' holds a backslash, which Slurm's --output pattern cannot take");
  slurmWord("--out", dir.string());
  return o;
}

// The batch script: every #SBATCH line first (sbatch stops reading them at the first command),
// their values checked or quoted for sbatch's parser (slurmWord), then the commands with every
// value the shell reads in single quotes.
std::string batchScript(const fs::path& dir, const StudyPlan& plan, const std::vector<int>& pending,
                        const SlurmOptions& options, int arrayLimit) {
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::size_t perTask =
      (pending.size() + std::size_t(arrayLimit) - 1) / std::size_t(arrayLimit);
  const std::size_t tasks = (pending.size() + perTask - 1) / perTask;
  std::string logs = (dir / "runs" / "task-").string();
  for (std::size_t at = logs.find('%'); at != std::string::npos; at = logs.find('%', at + 2))
    logs.insert(at, 1, '%');  // %% is a plain % in Slurm's file name patterns
  std::string script = "#!/bin/bash\n";
  auto sbatch = [&](const std::string& option, const std::string& value) {
    script += "#SBATCH " + option + "=" + slurmWord(option, value) + "\n";
  };
  sbatch("--job-name", jobName(plan));
  sbatch("--array", "0-" + std::to_string(tasks - 1) +
                        (options.arrayLimit ? "%" + std::to_string(*options.arrayLimit) : ""));
  sbatch("--ntasks", "1");
  sbatch("--cpus-per-task", std::to_string(plan.threads));
  sbatch("--time", options.time.value_or(timeLimit(plan, pending, perTask)));
  sbatch("--output", logs + "%a.log");
  for (const auto& [option, value] :
       {std::pair{"--partition", options.partition}, std::pair{"--mem", options.mem},
        std::pair{"--account", options.account}})
    if (value) sbatch(option, *value);
  script += "# " + printable(plan.source) + ": " + std::to_string(pending.size()) + " runs of " +
            std::to_string(plan.runs.size()) + ", " + std::to_string(perTask) +
            " per task (MaxArraySize " + std::to_string(arrayLimit) +
            "; written by wavebench-cli study submit; docs/studies.md)\n";
  script += "export OMP_NUM_THREADS=" + std::to_string(plan.threads) + "\n";
  script += "runs=(";
  for (std::size_t k = 0; k < pending.size(); ++k) {
    if (k) script += ' ';
    script += std::to_string(pending[k]);
  }
  script += ")\nstatus=0\n";
  script += "for index in \"${runs[@]:$((SLURM_ARRAY_TASK_ID * " + std::to_string(perTask) +
            ")):" + std::to_string(perTask) + "}\"; do\n";
  script += "  " + quoted(self) + " study run-one " + quoted(dir.string()) + " \"$index\" > " +
            quoted((dir / "runs").string()) + "/$(printf %04d \"$index\").log 2>&1\n";
  script += "  code=$?\n  [ \"$code\" -gt \"$status\" ] && status=$code\ndone\nexit \"$status\"\n";
  return script;
}

}  // namespace

int submitSubcommand(const FlagReader& flags, const std::string& file) {
  if (!flags.isSet("--slurm"))
    throw InputError("study submit: --slurm is required (the one scheduler it submits to)");
  const auto out = flags.value("--out");
  if (!out) throw InputError("study submit: --out DIR is required");
  const fs::path dir = fs::absolute(*out);
  const SlurmOptions options = slurmOptions(flags, dir);
  const PreparedStudy study = prepareStudy(file, true);
  ensureWritableDirectory(*out);
  fs::create_directories(dir / "runs");
  const StudyLock lock = claimFolder(dir, study.plan);
  const std::vector<int> pending = pendingRuns(dir, study.plan, flags.isSet("--retry-failed"));
  if (pending.empty()) {
    std::printf("every run of %s is done in %s; nothing to submit\n", file.c_str(), dir.c_str());
    return 0;
  }
  const fs::path script = dir / "submit.sbatch";
  writeWholeFile(script, batchScript(dir, study.plan, pending, options, maxArraySize()));
  if (flags.isSet("--dry-run")) {
    std::printf("wrote %s (%zu runs); submit it with: sbatch %s\n", script.c_str(), pending.size(),
                script.c_str());
    return 0;
  }
  const auto job = programOutput({"sbatch", "--parsable", script.string()});
  if (!job || job->empty())
    throw InputError("study submit: sbatch refused " + script.string() +
                     " (or is not installed; the script is kept)");
  std::string id = *job;
  id.erase(std::remove(id.begin(), id.end(), '\n'), id.end());
  std::printf(
      "submitted %zu runs as job %s; follow them with: wavebench-cli study collect %s --wait\n",
      pending.size(), id.c_str(), dir.c_str());
  return 0;
}

}  // namespace wb::cli
