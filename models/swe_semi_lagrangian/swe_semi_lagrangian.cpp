#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/errors.hpp"
#include "core/parallel.hpp"

namespace wb {

std::vector<ParamSpec> SweSemiLagrangian::parameterSpecs() {
  return {
      {"dt",
       ParamKind::Real,
       0.0,
       1e-6,
       1e3,
       "s",
       "Time step. Auto: 4 times the explicit limit dx / sqrt(g d_max), kept at half the "
       "shear bound. A dt whose product with the velocity shear (estimated from the initial "
       "surface) exceeds 1 (section 4.2) is refused unless force is set.",
       {},
       true},
      {"cg_tolerance",
       ParamKind::Real,
       1e-4,
       1e-10,
       1e-1,
       "",
       "Multigrid-preconditioned conjugate gradients on the Helmholtz equation (eq. 25, "
       "vectors in double) stop when the residual ||b - A h|| is at most this times ||b||; h "
       "is then stored in float.",
       {},
       false},
      {"cg_max_iterations",
       ParamKind::Integer,
       200,
       1,
       100000,
       "",
       "Largest number of conjugate-gradient iterations per step.",
       {},
       false},
      {"min_depth",
       ParamKind::Real,
       Domain::kMinDepth,
       1e-6,
       100.0,
       "m",
       "The total depth d = h - b used in eq. 25 and in the kinetic energy is at least this, "
       "so drying cells keep a positive definite system; the surface is never let below the "
       "ground.",
       {},
       false},
      forceParamSpec("shear bound"),
  };
}

SweSemiLagrangian::SweSemiLagrangian() : Model(parameterSpecs()) {}

double SweSemiLagrangian::explicitLimit() const {
  return domain_->grid().dx / std::sqrt(domain_->g() * domain_->maxWetDepth());
}

double SweSemiLagrangian::maxStableDt() const {
  const double shear = std::max(shear_, initialShear_);
  return shear > 0.0 ? kMaxShearNumber / shear : std::numeric_limits<double>::infinity();
}

double SweSemiLagrangian::preferredDt() const {
  if (!autoDt_ || shear_ <= 0.0) return dt_;
  return std::min(dt_, kAutoShearSafety * kMaxShearNumber / shear_);
}

void SweSemiLagrangian::reset(const Domain& domain, const Field2D& eta0) {
  domain_ = &domain;
  walls_ = SweWalls(domain);
  cells_ = WetStencil(domain, StencilKind::FivePoint, WallRule::Mirror);
  const int nx = domain.nx(), ny = domain.ny();
  h_ = eta0;
  u_ = v_ = depth_ = hDep_ = uDep_ = vDep_ = rhs_ = faceX_ = faceY_ = Field2D(nx, ny);
  ground_ = Field2D(nx, ny);
  // Eq. 25's shift is 1; the structure of the multigrid levels is built once, the face
  // coefficients are recomputed every step (solveHelmholtz).
  FivePointSystem helmholtz = FivePointSystem::fromMask(nx, ny, domain.wetMask(), 1.0f);
  unitShift_ = helmholtz.shift;
  helmholtzSolver_.setup(helmholtz);
  for (std::size_t k = 0; k < ground_.size(); ++k)
    ground_.data()[k] = -domain.restDepth().data()[k];
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (!domain.isWet(i, j)) h_(i, j) = 0.0f;
  keepDepthNonNegative();
  computeDepth();
  shear_ = 0.0;
  initialShear_ = estimatedInitialShear();
  lastSolve_ = {};
  const auto userDt = params().getOptional("dt");
  autoDt_ = !userDt;
  if (userDt) {
    const double number = *userDt * initialShear_;
    if (number > kMaxShearNumber && params().get("force") == 0) {
      std::ostringstream message;
      message << "swe-semi-lagrangian.dt: " << *userDt << " s times the velocity shear "
              << initialShear_ << " 1/s (estimated from the initial surface) is " << number
              << ", beyond the bound " << kMaxShearNumber
              << " (Layton section 4.2); set swe-semi-lagrangian.force=true to run it anyway";
      throw InputError(message.str());
    }
    dt_ = *userDt;
  } else {
    dt_ = std::min(kAutoExplicitMultiple * explicitLimit(), kAutoShearSafety * maxStableDt());
  }
  lastDt_ = dt_;
}

// A linear gravity wave carries u = sqrt(g / d) eta, so its shear is about sqrt(g / d) times
// the surface slope: the estimate of the shear the initial surface will set moving.
double SweSemiLagrangian::estimatedInitialShear() const {
  const double dx = domain_->grid().dx, g = domain_->g();
  double shear = 0.0;
  for (int j = 0; j < h_.ny(); ++j)
    for (int i = 0; i < h_.nx(); ++i) {
      if (!walls_.wet(i, j)) continue;
      const double slope = std::max(std::fabs(walls_.centredX(h_, i, j, true)),
                                    std::fabs(walls_.centredY(h_, i, j, true))) /
                           dx;
      shear = std::max(shear, std::sqrt(g / depth_(i, j)) * slope);
    }
  return shear;
}

void SweSemiLagrangian::step(double dt) {
  computeDepth();
  interpolateAtDepartures(dt);
  applyForce(dt);
  assembleRhs(dt);
  assembleHelmholtz(dt);
  solveHelmholtz();
  updateVelocity(dt);
  keepDepthNonNegative();
  shear_ = velocityShear();
  lastDt_ = dt;
}

namespace {

// Runs span(begin, end) over the interior spans of `cells` (cells whose four edge neighbours
// are wet: a branch-free loop over k in [begin, end)), on OpenMP threads for large grids, and
// cell(i, j) over the other wet cells; returns the sum of what they return.
template <class Span, class Cell>
double sumOverWetCells(const WetStencil& cells, const Field2D& shape, const Span& span,
                       const Cell& cell) {
  const auto& spans = cells.spans();
  const std::size_t nx = std::size_t(shape.nx());
  double total = 0.0;
#pragma omp parallel for reduction(+ : total) schedule(static) if (worthThreads(shape.size()))
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const std::size_t rowStart = std::size_t(spans[s].row) * nx;
    total += span(rowStart + spans[s].begin, rowStart + spans[s].end);
  }
  for (const auto& edge : cells.edgeCells())
    total += cell(int(edge.index % nx), int(edge.index / nx));
  return total;
}

// The branch-free interior kernels (cells whose four edge neighbours are wet), free functions
// with restrict pointers so that the compiler vectorises them; target_clones adds an AVX2
// version chosen at load time. row is the grid's row length.
#define WB_SPAN_KERNEL __attribute__((target_clones("avx2", "default")))

// Eq. 25, right side, at interior cells (every face open); see assembleRhs.
WB_SPAN_KERNEL void rhsSpan(float* __restrict rhs, const float* __restrict hDep,
                            const float* __restrict h, const float* __restrict d,
                            const float* __restrict u, const float* __restrict v, double dtPerDx,
                            std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const double east = 0.25 * (d[k] + d[k + 1]) * (u[k] + u[k + 1]);
    const double west = 0.25 * (d[k - 1] + d[k]) * (u[k - 1] + u[k]);
    const double north = 0.25 * (d[k] + d[k + row]) * (v[k] + v[k + row]);
    const double south = 0.25 * (d[k - row] + d[k]) * (v[k - row] + v[k]);
    const float advection =
        u[k] * (0.5f * (h[k + 1] - h[k - 1])) + v[k] * (0.5f * (h[k + row] - h[k - row]));
    rhs[k] = float(hDep[k] - dtPerDx * (east - west + north - south) + dtPerDx * advection);
  }
}

