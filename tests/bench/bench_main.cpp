// Benchmarks: a STREAM-like triad as the bandwidth reference, every registered model's full
// step, and a plain scalar damped-wave loop as the naive reference. Each model benchmark
// reports cells/s and, where the bytes a step must move are known, the bandwidth it implies;
// divide by the triad's bytes_per_second of the same size for the roofline fraction.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <map>
#include <vector>

#include "core/excitations.hpp"
#include "core/field2d.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

const std::vector<int64_t> kSizes = {32, 128, 256, 512, 1024, 2048};

// Bytes a step must move per cell at the least: each field read or written once.
// damped-wave: read h^n, h^{n-1}, write h^{n+1}.
const std::map<std::string, double> kBytesPerCell = {{"damped-wave", 12.0}};

void BM_Triad(benchmark::State& state) {
  const std::size_t n = std::size_t(state.range(0)) * std::size_t(state.range(0));
  omp_set_num_threads(int(state.range(1)));
  Field2D a(int(state.range(0)), int(state.range(0))), b = a, c = a;
  b.fill(1.0f), c.fill(2.0f);
  float* pa = a.data();
  const float* pb = b.data();
  const float* pc = c.data();
  for (auto _ : state) {
#pragma omp parallel for simd schedule(static)
    for (std::size_t k = 0; k < n; ++k)
      pa[k] = pb[k] + 0.5f * pc[k];
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n) * 12);
}

void BM_ModelStep(benchmark::State& state, const std::string& id) {
  const int n = int(state.range(0));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain(Grid{n, n, 10.0 / n}, 9.81, 1.0);
  Field2D eta0(n, n);
  stampGaussian(eta0, domain, {0.0, 4.0, 5.0, 0.5, 0.05, EventSource::Drop});
  auto model = createModel(id);
  model->reset(domain, eta0);
  const double dt = model->preferredDt();
  for (auto _ : state)
    model->step(dt);
  const double cells = double(state.iterations()) * n * n;
  state.counters["cells_per_s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
  state.counters["steps_per_s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  if (auto it = kBytesPerCell.find(id); it != kBytesPerCell.end())
    state.SetBytesProcessed(int64_t(cells * it->second));
}

// The naive reference: the damped-wave step (8 neighbours, mirror walls) as a plain triple
// loop with the wall test inside, the way the papers write it, kept scalar.
__attribute__((optimize("no-tree-vectorize"))) void naiveDampedStep(
    const std::vector<float>& h, const std::vector<float>& hOld, std::vector<float>& hNew,
    const std::vector<unsigned char>& wet, int n, float R, float mu) {
  auto at = [&](int i, int j, int ci, int cj) {
    if (i < 0 || j < 0 || i >= n || j >= n || !wet[std::size_t(j) * n + i])
      return h[std::size_t(cj) * n + ci];
    return h[std::size_t(j) * n + i];
  };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (!wet[std::size_t(j) * n + i]) continue;
      const float c = h[std::size_t(j) * n + i];
      float edges = 0.0f, corners = 0.0f;
      for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
          if (di == 0 && dj == 0) continue;
          const float v = at(i + di, j + dj, i, j) - c;
          (di == 0 || dj == 0 ? edges : corners) += v;
        }
      const std::size_t k = std::size_t(j) * n + i;
      hNew[k] = c + R * (c - hOld[k]) + mu * (0.5f * edges + 0.25f * corners);
    }
}

void BM_NaiveDampedWave(benchmark::State& state) {
  const int n = int(state.range(0));
  std::vector<float> h(std::size_t(n) * n, 0.0f), hOld = h, hNew = h;
  std::vector<unsigned char> wet(h.size(), 1);
  h[h.size() / 2 + n / 2] = 0.1f;
  for (auto _ : state) {
    naiveDampedStep(h, hOld, hNew, wet, n, 0.99f, 0.2f);
    std::swap(hOld, h);
    std::swap(h, hNew);
    benchmark::ClobberMemory();
  }
  const double cells = double(state.iterations()) * n * n;
  state.counters["cells_per_s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
  state.counters["steps_per_s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(int64_t(cells * 12));
}

void registerAll() {
  for (int64_t n : kSizes)
    for (int64_t threads : {1, 2}) {
      benchmark::RegisterBenchmark("triad", BM_Triad)->Args({n, threads})->UseRealTime();
      for (const auto& id : modelIds())
        benchmark::RegisterBenchmark(("step/" + id).c_str(), BM_ModelStep, id)
            ->Args({n, threads})
            ->UseRealTime();
    }
  for (int64_t n : kSizes)
    benchmark::RegisterBenchmark("naive/damped-wave", BM_NaiveDampedWave)
        ->Args({n, 1})
        ->UseRealTime();
}

}  // namespace
}  // namespace wb

int main(int argc, char** argv) {
  wb::registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
