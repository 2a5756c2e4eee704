#include "models/damped_wave/damped_wave.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/forcing/wave_shadow.hpp"
#include "core/grid/parallel.hpp"
#include "core/grid/wave_levels.hpp"
#include "core/model/mask_change.hpp"
#include "core/model/wave_speed.hpp"

namespace wb {

namespace {
// The automatic step's share of the stability bound.
constexpr double kAutoDtFraction = 0.9;
}  // namespace

DampedWave::DampedWave() : Model(parameterSpecs()) {}

double DampedWave::stabilityLimit(double k, double c, double dx, double spectralRadius) {
  // Solve k dt + a dt^2 = 2 for dt > 0 with a = (s_max / 2) c^2 / dx^2.
  const double a = 0.5 * spectralRadius * c * c / (dx * dx);
  return (-k + std::sqrt(k * k + 8.0 * a)) / (2.0 * a);
}

// With open edges, also the absorbing layer's bound (core/grid/edges.hpp).
double DampedWave::maxStableDt() const {
  const double dx = domain_->grid().dx;
  const double interior = stabilityLimit(k_, c_, dx, stencil_.spectralRadius());
  if (!domain_->edges().anyOpen()) return interior;
  return std::min(interior, WavePml::stableCourant(domain_->edges().layerCells) * dx / c_);
}

RestStart::Wave DampedWave::restWave() {
  return RestStart::Wave::of(stencil_, pml_, c_, domain_->grid().dx, k_);
}

// The initial surface is at rest (the paper's h^0 = 0, h^1 = e would instead start the
// excitation with velocity e / dt, which depends on dt). h_t = 0 gives h_tt = c^2 lap(h), and
// h^{-1} is the Taylor state of t = -dt (core/model/rest_start.hpp, eq. 1):
//   v^0 = h^0 - h^{-1} = -(dt^2/2) (c^2/dx^2) L(h^0)   (plus (dt^2/2) Q h^0 in a layer)
// with the step's own L (neighbours, wall rule, wet mask), applied by the first step with its
// own dt. h^{-1} = h^0 would be the state of t = -dt/2: the run would lag dt/2 behind the
// solution, a first-order error.
void DampedWave::reset(const Domain& given, const Field2D& eta0) {
  // No wet/dry physics: ground at or above the rest level is a wall (docs/models.md, "Land").
  walled_ = given.withLandAsWalls();
  const Domain& domain = walled_;
  domain_ = &domain;
  const auto& p = params();
  const WaveSpeed speed = chooseWaveSpeed(p, id(), domain);
  c_ = speed.c;
  links_ = speed.links;
  k_ = p.get("k");
  const auto kind =
      p.getChoice("neighbours") == "4" ? StencilKind::FivePoint : StencilKind::NinePoint;
  mirrorWalls_ = p.getChoice("boundary") == "mirror";
  const auto rule = mirrorWalls_ ? WallRule::Mirror : WallRule::Zero;
  stencil_ = WetStencil(domain, kind, rule, links_);
  std::ostringstream why;
  why << "k dt + " << stencil_.spectralRadius() / 2 << " c^2 dt^2/dx^2 <= 2 with c = " << c_
      << " m/s" << (links_ == LinkDepth::Local ? " (the deepest water's)" : "") << ", k = " << k_
      << " 1/s";
  if (domain.edges().anyOpen())
    why << "; with open edges c dt/dx <= " << WavePml::stableCourant(domain.edges().layerCells)
        << " for the absorbing layer of " << domain.edges().layerCells << " cells";
  dt_ = chooseFixedStep(p, id(), maxStableDt(), kAutoDtFraction, why.str());
  current_ = &surfaces_[0], next_ = &surfaces_[1];
  for (auto& f : surfaces_)
    f = eta0;
  rate_ = Field2D(eta0.nx(), eta0.ny());
  pml_ = WavePml(domain, c_);
  if (stencil_.localDepth()) pml_.useLinkDepths(stencil_.halfDepth());
  incoming_ = IncomingWaves(domain, c_);
  restStart_.start(restWave(), *current_);
  lastDt_ = dt_;
  kineticCache_.reset();
}

void DampedWave::step(double dt) {
  restStart_.settle(dt, pml_, rate_);
  pml_.holdPreviousLevel(current_->data(), rate_.data(), incomingAt(-dt));
  advanceHeight(dt);
  absorbAtOpenEdges(dt);
  std::swap(current_, next_);
  lastDt_ = dt;
  incoming_.advance(dt);
  kineticCache_.reset();
}

namespace {

// One interior span of eq. 2 for a fixed stencil: a branch-free loop the compiler vectorises;
// target_clones adds an AVX2 version chosen at load time on machines that have it.
template <StencilKind kind>
WB_SPAN_KERNEL void advanceSpan(const WaveLevels& l, std::size_t begin, std::size_t end,
                                std::size_t nx, float R, float mu) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    l.advance(k, R, mu * interiorLaplacian(kind, l.h, k, nx));
}

// The same with the local depth's speed (speed = local): L_d of core/grid/stencil.hpp, its link
// factors formed from halfDepth on the fly. A kernel of its own so that the mean-speed one above
// stays as it was.
template <StencilKind kind>
WB_SPAN_KERNEL void advanceSpanLocal(const WaveLevels& l, const float* __restrict halfDepth,
                                     std::size_t begin, std::size_t end, std::size_t nx, float R,
                                     float mu) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    l.advance(k, R, mu * interiorLinkLaplacian(kind, l.h, halfDepth, k, nx));
}

}  // namespace

