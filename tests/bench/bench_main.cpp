// Benchmarks: a STREAM-like triad as the bandwidth reference, every registered model's full
// step, the dominant operators of the models one by one, and a plain scalar damped-wave loop
// as the naive reference. Each benchmark reports cells/s and, where the bytes it must move are
// known, bytes_per_second and `roofline`: that bandwidth as a fraction of a triad on the same
// grid size and thread count measured in the same run (the machine's bandwidth limit for
// that working set: DRAM for large grids, cache for small ones). allocs_per_step counts heap
// allocations inside the timed loop (operator new is counted in this binary).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <new>
#include <vector>

#include "core/forcing/excitations.hpp"
#include "core/grid/field2d.hpp"
#include "core/solvers/conjugate_gradient.hpp"
#include "core/solvers/multigrid.hpp"
#include "core/solvers/red_black_cg.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/registry.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace {
std::atomic<long long> gAllocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++gAllocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align) {
  ++gAllocations;
  const std::size_t a = std::size_t(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace wb {
namespace {

const std::vector<int64_t> kSizes = {32, 128, 256, 512, 1024, 2048};

// Bytes one conjugate-gradient iteration moves per cell in this implementation: the operator
// (read p, two face coefficients, write q: 16), x += alpha p and r -= alpha q with r.r
// (read x, r, p, q, write x, r: 24), p = r + beta p (read r, p, write p: 12).
constexpr double kCgIterationBytes = 52.0;
// One CG iteration on the red-black reduced system (core/solvers/red_black_cg.hpp, Chronopoulos
// & Gear's form), per cell of the full grid (packed fields cover half of it): the operator w =
// S r (the E cells' 4 faces and inverse diagonal, r, D_K, write w: 16; t stays in a ring of
// rows), the vector updates p, s, x, r in one pass (read x, r, p, s, w, write x, r, p, s: 18).
constexpr double kReducedCgIterationBytes = 34.0;
// swe-semi-lagrangian besides its CG iterations (helmholtz_solver auto at the default dt: CG
// on the reduced system), per cell (each pass's fields read or written once; neighbours and
// the rows a pass made just before come from cache; masks and open-face factors are float):
// departures (u, v, wet -> u~, v~: 20); eq. 25 in one pass (h, b, u~, v~, 2 open faces
// -> 2 gravity and 2 advective face depths, 2 face coefficients, rhs; the last two changes
// read and written for the guess: 68); fluxes, limiter and surface in one pass (h, the change,
// 4 face depths, u~, v~, d, b, wet, u, v -> 2 fluxes, the limiter, h, the solved flag, 2
// momentum changes: 80); the volume left spread (h, solved flag, b -> h: 16); velocity (h, u~,
// v~, 2 face depths, 2 momentum changes -> u, v: 36); drying and depth (h, b, wet -> h, d, u, v,
// moving; u, v from cache: the same pass as the velocity where no films and no open edges
// are, as in these benchmarks) with the shear one row behind (2 open faces): 40): 260; the
// reduced solve's set-up and finish: packed coefficients (shift, 2 faces, mask -> 4 faces, 2
// diagonals, mask: 26), x_K and the first residual in one pass (b, x, the E cells' inverse
// diagonal and 4 faces, D_K -> x_K, r: 24), x_E with the true residual and both colours back
// into x in one pass (b, x_K, inverse diagonal, 4 faces, D_K, x -> x: 26): 76.
constexpr double kSweFixedBytes = 336.0;

// advected-wave without flow (a drop: no force, no divergence, so no pressure solve): advect
// (u, v -> u, v through swapped buffers: 16), the divergence (u, v -> div: 12), eq. 7 with
// eq. 10 on the increment (z, v, div -> v in place, z_new: 20; core/grid/wave_levels.hpp).
constexpr double kAdvectedWaveStillBytes = 48.0;
// With flow, besides that: the force (u, v, ax, ay, mask -> u, v: 25), the gradient step (q, u,
// v -> u, v: 20) and the pressure solve by float V-cycles (Multigrid::solve). Per solve: load
// of b and of the first guess extrapolated from the last two pressures (b, x, latest, byte mask
// -> b, x: 21), b's mean (b, mask: 5), store with x's mean summed in the last
// check and the stored x's residual (x, b, unit flag, mask -> x: 17). Per cycle on the finest
// level (core/solvers/multigrid.hpp: red-black order, all but the edge cells unit cells on the open
// pool, so no coefficient loads but a float unit flag): 4 red-black sweeps (x, b, flag -> x: 16
// each), the residual with its restriction (x, b, flag -> r, coarse b: 17), prolongation (x,
// mask, coarse x -> x: 10), the residual check (x, b, flag: 12); the coarser levels add a third
// of the sweeps, residual and prolongation (30).
constexpr double kAdvectedWaveFlowBytes = 45.0;
constexpr double kVcycleSolveBytes = 43.0;
constexpr double kVcycleBytes = 133.0;

// Bytes a model step moves per cell, given its last diagnostics; 0 when not known.
double bytesPerCell(const std::string& id, const std::map<std::string, double>& diagnostics) {
  // damped-wave: read h^n and the increment v^n, write v^{n+1} in place and h^{n+1}
  // (core/grid/wave_levels.hpp): 4 bytes more than the paper's three levels move.
  if (id == "damped-wave") return 16.0;
  // fft-ocean: read a, b and the cos, sin table, write a, b (doubles): the exact rotation.
  if (id == "fft-ocean") return 48.0;
  if (id == "swe-semi-lagrangian") {
    const auto it = diagnostics.find("solver_iterations");
    return kSweFixedBytes + kReducedCgIterationBytes * (it == diagnostics.end() ? 0.0 : it->second);
  }
  if (id == "advected-wave") {
    const auto it = diagnostics.find("solver_iterations");
    const double iterations = it == diagnostics.end() ? 0.0 : it->second;
    return kAdvectedWaveStillBytes +
           (iterations > 0 ? kAdvectedWaveFlowBytes + kVcycleSolveBytes + kVcycleBytes * iterations
                           : 0.0);
  }
  return 0.0;
}

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Triad a = b + s c over n x n floats on `threads` threads: best bytes/s of a few runs.
double measureTriad(int n, int threads) {
  omp_set_num_threads(threads);
  const std::size_t cells = std::size_t(n) * std::size_t(n);
  Field2D a(n, n), b(n, n, 1.0f), c(n, n, 2.0f);
  float* pa = a.data();
  const float* pb = b.data();
  const float* pc = c.data();
  double best = 0.0;
  const int repeats = int(std::clamp<std::size_t>((std::size_t(1) << 28) / cells, 8, 20000));
  for (int trial = 0; trial < 5; ++trial) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repeats; ++r) {
#pragma omp parallel for simd schedule(static)
      for (std::size_t k = 0; k < cells; ++k)
        pa[k] = pb[k] + 0.5f * pc[k];
      benchmark::ClobberMemory();
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, double(repeats) * double(cells) * 12.0 / s);
  }
  return best;
}

// The triad bandwidth for this grid size and thread count, measured once per run.
double triadBandwidth(int n, int threads) {
  static std::map<std::pair<int, int>, double> measured;
  auto [it, inserted] = measured.try_emplace({n, threads}, 0.0);
  if (inserted) it->second = measureTriad(n, threads);
  return it->second;
}

// Common counters: cells/s, steps/s, bytes/s and the roofline fraction, allocations per step.
// seconds: wall time of the timed loop.
void reportRates(benchmark::State& state, int n, double bytesPerCellStep, long long allocations,
                 double seconds) {
  const double steps = double(state.iterations());
  const double cells = steps * n * n;
  state.counters["cells_per_s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
  state.counters["steps_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["allocs_per_step"] = double(allocations) / std::max(1.0, steps);
  if (bytesPerCellStep <= 0.0) return;
  state.SetBytesProcessed(int64_t(cells * bytesPerCellStep));
  state.counters["roofline"] =
      cells * bytesPerCellStep / seconds / triadBandwidth(n, int(state.range(1)));
  state.counters["bytes_per_cell"] = bytesPerCellStep;
}

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

Domain openPool(int n) {
  return Domain(Grid{n, n, 10.0 / n}, 9.81, 1.0);
}

Field2D oneDrop(const Domain& domain) {
  Field2D eta0(domain.nx(), domain.ny());
  stampGaussian(eta0, domain, {0.0, 4.0, 5.0, 0.5, 0.05, EventSource::Drop});
  return eta0;
}

// Wind of kWindAcceleration along x over the upper half of the pool (the verification case's
// wind): gives advected-wave a flow to advect and project (a drop alone leaves its velocity 0).
constexpr float kWindAcceleration = 0.1f;  // m/s^2
ForceField upperHalfWind(const Domain& domain) {
  ForceField wind{Field2D(domain.nx(), domain.ny()), Field2D(domain.nx(), domain.ny())};
  for (int j = domain.ny() / 2; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      wind.ax(i, j) = kWindAcceleration;
  return wind;
}

// Steps after this many warm-up steps under wind, so that the flow is developed.
constexpr int kWindWarmUpSteps = 20;
// A wind over a pool at rest sets up a seiche, and the pressure solve's cycles per step vary
// with its phase (advected-wave, before the eighth round: 1.02 over steps 1-500, 1.26 over
// 500-1000, 2.0 over 1000-1500, 1.0 after 2000). A run of steps whose number the benchmark
// library picks from its time budget would average a different stretch of that history each
// time, so windy steps on grids up to kWindWindowMaxSide are timed over exactly this many
// steps after the warm-up, the same stretch in every run.
constexpr int kWindWindowSteps = 2000;
constexpr int kWindWindowMaxSide = 512;
// Whether a step benchmark is timed over that window (not the tiny CI sizes, nor the large
// grids, where the window would take minutes and the solve stays at one cycle).
bool timedOverWindWindow(bool windy, int64_t n) {
  return windy && n >= 128 && n <= kWindWindowMaxSide;
}

void BM_ModelStep(benchmark::State& state, const std::string& id, bool windy) {
  const int n = int(state.range(0));
  triadBandwidth(n, int(state.range(1)));  // measured before the clock starts
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  auto model = createModel(id);
  const ForceField wind = upperHalfWind(domain);
  // The pool after one drop (and kWindWarmUpSteps of wind) and one step with the first-step
  // set-up, out of the timing; returns the step timed.
  const auto prepare = [&] {
    model->reset(domain, oneDrop(domain));
    if (windy) {
      model->setForce(&wind);
      for (int k = 0; k < kWindWarmUpSteps; ++k)
        model->step(model->preferredDt());
    }
    const double dt = model->preferredDt();
    model->step(dt);
    return dt;
  };
  const double dt = prepare();
  const long long allocationsBefore = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state)
    model->step(dt);
  const double seconds = secondsSince(start);
  const long long allocations = gAllocations - allocationsBefore;
  // Solver iterations per step, after the timing (diagnostics() may allocate or, for
  // damped-wave, solve for its kinetic energy): over the same steps again for a windy window
  // (kWindWindowSteps), else sampled over a few steps.
  double iterations = 0.0;
  if (id == "swe-semi-lagrangian" || id == "advected-wave") {
    const bool window = timedOverWindWindow(windy, n);
    const int samples = window ? int(state.iterations()) : 5;
    if (window) prepare();  // the timed steps again
    for (int k = 0; k < samples; ++k) {
      model->step(dt);
      iterations += model->diagnostics()["solver_iterations"] / samples;
    }
    state.counters["solver_iterations"] = iterations;
  }
  reportRates(state, n, bytesPerCell(id, {{"solver_iterations", iterations}}), allocations,
              seconds);
}

// swe-semi-lagrangian operators one by one, on a model advanced a few steps.
std::unique_ptr<SweSemiLagrangian> sweAfterSteps(const Domain& domain, int steps) {
  auto model = std::make_unique<SweSemiLagrangian>();
  model->reset(domain, oneDrop(domain));
  for (int k = 0; k < steps; ++k)
    model->step(model->preferredDt());
  return model;
}

// Appendix A, eqs. 31-32: departure points and two bilinear interpolations per cell (u, v).
void BM_SweDepartures(benchmark::State& state) {
  const int n = int(state.range(0));
  triadBandwidth(n, int(state.range(1)));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  auto model = sweAfterSteps(domain, 5);
  const double dt = model->preferredDt();
  const long long before = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state)
    model->interpolateAtDepartures(dt);
  // Read u, v, the wet factor; write u~, v~ (the bilinear neighbours come from cache).
  reportRates(state, n, 20.0, gAllocations - before, secondsSince(start));
}

// advected-wave on the windy pool after the warm-up, so that departure points differ from
// cell to cell and the flow has a divergence to project. domain and wind outlive the model.
std::unique_ptr<AdvectedWave> windyAdvectedWave(const Domain& domain, const ForceField& wind) {
  auto model = std::make_unique<AdvectedWave>();
  model->reset(domain, oneDrop(domain));
  model->setForce(&wind);
  for (int k = 0; k < kWindWarmUpSteps; ++k)
    model->step(model->preferredDt());
  return model;
}

// fft-ocean's surface: the float 2-D inverse DCT (FFTW REDFT01) its eta() runs once per state
// read (a run reads it once per frame); each iteration a step, so the cache is stale. Not
// memory-bound: no roofline.
void BM_FftOceanSurface(benchmark::State& state) {
  const int n = int(state.range(0));
  const Domain domain = openPool(n);
  auto model = createModel("fft-ocean");
  model->reset(domain, oneDrop(domain));
  const double dt = model->preferredDt();
  model->step(dt);
  const long long before = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state) {
    model->step(dt);
    benchmark::DoNotOptimize(model->eta().data());
  }
  reportRates(state, n, 0.0, gAllocations - before, secondsSince(start));
}

// advected-wave's Advect alone (Stam's semi-Lagrangian step, bilinear, both components).
void BM_AdvectedAdvect(benchmark::State& state) {
  const int n = int(state.range(0));
  triadBandwidth(n, int(state.range(1)));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  const ForceField wind = upperHalfWind(domain);
  const auto model = windyAdvectedWave(domain, wind);
  const double dt = model->preferredDt();
  const long long before = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state)
    model->advect(dt);
  // Read u^{old}, v^{old}, write u, v (the four corners of each sample come from cache).
  reportRates(state, n, 16.0, gAllocations - before, secondsSince(start));
}

// One pressure solve of advected-wave's projection with exactly one V-cycle (Multigrid::solve
// with tolerance 0 and one cycle, the first unchecked as the model runs it: load, the cycle,
// one residual check, store), on the
// divergence of the windy pool's flow. From zero each time (one pass more): from a converged
// pressure the corrections would shrink to subnormal floats, which no step sees.
void BM_AdvectedPressureCycle(benchmark::State& state) {
  const int n = int(state.range(0));
  triadBandwidth(n, int(state.range(1)));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  const ForceField wind = upperHalfWind(domain);
  Field2D divergence(n, n), pressure(n, n), previousPressure(n, n);
  windyAdvectedWave(domain, wind)->computeDivergence(divergence);
  Multigrid solver;
  solver.setup(FivePointSystem::fromMask(n, n, domain.wetMask(), 0.0f));
  const long long before = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state) {
    pressure.fill(0.0f);
    // As the model solves: from the last two pressures extrapolated (both 0 here).
    solver.solve(divergence, pressure, 0.0, 1,
                 {.removeMean = true, .firstCycleUnchecked = true, .latest = &previousPressure});
  }
  reportRates(state, n, kVcycleSolveBytes + kVcycleBytes, gAllocations - before,
              secondsSince(start));
}

