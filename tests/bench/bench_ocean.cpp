// The open sea's cost (docs/fft-ocean.md, "Cost"): one frame of Tessendorf's patch, the
// spectrum at t (eq. 43, phases from t) and the float complex-to-real transforms of the height
// and the two slopes, on 1 and 2 threads (FFTW's OpenMP threads and the spectral loop); beside
// it the walled basin's surface (a step and the inverse DCT, single-threaded FFTW) at the same
// size. Run with the triad rows:
//   build/release/tests/bench/wavebench_bench
//     --benchmark_filter='^(ocean/.*|triad)/(512|1024)/' --benchmark_min_time=0.5
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/ocean/ocean_patch.hpp"
#include "core/ocean/ocean_spectrum.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

// A 10 m/s JONSWAP sea on a patch of n points 0.5 m apart, 30 m deep.
void BM_OpenSeaSurface(benchmark::State& state) {
  const int n = int(state.range(0)), threads = int(state.range(1));
  omp_set_num_threads(threads);
  OceanPatch patch(PatchGeometry{n, n, 0.5, 9.81, 30.0}, threads);
  WindSea sea;
  sea.windSpeed = 10.0;
  sea.depth = 30.0;
  patch.addWindSea(OceanSpectrum(sea), 1);
  double t = 0.0;
  for (auto _ : state) {
    t += 1.0 / 60.0;
    patch.evaluate(t, PatchOutputs{.slopes = true});
    benchmark::DoNotOptimize(patch.height().data());
  }
  state.counters["cells_per_s"] =
      benchmark::Counter(double(state.iterations()) * n * n, benchmark::Counter::kIsRate);
}

// The basin's frame: a step (the rotation) and eta() (the float inverse DCT).
void BM_BasinSurface(benchmark::State& state) {
  const int n = int(state.range(0));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain(Grid{n, n, 0.5}, 9.81, 30.0);
  auto model = createModel("fft-ocean");
  Field2D drop(n, n);
  drop(n / 3, n / 2) = 0.1f;
  model->reset(domain, drop);
  const double dt = model->preferredDt();
  for (auto _ : state) {
    model->step(dt);
    benchmark::DoNotOptimize(model->eta().data());
  }
  state.counters["cells_per_s"] =
      benchmark::Counter(double(state.iterations()) * n * n, benchmark::Counter::kIsRate);
}

// The fastest repetition (with --benchmark_repetitions): on a machine others share, the mean is
// the scheduler's; the minimum is the code's.
double fastest(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

const bool kRegistered = [] {
  for (int64_t n : {32, 256, 512, 1024}) {
    for (int64_t threads : {1, 2})
      benchmark::RegisterBenchmark("ocean/open-surface", BM_OpenSeaSurface)
          ->Args({n, threads})
          ->Unit(benchmark::kMillisecond)
          ->ComputeStatistics("min", fastest)
          ->UseRealTime();
    benchmark::RegisterBenchmark("ocean/basin-surface", BM_BasinSurface)
        ->Args({n, 1})
        ->Unit(benchmark::kMillisecond)
        ->ComputeStatistics("min", fastest)
        ->UseRealTime();
  }
  return true;
}();

}  // namespace
}  // namespace wb