// Eq. 25, left side: face coefficients mu d_f at interior cells.
WB_SPAN_KERNEL void facesSpan(float* __restrict faceX, float* __restrict faceY,
                              const float* __restrict d, float mu, std::size_t row,
                              std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    faceX[k] = 0.5f * mu * (d[k] + d[k + 1]);
    faceY[k] = 0.5f * mu * (d[k] + d[k + row]);
  }
}

// q = A p at interior cells; returns sum(p q) over them. The face terms nearly cancel at
// large dt: each cell's sum is taken in double.
WB_SPAN_KERNEL double helmholtzSpan(float* __restrict q, const float* __restrict p,
                                    const float* __restrict faceX, const float* __restrict faceY,
                                    std::size_t row, std::size_t begin, std::size_t end) {
  double dot = 0.0;
#pragma omp simd reduction(+ : dot)
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = p[k];
    double sum = centre;
    sum += faceX[k] * (centre - p[k + 1]);
    sum += faceX[k - 1] * (centre - p[k - 1]);
    sum += faceY[k] * (centre - p[k + row]);
    sum += faceY[k - row] * (centre - p[k - row]);
    const float out = float(sum);
    q[k] = out;
    dot += double(centre) * out;
  }
  return dot;
}

// Eqs. 21-22 at interior cells.
WB_SPAN_KERNEL void velocitySpan(float* __restrict u, float* __restrict v,
                                 const float* __restrict uDep, const float* __restrict vDep,
                                 const float* __restrict h, double gDtPerDx, std::size_t row,
                                 std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    u[k] = float(uDep[k] - gDtPerDx * (0.5f * (h[k + 1] - h[k - 1])));
    v[k] = float(vDep[k] - gDtPerDx * (0.5f * (h[k + row] - h[k - row])));
  }
}

