#include "models/advected_wave/advected_wave.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/forcing/wave_shadow.hpp"
#include "core/grid/parallel.hpp"
#include "core/grid/semi_lagrangian.hpp"
#include "core/model/mask_change.hpp"
#include "core/model/wave_speed.hpp"
#include "models/advected_wave/advected_wave_kernels.hpp"

namespace wb {

using namespace advected;

namespace {
// Largest eigenvalue of -L for the 4-neighbour operator of eq. 10.
constexpr double kSpectralRadius = 8.0;
// The automatic step stays this far inside the stability bound (as damped-wave).
constexpr double kAutoDtFraction = 0.9;
}  // namespace

AdvectedWave::AdvectedWave() : Model(parameterSpecs()) {}

double AdvectedWave::stabilityLimit(double c, double dx) {
  // mu s_max <= 4  <=>  dt <= 2 dx / (c sqrt(s_max)) = dx / (c sqrt(2)).
  return 2.0 * dx / (c * std::sqrt(kSpectralRadius));
}

// With open edges, also the absorbing layer's bound (core/grid/edges.hpp).
double AdvectedWave::maxStableDt() const {
  const double dx = domain_->grid().dx;
  const double interior = stabilityLimit(c_, dx);
  if (!domain_->edges().anyOpen()) return interior;
  return std::min(interior, WavePml::stableCourant(domain_->edges().layerCells) * dx / c_);
}

double AdvectedWave::kappa(double dt) const {
  return kappaOverride_.value_or(1.0 / (depth_ * dt));
}

RestStart::Wave AdvectedWave::restWave() {
  return RestStart::Wave::of(stencil_, pml_, c_, domain_->grid().dx, nu_);
}

// The surface starts at rest and the water without velocity: z_t = 0 and u = 0 (no divergence
// for eq. 7) leave eq. 9's z_tt = c^2 lap(z), and z^{-1} is the Taylor state of t = -dt
// (core/model/rest_start.hpp, eq. 1):
//   v^0 = z^0 - z^{-1} = -(dt^2/2) (c^2/dx^2) L(z^0)   (plus (dt^2/2) Q z^0 in a layer)
// with eq. 10's L (the mirror 5-point stencil_), applied by the first step with its own dt.
// Eq. 10 then gives z^1 = z^0 + (dt^2/2) (c^2/dx^2) L(z^0) exactly, where z^{-1} = z^0 would
// start the run at t = -dt/2: it would lag dt/2 behind the solution, a first-order error.
void AdvectedWave::reset(const Domain& given, const Field2D& eta0) {
  // No wet/dry physics: ground at or above the rest level is a wall (docs/models.md, "Land").
  walled_ = given.withLandAsWalls();
  const Domain& domain = walled_;
  domain_ = &domain;
  const auto& p = params();
  depth_ = domain.meanWetDepth();
  const WaveSpeed speed = chooseWaveSpeed(p, id(), domain);
  c_ = speed.c;
  links_ = speed.links;
  nu_ = p.get("nu");
  diffusion_ = p.get("diffusion");
  tolerance_ = p.get("cg_tolerance");
  maxIterations_ = p.getInt("cg_max_iterations");
  kappaOverride_ = p.getOptional("kappa");
  std::ostringstream why;
  why << "eq. 10: c dt/dx <= 1/sqrt(2) with c = " << c_ << " m/s"
      << (links_ == LinkDepth::Local ? " (the deepest water's)" : "");
  if (domain.edges().anyOpen())
    why << "; with open edges c dt/dx <= " << WavePml::stableCourant(domain.edges().layerCells)
        << " for the absorbing layer of " << domain.edges().layerCells << " cells";
  dt_ = chooseFixedStep(p, id(), maxStableDt(), kAutoDtFraction, why.str());
  lastDt_ = dt_;
  current_ = &surfaces_[0], next_ = &surfaces_[1];
  for (auto& surface : surfaces_)
    surface = eta0;
  pml_ = WavePml(domain, c_);
  incoming_ = IncomingWaves(domain, c_);
  const int nx = domain.nx(), ny = domain.ny();
  for (Field2D* f : {&rate_, &u_, &v_, &uOld_, &vOld_, &divergence_, &pressure_, &previousPressure_,
                     &rhs_, &divergenceAfter_, &depthFlux_})
    *f = Field2D(nx, ny);
  cg_ = ConjugateGradient(nx, ny);
  followWalls();
  if (stencil_.localDepth()) pml_.useLinkDepths(stencil_.halfDepth());
  restStart_.start(restWave(), *current_);
  lastSolve_ = {};
  divergenceBefore_ = 0.0;
  pressureIsZero_ = true;
  flowAtRest_ = true;
}

// What follows from the walls (reset and mask strokes): the stencil, the flow's layer, the
// pressure solver's system, the wall faces of u and v, the wet runs of each row and the open
// faces of each edge cell.
void AdvectedWave::followWalls() {
  const Domain& domain = walled_;
  const int nx = domain.nx(), ny = domain.ny();
  // Local link depths stay relative to the depth of the step's bound (c_ = sqrt(g d_max)).
  stencil_ =
      WetStencil(domain, StencilKind::FivePoint, WallRule::Mirror, links_, c_ * c_ / domain.g());
  layer_ = AbsorbingLayer(domain, c_);
  pressureSolver_.setup(FivePointSystem::fromMask(nx, ny, domain.wetMask(), 0.0f));
  wallU_.clear();
  wallV_.clear();
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!domain.isWet(i, j)) continue;
      const auto k = std::uint32_t(u_.index(i, j));
      if (!domain.isWetOrOutside(i - 1, j) || !domain.isWetOrOutside(i + 1, j)) wallU_.push_back(k);
      if (!domain.isWetOrOutside(i, j - 1) || !domain.isWetOrOutside(i, j + 1)) wallV_.push_back(k);
    }
  wetRuns_.clear();
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!domain.isWet(i, j)) continue;
      if (wetRuns_.empty() || wetRuns_.back().row != j || wetRuns_.back().end != i)
        wetRuns_.push_back({j, i, i});
      wetRuns_.back().end = i + 1;
    }
  openFaces_.clear();
  for (const auto& cell : stencil_.edgeCells()) {
    const int i = int(cell.index % std::uint32_t(nx)), j = int(cell.index / std::uint32_t(nx));
    openFaces_.push_back(std::uint8_t((domain.isWetOrOutside(i + 1, j) ? kOpenEast : 0) |
                                      (domain.isWetOrOutside(i - 1, j) ? kOpenWest : 0) |
                                      (domain.isWetOrOutside(i, j + 1) ? kOpenNorth : 0) |
                                      (domain.isWetOrOutside(i, j - 1) ? kOpenSouth : 0)));
  }
}

