// wavebench-cli run's outputs are whole or absent (docs/cli.md, run): a signal stops the run
// at a frame boundary and keeps every whole frame; a full disk names the reason and keeps the
// frames written; a second run on the same folder is refused; bad input found during the run
// leaves nothing behind; memory running out names the scenario.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void writeText(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// Every row of a CSV file with a header has the header's number of columns and ends with a
// newline: the file holds whole rows only. Returns the number of rows after the header.
int expectWholeRows(const fs::path& file) {
  const std::string text = readText(file);
  EXPECT_FALSE(text.empty()) << file;
  if (text.empty()) return 0;
  EXPECT_EQ(text.back(), '\n') << file;
  const auto lines = linesOf(text);
  const auto columns = std::count(lines[0].begin(), lines[0].end(), ',');
  for (std::size_t k = 1; k < lines.size(); ++k)
    EXPECT_EQ(std::count(lines[k].begin(), lines[k].end(), ','), columns)
        << file << " row " << k << ": " << lines[k];
  return int(lines.size()) - 1;
}

// A .pvd is the collection document, whole, and every file it lists exists beside it.
void expectWholePvd(const fs::path& pvd) {
  const auto lines = linesOf(readText(pvd));
  ASSERT_GE(lines.size(), 5u) << pvd;
  EXPECT_EQ(lines[0], "<?xml version=\"1.0\"?>");
  EXPECT_EQ(lines[1].rfind("<VTKFile type=\"Collection\"", 0), 0u);
  EXPECT_EQ(lines[2], "  <Collection>");
  EXPECT_EQ(lines[lines.size() - 2], "  </Collection>");
  EXPECT_EQ(lines.back(), "</VTKFile>");
  for (std::size_t k = 3; k + 2 < lines.size(); ++k) {
    const auto at = lines[k].find("file=\"");
    ASSERT_EQ(lines[k].rfind("    <DataSet timestep=\"", 0), 0u) << lines[k];
    ASSERT_NE(at, std::string::npos) << lines[k];
    const std::string name = lines[k].substr(at + 6, lines[k].find('"', at + 6) - at - 6);
    EXPECT_TRUE(fs::is_regular_file(pvd.parent_path() / name)) << name;
  }
}

struct Limits {
  rlim_t fileSize = RLIM_INFINITY;  // bytes (RLIMIT_FSIZE)
};