// max(|u_x|, |u_y|, |v_x|, |v_y|) (per cell) at interior cells.
WB_SPAN_KERNEL float shearSpan(const float* __restrict u, const float* __restrict v,
                               std::size_t row, std::size_t begin, std::size_t end) {
  float shear = 0.0f;
#pragma omp simd reduction(max : shear)
  for (std::size_t k = begin; k < end; ++k)
    shear = std::max({shear, std::fabs(0.5f * (u[k + 1] - u[k - 1])),
                      std::fabs(0.5f * (u[k + row] - u[k - row])),
                      std::fabs(0.5f * (v[k + 1] - v[k - 1])),
                      std::fabs(0.5f * (v[k + row] - v[k - row]))});
  return shear;
}

#undef WB_SPAN_KERNEL

}  // namespace

// d^n = h^n - b, at least min_depth on wet cells (drying cells keep eq. 25 definite).
void SweSemiLagrangian::computeDepth() {
  const float minDepth = float(params().get("min_depth"));
  const std::uint8_t* wet = domain_->wetMask().data();
  const float* h = h_.data();
  const float* ground = ground_.data();
  float* depth = depth_.data();
  const std::size_t n = h_.size();
#pragma omp parallel for simd schedule(static) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    depth[k] = wet[k] ? std::max(h[k] - ground[k], minDepth) : 0.0f;
}

// Eq. 31: the departure point of the particle arriving at cell centre x_i is x_i - dt u^n(x_i).
// Eq. 32: h~, u~, v~ are the bilinear interpolants of h^n, u^n, v^n there.
void SweSemiLagrangian::interpolateAtDepartures(double dt) {
  const double cellsPerMetre = 1.0 / domain_->grid().dx;
  const int nx = h_.nx(), ny = h_.ny();
#pragma omp parallel for schedule(static) if (worthThreads(h_.size()))
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!walls_.wet(i, j)) continue;
      const double x = i - dt * u_(i, j) * cellsPerMetre;
      const double y = j - dt * v_(i, j) * cellsPerMetre;
      const SweWalls::Bilinear departure = walls_.bilinear(x, y);
      hDep_(i, j) = departure.at(h_, h_(i, j));
      uDep_(i, j) = departure.at(u_, u_(i, j));
      vDep_(i, j) = departure.at(v_, v_(i, j));
    }
}

// External acceleration (wind) over the step, added to the departure velocities: the force
// term of eqs. 21-22 taken explicitly; then the wall rule of section 4.1.
void SweSemiLagrangian::applyForce(double dt) {
  if (force_) {
    const float step = float(dt);
    const std::size_t n = uDep_.size();
    float* u = uDep_.data();
    float* v = vDep_.data();
    const float* ax = force_->ax.data();
    const float* ay = force_->ay.data();
#pragma omp parallel for simd schedule(static) if (worthThreads(n))
    for (std::size_t k = 0; k < n; ++k) {
      u[k] += step * ax[k];
      v[k] += step * ay[k];
    }
  }
  walls_.enforceVelocity(uDep_, vDep_);
}

