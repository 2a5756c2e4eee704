#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <sstream>

#include <omp.h>

#include "core/errors.hpp"
#include "core/forcing/wave_shadow.hpp"
#include "core/grid/parallel.hpp"
#include "core/grid/semi_lagrangian.hpp"
#include "core/model/mask_change.hpp"
#include "core/solvers/multigrid.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian_kernels.hpp"

namespace wb {

using namespace swe_sl;

SweSemiLagrangian::SweSemiLagrangian() : Model(parameterSpecs()) {}

double SweSemiLagrangian::explicitLimit() const {
  return domain_->grid().dx / std::sqrt(domain_->g() * maxRestDepth_);
}

double SweSemiLagrangian::maxStableDt() const {
  const double shear = std::max(shear_, initialShear_);
  return shear > 0.0 ? kMaxShearNumber / shear : std::numeric_limits<double>::infinity();
}

double SweSemiLagrangian::preferredDt() const {
  if (!autoDt_) return dt_;
  double dt = dt_;
  if (shear_ > 0.0) dt = std::min(dt, kAutoShearSafety * kMaxShearNumber / shear_);
  if (frontSpeed_ > 0.0) dt = std::min(dt, kFrontCourant * domain_->grid().dx / frontSpeed_);
  return dt;
}

void SweSemiLagrangian::reset(const Domain& domain, const Field2D& eta0) {
  settings_ = settle(params());
  domain_ = &domain;
  maxRestDepth_ = domain.maxWetDepth();
  // Ground everywhere above rest (a bowl holding water above it): the deepest water at reset
  // sets the explicit limit and auto dt instead.
  if (maxRestDepth_ <= 0.0)
    for (std::size_t k = 0; k < eta0.size(); ++k)
      if (domain.wetMask()[k])
        maxRestDepth_ =
            std::max(maxRestDepth_, double(eta0.data()[k]) + domain.restDepth().data()[k]);
  walls_ = SweWalls(domain);
  layer_ = AbsorbingLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  incoming_ = IncomingWaves(domain, 0.0);  // at sqrt(g d0) per cell
  volumeSink_ = 0.0;
  const int nx = domain.nx(), ny = domain.ny();
  h_ = eta0;
  u_ = v_ = depth_ = uDep_ = vDep_ = rhs_ = faceX_ = faceY_ = Field2D(nx, ny);
  faceDepthX_ = faceDepthY_ = faceCarryX_ = faceCarryY_ = fluxX_ = fluxY_ = Field2D(nx, ny);
  change_ = olderChange_ = Field2D(nx, ny);
  moving_ = Field2D(nx, ny);
  outflowScale_ = Field2D(nx, ny, 1.0f);  // solid cells keep 1: never limited
  floodX_ = floodY_ = solved_ = momentumU_ = momentumV_ = Field2D(nx, ny);
  solvers_ = {};
  ground_ = Field2D(nx, ny);
  // Eq. 25's shift is 1; the face coefficients are recomputed every step (solveHelmholtz).
  unitShift_ = FivePointSystem::fromMask(nx, ny, domain.wetMask(), 1.0f).shift;
  for (std::size_t k = 0; k < ground_.size(); ++k)
    ground_.data()[k] = -domain.restDepth().data()[k];
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (!domain.isWet(i, j)) h_(i, j) = 0.0f;
  keepDepthNonNegative();
  shear_ = frontSpeed_ = unspread_ = 0.0;
  initialShear_ = estimatedInitialShear();
  lastSolve_ = {};
  changeDt_ = {0.0, 0.0};
  const auto userDt = settings_.userDt;
  autoDt_ = !userDt;
  if (userDt) {
    const double number = *userDt * initialShear_;
    if (number > kMaxShearNumber && !settings_.force) {
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
  friction_ = ManningFriction(domain.g(), domain.manning(), settings_.filmDepth);
  frictionEnergy_ = 0.0;
}

// A linear gravity wave carries u = sqrt(g / d) eta, so its shear is about sqrt(g / d) times
// the surface slope: the estimate of the shear the initial surface will set moving.
double SweSemiLagrangian::estimatedInitialShear() const {
  const double dx = domain_->grid().dx, g = domain_->g();
  double shear = 0.0;
  for (int j = 0; j < h_.ny(); ++j)
    for (int i = 0; i < h_.nx(); ++i) {
      if (!walls_.wet(i, j) || depth_(i, j) < settings_.filmDepth) continue;
      const double slope = std::max(std::fabs(walls_.centredX(h_, i, j, true)),
                                    std::fabs(walls_.centredY(h_, i, j, true))) /
                           dx;
      shear = std::max(shear, std::sqrt(g / depth_(i, j)) * slope);
    }
  return shear;
}

// d^n was computed at the end of the last step (or by reset / addEta). The velocity update
// and the fluxes both take the surface of eq. 25; the fluxes, limited, then give h^{n+1}.
// h_ holds h^n until settleSurface: eq. 25's solution is h^n + change_.
void SweSemiLagrangian::step(double dt) {
  interpolateAtDepartures(dt);
  applyForce(dt);
  extendVelocityIntoFilms();
  assembleEq25(dt);
  solveHelmholtz(dt);
  transportVolume(dt);
  if (dryCells_ == 0 && layer_.empty()) {
    finishWetStep(dt);  // the four below, where the middle two do nothing, in one pass
  } else {
    updateVelocity(dt);
    startFloodedCells();
    absorbAtOpenEdges(dt);
    keepDepthNonNegative();  // and shear_
  }
  applyFriction(dt);  // Manning, on u^{n+1} with d^{n+1}
  frontSpeed_ = dryCells_ > 0 ? frontSpeed() : 0.0;
  lastDt_ = dt;
  incoming_.advance(dt);
}

// Eq. 31: the departure point of the particle arriving at cell centre x_i is x_i - dt u^n(x_i).
// Eq. 32: u~, v~ are the bilinear interpolants of u^n, v^n there, with SweWalls' wall rule
// (solid corners left out, the wet corners' weights renormalised: the shared sampler's
// Renormalise, core/grid/semi_lagrangian.hpp); films (whose velocity is 0 by
// keepDepthNonNegative, not the water's) are left out like solid corners. Eq. 32's h~ is not
// sampled: eq. 25 is assembled in flux form from h^n (rhsAt), which never reads it.
void SweSemiLagrangian::interpolateAtDepartures(double dt) {
  const int nx = h_.nx(), ny = h_.ny();
  const Departures departures{u_.data(), v_.data(), float(dt / domain_->grid().dx),
                              nx,        ny,        moving_.data()};
  const SampledFields fields{2, {u_.data(), v_.data()}, {uDep_.data(), vDep_.data()}};
#pragma omp parallel if (worthThreads(h_.size()))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    sampleRowsAtDepartures(departures, fields, SampleRule::Renormalise, ny * t / threads,
                           ny * (t + 1) / threads);
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

// Manning's bottom friction (core/model/manning_friction.hpp: GeoClaw's and ANUGA's
// d(d u)/dt = -g n^2 |u| d u / d^{4/3}) as GeoClaw applies it, a source step split after the
// step (its src2 after the hyperbolic step): one implicit step on the new velocity with the new
// depth d^{n+1} held,
//   u <- u / (1 + dt g n^2 |u| / d^{4/3}),
// which only slows the water, never reverses it, however thin. After the step rather than on
// the departure velocities, because where the flow converges eqs. 21-22 take the momentum
// advected in flux form from u^n (momentumAt), which would put back what friction took from
// u~. Films (d <= film_depth) have no velocity already (keepDepthNonNegative); the next step
// floods them with their neighbours' slowed velocity. The continuity fluxes of the next step
// carry the slowed water. shear_ (auto dt's bound) is the step's before friction, which slows
// every cell, more where the water is thinner. friction_energy adds the kinetic energy
// 1/2 d (|u|^2 - |u_new|^2) dA this takes out.
void SweSemiLagrangian::applyFriction(double dt) {
  if (!friction_.active()) return;
  const std::size_t n = u_.size();
  float *u = u_.data(), *v = v_.data();
  const float* depth = depth_.data();
  const auto& wet = domain_->wetMask();
  const float gn2Dt = float(friction_.gn2 * dt), floor = float(friction_.floor);
  double dissipated = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : dissipated) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    if (!wet[k]) continue;
    const double speed2 = double(u[k]) * u[k] + double(v[k]) * v[k];
    if (speed2 == 0.0) continue;
    // The law's float form (no library cube root: the call dominated the loop).
    const double keep =
        ManningFriction::keepFloat(gn2Dt, float(std::sqrt(speed2)), depth[k], floor);
    dissipated += 0.5 * depth[k] * speed2 * (1.0 - keep * keep);
    u[k] = float(keep * u[k]);
    v[k] = float(keep * v[k]);
  }
  frictionEnergy_ += dissipated * domain_->grid().cellArea();
}

// Eq. 25, right side: h~ + dt (u~ b_x + v~ b_y) - dt d^n (u~_x + v~_y). With d^n = h^n - b
// the bathymetry terms combine like the left side's: u~.grad(b) - d div(u~) =
// -div(d u~) + u~.grad(h^n), and h~ + dt u~.grad(h^n) is h^n up to the interpolation error
// of eq. 32 (O(dt^2 |u|^2 h_xx)). Assembled as h^n - dt div(a_f u~_f), the continuity equation
// in flux form: advective face depths a_f of faceDepthRows, face velocities the mean of the
// two cells', none through walls or dry faces. The interpolated h~ is not used: it is neither
// conservative nor positive, and at a front it would carry water out of dry cells (bilinear
// weights on a wet neighbour); docs/wet-dry.md.
float SweSemiLagrangian::rhsAt(int i, int j, float dtPerDx) const {
  const int nx = h_.nx(), ny = h_.ny();
  const auto flux = [&](const Field2D& depth, const Field2D& vel, int i0, int j0, int di, int dj) {
    if (i0 < 0 || j0 < 0) return 0.0f;
    return depth(i0, j0) * (0.5f * (vel(i0, j0) + vel(i0 + di, j0 + dj)));
  };
  const float east = i + 1 < nx ? flux(faceCarryX_, uDep_, i, j, 1, 0) : 0.0f;
  const float west = flux(faceCarryX_, uDep_, i - 1, j, 1, 0);
  const float north = j + 1 < ny ? flux(faceCarryY_, vDep_, i, j, 0, 1) : 0.0f;
  const float south = flux(faceCarryY_, vDep_, i, j - 1, 0, 1);
  return h_(i, j) - dtPerDx * ((east - west) + (north - south));
}

// Eq. 25 made in one pass over bands of rows: the face depths and coefficients of row j
// (faceDepthRows), then row j's right side (rhsAt) and the right side of the solve for
// the change, rhs - A h^n, with the guessed change (solveHelmholtz): they read the faces of
// rows j and j - 1, still in cache. The first row of a band reads the row before it, another
// thread's, after a barrier. The first and last rows of the grid cell by cell.
void SweSemiLagrangian::assembleEq25(double dt) {
  const double dx = domain_->grid().dx;
  const float mu = float(domain_->g() * dt * dt / (dx * dx));
  const float dtPerDx = float(dt / dx);
  const int nx = h_.nx(), ny = h_.ny();
  const std::size_t row = std::size_t(nx);
  float* rhs = rhs_.data();
  const float *h = h_.data(), *u = uDep_.data(), *v = vDep_.data();
  const float *carryX = faceCarryX_.data(), *carryY = faceCarryY_.data();
  const float *faceX = faceX_.data(), *faceY = faceY_.data();
  // The guess: the rate of change extrapolated linearly from the last two steps,
  // dt (2 change^{n-1} / dt^{n-1} - change^{n-2} / dt^{n-2}).
  const float last = changeDt_[0] > 0.0 ? float(2.0 * dt / changeDt_[0]) : 0.0f;
  const float older = changeDt_[1] > 0.0 ? float(dt / changeDt_[1]) : 0.0f;
  const Guess guess{change_.data(), olderChange_.data(), last, older, kNegligibleChange};
  changeDt_ = {dt, changeDt_[0]};
  const auto rightSide = [&](int j) {
    const std::size_t begin = std::size_t(j) * row, end = begin + row;
    rhsSpan(rhs, h, carryX, carryY, u, v, dtPerDx, row, begin, end);
    residualAndGuessSpan(rhs, h, faceX, faceY, guess, row, begin, end);
  };
#pragma omp parallel if (worthThreads(h_.size()))
  {
    const RowBand band = interiorRowBand(ny);
    if (omp_get_thread_num() == 0) faceDepthRows(0, 1, mu, dtPerDx);
    for (int j = band.first; j < band.end; ++j) {
      faceDepthRows(j, j + 1, mu, dtPerDx);
      if (j > band.first) rightSide(j);
    }
#pragma omp barrier
    if (band.end > band.first) rightSide(band.first);
  }
  lastRowFaceDepths(mu, dtPerDx);
  for (int j : {0, ny - 1})
    for (int i = 0; i < nx; ++i) {
      if (walls_.wet(i, j)) rhs_(i, j) = rhsAt(i, j, dtPerDx) - helmholtzAt(h_, i, j);
      guessChange(guess, h_.index(i, j));
    }
}

// Eq. 25, left side. The paper's operator h + g dt^2 (grad b . grad h) - g dt^2 d lap(h) is
// not symmetric. With d = h^n - b it equals h - g dt^2 div(d grad h) + g dt^2 grad(h^n) .
// grad(h); the last term is the product of two surface slopes (second order in the wave
// amplitude, absent in the linearised equations) and is dropped, which leaves the conservative
//   A h = h - g dt^2 div(d^n grad h)
// discretised with the face depths d_f and coefficients of faceDepthRows and no flux through
// walls or dry faces (Neumann):
//   (A h)_C = h_C + sum_faces (g dt^2 / dx^2) d_f (h_C - h_N).
// A is symmetric positive definite (d_f >= 0), so conjugate gradients apply, and
// sum(A h) = sum(h). A cell with every face dry keeps its surface (its row is h = rhs).
// Rows 1 to ny - 2 whole, with the interior kernel: a face towards a solid cell is 0 (and so
// is `in` there), so the kernel gives the wall rule without a test, and a solid cell gets 0.
// The first and last rows (whose neighbours beyond the grid would be read) cell by cell.
double SweSemiLagrangian::applyHelmholtz(const Field2D& in, Field2D& out) const {
  const int nx = in.nx(), ny = in.ny();
  const float *p = in.data(), *faceX = faceX_.data(), *faceY = faceY_.data();
  float* q = out.data();
  const std::size_t row = std::size_t(nx);
  const auto cell = [&](int i, int j) {
    out(i, j) = helmholtzAt(in, i, j);
    return double(in(i, j)) * out(i, j);
  };
  const auto span = [&](std::size_t begin, std::size_t end) {
    return helmholtzSpan(q, p, faceX, faceY, row, begin, end);
  };
  return sumOverCells(walls_, nx, ny, span, cell);
}

float SweSemiLagrangian::helmholtzAt(const Field2D& in, int i, int j) const {
  const int nx = in.nx(), ny = in.ny();
  const float centre = in(i, j);
  double sum = centre;
  if (i + 1 < nx) sum += faceX_(i, j) * (centre - in(i + 1, j));
  if (i > 0) sum += faceX_(i - 1, j) * (centre - in(i - 1, j));
  if (j + 1 < ny) sum += faceY_(i, j) * (centre - in(i, j + 1));
  if (j > 0) sum += faceY_(i, j - 1) * (centre - in(i, j - 1));
  return float(sum);
}

HelmholtzMethod SweSemiLagrangian::chooseSolver(double dt) const {
  const int choice = settings_.solverChoice;
  if (choice != 0) return HelmholtzMethod(choice);
  const double dx = domain_->grid().dx;
  const double coupling = domain_->g() * maxRestDepth_ * dt * dt / (dx * dx);
  if (coupling > kMultigridMinCoupling) return HelmholtzMethod::Multigrid;
  const bool large = h_.size() >= kReducedMinCells;
  return large && coupling > kReducedMinCoupling ? HelmholtzMethod::ReducedCg : HelmholtzMethod::Cg;
}

// Eq. 25 solved for the change of the surface over the step, A (h - h^n) = rhs - A h^n, to
// cg_tolerance by the method chooseSolver picks (core/solvers/helmholtz_solver.hpp), made at
// its first solve. The tolerance is relative to rhs - A h^n (the residual of the change 0), not
// to h: the surface the continuity fluxes are made of (transportVolume) is then as accurate at
// small dt as at large, and the residual left in it is a fraction of the change (mirror-symmetric
// input stays symmetric to 1e-9). The solve starts from the change extrapolated from the last
// two steps' (2 h^n - h^{n-1} in rate form), which leaves a smaller residual than 0 where the
// step resolves the waves' period: on the one-drop pool at 256^2, 8.4 reduced-CG iterations per
// step at the default dt instead of 12.5 (docs/performance.md).
// rhs - A h^n and the guess are made by assembleEq25.
void SweSemiLagrangian::solveHelmholtz(double dt) {
  const double tolerance = settings_.cgTolerance;
  const int maxIterations = settings_.cgMaxIterations;
  const HelmholtzMethod method = chooseSolver(dt);
  auto& solver = solvers_[std::size_t(method) - 1];
  if (!solver)
    solver = makeHelmholtzSolver(
        method, h_.nx(), h_.ny(), domain_->wetMask(),
        [this](const Field2D& in, Field2D& out) { return applyHelmholtz(in, out); });
  solver->updateCoefficients(unitShift_, faceX_, faceY_);
  lastSolve_ = solver->solve(rhs_, change_, tolerance, maxIterations);
  // h^n + change is taken on the fly by transportVolume and settleSurface.
}

// Eqs. 21-22: u^{n+1} = u~ - g dt h_x^{n+1}, v^{n+1} = v~ - g dt h_y^{n+1} (centred, Neumann
// ghosts behind walls and dry faces: a wet cell beside land higher than its surface feels no
// slope towards it), plus the momentum in compressions settleSurface measured (where the flow
// converges: momentumAt), then zero normal velocity at walls (section 4.1).
void SweSemiLagrangian::updateVelocity(double dt) {
  const double gDtPerDx = domain_->g() * dt / domain_->grid().dx;
#pragma omp parallel if (worthThreads(h_.size()))
  {
    const RowBand band = interiorRowBand(h_.ny());
    if (band.end > band.first) velocityRows(band.first, band.end, gDtPerDx);
  }
  for (int j : {0, h_.ny() - 1})
    velocityEdgeRow(j, gDtPerDx);
  walls_.enforceVelocity(u_, v_);
}

void SweSemiLagrangian::velocityRows(int first, int end, double gDtPerDx) {
  const Velocities f{u_.data(),    v_.data(),         uDep_.data(),
                     vDep_.data(), momentumU_.data(), momentumV_.data()};
  // The face depths are 0 on closed and dry faces: the kernel's open-face factors.
  const std::size_t row = std::size_t(h_.nx());
  velocitySpan(f, h_.data(), faceDepthX_.data(), faceDepthY_.data(), gDtPerDx, row,
               std::size_t(first) * row, std::size_t(end) * row);
}

void SweSemiLagrangian::velocityEdgeRow(int j, double gDtPerDx) {
  const int nx = h_.nx();
  for (int i = 0; i < nx; ++i) {
    if (!walls_.wet(i, j)) continue;
    const float centre = h_(i, j);
    const float east = i + 1 < nx && faceDepthX_(i, j) != 0.0f ? h_(i + 1, j) : centre;
    const float west = i > 0 && faceDepthX_(i - 1, j) != 0.0f ? h_(i - 1, j) : centre;
    const float north = j + 1 < h_.ny() && faceDepthY_(i, j) != 0.0f ? h_(i, j + 1) : centre;
    const float south = j > 0 && faceDepthY_(i, j - 1) != 0.0f ? h_(i, j - 1) : centre;
    u_(i, j) = float(uDep_(i, j) - gDtPerDx * (0.5f * (east - west))) + momentumU_(i, j);
    v_(i, j) = float(vDep_(i, j) - gDtPerDx * (0.5f * (north - south))) + momentumV_(i, j);
  }
}

// updateVelocity and keepDepthNonNegative in one parallel region over bands of rows, where no
// film was left by the last step and no edge is open (startFloodedCells and absorbAtOpenEdges,
// between them, then do nothing): row j's velocity and wall rule, then row j - 1's depth (the
// velocities of rows j - 2 to j have read its surface, which the depth may lift), then row
// j - 2's shear (it reads the final velocities of rows j - 3 to j - 1). The rows at a band's
// edges wait for the neighbouring band: its first and last depth (and the grid's first and
// last rows', whose neighbours another band's velocity may read) for one barrier, the shear of
// its first and last two rows for a second. The same values as the four passes to the bit.
void SweSemiLagrangian::finishWetStep(double dt) {
  const double gDtPerDx = domain_->g() * dt / domain_->grid().dx;
  const int ny = h_.ny();
  int lifted = 0, films = 0;
  float shear = 0.0f;
#pragma omp parallel reduction(+ : lifted, films) reduction(max : shear) \
    if (worthThreads(h_.size()))
  {
    const RowBand band = interiorRowBand(ny);
    const bool first = omp_get_thread_num() == 0;
    const bool last = omp_get_thread_num() == omp_get_num_threads() - 1 && ny > 1;
    const auto velocity = [&](int j) {
      if (j == 0 || j == ny - 1)
        velocityEdgeRow(j, gDtPerDx);
      else
        velocityRows(j, j + 1, gDtPerDx);
      walls_.enforceVelocityRows(u_, v_, j, j + 1);
    };
    const auto depth = [&](int j) {
      const DepthCounts counts = depthRow(j);
      lifted += counts.lifted, films += counts.films;
    };
    const auto shearOf = [&](int j) { shear = std::max(shear, shearRows(j, j + 1)); };
    if (first) velocity(0);
    if (last) velocity(ny - 1);
    for (int j = band.first; j < band.end; ++j) {
      velocity(j);
      if (j - 1 > band.first) depth(j - 1);
      if (j - 2 > band.first + 1) shearOf(j - 2);
    }
#pragma omp barrier
    if (first) depth(0);
    if (last) depth(ny - 1);
    if (band.end > band.first) depth(band.first);
    if (band.end - 1 > band.first) depth(band.end - 1);
#pragma omp barrier
    for (int j = band.first; j < std::min(band.first + 2, band.end); ++j)
      shearOf(j);
    for (int j = std::max(band.end - 2, band.first + 2); j < band.end; ++j)
      shearOf(j);
  }
  liftedCells_ = lifted;
  dryCells_ = films;
  shear_ = shearWithEdgeRows(shear);
}

// In the layers of open edges the surface and the velocity relax toward rest at the same rate,
//   h_t + ... = -sigma h,  u_t + ... = -sigma u   (implicit: x <- x / (1 + sigma dt)),
// the matched damping of core/grid/edges.hpp under which the linearised equations pass an
// outgoing wave without reflection where sigma is constant. The water it removes is the sink.
// In an incoming edge's layer they relax toward the incoming long wave at t^{n+1} instead
// (core/grid/incoming_wave.hpp): the water it brings in counts in the same sink, positive.
void SweSemiLagrangian::absorbAtOpenEdges(double dt) {
  if (layer_.empty()) return;
  const float *eta = nullptr, *u = nullptr, *v = nullptr;
  if (!incoming_.empty()) {
    incoming_.evaluate(incoming_.time() + dt);
    eta = incoming_.elevation(), u = incoming_.velocityX(), v = incoming_.velocityY();
  }
  volumeSink_ += layer_.relaxToward(h_.data(), eta, dt) * domain_->grid().cellArea();
  layer_.relaxToward(u_.data(), u, dt);
  layer_.relaxToward(v_.data(), v, dt);
}

// The depth of the next step, d = h - b >= 0 (0 on solid cells). transportVolume keeps
// h >= b up to round-off; a surface that round-off left below the ground is lifted to it
// (lifted_cells). Films thinner than film_depth do not move (u = v = 0): their velocity,
// from a pressure gradient over almost no water, is not meaningful. In the same pass over bands
// of rows, one row behind, the velocity shear of the step (velocityShear), whose rows read the
// rows on either side: a band's first and last rows wait for a barrier.
void SweSemiLagrangian::keepDepthNonNegative() {
  const int ny = h_.ny();
  int lifted = 0, films = 0;
  float shear = 0.0f;
#pragma omp parallel reduction(+ : lifted, films) reduction(max : shear) \
    if (worthThreads(h_.size()))
  {
    const RowBand band = interiorRowBand(ny);
    const auto depth = [&](int j) {
      const DepthCounts counts = depthRow(j);
      lifted += counts.lifted, films += counts.films;
    };
    if (omp_get_thread_num() == 0) depth(0);
    if (omp_get_thread_num() == omp_get_num_threads() - 1 && ny > 1) depth(ny - 1);
    for (int j = band.first; j < band.end; ++j) {
      depth(j);
      if (j - 1 > band.first) shear = std::max(shear, shearRows(j - 1, j));
    }
#pragma omp barrier
    if (band.end > band.first) shear = std::max(shear, shearRows(band.first, band.first + 1));
    if (band.end - 1 > band.first) shear = std::max(shear, shearRows(band.end - 1, band.end));
  }
  liftedCells_ = lifted;
  dryCells_ = films;
  shear_ = shearWithEdgeRows(shear);
}

DepthCounts SweSemiLagrangian::depthRow(int j) {
  const std::size_t row = std::size_t(h_.nx()), begin = std::size_t(j) * row;
  return depthAndFilmsSpan(h_.data(), depth_.data(), u_.data(), v_.data(), moving_.data(),
                           ground_.data(), walls_.wetWeights(), settings_.filmDepth, begin,
                           begin + row);
}

float SweSemiLagrangian::shearRows(int first, int end) const {
  const std::size_t row = std::size_t(h_.nx());
  return shearSpan(u_.data(), v_.data(), walls_.openEast(), walls_.openNorth(), row,
                   std::size_t(first) * row, std::size_t(end) * row);
}

// The largest of interior (the rows 1 to ny - 2) and the first and last rows' shear, per dx.
double SweSemiLagrangian::shearWithEdgeRows(float interior) const {
  const int nx = h_.nx(), ny = h_.ny();
  float shear = interior;
  // Free-slip ghosts: a wall does not shear the flow along it.
  for (int j : {0, ny - 1})
    for (int i = 0; i < nx; ++i) {
      if (!walls_.wet(i, j)) continue;
      shear = std::max({shear, std::fabs(walls_.centredX(u_, i, j, true)),
                        std::fabs(walls_.centredY(u_, i, j, true)),
                        std::fabs(walls_.centredX(v_, i, j, true)),
                        std::fabs(walls_.centredY(v_, i, j, true))});
    }
  return shear / domain_->grid().dx;
}

double SweSemiLagrangian::velocityShear() const {
  float shear = 0.0f;
#pragma omp parallel reduction(max : shear) if (worthThreads(u_.size()))
  {
    const RowBand band = interiorRowBand(h_.ny());
    if (band.end > band.first) shear = shearRows(band.first, band.end);
  }
  return shearWithEdgeRows(shear);
}

void SweSemiLagrangian::setVelocity(const Field2D& u, const Field2D& v) {
  for (std::size_t k = 0; k < u_.size(); ++k) {
    const bool moving = moving_.data()[k] != 0.0f;
    u_.data()[k] = moving ? u.data()[k] : 0.0f;
    v_.data()[k] = moving ? v.data()[k] : 0.0f;
  }
  walls_.enforceVelocity(u_, v_);
  shear_ = velocityShear();
  frontSpeed_ = dryCells_ > 0 ? frontSpeed() : 0.0;
}

// A surface lowered below the ground stops there: the water added is what was really added.
double SweSemiLagrangian::addEta(const Field2D& delta) {
  double added = 0.0;
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (!wet[k] || delta.data()[k] == 0.0f) continue;
    const float before = h_.data()[k];  // the volume is what the float sum holds
    h_.data()[k] = std::max(before + delta.data()[k], ground_.data()[k]);
    added += h_.data()[k] - before;
    depth_.data()[k] = h_.data()[k] - ground_.data()[k];
  }
  return added * domain_->grid().cellArea();
}

