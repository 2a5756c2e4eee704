#include "models/advected_wave/advected_wave.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/interpolation.hpp"
#include "core/parallel.hpp"

namespace wb {

namespace {
// Largest eigenvalue of -L for the 4-neighbour operator of eq. 10.
constexpr double kSpectralRadius = 8.0;
// The automatic step stays this far inside the stability bound (as damped-wave).
constexpr double kAutoDtFraction = 0.9;

#define WB_SPAN_KERNEL __attribute__((target_clones("avx2", "default")))

// div u at cells whose four neighbours are wet: the face velocities are means of two cells, so
// (u_{i+1/2} - u_{i-1/2} + v_{j+1/2} - v_{j-1/2}) / dx = (u_{i+1} - u_{i-1} + v_{j+1} - v_{j-1}) /
// 2dx.
WB_SPAN_KERNEL void divergenceSpan(float* __restrict out, const float* __restrict u,
                                   const float* __restrict v, float halfInverseDx, std::size_t row,
                                   std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    out[k] = (u[k + 1] - u[k - 1] + v[k + row] - v[k - row]) * halfInverseDx;
}

// u -= grad p (centred) at cells whose four neighbours are wet.
WB_SPAN_KERNEL void subtractGradientSpan(float* __restrict u, float* __restrict v,
                                         const float* __restrict p, float halfInverseDx,
                                         std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    u[k] -= halfInverseDx * (p[k + 1] - p[k - 1]);
    v[k] -= halfInverseDx * (p[k + row] - p[k - row]);
  }
}

// Stam's advect at the cells [begin, end) of row j: back-trace by dt u^{old} in grid units
// (cellsPerVelocity = dt / dx), clamp to the grid and sample u^{old}, v^{old} bilinearly, the
// arithmetic of sampleBilinear (core/interpolation.hpp) written so that the gathers vectorise.
WB_SPAN_KERNEL void advectSpan(float* __restrict u, float* __restrict v,
                               const float* __restrict uOld, const float* __restrict vOld,
                               double cellsPerVelocity, int nx, int ny, int j, std::size_t begin,
                               std::size_t end) {
  const double xMax = double(nx - 1), yMax = double(ny - 1);
  const std::size_t rowStart = std::size_t(j) * std::size_t(nx);
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const double gx = std::clamp(double(k - rowStart) - cellsPerVelocity * uOld[k], 0.0, xMax);
    const double gy = std::clamp(double(j) - cellsPerVelocity * vOld[k], 0.0, yMax);
    const int i0 = std::min(int(gx), nx - 2), j0 = std::min(int(gy), ny - 2);
    const float sx = float(gx - i0), sy = float(gy - j0);
    const int c = j0 * nx + i0;
    const float uBottom = (1.0f - sx) * uOld[c] + sx * uOld[c + 1];
    const float uTop = (1.0f - sx) * uOld[c + nx] + sx * uOld[c + nx + 1];
    const float vBottom = (1.0f - sx) * vOld[c] + sx * vOld[c + 1];
    const float vTop = (1.0f - sx) * vOld[c + nx] + sx * vOld[c + nx + 1];
    u[k] = (1.0f - sy) * uBottom + sy * uTop;
    v[k] = (1.0f - sy) * vBottom + sy * vTop;
  }
}
}  // namespace

std::vector<ParamSpec> AdvectedWave::parameterSpecs() {
  return {
      {"c",
       ParamKind::Real,
       0.0,
       1e-6,
       1e4,
       "m/s",
       "Ripple speed of eq. 10. Auto: sqrt(g d) with d the mean rest depth of the water.",
       {},
       true},
      {"nu",
       ParamKind::Real,
       0.2,
       0.0,
       1e4,
       "1/s",
       "Viscosity of the wave update (eq. 9): z_tt + nu z_t = c^2 lap(z). Any value is stable.",
       {},
       false},
      {"kappa",
       ParamKind::Real,
       0.0,
       1e-9,
       1e12,
       "1/(m s)",
       "Coupling of eq. 7, kappa dz = -div u. Auto: 1 / (d dt), the linearised continuity "
       "equation dz = -d div(u) dt.",
       {},
       true},
      {"diffusion",
       ParamKind::Real,
       0.0,
       0.0,
       1e3,
       "m^2/s",
       "Kinematic viscosity of Stam's diffusion step; 0 drops the step as the paper does.",
       {},
       false},
      {"cg_tolerance",
       ParamKind::Real,
       1e-4,
       1e-9,
       0.1,
       "",
       "Relative residual ||b - A p|| / ||b|| at which the pressure solve (multigrid-"
       "preconditioned CG, vectors in double) stops; p is then stored in float.",
       {},
       false},
      {"cg_max_iterations",
       ParamKind::Integer,
       2000,
       1,
       1e6,
       "",
       "Iteration cap of the pressure solve; reaching it is reported in solver_residual.",
       {},
       false},
      {"dt",
       ParamKind::Real,
       0.0,
       1e-7,
       10.0,
       "s",
       "Fixed time step. Auto: 0.9 of the stability bound c dt / dx <= 1/sqrt(2). A dt beyond "
       "the bound is refused unless force is set.",
       {},
       true},
      forceParamSpec(),
  };
}