// Eq. 25, right side: h~ + dt (u~ b_x + v~ b_y) - dt d^n (u~_x + v~_y). With d^n = h^n - b
// the bathymetry terms combine like the left side's: u~.grad(b) - d div(u~) =
// -div(d u~) + u~.grad(h^n). Assembled in that form, -div(d u~) with the fluxes of the
// Helmholtz faces (face depth times mean face velocity, none through walls) and u~.grad(h^n)
// centred with Neumann ghosts. The paper's centred u~ b_x is unbounded where the ground steps
// up at a coast (b_x ~ depth / dx); the flux form keeps such cells bounded and sums to zero.
void SweSemiLagrangian::assembleRhs(double dt) {
  const double dtPerDx = dt / domain_->grid().dx;
  const int nx = h_.nx(), ny = h_.ny();
  const float *d = depth_.data(), *u = uDep_.data(), *v = vDep_.data();
  const float *h = h_.data(), *hDep = hDep_.data();
  float* rhs = rhs_.data();
  const std::size_t row = std::size_t(nx);
  const auto span = [&](std::size_t begin, std::size_t end) {
    rhsSpan(rhs, hDep, h, d, u, v, dtPerDx, row, begin, end);
    return 0.0;
  };
  const auto flux = [&](const Field2D& vel, int i, int j, int di, int dj) {
    const int in = i + di, jn = j + dj;
    if (in >= nx || jn >= ny || !walls_.wet(in, jn)) return 0.0;
    return 0.25 * (depth_(i, j) + depth_(in, jn)) * (vel(i, j) + vel(in, jn));
  };
  const auto cell = [&](int i, int j) {
    const double east = flux(uDep_, i, j, 1, 0), north = flux(vDep_, i, j, 0, 1);
    const double west = i > 0 && walls_.wet(i - 1, j) ? flux(uDep_, i - 1, j, 1, 0) : 0.0;
    const double south = j > 0 && walls_.wet(i, j - 1) ? flux(vDep_, i, j - 1, 0, 1) : 0.0;
    const float advection = uDep_(i, j) * walls_.centredX(h_, i, j, true) +
                            vDep_(i, j) * walls_.centredY(h_, i, j, true);
    rhs_(i, j) = float(hDep_(i, j) - dtPerDx * (east - west + north - south) + dtPerDx * advection);
    return 0.0;
  };
  sumOverWetCells(cells_, rhs_, span, cell);
}

// Eq. 25, left side. The paper's operator h + g dt^2 (grad b . grad h) - g dt^2 d lap(h) is
// not symmetric. With d = h^n - b it equals h - g dt^2 div(d grad h) + g dt^2 grad(h^n) .
// grad(h); the last term is the product of two surface slopes (second order in the wave
// amplitude, absent in the linearised equations) and is dropped, which leaves the conservative
//   A h = h - g dt^2 div(d^n grad h)
// discretised with face depths d_f = (d_C + d_N) / 2 and no flux through walls (Neumann):
//   (A h)_C = h_C + sum_faces (g dt^2 / dx^2) d_f (h_C - h_N).
// A is symmetric positive definite, so conjugate gradients apply, and sum(A h) = sum(h):
// the solve itself neither adds nor removes water. The faces of solid cells stay 0 (reset).
void SweSemiLagrangian::assembleHelmholtz(double dt) {
  const double dx = domain_->grid().dx;
  const float mu = float(domain_->g() * dt * dt / (dx * dx));
  const int nx = h_.nx(), ny = h_.ny();
  const float* d = depth_.data();
  float *faceX = faceX_.data(), *faceY = faceY_.data();
  const std::size_t row = std::size_t(nx);
  const auto span = [&](std::size_t begin, std::size_t end) {
    facesSpan(faceX, faceY, d, mu, row, begin, end);
    return 0.0;
  };
  const auto cell = [&](int i, int j) {
    faceX_(i, j) =
        i + 1 < nx && walls_.wet(i + 1, j) ? 0.5f * mu * (depth_(i, j) + depth_(i + 1, j)) : 0.0f;
    faceY_(i, j) =
        j + 1 < ny && walls_.wet(i, j + 1) ? 0.5f * mu * (depth_(i, j) + depth_(i, j + 1)) : 0.0f;
    return 0.0;
  };
  sumOverWetCells(cells_, depth_, span, cell);
}

double SweSemiLagrangian::applyHelmholtz(const Field2D& in, Field2D& out) const {
  const int nx = in.nx(), ny = in.ny();
  const float *p = in.data(), *faceX = faceX_.data(), *faceY = faceY_.data();
  float* q = out.data();
  const std::size_t row = std::size_t(nx);
  const auto span = [&](std::size_t begin, std::size_t end) {
    return helmholtzSpan(q, p, faceX, faceY, row, begin, end);
  };
  const auto cell = [&](int i, int j) {
    const float centre = in(i, j);
    double sum = centre;
    if (i + 1 < nx) sum += faceX_(i, j) * (centre - in(i + 1, j));
    if (i > 0) sum += faceX_(i - 1, j) * (centre - in(i - 1, j));
    if (j + 1 < ny) sum += faceY_(i, j) * (centre - in(i, j + 1));
    if (j > 0) sum += faceY_(i, j - 1) * (centre - in(i, j - 1));
    out(i, j) = float(sum);
    return double(centre) * out(i, j);
  };
  return sumOverWetCells(cells_, in, span, cell);
}