// h^{n+1} = h^n + R (h^n - h^{n-1}) + mu L(h^n), R = 1 - k dt, mu = c^2 dt^2 / dx^2  (eq. 2)
// Evaluated on the increment v^n = h^n - h^{n-1} (core/grid/wave_levels.hpp):
//   v^{n+1} = R v^n + mu L(h^n),  h^{n+1} = h^n + v^{n+1}
// so that the float rounding of h^{n+1} never becomes a velocity the scheme keeps, and the
// volume invariant's round-off scales with the small v (sum L = 0 with mirror walls). In an
// open edge's layer the layer's own update replaces h^{n+1} and v^{n+1}. With speed = local, L is
// L_d (mu with c_max) on the spans and, through the stencil's edge terms, at walls.
void DampedWave::advanceHeight(double dt) {
  const float R = float(1.0 - k_ * dt);
  const float mu = float(c_ * c_ * dt * dt / (domain_->grid().dx * domain_->grid().dx));
  const WaveLevels levels{.h = current_->data(), .rate = rate_.data(), .hNew = next_->data()};
  const float* h = levels.h;
  const std::size_t nx = std::size_t(domain_->nx());
  const auto span = stencil_.kind() == StencilKind::FivePoint
                        ? &advanceSpan<StencilKind::FivePoint>
                        : &advanceSpan<StencilKind::NinePoint>;
  const auto& edgeCells = stencil_.edgeCells();
  if (stencil_.localDepth()) {
    const auto local = stencil_.kind() == StencilKind::FivePoint
                           ? &advanceSpanLocal<StencilKind::FivePoint>
                           : &advanceSpanLocal<StencilKind::NinePoint>;
    const float* depth = stencil_.halfDepth();
    stencil_.forEachCell(
        [&](std::size_t begin, std::size_t end) { local(levels, depth, begin, end, nx, R, mu); },
        [&](std::size_t e) {
          const std::size_t k = edgeCells[e].index;
          levels.advance(k, R, mu * stencil_.applyAt(edgeCells[e], h));
        },
        worthThreads(current_->size()));
    return;
  }
  stencil_.forEachCell(
      [&](std::size_t begin, std::size_t end) { span(levels, begin, end, nx, R, mu); },
      [&](std::size_t e) {
        const std::size_t k = edgeCells[e].index;
        levels.advance(k, R, mu * stencil_.applyAt(edgeCells[e], h));
      },
      worthThreads(current_->size()));
}

// In the layers of open edges eq. 1 gains the perfectly matched layer of core/grid/edges.hpp:
//   h_tt + (k + sx + sy) h_t + (sx sy + k (sx + sy)) h = c^2 lap(h) + div(psi)
// Eq. 2 is (1 + 0) h^{n+1} = 2 h^n - h^{n-1} + (its right side): kappa = 0; its volume
// recurrence factor is R. h^{n-1} is the level the layer held before the step. Without open
// edges there is no layer. In an incoming edge's layer the layer acts on the departure from the
// incoming wave eta_in(t - s / c) (core/grid/incoming_wave.hpp), which enters unchanged.
void DampedWave::absorbAtOpenEdges(double dt) {
  if (pml_.empty()) return;
  pml_.apply(next_->data(), rate_.data(), dt,
             {.kappa = 0.0, .damping = k_, .volumeRecurrence = 1.0 - k_ * dt}, incomingAt(dt));
}