AdvectedWave::AdvectedWave() : Model(parameterSpecs()) {}

double AdvectedWave::stabilityLimit(double c, double dx) {
  // mu s_max <= 4  <=>  dt <= 2 dx / (c sqrt(s_max)) = dx / (c sqrt(2)).
  return 2.0 * dx / (c * std::sqrt(kSpectralRadius));
}

double AdvectedWave::maxStableDt() const {
  return stabilityLimit(c_, domain_->grid().dx);
}

double AdvectedWave::kappa(double dt) const {
  return params().getOptional("kappa").value_or(1.0 / (depth_ * dt));
}

void AdvectedWave::reset(const Domain& domain, const Field2D& eta0) {
  domain_ = &domain;
  const auto& p = params();
  depth_ = domain.meanWetDepth();
  c_ = p.getOptional("c").value_or(std::sqrt(domain.g() * depth_));
  nu_ = p.get("nu");
  diffusion_ = p.get("diffusion");
  tolerance_ = p.get("cg_tolerance");
  maxIterations_ = p.getInt("cg_max_iterations");
  stencil_ = WetStencil(domain, StencilKind::FivePoint, WallRule::Mirror);
  std::ostringstream why;
  why << "eq. 10: c dt/dx <= 1/sqrt(2) with c = " << c_ << " m/s";
  dt_ = chooseFixedStep(p, id(), maxStableDt(), kAutoDtFraction, why.str());
  lastDt_ = dt_;
  // The surface starts at rest (z^{-1} = z^0 = eta0) and the water without velocity.
  previous_ = &levels_[0], current_ = &levels_[1], next_ = &levels_[2];
  for (auto& level : levels_)
    level = eta0;
  const int nx = domain.nx(), ny = domain.ny();
  for (Field2D* f : {&u_, &v_, &uOld_, &vOld_, &divergence_, &pressure_, &rhs_})
    *f = Field2D(nx, ny);
  cg_ = ConjugateGradient(nx, ny);
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
  lastSolve_ = {};
  divergenceBefore_ = divergenceAfter_ = 0.0;
}