// Conjugate gradients preconditioned by a multigrid V-cycle (core/multigrid.hpp) on the faces
// of this step, warm-started from h^n (the previous solution), to cg_tolerance.
void SweSemiLagrangian::solveHelmholtz() {
  helmholtzSolver_.multigrid().updateCoefficients(unitShift_, faceX_, faceY_);
  // Names longer than the short-string buffer would allocate on every step.
  static const std::string kTolerance = "cg_tolerance", kMaxIterations = "cg_max_iterations";
  lastSolve_ =
      helmholtzSolver_.solve(rhs_, h_, params().get(kTolerance), params().getInt(kMaxIterations));
}

// Eqs. 21-22: u^{n+1} = u~ - g dt h_x^{n+1}, v^{n+1} = v~ - g dt h_y^{n+1} (centred, Neumann
// ghosts), then zero normal velocity at walls (section 4.1).
void SweSemiLagrangian::updateVelocity(double dt) {
  const double gDtPerDx = domain_->g() * dt / domain_->grid().dx;
  const float *h = h_.data(), *uDep = uDep_.data(), *vDep = vDep_.data();
  float *u = u_.data(), *v = v_.data();
  const std::size_t row = std::size_t(h_.nx());
  const auto span = [&](std::size_t begin, std::size_t end) {
    velocitySpan(u, v, uDep, vDep, h, gDtPerDx, row, begin, end);
    return 0.0;
  };
  const auto cell = [&](int i, int j) {
    u_(i, j) = float(uDep_(i, j) - gDtPerDx * walls_.centredX(h_, i, j, true));
    v_(i, j) = float(vDep_(i, j) - gDtPerDx * walls_.centredY(h_, i, j, true));
    return 0.0;
  };
  sumOverWetCells(cells_, h_, span, cell);
  walls_.enforceVelocity(u_, v_);
}

// Drying: a surface below the ground (negative depth) is lifted back to the ground; the water
// this adds shows up as volume drift and the cells are counted in dry_cells.
void SweSemiLagrangian::keepDepthNonNegative() {
  const std::uint8_t* wet = domain_->wetMask().data();
  const float* ground = ground_.data();
  float* h = h_.data();
  const std::size_t n = h_.size();
  int dry = 0;
#pragma omp parallel for simd reduction(+ : dry) schedule(static) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    const bool lift = wet[k] && !(h[k] >= ground[k]);
    h[k] = lift ? ground[k] : h[k];
    dry += lift;
  }
  dryCells_ = dry;
}

double SweSemiLagrangian::velocityShear() const {
  const double dx = domain_->grid().dx;
  const float *u = u_.data(), *v = v_.data();
  const std::size_t row = std::size_t(h_.nx());
  const auto& spans = cells_.spans();
  float shear = 0.0f;
#pragma omp parallel for reduction(max : shear) schedule(static) if (worthThreads(u_.size()))
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const std::size_t begin = spans[s].row * row + spans[s].begin;
    const std::size_t end = spans[s].row * row + spans[s].end;
    shear = std::max(shear, shearSpan(u, v, row, begin, end));
  }
  // Free-slip ghosts at the other wet cells: a wall does not shear the flow along it.
  for (const auto& edge : cells_.edgeCells()) {
    const int i = int(edge.index % row), j = int(edge.index / row);
    shear = std::max({shear, std::fabs(walls_.centredX(u_, i, j, true)),
                      std::fabs(walls_.centredY(u_, i, j, true)),
                      std::fabs(walls_.centredX(v_, i, j, true)),
                      std::fabs(walls_.centredY(v_, i, j, true))});
  }
  return shear / dx;
}

double SweSemiLagrangian::addEta(const Field2D& delta) {
  double added = 0.0;
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (!wet[k] || delta.data()[k] == 0.0f) continue;
    h_.data()[k] += delta.data()[k];
    added += delta.data()[k];
  }
  return added * domain_->grid().cellArea();
}

double SweSemiLagrangian::kineticEnergy() const {
  const float minDepth = float(params().get("min_depth"));
  const auto& wet = domain_->wetMask();
  double total = 0.0;
  for (std::size_t k = 0; k < h_.size(); ++k) {
    if (!wet[k]) continue;
    const double d = std::max(h_.data()[k] - ground_.data()[k], minDepth);
    const double u = u_.data()[k], v = v_.data()[k];
    total += d * (u * u + v * v);
  }
  return 0.5 * total * domain_->grid().cellArea();
}

std::map<std::string, double> SweSemiLagrangian::diagnostics() const {
  return {{"solver_iterations", lastSolve_.iterations},
          {"solver_residual", lastSolve_.relativeResidual},
          {"shear_number", lastDt_ * shear_},
          {"dry_cells", dryCells_}};
}

}  // namespace wb
