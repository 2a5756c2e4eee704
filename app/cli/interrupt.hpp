// SIGINT, SIGTERM and SIGHUP during `wavebench-cli run`: the handler only records the signal
// (an async-signal-safe, lock-free atomic); the run checks it between frames, finishes its
// files with every whole frame and exits with 128 + the signal's number (docs/cli.md).
// The handlers reset themselves (SA_RESETHAND): the same signal again ends the process at once.
#pragma once

#include <string>

namespace wb::cli {

class InterruptWatch {
 public:
  // Installs the handlers; the destructor restores the previous ones.
  InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
  ~InterruptWatch();

  // The signal received, or 0.
  static int pending();
  // "SIGINT", "SIGTERM" or "SIGHUP".
  static std::string name(int signal);
};

}  // namespace wb::cli