// NewSimulator (Sect. 5): AddForce, Advect, UpdateHeight, Project.
void AdvectedWave::step(double dt) {
  addForce(dt);
  if (diffusion_ > 0) diffuse(dt);
  advect(dt);
  updateHeight(dt);
  project();
  rotateHeightLevels();
  lastDt_ = dt;
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

// u += dt f (Stam's add_source; the force is an acceleration, m/s^2).
void AdvectedWave::addForce(double dt) {
  if (!force_) return;
  const auto& wet = domain_->wetMask();
  const float step = float(dt);
  for (std::size_t k = 0; k < wet.size(); ++k) {
    if (!wet[k]) continue;
    u_.data()[k] += step * force_->ax.data()[k];
    v_.data()[k] += step * force_->ay.data()[k];
  }
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
// neighbours are wet: no wall test inside) and cellAt(i, j) to the wet cells next to a wall.
template <class SpanKernel, class CellAt>
void AdvectedWave::forEachWetCell(const SpanKernel& spanKernel, const CellAt& cellAt) const {
  const std::size_t nx = std::size_t(domain_->nx());
  const auto& spans = stencil_.spans();
#pragma omp parallel for schedule(static) if (worthThreads(current_->size()))
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const std::size_t rowStart = std::size_t(spans[s].row) * nx;
    spanKernel(rowStart + spans[s].begin, rowStart + spans[s].end);
  }
  for (const auto& cell : stencil_.edgeCells())
    cellAt(int(cell.index % nx), int(cell.index / nx));
}

// Stam's advect: u(x) = u^{old}(x - dt u^{old}(x)), back-traced from each wet cell centre and
// sampled bilinearly (solid cells hold 0, so a trace into a wall picks up no flow from it).
void AdvectedWave::advect(double dt) {
  std::swap(u_, uOld_);
  std::swap(v_, vOld_);
  const Grid& grid = domain_->grid();
  const int nx = grid.nx, ny = grid.ny;
  const double cellsPerVelocity = dt / grid.dx;
  // Interior spans have a full 5-point stencil, so nx, ny >= 3 there (the kernel's i0 + 1 and
  // j0 + 1 stay on the grid).
  const auto span = [&](std::size_t begin, std::size_t end) {
    advectSpan(u_.data(), v_.data(), uOld_.data(), vOld_.data(), cellsPerVelocity, nx, ny,
               int(begin / std::size_t(nx)), begin, end);
  };
  const auto cell = [&](int i, int j) {
    const std::size_t k = u_.index(i, j);
    const double x = grid.x(i) - dt * uOld_.data()[k];
    const double y = grid.y(j) - dt * vOld_.data()[k];
    u_.data()[k] = sampleBilinear(uOld_, grid, x, y);
    v_.data()[k] = sampleBilinear(vOld_, grid, x, y);
  };
  forEachWetCell(span, cell);
  enforceWalls();
}

void AdvectedWave::computeDivergence(Field2D& out) const {
  const Domain& d = *domain_;
  const double dx = d.grid().dx;
  const float inverseDx = float(1.0 / dx), halfInverseDx = float(0.5 / dx);
  const std::size_t row = std::size_t(d.nx());
  const auto span = [&](std::size_t begin, std::size_t end) {
    divergenceSpan(out.data(), u_.data(), v_.data(), halfInverseDx, row, begin, end);
  };
  const auto cell = [&](int i, int j) {
    // The velocity on the face between two wet cells is their mean; a wall face carries 0.
    auto faceU = [&](int a) {
      return d.isWetOrOutside(a, j) && d.isWetOrOutside(a + 1, j) ? 0.5f * (u_(a, j) + u_(a + 1, j))
                                                                  : 0.0f;
    };
    auto faceV = [&](int b) {
      return d.isWetOrOutside(i, b) && d.isWetOrOutside(i, b + 1) ? 0.5f * (v_(i, b) + v_(i, b + 1))
                                                                  : 0.0f;
    };
    out(i, j) = (faceU(i) - faceU(i - 1) + faceV(j) - faceV(j - 1)) * inverseDx;
  };
  forEachWetCell(span, cell);
}

// Eq. 7: kappa dz = -div u; eq. 12: z^k <- z^k + dz; eq. 13 / eq. 10:
//   z^{k+1} = [4 z^k + 2 mu L(z^k) - (2 - nu dt) z^{k-1}] / (2 + nu dt).
void AdvectedWave::updateHeight(double dt) {
  computeDivergence(divergence_);
  const float inverseKappa = float(1.0 / kappa(dt));
  const auto& wet = domain_->wetMask();
  float* z = current_->data();
  for (std::size_t k = 0; k < wet.size(); ++k)
    if (wet[k]) z[k] -= inverseKappa * divergence_.data()[k];

  const double dx = domain_->grid().dx;
  const float mu = float(c_ * c_ * dt * dt / (dx * dx));
  // Evaluated as z^{k+1} = z^k + a (z^k - z^{k-1}) + b L(z^k), a = (2 - nu dt)/(2 + nu dt),
  // b = 2 mu/(2 + nu dt): the same update, but a constant level stays exactly constant
  // whatever the rounding of a and b. In eq. 10's own form, float coefficients with
  // (4 - (2 - nu dt)) / (2 + nu dt) != 1 by one ulp make the mean level grow by about
  // ulp / (nu dt) per step: 0.3 % of a drop's volume per 600 steps at nu dt = 0.003.
  const float a = float((2.0 - nu_ * dt) / (2.0 + nu_ * dt));
  const float b = float(2.0 * mu / (2.0 + nu_ * dt));
  const float* zOld = previous_->data();
  float* zNew = next_->data();
  const std::size_t nx = std::size_t(domain_->nx());
  const auto& spans = stencil_.spans();
#pragma omp parallel for schedule(static) if (worthThreads(current_->size()))
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const std::size_t rowStart = std::size_t(spans[s].row) * nx;
    const std::size_t begin = rowStart + spans[s].begin, end = rowStart + spans[s].end;
#pragma omp simd
    for (std::size_t k = begin; k < end; ++k)
      zNew[k] =
          z[k] + (a * (z[k] - zOld[k]) + b * interiorLaplacian(StencilKind::FivePoint, z, k, nx));
  }
  for (const auto& cell : stencil_.edgeCells()) {
    const std::size_t k = cell.index;
    zNew[k] = z[k] + (a * (z[k] - zOld[k]) + b * stencil_.applyAt(cell, z));
  }
}

