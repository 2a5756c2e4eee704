// wavebench-cli: run, bench and verify headless (docs/cli.md).
// Exit codes: 0 success, 2 bad input (one line on stderr naming what and where), 3 a model
// blew up (naming model and time), 1 an internal error.
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/options.hpp"
#include "app/cli/study_command.hpp"
#include "core/errors.hpp"
#include "core/run/threads.hpp"

namespace {

const char* kUsage =
    "usage:\n"
    "  wavebench-cli run --scenario FILE|builtin:NAME [--models id,id] [--duration S | --frames "
    "N]\n"
    "                    [--out DIR] [--dump-every K] [--threads T] [--set id.param=value ...]\n"
    "                    [--max-maps [--arrival-tolerance M]]\n"
    "                    [--force] [--quiet] [--sequential]\n"
    "  wavebench-cli bench --models id,id --grid N [--frames K] [--threads T]\n"
    "                      [--set id.param=value ...] [--json]\n"
    "  wavebench-cli verify [--models id,id]\n"
    "  wavebench-cli list   (builtin scenarios and models with their parameters)\n"
    "  wavebench-cli study plan FILE|builtin:NAME\n"
    "  wavebench-cli study run FILE|builtin:NAME --out DIR [--jobs N] [--retry-failed]\n"
    "  wavebench-cli study run-one DIR [INDEX]   (INDEX from SLURM_ARRAY_TASK_ID if omitted)\n"
    "  wavebench-cli study submit FILE|builtin:NAME --out DIR --slurm [--dry-run] [--partition P]\n"
    "                    [--time D-HH:MM:SS] [--mem M] [--account A] [--retry-failed]\n"
    "  wavebench-cli study collect DIR   (docs/studies.md)\n";

// Whether this command's team follows the load: `run` without --threads (run_command.cpp).
bool followsLoad(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "run") != 0) return false;
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--threads") == 0) return false;
  return wb::teamFollowsLoad(0);
}

}  // namespace

int main(int argc, char** argv) {
  // A run takes the cores this process may use and, with the default count, follows their
  // load; idle OpenMP threads sleep, those of such a team after a short spin
  // (core/run/threads.hpp); --threads and OMP_NUM_THREADS win.
  wb::ensureWaitPolicy(argv, "wavebench-cli", followsLoad(argc, argv));
  wb::applyDefaultThreadCount();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    using wb::cli::FlagReader;
    if (command == "run")
      return wb::cli::runCommand(
          FlagReader(args,
                     {"--scenario", "--models", "--duration", "--frames", "--out", "--dump-every",
                      "--threads", "--set", "--arrival-tolerance"},
                     {"--force", "--quiet", "--sequential", "--max-maps"}, {"--set"}));
    if (command == "bench")
      return wb::cli::benchCommand(FlagReader(
          args, {"--models", "--grid", "--frames", "--threads", "--set"}, {"--json"}, {"--set"}));
    if (command == "verify") return wb::cli::verifyCommand(FlagReader(args, {"--models"}, {}));
    if (command == "study") return wb::cli::studyCommand(args);
    if (command == "list") {
      FlagReader(args, {}, {});  // list takes no option
      return wb::cli::listCommand();
    }
    std::fprintf(stderr,
                 "wavebench-cli: unknown command '%s' (expected run, bench, verify or list; "
                 "see --help)\n",
                 command.c_str());
    return 2;
  } catch (const wb::InputError& e) {
    std::fprintf(stderr, "wavebench-cli: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {  // where run knows what was too large, it says (InputError)
    std::fprintf(stderr, "wavebench-cli: %s: out of memory (try a smaller grid)\n",
                 command.c_str());
    return 2;
  } catch (const std::length_error&) {
    std::fprintf(stderr, "wavebench-cli: %s: an input too large for memory (try a smaller grid)\n",
                 command.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wavebench-cli: internal error: %s\n", e.what());
    return 1;
  }
}