// A changed cell holds no velocity and no solved change (the next solve's start); a cell
// turned wet holds water up to the rest level, or none on ground above it (h = b, d = 0). The
// walls, the layer, eq. 25's shift and the solvers' work space follow the new mask; the wet
// cells that now face a wall lose their normal velocity (section 4.1).
double SweSemiLagrangian::changeMask(const Domain& domain,
                                     const std::vector<std::uint32_t>& cells) {
  domain_ = &domain;
  double added = 0.0;
  for (const std::uint32_t k : cells) {
    added += refillChangedCell(domain, k, h_, ground_);
    for (Field2D* f : {&u_, &v_, &change_, &olderChange_})
      f->data()[k] = 0.0f;
    outflowScale_.data()[k] = 1.0f;  // as reset leaves a solid cell: never limited
  }
  walls_ = SweWalls(domain);
  layer_ = AbsorbingLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  unitShift_ = FivePointSystem::fromMask(domain.nx(), domain.ny(), domain.wetMask(), 1.0f).shift;
  solvers_ = {};
  keepDepthNonNegative();
  walls_.enforceVelocity(u_, v_);
  shear_ = velocityShear();
  frontSpeed_ = dryCells_ > 0 ? frontSpeed() : 0.0;
  return added * domain.grid().cellArea();
}

