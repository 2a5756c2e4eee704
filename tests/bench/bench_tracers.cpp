// The cost of floating tracers (core/forcing/floating_bodies.hpp) on the Π pool of 64 x 64 cells
// of 0.1 m after a drop: one step of the riding rule on the surface and one of Layton's
// advection in a swirl, for 1000 to 100000 tracers. Per tracer and step, these are what the
// workbench pays at 60 frames/s for every model in the comparison.
#include <benchmark/benchmark.h>

#include <cmath>

#include "core/forcing/excitations.hpp"
#include "core/forcing/floating_bodies.hpp"

namespace wb {
namespace {

constexpr int kCells = 64;
constexpr double kCellSize = 0.1, kStep = 1.0 / 60.0;

Domain piPool() {
  Domain domain(Grid{kCells, kCells, kCellSize}, 9.81, 0.5);
  domain.applyPreset(MaskPreset::Pi);
  return domain;
}

void setCounters(benchmark::State& state, int tracers) {
  state.counters["tracers/s"] =
      benchmark::Counter(double(tracers) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_TracersRide(benchmark::State& state) {
  const Domain domain = piPool();
  Field2D eta(kCells, kCells);
  stampGaussian(eta, domain, {0.0, 3.2, 5.4, 0.3, 0.05, EventSource::Drop});
  FloatingBodies tracers(domain, int(state.range(0)), 0.02, 1);
  for (auto _ : state)
    tracers.ride(kStep, eta);
  setCounters(state, int(tracers.size()));
}

void BM_TracersAdvect(benchmark::State& state) {
  const Domain domain = piPool();
  Field2D u(kCells, kCells), v(kCells, kCells);
  for (int j = 0; j < kCells; ++j)
    for (int i = 0; i < kCells; ++i)
      u(i, j) = float(0.1 * std::sin(0.1 * j)), v(i, j) = float(0.1 * std::cos(0.1 * i));
  FloatingBodies tracers(domain, int(state.range(0)), 0.02, 1);
  for (auto _ : state)
    tracers.advect(kStep, u, v);
  setCounters(state, int(tracers.size()));
}

BENCHMARK(BM_TracersRide)->Arg(32)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TracersAdvect)->Arg(32)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace wb
