// When a loop over grid cells is worth OpenMP threads. Starting and joining a team costs a
// few microseconds on an idle machine and a scheduler time slice (milliseconds) when the
// cores are shared and a team member is descheduled; a pass over fewer cells than this is
// cheaper on one thread (docs/performance.md: 80 x 80 swe-semi-lagrangian steps took 70-250 ms
// with two threads on a loaded machine; serial, the median step is 0.16 ms). Use as
//   #pragma omp parallel for if (worthThreads(cells))
#pragma once

#include <cstddef>

namespace wb {

// 128 x 128 cells: a float pass over them moves 64 KiB per field, about 10 microseconds.
inline constexpr std::size_t kParallelMinCells = 128 * 128;

inline bool worthThreads(std::size_t cells) {
  return cells >= kParallelMinCells;
}

}  // namespace wb

// A hot loop over grid cells written as a free function with restrict pointers, so that the
// compiler vectorises it: the build targets plain x86-64 (SSE2), and target_clones adds an
// AVX2 version chosen at load time on machines that have it.
#define WB_SPAN_KERNEL __attribute__((target_clones("avx2", "default")))