// -L on wet cells (the diffusion solve's operator): the shared WetStencil, negated.
void AdvectedWave::applyNegativeLaplacian(const Field2D& in, Field2D& out) const {
  stencil_.apply(in, out);
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < out.size(); ++k)
    out.data()[k] = wet[k] ? -out.data()[k] : 0.0f;
}

// Eq. 4 (Stam's project): solve lap(p) = div u with Neumann walls (the mirror 5-point
// operator, -L p = -dx^2 div u, singular: solved in zero-mean form), then u <- u - grad p with
// central differences, a wall neighbour's p mirrored. This is Stam's approximate projection:
// the divergence left is O(dx^2) for smooth fields plus the solver's tolerance. Walls are
// not re-imposed afterwards: a wall face carries no flow by construction of the divergence,
// and zeroing the cell-centred normal velocity here would leave an O(1) divergence in the
// wall cells (measured: 2.0 instead of 0.008 1/s, verification "pressure solve residual").
void AdvectedWave::project() {
  computeDivergence(divergence_);
  divergenceBefore_ = divergence_.maxAbs();
  const double dx = domain_->grid().dx;
  const auto& wet = domain_->wetMask();
  const float scale = float(-dx * dx);
  for (std::size_t k = 0; k < wet.size(); ++k)
    rhs_.data()[k] = wet[k] ? scale * divergence_.data()[k] : 0.0f;
  // Multigrid-preconditioned CG on the same operator (core/multigrid.hpp), vectors in double.
  lastSolve_ = pressureSolver_.solve(rhs_, pressure_, tolerance_, maxIterations_, true);

  const Domain& d = *domain_;
  const float halfInverseDx = float(0.5 / dx);
  const std::size_t row = std::size_t(d.nx());
  const auto span = [&](std::size_t begin, std::size_t end) {
    subtractGradientSpan(u_.data(), v_.data(), pressure_.data(), halfInverseDx, row, begin, end);
  };
  const auto cell = [&](int i, int j) {
    const float pc = pressure_(i, j);
    auto at = [&](int a, int b) { return d.isWetOrOutside(a, b) ? pressure_(a, b) : pc; };
    u_(i, j) -= halfInverseDx * (at(i + 1, j) - at(i - 1, j));
    v_(i, j) -= halfInverseDx * (at(i, j + 1) - at(i, j - 1));
  };
  forEachWetCell(span, cell);
  computeDivergence(divergence_);
  divergenceAfter_ = divergence_.maxAbs();
}

void AdvectedWave::rotateHeightLevels() {
  Field2D* oldest = previous_;
  previous_ = current_;
  current_ = next_;
  next_ = oldest;
}

double AdvectedWave::addEta(const Field2D& delta) {
  double added = 0.0;
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (!wet[k] || delta.data()[k] == 0.0f) continue;
    current_->data()[k] += delta.data()[k];
    previous_->data()[k] += delta.data()[k];
    added += delta.data()[k];
  }
  return added * domain_->grid().cellArea();
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
  const double wave =
      waveKinetic_.compute(stencil_, *domain_, true, c_, *current_, *previous_, lastDt_);
  return 0.5 * flow * domain_->grid().cellArea() + wave;
}

std::map<std::string, double> AdvectedWave::diagnostics() const {
  return {{"solver_iterations", lastSolve_.iterations},
          {"solver_residual", lastSolve_.relativeResidual},
          {"divergence_max", divergenceAfter_},
          {"divergence_before", divergenceBefore_}};
}

}  // namespace wb
