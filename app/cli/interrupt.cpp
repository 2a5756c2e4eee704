#include "app/cli/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace wb::cli {

namespace {

std::atomic<int> receivedSignal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

constexpr int kWatched[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction previous[std::size(kWatched)];

extern "C" void recordSignal(int signal) {
  int none = 0;
  receivedSignal.compare_exchange_strong(none, signal);  // the first signal names the stop
}

}  // namespace

InterruptWatch::InterruptWatch() {
  receivedSignal = 0;
  struct sigaction action {};
  action.sa_handler = recordSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  for (std::size_t k = 0; k < std::size(kWatched); ++k) {
    sigaction(kWatched[k], nullptr, &previous[k]);
    // A signal ignored by the caller (nohup's SIGHUP) stays ignored.
    if (previous[k].sa_handler != SIG_IGN) sigaction(kWatched[k], &action, nullptr);
  }
}

InterruptWatch::~InterruptWatch() {
  for (std::size_t k = 0; k < std::size(kWatched); ++k)
    sigaction(kWatched[k], &previous[k], nullptr);
}

int InterruptWatch::pending() {
  return receivedSignal.load();
}

std::string InterruptWatch::name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal " + std::to_string(signal);
  }
}

}  // namespace wb::cli
