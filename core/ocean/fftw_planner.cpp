#include "core/ocean/fftw_planner.hpp"

#include <fftw3.h>

namespace wb {

std::mutex& fftwPlannerMutex() {
  static std::mutex mutex;
  return mutex;
}

void fftwPlanWithThreads(int threads) {
  static const bool initialised = fftwf_init_threads() != 0;
  fftwf_plan_with_nthreads(initialised ? threads : 1);
}

}  // namespace wb
