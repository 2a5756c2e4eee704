// study run: the pending runs of a study, each in a process of its own (`wavebench-cli study
// run-one DIR INDEX`, its output in runs/NNNN.log), `jobs` at a time. A process has its own
// peak memory and CPU time, and a run that crashes takes only itself down: it is recorded as
// failed and the others go on. A signal stops the study: the runs in progress are stopped and
// left unrecorded, so a rerun does them again.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <thread>

#include "app/cli/interrupt.hpp"
#include "app/cli/study_command.hpp"
#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

extern char** environ;

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid = 0;
  int index = 0;
  Clock::time_point start;
};

fs::path logFile(const fs::path& dir, int index) {
  fs::path file = resultFile(dir, index);
  return file.replace_extension(".log");
}

// The run's process: its output in runs/NNNN.log, the study's lock on kInheritedLockFd and this
// process's pid in kStudyParentVariable, by which the run shares the lock and asks to die with
// this process (StudyLock::inherited): a study killed outright (SIGKILL) leaves no run behind
// to race a rerun.
pid_t spawnRun(const fs::path& dir, int index, const StudyLock& lock) {
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string log = logFile(dir, index).string();
  const std::string indexText = std::to_string(index);
  const std::string dirText = dir.string();
  const std::string parent = std::string(kStudyParentVariable) + "=" + std::to_string(getpid());
  std::vector<char*> environment;
  for (char** variable = environ; *variable; ++variable)
    if (!std::string_view(*variable).starts_with(std::string(kStudyParentVariable) + "="))
      environment.push_back(*variable);
  environment.push_back(const_cast<char*>(parent.c_str()));
  environment.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  if (lock.fd() >= 0) posix_spawn_file_actions_adddup2(&actions, lock.fd(), kInheritedLockFd);
  const char* argv[] = {"wavebench-cli", "study",           "run-one",
                        dirText.c_str(), indexText.c_str(), nullptr};
  pid_t pid = 0;
  const int error = posix_spawn(&pid, self.c_str(), &actions, nullptr,
                                const_cast<char* const*>(argv), environment.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0)
    throw InputError("study run: cannot start a run: " + std::string(std::strerror(error)));
  return pid;
}

std::string lastLine(const fs::path& file) {
  std::string text;
  try {
    text = readFileBytes(file);
  } catch (const InputError&) {
    return "";
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.pop_back();
  return text.substr(text.find_last_of('\n') == std::string::npos ? 0
                                                                  : text.find_last_of('\n') + 1);
}

// A run whose process ended without writing its result (a crash, memory running out).
void recordCrash(const fs::path& dir, const StudyPlan& plan, int index, int status) {
  RunResult result;
  result.hash = plan.hash;
  result.index = index;
  result.name = plan.runs.at(std::size_t(index)).name;
  result.status = "failed";
  result.threads = plan.threads;
  result.machine = thisMachine();
  for (double time : plan.errorAt)
    result.errors.push_back({time});
  result.reason = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status)) +
                                            " (" + strsignal(WTERMSIG(status)) + ")"
                                      : "exited with " + std::to_string(WEXITSTATUS(status));
  if (const std::string line = lastLine(logFile(dir, index)); !line.empty())
    result.reason += ": " + line;
  writeResult(dir, result);
}

class Progress {
 public:
  Progress(const StudyPlan& plan, const std::vector<int>& pending, int jobs)
      : plan_(plan), total_(int(pending.size())), jobs_(jobs), bar_(isatty(STDERR_FILENO)) {
    for (int index : pending)
      estimate_ += plan.runs.at(std::size_t(index)).estimateSeconds;
  }
  void finished(int index, const std::string& status, double seconds) {
    ++done_;
    doneEstimate_ += plan_.runs.at(std::size_t(index)).estimateSeconds;
    if (!bar_)
      std::fprintf(stderr, "study: [%d/%d] %s: %s (%s)\n", done_, total_,
                   plan_.runs.at(std::size_t(index)).name.c_str(), status.c_str(),
                   durationText(seconds).c_str());
    else if (status != "ok")
      std::fprintf(stderr, "\r\033[Kstudy: %s: %s\n",
                   plan_.runs.at(std::size_t(index)).name.c_str(), status.c_str());
    draw();
  }
  // The bar, on a terminal: done runs, time so far and left (scaled by the calibration's
  // estimates of what is done and what is left).
  void draw() {
    if (!bar_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double left = estimate_ - doneEstimate_;
    const double eta = doneEstimate_ > 0 ? elapsed * left / doneEstimate_ : left / jobs_;
    const int width = 30;
    const int filled = total_ ? width * done_ / total_ : width;
    std::fprintf(stderr, "\r\033[K[%s%s] %d/%d runs, %s, ETA %s", std::string(filled, '#').c_str(),
                 std::string(width - filled, '-').c_str(), done_, total_,
                 durationText(elapsed).c_str(), durationText(eta).c_str());
  }
  void end() {
    if (bar_) std::fprintf(stderr, "\n");
  }

 private:
  const StudyPlan& plan_;
  int total_, jobs_, done_ = 0;
  bool bar_;
  double estimate_ = 0.0, doneEstimate_ = 0.0;
  Clock::time_point start_ = Clock::now();
};

}  // namespace

int runStudyJobs(const fs::path& dir, const StudyPlan& plan, const std::vector<int>& pending,
                 int jobs, const StudyLock& lock) {
  const InterruptWatch interrupts;
  Progress progress(plan, pending, jobs);
  std::vector<Child> running;
  std::size_t next = 0;
  auto lastDraw = Clock::now();
  while (next < pending.size() || !running.empty()) {
    if (const int signal = InterruptWatch::pending()) {
      for (const Child& child : running)
        kill(child.pid, SIGTERM);
      for (const Child& child : running)
        waitpid(child.pid, nullptr, 0);
      progress.end();
      std::fprintf(stderr, "wavebench-cli: study interrupted by %s; finished runs are kept in %s\n",
                   InterruptWatch::name(signal).c_str(), dir.c_str());
      return 128 + signal;
    }
    while (int(running.size()) < jobs && next < pending.size()) {
      const int index = pending[next++];
      running.push_back({spawnRun(dir, index, lock), index, Clock::now()});
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (Clock::now() - lastDraw > std::chrono::milliseconds(500))
        progress.draw(), lastDraw = Clock::now();
      continue;
    }
    const auto it =
        std::find_if(running.begin(), running.end(), [&](const Child& c) { return c.pid == pid; });
    if (it == running.end()) continue;
    const Child child = *it;
    running.erase(it);
    const bool stoppedBySignal =
        WIFSIGNALED(status) &&
        (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGHUP);
    if (stoppedBySignal) continue;  // the study is being stopped: not a result of the run
    auto result = readResult(dir, plan, child.index);
    if (!result) {
      recordCrash(dir, plan, child.index, status);
      result = readResult(dir, plan, child.index);
    }
    progress.finished(child.index, result ? result->status : "failed",
                      std::chrono::duration<double>(Clock::now() - child.start).count());
  }
  progress.end();
  return 0;
}

}  // namespace wb::cli
