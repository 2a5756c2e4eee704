// FFTW's planner is not thread-safe (FFTW manual 5.4); executing a plan is. Every plan in the
// workbench (fft-ocean's basin, the open-sea patch) is made and destroyed under this one lock.
#pragma once

#include <mutex>

namespace wb {

std::mutex& fftwPlannerMutex();
// Call with the lock held before planning: makes FFTW's OpenMP plans use `threads` threads
// (fftw3f_omp; initialised once).
void fftwPlanWithThreads(int threads);

}  // namespace wb