// A changed cell takes z^k = z^{k+1} = 0 and v^k = 0 and no velocity, nor pressure for the next
// solve's start: water at rest at the rest level, or a wall. The velocity of the wet cells that
// now face a wall loses its normal component (the wall rule).
double AdvectedWave::changeMask(const Domain& given, const std::vector<std::uint32_t>& cells) {
  const std::vector<std::uint8_t> before = walled_.wetMask();
  const double rate = heightRate(walled_, rate_);
  walled_ = given.withLandAsWalls();
  followWalls();
  pml_.followMask(walled_);
  if (stencil_.localDepth()) pml_.useLinkDepths(stencil_.halfDepth());
  restStart_.forget();
  waveKinetic_ = WaveKineticEnergy();  // its prediction holds the old walls
  double added = 0.0;
  for (const std::uint32_t k : cells) {
    if (before[k] == walled_.wetMask()[k]) continue;
    if (before[k]) added -= current_->data()[k];
    for (Field2D* f : {&surfaces_[0], &surfaces_[1], &rate_, &u_, &v_, &uOld_, &vOld_, &pressure_,
                       &previousPressure_})
      f->data()[k] = 0.0f;
  }
  balanceHeightRate(walled_, rate_, rate);  // core/model/mask_change.hpp
  enforceWalls();
  return added * walled_.grid().cellArea();
}

// NewSimulator (Sect. 5): AddForce, Advect, UpdateHeight, Project. UpdateHeight leaves the
// divergence it used in divergence_, and Project starts from it (u does not change between).
void AdvectedWave::step(double dt) {
  restStart_.settle(dt, pml_, rate_);
  addForce(dt);
  if (diffusion_ > 0) diffuse(dt);
  // A flow at rest advects to itself (every departure point is its own cell centre).
  if (!flowAtRest_) advect(dt);
  updateHeight(dt);
  projectDivergence();
  absorbAtOpenEdges(dt);
  lastDt_ = dt;
  incoming_.advance(dt);
}