// One CG iteration on the Helmholtz operator of eq. 25, as ConjugateGradient runs it.
void BM_SweCgIteration(benchmark::State& state) {
  const int n = int(state.range(0));
  triadBandwidth(n, int(state.range(1)));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  auto model = sweAfterSteps(domain, 5);
  Field2D x = model->eta(), r = oneDrop(domain), p = r, q(n, n);
  const std::size_t cells = x.size();
  const long long before = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state) {
    const double pq = model->applyHelmholtz(p, q);
    const double rr = cg_kernels::dot(r.data(), r.data(), cells);
    benchmark::DoNotOptimize(pq);
    // Small steps keep the fields bounded over millions of iterations.
    const double rrNew =
        cg_kernels::updateSolutionAndResidual(x.data(), r.data(), p.data(), q.data(), 1e-6f, cells);
    cg_kernels::updateDirection(p.data(), r.data(), float(rrNew / std::max(rr, 1e-30)), cells);
  }
  // The r.r above is the previous iteration's in ConjugateGradient: not counted.
  reportRates(state, n, kCgIterationBytes, gAllocations - before, secondsSince(start));
}

// The reduced system's operator S p with ConjugateGradient's vector updates (the model's solve
// updates four vectors in one pass instead: solve/swe-reduced-cg times it whole), with the
// default step's face weights g d dt^2 / dx^2 = 16 on the open pool.
void BM_SweReducedCgIteration(benchmark::State& state) {
  const int n = int(state.range(0));
  triadBandwidth(n, int(state.range(1)));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  FivePointSystem system = FivePointSystem::fromMask(n, n, domain.wetMask(), 1.0f);
  for (std::size_t k = 0; k < system.faceX.size(); ++k)
    system.faceX.data()[k] *= 16.0f, system.faceY.data()[k] *= 16.0f;
  RedBlackCg reduced;
  reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
  const int width = reduced.packedWidth() + 2;
  Field2D x(width, n + 2), r(width, n + 2), q(width, n + 2);
  for (int j = 1; j <= n; ++j)
    for (int k = 1; k < width - 1; ++k)
      r(k, j) = float(std::sin(0.1 * k) * std::cos(0.07 * j));
  Field2D p = r;
  const std::size_t values = x.size();
  reduced.applyReduced(p, q);  // sizes its rings outside the timing
  const long long before = gAllocations;
  const auto start = Clock::now();
  for (auto _ : state) {
    const double pq = reduced.applyReduced(p, q);
    const double rr = cg_kernels::dot(r.data(), r.data(), values);
    benchmark::DoNotOptimize(pq);
    const double rrNew = cg_kernels::updateSolutionAndResidual(x.data(), r.data(), p.data(),
                                                               q.data(), 1e-6f, values);
    cg_kernels::updateDirection(p.data(), r.data(), float(rrNew / std::max(rr, 1e-30)), values);
  }
  reportRates(state, n, kReducedCgIterationBytes, gAllocations - before, secondsSince(start));
}