// wavebench-cli started with its stdout and stderr in files of the work folder.
class CliProcess {
 public:
  CliProcess(const fs::path& dir, const std::string& name, const std::vector<std::string>& args,
             Limits limits = {})
      : out_(dir / (name + ".out")), err_(dir / (name + ".err")) {
    std::vector<std::string> all{WAVEBENCH_CLI};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& arg : all)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    const std::string out = out_.string(), err = err_.string();
    pid_ = fork();
    if (pid_ == 0) {  // only async-signal-safe calls until exec
      const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(o, STDOUT_FILENO);
      dup2(e, STDERR_FILENO);
      if (limits.fileSize != RLIM_INFINITY) {
        const rlimit limit{limits.fileSize, limits.fileSize};
        setrlimit(RLIMIT_FSIZE, &limit);
        ::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead
      }
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~CliProcess() {
    if (pid_ > 0 && !waited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  void send(int number) const { kill(pid_, number); }

  // The wait status, or -1 after the timeout.
  int wait(std::chrono::seconds timeout = std::chrono::seconds(300)) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        waited_ = true;
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  std::string out() const { return readText(out_); }
  std::string err() const { return readText(err_); }

 private:
  fs::path out_, err_;
  pid_t pid_ = -1;
  bool waited_ = false;
};

int exitCodeOf(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class CliOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    dir_ = fs::temp_directory_path() /
           ("wavebench_cli_outputs_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  // Every file below folder, relative to it.
  static std::vector<std::string> filesBelow(const fs::path& folder) {
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
      files.push_back(fs::relative(entry.path(), folder).generic_string());
    std::sort(files.begin(), files.end());
    return files;
  }
  static void expectNoTemporaries(const fs::path& folder) {
    for (const auto& file : filesBelow(folder))
      EXPECT_EQ(file.find(".tmp"), std::string::npos) << file;
  }
  fs::path dir_;
};

// A run that would take days: crates has buoyant bodies, so bodies.csv and bodies.pvd too.
std::vector<std::string> longRun(const fs::path& out) {
  return {"run",          "--scenario", "builtin:crates", "--frames", "100000000",
          "--dump-every", "7",          "--quiet",        "--out",    out.string()};
}

// The frame N of "... (frame N); wrote frames 0 to N to DIR".
int stoppedFrame(const std::string& message) {
  const auto at = message.find("(frame ");
  return at == std::string::npos ? -1 : std::stoi(message.substr(at + 7));
}

class CliSignal : public CliOutputs, public ::testing::WithParamInterface<int> {};

TEST_P(CliSignal, StopsAtAFrameBoundaryKeepingEveryWholeFrame) {
  const int number = GetParam();
  const std::string name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "SIGHUP";
  const fs::path out = dir_ / "out";
  CliProcess run(dir_, "run", longRun(out));
  ASSERT_TRUE(waitForFile(out / "series.csv.tmp", 20000)) << run.err();
  run.send(number);
  const int status = run.wait();
  ASSERT_NE(status, -1) << "the run did not stop";
  EXPECT_EQ(exitCodeOf(status), 128 + number) << run.err();
  const std::string err = run.err();
  EXPECT_EQ(err.rfind("wavebench-cli: interrupted by " + name + " at t = ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  const int frame = stoppedFrame(err);
  ASSERT_GT(frame, 0) << err;
  EXPECT_NE(err.find("; wrote frames 0 to " + std::to_string(frame) + " to " + out.string() + "\n"),
            std::string::npos)
      << err;

  // Every frame up to the stop, whole, in every file; nothing half-written.
  expectNoTemporaries(out);
  const int models = 4;  // crates runs the default set
  EXPECT_EQ(expectWholeRows(out / "series.csv"), models * (frame + 1));
  int bodyLogs = 0;
  for (const auto& entry : fs::directory_iterator(out)) {
    if (!entry.is_directory()) continue;
    expectWholePvd(entry.path() / "eta.pvd");
    expectWholePvd(entry.path() / "bodies.pvd");
    const int rows = expectWholeRows(entry.path() / "bodies.csv");
    EXPECT_EQ(rows % (frame + 1), 0) << "bodies.csv holds whole frames only";
    ++bodyLogs;
  }
  EXPECT_EQ(bodyLogs, models);
}

INSTANTIATE_TEST_SUITE_P(Signals, CliSignal, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const auto& info) {
                           return info.param == SIGINT    ? std::string("Sigint")
                                  : info.param == SIGTERM ? std::string("Sigterm")
                                                          : std::string("Sighup");
                         });

TEST_F(CliOutputs, SecondRunOnTheSameFolderIsRefused) {
  const fs::path out = dir_ / "out";
  CliProcess first(dir_, "first", longRun(out));
  ASSERT_TRUE(waitForFile(out / "series.csv.tmp", 1000)) << first.err();
  CliProcess second(dir_, "second",
                    {"run", "--scenario", "builtin:pi-pool", "--frames", "30", "--dump-every", "1",
                     "--quiet", "--out", out.string()});
  const int secondStatus = second.wait();
  EXPECT_EQ(exitCodeOf(secondStatus), 2);
  EXPECT_EQ(second.err(),
            "wavebench-cli: " + out.string() + ": output folder is in use by another run\n");

  first.send(SIGTERM);
  EXPECT_EQ(exitCodeOf(first.wait()), 128 + SIGTERM) << first.err();
  // The first run's files are its own: whole rows, and only its frames.
  const int frame = stoppedFrame(first.err());
  EXPECT_EQ(expectWholeRows(out / "series.csv"), 4 * (frame + 1));
  expectNoTemporaries(out);
}

// flock is released by the kernel when its process dies: a killed run blocks nothing.
TEST_F(CliOutputs, FolderOfAKilledRunIsFreeAgain) {
  const fs::path out = dir_ / "out";
  {
    CliProcess killed(dir_, "killed", longRun(out));
    ASSERT_TRUE(waitForFile(out / "series.csv.tmp", 1000)) << killed.err();
    killed.send(SIGKILL);
    EXPECT_TRUE(WIFSIGNALED(killed.wait()));
  }
  CliProcess next(
      dir_, "next",
      {"run", "--scenario", "builtin:pi-pool", "--frames", "3", "--quiet", "--out", out.string()});
  EXPECT_EQ(exitCodeOf(next.wait()), 0) << next.err();
  EXPECT_EQ(expectWholeRows(out / "series.csv"), 4 * 4);
  // The folder holds the new run alone: the killed run's dumps, logs and temporaries are gone.
  EXPECT_EQ(filesBelow(out), std::vector<std::string>{"series.csv"});
}

// A folder holds one run: a rerun replaces an earlier run's files (other models' folders,
// frames beyond the new run's), and a folder holding anything else is refused, untouched.
TEST_F(CliOutputs, RerunReplacesAnEarlierRunAndRefusesAFolderOfOtherFiles) {
  const fs::path out = dir_ / "out";
  auto run = [&](const std::string& name, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"run", "--scenario", "builtin:pi-pool", "--dump-every",
                                  "2",   "--quiet",    "--out",           out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    CliProcess process(dir_, name, args);
    const int code = exitCodeOf(process.wait());
    return std::pair{code, process.err()};
  };
  ASSERT_EQ(run("first", {"--frames", "6"}).first, 0);
  ASSERT_TRUE(fs::exists(out / "advected-wave" / "eta_00006.csv"));
  const auto second = run("second", {"--frames", "2", "--models", "damped-wave"});
  ASSERT_EQ(second.first, 0) << second.second;
  const std::vector<std::string> secondFiles = {"damped-wave",
                                                "damped-wave/eta.pvd",
                                                "damped-wave/eta_00000.csv",
                                                "damped-wave/eta_00000.vti",
                                                "damped-wave/eta_00002.csv",
                                                "damped-wave/eta_00002.vti",
                                                "series.csv"};
  EXPECT_EQ(filesBelow(out), secondFiles);
  expectWholePvd(out / "damped-wave" / "eta.pvd");

  writeText(out / "notes.txt", "mine\n");
  writeText(out / "damped-wave" / "plot.py", "mine\n");
  const auto third = run("third", {"--frames", "4"});
  EXPECT_EQ(third.first, 2);
  EXPECT_EQ(third.second, "wavebench-cli: " + out.string() +
                              ": the output folder holds files that wavebench-cli run does not "
                              "write (damped-wave/plot.py, notes.txt); give a new or empty "
                              "folder, or one that holds only an earlier run\n");
  std::vector<std::string> kept = secondFiles;
  kept.insert(kept.begin() + 6, "damped-wave/plot.py");
  kept.insert(kept.begin() + 7, "notes.txt");
  EXPECT_EQ(filesBelow(out), kept);
}

// A file size limit fails writes with EFBIG as a full disk fails them with ENOSPC, and needs
// no privilege: the reason is named and the frames written before are kept, whole.
TEST_F(CliOutputs, FailedWriteNamesTheReasonAndKeepsWholeFrames) {
  const fs::path out = dir_ / "out";
  CliProcess run(dir_, "run",
                 {"run", "--scenario", "builtin:pi-pool", "--frames", "2000", "--quiet", "--out",
                  out.string()},
                 Limits{50000});
  const int status = run.wait();
  EXPECT_EQ(exitCodeOf(status), 2) << run.err();
  const std::string err = run.err();
  const std::string start = "wavebench-cli: " + (out / "series.csv").string() +
                            ": write failed: File too large; kept frames 0 to ";
  EXPECT_EQ(err.rfind(start, 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  const int frame = std::atoi(err.c_str() + std::min(err.size(), start.size()));
  EXPECT_GT(frame, 10) << err;
  EXPECT_EQ(expectWholeRows(out / "series.csv"), 4 * (frame + 1));
  EXPECT_NE(err.find(" in " + out.string() + "\n"), std::string::npos) << err;
  expectNoTemporaries(out);
}

// A real full disk: a 256 KiB tmpfs. Mounting needs root (CAP_SYS_ADMIN); without it the
// file size limit above covers the same path.
TEST_F(CliOutputs, FullDiskNamesTheReasonAndKeepsWholeFramesAndIndexes) {
  const fs::path disk = dir_ / "disk";
  fs::create_directories(disk);
  if (mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=256k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno)
                 << "): needs root with CAP_SYS_ADMIN";
  const struct Unmount {
    fs::path disk;
    ~Unmount() { umount2(disk.c_str(), MNT_DETACH); }
  } unmount{disk};
  const fs::path out = disk / "out";
  CliProcess run(dir_, "run",
                 {"run", "--scenario", "builtin:pi-pool", "--models", "damped-wave", "--frames",
                  "2000", "--dump-every", "1", "--quiet", "--out", out.string()});
  const int status = run.wait();
  const std::string err = run.err();
  EXPECT_EQ(exitCodeOf(status), 2) << err;
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  const auto kept = err.find("; kept frames 0 to ");
  ASSERT_NE(kept, std::string::npos) << err;
  const int frame = std::atoi(err.c_str() + kept + 19);
  EXPECT_GT(frame, 0) << err;
  EXPECT_EQ(expectWholeRows(out / "series.csv"), frame + 1);
  expectWholePvd(out / "damped-wave" / "eta.pvd");
  expectNoTemporaries(out);
}

// A body excitation entering on a wall is bad input found during the run: exit 2 and no
// output, as for bad input found before it. In a folder that existed, only what this run made
// is removed.
TEST_F(CliOutputs, BadInputFoundDuringTheRunLeavesNoOutput) {
  writeText(dir_ / "wall.json", R"({"grid": {"nx": 64, "ny": 64, "dx": 0.1},
      "domain": {"mask": "pi"},
      "excitations": [{"type": "body", "time": 0.1, "shape": "box", "size": [0.2, 0.2, 0.2],
                       "density": 500, "x": 3.2, "y": 2.5}],
      "duration": 0.3})");
  const std::vector<std::string> args{
      "run", "--scenario", (dir_ / "wall.json").string(), "--dump-every", "1", "--quiet", "--out"};
  auto withOut = [&](const fs::path& out) {
    auto all = args;
    all.push_back(out.string());
    return all;
  };
  CliProcess fresh(dir_, "fresh", withOut(dir_ / "fresh" / "out"));
  EXPECT_EQ(exitCodeOf(fresh.wait()), 2);
  EXPECT_EQ(fresh.err().rfind("wavebench-cli: " + (dir_ / "wall.json").string() +
                                  ": excitations: the body entering at t = 0.1 s",
                              0),
            0u)
      << fresh.err();
  EXPECT_FALSE(fs::exists(dir_ / "fresh"))
      << "left: " << ::testing::PrintToString(filesBelow(dir_ / "fresh"));

  const fs::path used = dir_ / "used";
  fs::create_directories(used / "damped-wave");
  writeText(used / "notes.txt", "mine\n");
  writeText(used / "damped-wave" / "old.csv", "1\n");
  CliProcess again(dir_, "again", withOut(used));
  EXPECT_EQ(exitCodeOf(again.wait()), 2);
  EXPECT_EQ(filesBelow(used),
            (std::vector<std::string>{"damped-wave", "damped-wave/old.csv", "notes.txt"}));
}

// Memory running out is bad input naming the scenario and what was being built, not an
// internal error. An address space limit makes a 4096^2 grid too large; ASan reserves far
// more address space than any limit leaves.
TEST_F(CliOutputs, OutOfMemoryNamesTheScenarioAndTheGrid) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WAVEBENCH_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(WAVEBENCH_TEST_ASAN)
  GTEST_SKIP() << "AddressSanitizer cannot run under an address space limit";
#endif
  writeText(dir_ / "big.json", R"({"grid": {"nx": 4096, "ny": 4096, "dx": 0.01}})");
  const std::string command = "cd '" + dir_.string() +
                              "' && ulimit -v 400000 && '" WAVEBENCH_CLI
                              "' run --scenario big.json --frames 1 --quiet 2> cli.err";
  const int status = std::system(command.c_str());
  EXPECT_EQ(exitCodeOf(status), 2);
  EXPECT_EQ(readText(dir_ / "cli.err"),
            "wavebench-cli: big.json: out of memory building the models on a 4096 x 4096 grid "
            "(try a smaller grid or body)\n");
}

}  // namespace
}  // namespace wb