// No flow through walls (Layton 3.4): u = 0 on wet cells next to a wall running north-south,
// v = 0 next to one running east-west; solid cells keep u = v = 0. Applied after AddForce
// and Advect; the face between a wet and a solid cell carries no flow in the divergence.
void AdvectedWave::enforceWalls() {
  for (auto k : wallU_)
    u_.data()[k] = 0.0f;
  for (auto k : wallV_)
    v_.data()[k] = 0.0f;
}

// u += dt f on wet cells (Stam's add_source; the force is an acceleration, m/s^2).
void AdvectedWave::addForce(double dt) {
  if (!force_) return;
  flowAtRest_ = false;
  const std::size_t nx = std::size_t(domain_->nx()), ny = std::size_t(domain_->ny());
#pragma omp parallel for schedule(static) if (worthThreads(nx * ny))
  for (std::size_t j = 0; j < ny; ++j)
    addForceSpan(u_.data(), v_.data(), force_->ax.data(), force_->ay.data(),
                 domain_->wetMask().data(), float(dt), j * nx, (j + 1) * nx);
  enforceWalls();
}

// Stam's diffuse, implicit: (I - diffusion dt lap) u^{new} = u, solved by CG.
void AdvectedWave::diffuse(double dt) {
  const float a = float(diffusion_ * dt / (domain_->grid().dx * domain_->grid().dx));
  auto apply = [&](const Field2D& in, Field2D& out) {
    applyNegativeLaplacian(in, out);
    const auto& wet = domain_->wetMask();
    for (std::size_t k = 0; k < wet.size(); ++k)
      if (wet[k]) out.data()[k] = in.data()[k] + a * out.data()[k];
  };
  for (Field2D* f : {&u_, &v_}) {
    rhs_ = *f;
    cg_.solve(apply, rhs_, *f, domain_->wetMask(), tolerance_, maxIterations_);
  }
  enforceWalls();
}

// Applies spanKernel(begin, end) to the interior spans of the 5-point stencil (cells whose four
// neighbours are wet: no wall test inside) and cellAt(k, open) to the wet cells next to a wall
// (k their index, open their kOpen* faces), on one team (WetStencil::forEachCell).
template <class SpanKernel, class CellAt>
void AdvectedWave::forEachWetCell(const SpanKernel& spanKernel, const CellAt& cellAt) const {
  const auto& edgeCells = stencil_.edgeCells();
  stencil_.forEachCell(
      spanKernel, [&](std::size_t e) { cellAt(std::size_t(edgeCells[e].index), openFaces_[e]); },
      worthThreads(current_->size()));
}

// Stam's advect: u(x) = u^{old}(x - dt u^{old}(x)), back-traced from each wet cell centre and
// sampled bilinearly (solid cells hold 0, so a trace into a wall picks up no flow from it).
// The old velocity is the previous buffer: swapped, not copied.
void AdvectedWave::advect(double dt) {
  std::swap(u_, uOld_);
  std::swap(v_, vOld_);
  const Departures departures{uOld_.data(), vOld_.data(), float(dt / domain_->grid().dx),
                              domain_->nx(), domain_->ny()};
  const SampledFields fields{2, {uOld_.data(), vOld_.data()}, {u_.data(), v_.data()}};
#pragma omp parallel for schedule(static) if (worthThreads(u_.size()))
  for (std::size_t r = 0; r < wetRuns_.size(); ++r)
    sampleAtDepartures(departures, fields, SampleRule::SolidIsZero, wetRuns_[r].row,
                       wetRuns_[r].begin, wetRuns_[r].end);
  enforceWalls();
}

// div u at a wet cell next to a wall: the velocity on the face between two wet cells is their
// mean, a wall face carries 0.
float AdvectedWave::edgeDivergence(std::size_t k, std::uint8_t open, float inverseDx) const {
  const float *u = u_.data(), *v = v_.data();
  const std::size_t row = std::size_t(domain_->nx());
  const float east = open & kOpenEast ? 0.5f * (u[k] + u[k + 1]) : 0.0f;
  const float west = open & kOpenWest ? 0.5f * (u[k - 1] + u[k]) : 0.0f;
  const float north = open & kOpenNorth ? 0.5f * (v[k] + v[k + row]) : 0.0f;
  const float south = open & kOpenSouth ? 0.5f * (v[k - row] + v[k]) : 0.0f;
  return (east - west + north - south) * inverseDx;
}