// One Helmholtz solve on the red-black reduced system as the model makes it every step: the
// coefficients packed (updateCoefficients), then kSolveIterations iterations (about the
// model's count at the default dt) from 0, with the true residual and the finish, on the open
// pool at the default step's coupling g d dt^2 / dx^2 = 16 (faces varied by +-30% like a
// depth) with the one-drop surface as the right side. The time is that of a whole solve.
constexpr int kSolveIterations = 8;
void BM_SweReducedCgSolve(benchmark::State& state) {
  const int n = int(state.range(0));
  omp_set_num_threads(int(state.range(1)));
  const Domain domain = openPool(n);
  FivePointSystem system = FivePointSystem::fromMask(n, n, domain.wetMask(), 1.0f);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float depth = 1.0f + 0.3f * float(std::sin(6.0 * i / n) * std::cos(4.0 * j / n));
      system.faceX(i, j) *= 16.0f * depth, system.faceY(i, j) *= 16.0f * depth;
    }
  const Field2D b = oneDrop(domain);
  Field2D x(n, n);
  RedBlackCg reduced;
  reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
  reduced.solve(b, x, 0.0, kSolveIterations);  // sizes its work space
  const long long before = gAllocations;
  for (auto _ : state) {
    x.fill(0.0f);
    reduced.updateCoefficients(system.shift, system.faceX, system.faceY, system.wet);
    benchmark::DoNotOptimize(reduced.solve(b, x, 0.0, kSolveIterations));
  }
  const long long allocations = gAllocations - before;  // before the counters' map allocates
  state.counters["solver_iterations"] = kSolveIterations;
  state.counters["allocs_per_step"] =
      double(allocations) / double(std::max<int64_t>(state.iterations(), 1));
  state.counters["solves_per_s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

// A swe-semi-lagrangian step on the one-drop pool (one thread) with its Helmholtz solver chosen:
// range(1) = helmholtz_solver (1 plain float CG, 2 float V-cycles, 3 CG on the red-black
// reduced system), at dt = range(2) times the explicit limit, i.e. g d dt^2 / dx^2 =
// range(2)^2: the measurement behind SweSemiLagrangian::kReducedMinCoupling and
// kMultigridMinCoupling.
void BM_SweSolverStep(benchmark::State& state) {
  const int n = int(state.range(0));
  omp_set_num_threads(1);
  const Domain domain = openPool(n);
  SweSemiLagrangian model;
  model.params().set("helmholtz_solver", double(state.range(1)), "bench");
  model.params().set("force", 1, "bench");
  model.reset(domain, oneDrop(domain));
  const double dt = double(state.range(2)) * model.explicitLimit();
  for (int k = 0; k < 5; ++k)
    model.step(dt);
  const long long before = gAllocations;
  for (auto _ : state)
    model.step(dt);
  const long long allocations = gAllocations - before;
  state.counters["steps_per_s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["allocs_per_step"] =
      double(allocations) / double(std::max<int64_t>(state.iterations(), 1));
  // Iterations per step, sampled after the timing (diagnostics() allocates).
  constexpr int kSamples = 5;
  double iterations = 0.0;
  for (int k = 0; k < kSamples; ++k) {
    model.step(dt);
    iterations += model.diagnostics()["solver_iterations"] / kSamples;
  }
  state.counters["solver_iterations"] = iterations;
}

// One solve of the Neumann Poisson equation (advected-wave's pressure, damped-wave's kinetic
// potential) on the Pi pool, from zero to a relative residual of 1e-6, CG vectors in double:
// plain CG (range(1) = 0) or preconditioned by one multigrid V-cycle (range(1) = 1).
void BM_PoissonSolve(benchmark::State& state) {
  constexpr double kTolerance = 1e-6;
  constexpr int kMaxIterations = 100000;
  const int n = int(state.range(0));
  const bool multigrid = state.range(1) != 0;
  omp_set_num_threads(1);
  Domain domain(Grid{n, n, 1.0}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  Multigrid mg;
  mg.setup(FivePointSystem::fromMask(n, n, domain.wetMask(), 0.0f));
  Field2D b = oneDrop(domain), x(n, n);
  PreconditionedCg cg;
  // Built once: a std::function made from a larger lambda inside the loop would allocate.
  const PreconditionedCg::Operator apply = [&](const double* in, double* out) {
    mg.applyOperator(in, out);
  };
  const std::size_t cells = b.size();
  const PreconditionedCg::Preconditioner precondition = [&](const double* r, double* z) {
    if (multigrid)
      mg.vcycle(r, z);
    else
      std::copy(r, r + cells, z);
  };
  CgResult result;
  const long long before = gAllocations;
  for (auto _ : state) {
    x.fill(0.0f);
    result =
        cg.solve(apply, precondition, b, x, domain.wetMask(), kTolerance, kMaxIterations, true);
  }
  state.counters["solver_iterations"] = result.iterations;
  state.counters["relative_residual"] = result.relativeResidual;
  state.counters["allocs_per_solve"] =
      double(gAllocations - before) / double(std::max<int64_t>(state.iterations(), 1));
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
  triadBandwidth(n, 1);
  std::vector<float> h(std::size_t(n) * n, 0.0f), hOld = h, hNew = h;
  std::vector<unsigned char> wet(h.size(), 1);
  h[h.size() / 2 + n / 2] = 0.1f;
  const auto start = Clock::now();
  for (auto _ : state) {
    naiveDampedStep(h, hOld, hNew, wet, n, 0.99f, 0.2f);
    std::swap(hOld, h);
    std::swap(h, hNew);
    benchmark::ClobberMemory();
  }
  reportRates(state, n, 12.0, 0, secondsSince(start));
}

void registerAll() {
  for (int64_t n : kSizes)
    for (int64_t threads : {1, 2}) {
      benchmark::RegisterBenchmark("triad", BM_Triad)->Args({n, threads})->UseRealTime();
      for (const auto& id : modelIds())
        for (bool windy : {false, true}) {
          auto* benchmark = benchmark::RegisterBenchmark(
              ((windy ? "step-wind/" : "step/") + id).c_str(), BM_ModelStep, id, windy);
          benchmark->Args({n, threads})->UseRealTime();
          if (timedOverWindWindow(windy, n)) benchmark->Iterations(kWindWindowSteps);
        }
      benchmark::RegisterBenchmark("op/swe-departures", BM_SweDepartures)
          ->Args({n, threads})
          ->UseRealTime();
      benchmark::RegisterBenchmark("op/swe-cg-iteration", BM_SweCgIteration)
          ->Args({n, threads})
          ->UseRealTime();
      benchmark::RegisterBenchmark("op/swe-reduced-cg-iteration", BM_SweReducedCgIteration)
          ->Args({n, threads})
          ->UseRealTime();
      benchmark::RegisterBenchmark("solve/swe-reduced-cg", BM_SweReducedCgSolve)
          ->Args({n, threads})
          ->UseRealTime();
      if (threads == 1)  // single-threaded FFTW
        benchmark::RegisterBenchmark("op/fft-ocean-surface", BM_FftOceanSurface)
            ->Args({n, threads})
            ->UseRealTime();
      benchmark::RegisterBenchmark("op/advected-advect", BM_AdvectedAdvect)
          ->Args({n, threads})
          ->UseRealTime();
      benchmark::RegisterBenchmark("op/advected-pressure-cycle", BM_AdvectedPressureCycle)
          ->Args({n, threads})
          ->UseRealTime();
    }
  const char* solverNames[] = {"", "solve/swe-step-cg", "solve/swe-step-multigrid",
                               "solve/swe-step-reduced-cg"};
  for (int64_t n : {32, 80, 128, 256, 1024})
    for (int64_t solver : {1, 2, 3})
      for (int64_t multiple : {1, 2, 3, 4, 6, 8, 10, 14, 20})
        benchmark::RegisterBenchmark(solverNames[solver], BM_SweSolverStep)
            ->Args({n, solver, multiple})
            ->UseRealTime();
  for (int64_t n : {256, 512, 1024})
    for (int64_t multigrid : {0, 1})
      benchmark::RegisterBenchmark(multigrid ? "solve/poisson-pi-mgpcg" : "solve/poisson-pi-cg",
                                   BM_PoissonSolve)
          ->Args({n, multigrid})
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
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