// The surface, the velocities and eq. 25's last changes (the solver's first guess) move with
// the window; cells entering are at rest.
void SweSemiLagrangian::shiftWindow(int di, int dj) {
  for (Field2D* f : {&h_, &u_, &v_, &change_, &olderChange_})
    f->shift(di, dj, 0.0f);
  walls_.enforceVelocity(u_, v_);
  keepDepthNonNegative();  // the depths and eq. 32's moving cells of the moved surface
}

// The shadow on the velocity, which carries the waves (core/forcing/wave_shadow.hpp); the
// next continuity step moves water with the damped velocity, so volume is kept.
void SweSemiLagrangian::dampUnderBodies(const Field2D& rate, double dt) {
  dampVelocity(rate, dt, u_);
  dampVelocity(rate, dt, v_);
}

double SweSemiLagrangian::kineticEnergy() const {
  const auto& wet = domain_->wetMask();
  double total = 0.0;
  for (std::size_t k = 0; k < h_.size(); ++k) {
    if (!wet[k]) continue;
    const double d = std::max(h_.data()[k] - ground_.data()[k], 0.0f);
    const double u = u_.data()[k], v = v_.data()[k];
    total += d * (u * u + v * v);
  }
  return 0.5 * total * domain_->grid().cellArea();
}

std::map<std::string, double> SweSemiLagrangian::diagnostics() const {
  std::map<std::string, double> figures{{"solver_iterations", lastSolve_.iterations},
                                        {"solver_residual", lastSolve_.relativeResidual},
                                        {"shear_number", lastDt_ * shear_},
                                        {"dry_cells", dryCells_},
                                        {"lifted_cells", liftedCells_}};
  if (friction_.active()) figures["friction_energy"] = frictionEnergy_;
  return figures;
}

}  // namespace wb