void AdvectedWave::computeDivergence(Field2D& out) const {
  const double dx = domain_->grid().dx;
  const float inverseDx = float(1.0 / dx), halfInverseDx = float(0.5 / dx);
  const std::size_t row = std::size_t(domain_->nx());
  const auto span = [&](std::size_t begin, std::size_t end) {
    divergenceSpan(out.data(), u_.data(), v_.data(), halfInverseDx, row, begin,
                   end);  // its max unused
  };
  forEachWetCell(span, [&](std::size_t k, std::uint8_t open) {
    out.data()[k] = edgeDivergence(k, open, inverseDx);
  });
}

// Eq. 7: kappa dz = -div u; eq. 12: z^k <- z^k + dz; eq. 13 / eq. 10:
//   z^{k+1} = [4 z^k + 2 mu L(z^k) - (2 - nu dt) z^{k-1}] / (2 + nu dt).
// The divergence stays in divergence_ for Project; z^{k+1} becomes the surface shown.
void AdvectedWave::updateHeight(double dt) {
  if (stencil_.localDepth()) {
    updateHeightLocal(dt);
    return;
  }
  const double dx = domain_->grid().dx;
  const float inverseDx = float(1.0 / dx), halfInverseDx = float(0.5 / dx);
  const float inverseKappa = float(1.0 / kappa(dt));
  const float mu = float(c_ * c_ * dt * dt / (dx * dx));
  // Evaluated on the increment v^k = z^k - z^{k-1} (core/grid/wave_levels.hpp) as
  //   v^{k+1} = a (v^k + dz) + b L(z^k + dz),  z^{k+1} = (z^k + dz) + v^{k+1},
  // a = (2 - nu dt)/(2 + nu dt), b = 2 mu/(2 + nu dt): the same update (eq. 7 raises z^k but not
  // z^{k-1}, so v^k too), but a constant level stays exactly constant whatever the rounding of
  // a and b. In eq. 10's own form, float coefficients with (4 - (2 - nu dt)) / (2 + nu dt) != 1
  // by one ulp make the mean level grow by about ulp / (nu dt) per step: 0.3 % of a drop's
  // volume per 600 steps at nu dt = 0.003. dz = -div / kappa is taken from the divergence where
  // the wave update needs it (L(dz) = -L(div) / kappa), so z^k is neither rewritten nor rounded.
  const float a = float((2.0 - nu_ * dt) / (2.0 + nu_ * dt));
  const float b = float(2.0 * mu / (2.0 + nu_ * dt));
  const WaveLevels levels{.h = current_->data(), .rate = rate_.data(), .hNew = next_->data()};
  float* divergence = divergence_.data();
  const std::size_t nx = std::size_t(domain_->nx());
  const auto& spans = stencil_.spans();
  const auto& edgeCells = stencil_.edgeCells();
  pml_.holdPreviousLevel(levels.h, levels.rate, incomingAt(-dt));
  float worst = 0.0f, edgeWorst = 0.0f;
  // One team for both passes, edge cells and spans shared as in forEachWetCell; eq. 10 reads
  // the neighbours' divergence, hence the barrier between.
#pragma omp parallel if (worthThreads(current_->size()))
  {
#pragma omp for schedule(static) nowait reduction(max : edgeWorst)
    for (std::size_t e = 0; e < edgeCells.size(); ++e) {
      const std::size_t k = edgeCells[e].index;
      divergence[k] = edgeDivergence(k, openFaces_[e], inverseDx);
      edgeWorst = std::max(edgeWorst, std::fabs(divergence[k]));
    }
#pragma omp for schedule(static) reduction(max : worst)
    for (std::size_t s = 0; s < spans.size(); ++s) {
      const std::size_t rowStart = std::size_t(spans[s].row) * nx;
      worst = std::max(worst, divergenceSpan(divergence, u_.data(), v_.data(), halfInverseDx, nx,
                                             rowStart + spans[s].begin, rowStart + spans[s].end));
    }
    // Both reductions are complete after the spans' barrier. Without divergence (a flow at rest,
    // drops only) eq. 7 changes nothing, and eq. 10 reads no divergence.
    const bool lifted = std::max(worst, edgeWorst) > 0.0f;
#pragma omp for schedule(static) nowait
    for (std::size_t s = 0; s < spans.size(); ++s) {
      const std::size_t rowStart = std::size_t(spans[s].row) * nx;
      const std::size_t begin = rowStart + spans[s].begin, end = rowStart + spans[s].end;
      if (lifted)
        waveSpan(levels, divergence, a, b, inverseKappa, nx, begin, end);
      else
        waveSpan(levels, a, b, nx, begin, end);
    }
#pragma omp for schedule(static) nowait
    for (std::size_t e = 0; e < edgeCells.size(); ++e) {
      const auto& cell = edgeCells[e];
      const std::size_t k = cell.index;
      const float push = b * (stencil_.applyAt(cell, levels.h) -
                              inverseKappa * stencil_.applyAt(cell, divergence));
      levels.advanceLifted(k, a, push, -inverseKappa * divergence[k]);
    }
  }
  divergenceBefore_ = std::max(worst, edgeWorst);
  std::swap(current_, next_);
}

