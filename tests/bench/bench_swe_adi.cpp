// swe-adi benchmarks: the full step beside swe-semi-lagrangian's in the same run (cost per
// simulated second at each model's default dt and at the same dt), the two tridiagonal
// sweeps of one ADI iteration on their own, and the bare sweep pair on 1 and 2 threads (the
// step's floor). Bytes per cell are those this implementation moves (each field read or
// written once per pass; neighbours and a band's rows read again from cache):
//   fixed per step: the first row pass (face depths: h, b, open faces (2 floats) -> 2
//   depths: 24; the rows' Thomas factors: depth from cache -> staged coupling, pivot: 8;
//   right side: rate, wet (h and depths from cache) -> rate, right side: 16), the columns'
//   factors (the first column solve writes the pivot where it would read it: 0), discharges
//   (h, delta, the last correction, 2 depths, 2 discharges -> 2 discharges: 36), surface and
//   rate (h, delta, b, wet, rate -> h, rate: 28): 112;
//   per ADI iteration: row sweep (source -> staged; forward: staged coupling, pivot; back:
//   the same band's again, from L2; staged -> w, in place: 16, the staging buffer in L1) and
//   column solve (forward: w, depth, pivot -> c: 16; back: c -> c, the band's depth and pivot
//   again from L2 for the upper factors: 8; the first iteration solves into delta), and from
//   the second iteration on the residual (r, delta, 2 depths -> res: 20) and delta += c (8).
//   The couplings q g D / dx^2 are formed from the depths where needed.
// The face and cell velocities are computed only when asked for (not in these figures).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/solvers/tridiagonal.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_adi/swe_adi_kernels.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace wb {
namespace {

constexpr double kAdiFixedBytes = 112.0;
constexpr double kRowSweepBytes = 16.0;
constexpr double kColumnSweepBytes = 24.0;
constexpr double kResidualBytes = 20.0;
constexpr double kAccumulateBytes = 8.0;

double adiStepBytes(int iterations) {
  return kAdiFixedBytes + iterations * (kRowSweepBytes + kColumnSweepBytes) +
         (iterations - 1) * (kResidualBytes + kAccumulateBytes);
}

// The bench pool of bench_main.cpp: 10 m square, 1 m deep, one drop.
Domain pool(int n) {
  return Domain(Grid{n, n, 10.0 / n}, 9.81, 1.0);
}

Field2D drop(const Domain& domain) {
  Field2D eta(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      const double x = domain.grid().x(i) - 4.0, y = domain.grid().y(j) - 5.0;
      eta(i, j) = float(0.05 * std::exp(-(x * x + y * y) / 0.25));
    }
  return eta;
}

// range(0) grid, range(1) threads, range(2) dt as a multiple of the explicit limit (0: the
// model's default). Reports simulated seconds per second besides steps and cells.
template <class M>
void stepBenchmark(benchmark::State& state, bool adi) {
  const int n = int(state.range(0));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = pool(n);
  M model;
  const double explicitLimit = domain.grid().dx / std::sqrt(9.81);
  if (state.range(2) > 0) model.params().set("dt", double(state.range(2)) * explicitLimit, "bench");
  if (!adi && state.range(2) > 0) model.params().set("force", 1, "bench");
  model.reset(domain, drop(domain));
  const double dt = model.preferredDt();
  model.step(dt);
  for (auto _ : state)
    model.step(dt);
  const double steps = double(state.iterations());
  state.counters["steps_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["cells_per_s"] = benchmark::Counter(steps * n * n, benchmark::Counter::kIsRate);
  state.counters["simulated_s_per_s"] = benchmark::Counter(steps * dt, benchmark::Counter::kIsRate);
  state.counters["dt_over_explicit"] = dt / explicitLimit;
  if (adi) {
    const double bytes = adiStepBytes(model.params().getInt("iterations"));
    state.counters["bytes_per_cell"] = bytes;
    state.SetBytesProcessed(int64_t(steps * n * n * bytes));
  }
}

void BM_AdiStep(benchmark::State& state) {
  stepBenchmark<SweAdi>(state, true);
}
void BM_SemiLagrangianStep(benchmark::State& state) {
  stepBenchmark<SweSemiLagrangian>(state, false);
}

// One sweep of n x n tridiagonal systems with couplings of a 20x explicit step (c = 100).
struct SweepFields {
  explicit SweepFields(int n) : c(n, n, 100.0f), p(n, n), source(n, n, 1.0f), out(n, n) {}
  Field2D c, p, source, out;
};

void BM_AdiRowSweep(benchmark::State& state) {
  const int n = int(state.range(0));
  SweepFields f(n);
  for (int j = 0; j < n; ++j)
    f.c(n - 1, j) = 0.0f;
  const std::size_t banded = std::size_t(rowBands(n)) * n * kRowBand;
  std::vector<float> bandC(banded), bandP(banded), stage(std::size_t(n) * kRowBand);
  for (int j0 = 0; j0 < n; j0 += kRowBand) {
    const std::size_t at = std::size_t(j0) * n;
    factorRowBands(f.c.row(j0), 1.0f, n, n, std::min(kRowBand, n - j0), bandC.data() + at,
                   bandP.data() + at);
  }
  for (auto _ : state) {
    for (int j0 = 0; j0 < n; j0 += kRowBand) {
      const std::size_t at = std::size_t(j0) * n;
      solveRowBandStaged(f.source.row(j0), f.out.row(j0), bandC.data() + at, bandP.data() + at,
                         stage.data(), n, n, std::min(kRowBand, n - j0));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(double(state.iterations()) * n * n * kRowSweepBytes));
  state.counters["bytes_per_cell"] = kRowSweepBytes;
}

void BM_AdiColumnSweep(benchmark::State& state) {
  const int n = int(state.range(0));
  SweepFields f(n);
  for (int i = 0; i < n; ++i)
    f.c(i, n - 1) = 0.0f;
  for (int band = 0; band < columnBands(n); ++band) {
    const auto [i0, i1] = columnBand(band, n);
    solveColumns(f.source.data(), f.out.data(), f.c.data(), 1.0f, f.p.data(), nullptr,
                 std::size_t(n), n, i0, i1, true, false);
  }
  for (auto _ : state) {
    for (int band = 0; band < columnBands(n); ++band) {
      const auto [i0, i1] = columnBand(band, n);
      solveColumns(f.source.data(), f.out.data(), f.c.data(), 1.0f, f.p.data(), nullptr,
                   std::size_t(n), n, i0, i1, false, false);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(double(state.iterations()) * n * n * kColumnSweepBytes));
  state.counters["bytes_per_cell"] = kColumnSweepBytes;
}

// One bare ADI iteration's sweep pair, the row sweep then the column sweep (factors ready, no
// right side, no residual), on range(1) threads with the step's work sharing: static bands,
// a barrier between the phases. The step's floor: it runs iterations + 1 such pairs (the
// discharges' sync is one), besides its other passes.
void BM_AdiSweepPair(benchmark::State& state) {
  const int n = int(state.range(0)), threads = int(state.range(1));
  SweepFields f(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (i + 1 == n || j + 1 == n) f.c(i, j) = 0.0f;
  const std::size_t banded = std::size_t(rowBands(n)) * n * kRowBand;
  std::vector<float> bandC(banded), bandP(banded);
  std::vector<std::vector<float>> stages(std::size_t(threads),
                                         std::vector<float>(std::size_t(n) * kRowBand));
  for (int j0 = 0; j0 < n; j0 += kRowBand) {
    const std::size_t at = std::size_t(j0) * n;
    factorRowBands(f.c.row(j0), 1.0f, n, n, std::min(kRowBand, n - j0), bandC.data() + at,
                   bandP.data() + at);
  }
  Field2D w(n, n);
  const auto pair = [&](bool factor) {
#pragma omp parallel num_threads(threads)
    {
      float* stage = stages[std::size_t(omp_get_thread_num())].data();
#pragma omp for schedule(static)
      for (int band = 0; band < rowBands(n); ++band) {
        const int j0 = band * kRowBand;
        const std::size_t at = std::size_t(j0) * n;
        solveRowBandStaged(f.source.row(j0), w.row(j0), bandC.data() + at, bandP.data() + at, stage,
                           n, n, std::min(kRowBand, n - j0));
      }
#pragma omp for schedule(static)
      for (int band = 0; band < columnBands(n); ++band) {
        const auto [i0, i1] = columnBand(band, n);
        solveColumns(w.data(), f.out.data(), f.c.data(), 1.0f, f.p.data(), nullptr, std::size_t(n),
                     n, i0, i1, factor, false);
      }
    }
  };
  pair(true);
  for (auto _ : state) {
    pair(false);
    benchmark::ClobberMemory();
  }
  const double steps = double(state.iterations());
  state.counters["pairs_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["bytes_per_cell"] = kRowSweepBytes + kColumnSweepBytes;
  state.SetBytesProcessed(int64_t(steps * n * n * (kRowSweepBytes + kColumnSweepBytes)));
}

// The column sweep with the rows padded to a pitch of n + range(1) floats: whether the walk
// down rows n * 4 bytes apart (4 KiB at 1024) loses to 4K aliasing of loads and stores.
void BM_AdiColumnSweepPitch(benchmark::State& state) {
  const int n = int(state.range(0)), pitch = n + int(state.range(1));
  Field2D c(pitch, n, 100.0f), p(pitch, n), source(pitch, n, 1.0f), out(pitch, n);
  for (int i = 0; i < pitch; ++i)
    c(i, n - 1) = 0.0f;
  const auto sweep = [&](bool factor) {
    for (int band = 0; band < columnBands(n); ++band) {
      const auto [i0, i1] = columnBand(band, n);
      solveColumns(source.data(), out.data(), c.data(), 1.0f, p.data(), nullptr, std::size_t(pitch),
                   n, i0, i1, factor, false);
    }
  };
  sweep(true);
  for (auto _ : state) {
    sweep(false);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(double(state.iterations()) * n * n * kColumnSweepBytes));
}

const bool kRegistered = [] {
  for (int64_t pad : {0, 16, 32})
    benchmark::RegisterBenchmark("adi/column-sweep-pitch", BM_AdiColumnSweepPitch)
        ->Args({1024, pad})
        ->UseRealTime();
  for (int64_t n : {32, 256, 1024}) {
    for (int64_t threads : {1, 2})
      for (int64_t multiple : {0, 4}) {
        benchmark::RegisterBenchmark("adi/step/swe-adi", BM_AdiStep)
            ->Args({n, threads, multiple})
            ->UseRealTime();
        benchmark::RegisterBenchmark("adi/step/swe-semi-lagrangian", BM_SemiLagrangianStep)
            ->Args({n, threads, multiple})
            ->UseRealTime();
      }
    benchmark::RegisterBenchmark("adi/row-sweep", BM_AdiRowSweep)->Args({n})->UseRealTime();
    benchmark::RegisterBenchmark("adi/column-sweep", BM_AdiColumnSweep)->Args({n})->UseRealTime();
    for (int64_t threads : {1, 2})
      benchmark::RegisterBenchmark("adi/sweep-pair", BM_AdiSweepPair)
          ->Args({n, threads})
          ->UseRealTime();
  }
  return true;
}();

}  // namespace
}  // namespace wb