// The incoming waves' surface at the model's time plus `offset`; null without incoming edges.
const float* DampedWave::incomingAt(double offset) {
  if (incoming_.empty()) return nullptr;
  incoming_.evaluate(incoming_.time() + offset);
  return incoming_.elevation();
}

// delta is added at rest: h^n += delta and h^{n-1} += delta (v unchanged), and the next step of
// dt takes (dt^2/2) (c^2/dx^2) L(delta) off v first (core/model/rest_start.hpp), L(delta) on
// the wet cells of the bump and one cell beyond.
double DampedWave::addEta(const Field2D& delta) {
  double added = 0.0;
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (!wet[k] || delta.data()[k] == 0.0f) continue;
    const float before = current_->data()[k];  // the volume is what the float sum holds
    current_->data()[k] += delta.data()[k];
    added += current_->data()[k] - before;
  }
  restStart_.add(restWave(), delta);
  kineticCache_.reset();  // v is unchanged, but keep the cache rule simple
  return added * domain_->grid().cellArea();
}

// A changed cell takes h^n = 0 and v^n = 0, water at rest (eq. 2 gives no velocity); the stencil
// with the new walls keeps sum L = 0 under mirror walls, and each body of water's volume rate is
// balanced to 0 (core/model/mask_change.hpp), so the volume goes on from the new one.
double DampedWave::changeMask(const Domain& given, const std::vector<std::uint32_t>& cells) {
  const std::vector<std::uint8_t> before = walled_.wetMask();
  const double rate = heightRate(walled_, rate_);
  walled_ = given.withLandAsWalls();
  // Local link depths stay relative to the depth of the step's bound (c_ = sqrt(g d_max)).
  stencil_ = WetStencil(walled_, stencil_.kind(), mirrorWalls_ ? WallRule::Mirror : WallRule::Zero,
                        links_, c_ * c_ / walled_.g());
  pml_.followMask(walled_);
  if (stencil_.localDepth()) pml_.useLinkDepths(stencil_.halfDepth());
  restStart_.forget();
  kinetic_ = WaveKineticEnergy();  // its prediction holds the old walls
  kineticCache_.reset();
  double added = 0.0;
  for (const std::uint32_t k : cells) {
    if (before[k] == walled_.wetMask()[k]) continue;
    if (before[k]) added -= current_->data()[k];
    for (Field2D* f : {&surfaces_[0], &surfaces_[1], &rate_})
      f->data()[k] = 0.0f;
  }
  balanceHeightRate(walled_, rate_, rate);
  return added * walled_.grid().cellArea();
}

// The surface, its increment, the PML's auxiliary psi (on the layer's cells) and a
// start at rest still held move with the window. psi left in place while the water moves
// through the layer is a PML in a mean flow, which is unstable: the wake in builtin:open-sea
// grew by 3x a second from 10 s on.
// The total rate sum(h^n - h^{n-1}) is kept, as a mask change keeps it (core/model/
// mask_change.hpp): the leapfrog conserves it, so the rate of the cells left behind would
// otherwise stay as a uniform sinking or rising of the whole window.
void DampedWave::shiftWindow(int di, int dj) {
  if (di == 0 && dj == 0) return;
  const double rate = heightRate(walled_, rate_);
  for (Field2D* f : {&surfaces_[0], &surfaces_[1], &rate_})
    f->shift(di, dj, 0.0f);
  balanceHeightRate(walled_, rate_, rate);  // as a mask change does
  restStart_.shift(di, dj);
  pml_.shift(di, dj);
  kineticCache_.reset();
}

// The shadow on v = h^n - h^{n-1}, the damped wave's only motion (core/forcing/wave_shadow.hpp).
void DampedWave::dampUnderBodies(const Field2D& rate, double dt) {
  dampHeightRate(rate, dt, rate_);
  kineticCache_.reset();
}

double DampedWave::kineticEnergy() const {
  if (!kineticCache_) {
    kineticCache_ =
        kinetic_.compute(stencil_, *domain_, mirrorWalls_, c_, *current_, rate_, lastDt_);
  }
  return *kineticCache_;
}

std::map<std::string, double> DampedWave::diagnostics() const {
  kineticEnergy();
  return {{"solver_iterations", kinetic_.lastSolve().iterations},
          {"solver_residual", kinetic_.lastSolve().relativeResidual}};
}

}  // namespace wb