// -L on wet cells (the diffusion solve's operator): the shared WetStencil, negated.
void AdvectedWave::applyNegativeLaplacian(const Field2D& in, Field2D& out) const {
  stencil_.apply(in, out);
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < out.size(); ++k)
    out.data()[k] = wet[k] ? -out.data()[k] : 0.0f;
}

void AdvectedWave::project() {
  computeDivergence(divergence_);
  divergenceBefore_ = divergence_.maxAbs();
  projectDivergence();
}

// Eq. 4 (Stam's project): solve lap(p) = div u with Neumann walls, then u <- u - grad p with
// central differences, a wall neighbour's p mirrored. With the mirror 5-point operator L the
// equation reads -L p = -dx^2 div u (singular: solved in zero-mean form); pressure_ holds
// q = -p / dx^2, the solution of -L q = div u, so the divergence is the right side as it is
// and the gradient step is u <- u + dx/2 (q_E - q_W). This is Stam's approximate projection:
// the divergence left is O(dx^2) for smooth fields plus the solver's tolerance. Walls are
// not re-imposed afterwards: a wall face carries no flow by construction of the divergence,
// and zeroing the cell-centred normal velocity here would leave an O(1) divergence in the
// wall cells (measured: 2.0 instead of 0.008 1/s, verification "pressure solve residual").
// A flow without divergence needs no projection (the solve would return q = 0).
void AdvectedWave::projectDivergence() {
  if (divergenceBefore_ == 0.0) {
    if (!pressureIsZero_) {
      pressure_.fill(0.0f);
      previousPressure_.fill(0.0f);
    }
    pressureIsZero_ = true;
    lastSolve_ = {0, 0.0, true};
    return;
  }
  // Multigrid V-cycles (core/solvers/multigrid.hpp), in float, from the last two steps' pressures
  // extrapolated linearly in time: under a steady wind that halves the residual left by the
  // first cycle, which then meets the tolerance on almost every step (docs/performance.md,
  // eighth round: 1.0 cycles per step instead of 1.2-1.4 at 128^2 to 512^2). The first cycle
  // runs without checking that guess, which a new divergence leaves far from the tolerance.
  std::swap(pressure_, previousPressure_);
  lastSolve_ = pressureSolver_.solve(
      divergence_, pressure_, tolerance_, maxIterations_,
      {.removeMean = true, .firstCycleUnchecked = true, .latest = &previousPressure_});
  pressureIsZero_ = false;

  const Domain& d = *domain_;
  const float scale = float(-0.5 * d.grid().dx);
  const std::size_t row = std::size_t(d.nx());
  const auto span = [&](std::size_t begin, std::size_t end) {
    subtractGradientSpan(u_.data(), v_.data(), pressure_.data(), scale, row, begin, end);
  };
  const float* q = pressure_.data();
  const auto cell = [&](std::size_t k, std::uint8_t open) {
    const float east = open & kOpenEast ? q[k + 1] : q[k],
                west = open & kOpenWest ? q[k - 1] : q[k];
    const float north = open & kOpenNorth ? q[k + row] : q[k];
    const float south = open & kOpenSouth ? q[k - row] : q[k];
    u_.data()[k] -= scale * (east - west);
    v_.data()[k] -= scale * (north - south);
  };
  forEachWetCell(span, cell);
}

// In the layers of open edges eq. 9 gains the perfectly matched layer of core/grid/edges.hpp,
//   z_tt + (nu + sx + sy) z_t + (sx sy + nu (sx + sy)) z = c^2 lap(z) + div(psi),
// eq. 10 being (1 + nu dt/2) z^{k+1} = 2 z^k - (1 - nu dt/2) z^{k-1} + ...: kappa = nu dt / 2,
// volume recurrence factor a = (2 - nu dt) / (2 + nu dt). The flow relaxes toward rest at the
// layer's rate, u <- u / (1 + (sx + sy) dt). Without open edges there is no layer. In an
// incoming edge's layer the PML acts on the departure from the incoming wave eta_in(t - s / c)
// (core/grid/incoming_wave.hpp), which enters unchanged; the flow still relaxes toward rest.
void AdvectedWave::absorbAtOpenEdges(double dt) {
  if (pml_.empty()) return;
  pml_.apply(current_->data(), rate_.data(), dt,
             {.kappa = 0.5 * nu_ * dt,
              .damping = nu_,
              .volumeRecurrence = (2.0 - nu_ * dt) / (2.0 + nu_ * dt)},
             incomingAt(dt));
  if (flowAtRest_) return;
  layer_.relax(u_.data(), dt);
  layer_.relax(v_.data(), dt);
}

// The incoming waves' surface at the model's time plus `offset`; null without incoming edges.
const float* AdvectedWave::incomingAt(double offset) {
  if (incoming_.empty()) return nullptr;
  incoming_.evaluate(incoming_.time() + offset);
  return incoming_.elevation();
}

// delta is added at rest (the flow is left as it is): z^k += delta and z^{k-1} += delta (v
// unchanged), and the next step of dt takes (dt^2/2) (c^2/dx^2) L(delta) off v first
// (core/model/rest_start.hpp), L(delta) on the wet cells of the bump and one cell beyond.
double AdvectedWave::addEta(const Field2D& delta) {
  double added = 0.0;
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (!wet[k] || delta.data()[k] == 0.0f) continue;
    const float before = current_->data()[k];  // the volume is what the float sum holds
    current_->data()[k] += delta.data()[k];
    added += current_->data()[k] - before;
  }
  restStart_.add(restWave(), delta);
  return added * domain_->grid().cellArea();
}

// The surface, its increment, the flow, the pressure's warm start, the PML's auxiliary psi (on
// the layer's cells) and a start at rest still held move with the window. psi left in place
// while the water moves through the layer is a PML in a mean flow, which is unstable: the
// wake in builtin:open-sea grew by 3x a second from 10 s on.
// The total rate sum(h^n - h^{n-1}) is kept, as a mask change keeps it (core/model/
// mask_change.hpp): the leapfrog conserves it, so the rate of the cells left behind would
// otherwise stay as a uniform sinking or rising of the whole window.
void AdvectedWave::shiftWindow(int di, int dj) {
  if (di == 0 && dj == 0) return;
  const double rate = heightRate(walled_, rate_);
  for (Field2D* f : {&surfaces_[0], &surfaces_[1], &rate_, &u_, &v_, &uOld_, &vOld_, &pressure_,
                     &previousPressure_})
    f->shift(di, dj, 0.0f);
  balanceHeightRate(walled_, rate_, rate);  // as a mask change does
  restStart_.shift(di, dj);
  pml_.shift(di, dj);
  enforceWalls();
}

// The shadow on both motions: the surface's increment v = h^n - h^{n-1} and the advecting velocity
// (core/forcing/wave_shadow.hpp).
void AdvectedWave::dampUnderBodies(const Field2D& rate, double dt) {
  dampHeightRate(rate, dt, rate_);
  dampVelocity(rate, dt, u_);
  dampVelocity(rate, dt, v_);
}

double AdvectedWave::kineticEnergy() const {
  const auto& wet = domain_->wetMask();
  const float* depth = domain_->restDepth().data();
  double flow = 0.0;
  for (std::size_t k = 0; k < wet.size(); ++k) {
    if (!wet[k]) continue;
    const double u = u_.data()[k], v = v_.data()[k];
    flow += depth[k] * (u * u + v * v);
  }
  const double wave = waveKinetic_.compute(stencil_, *domain_, true, c_, *current_, rate_, lastDt_);
  return 0.5 * flow * domain_->grid().cellArea() + wave;
}

// divergence_max is measured here, when someone looks, not in every step.
std::map<std::string, double> AdvectedWave::diagnostics() const {
  computeDivergence(divergenceAfter_);
  return {{"solver_iterations", lastSolve_.iterations},
          {"solver_residual", lastSolve_.relativeResidual},
          {"divergence_max", divergenceAfter_.maxAbs()},
          {"divergence_before", divergenceBefore_}};
}

}  // namespace wb
