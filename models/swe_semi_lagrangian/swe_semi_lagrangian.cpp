#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <sstream>

#include <omp.h>

#include "core/errors.hpp"
#include "core/grid/parallel.hpp"

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
       "Conjugate gradients on the Helmholtz equation (eq. 25) stop when the residual "
       "||b - A h|| is at most this times ||b||.",
       {},
       false},
      {"helmholtz_solver",
       ParamKind::Choice,
       0,
       0,
       0,
       "",
       "Solver of eq. 25, all from h^n: cg (float conjugate gradients; the true residual "
       "cannot go below about 8 g d dt^2 / dx^2 times 6e-8), reduced-cg (the same on the "
       "red-black reduced system: half the cells, about half the iterations), multigrid "
       "(float multigrid V-cycles; cg_max_iterations caps the cycles) or auto, by the "
       "coupling g d_max dt^2 / dx^2 ((dt / explicit limit)^2): multigrid above 200, "
       "reduced-cg above 4 on grids of 200 x 200 cells or more, else cg.",
       {"auto", "cg", "multigrid", "reduced-cg"},
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
  return domain_->grid().dx / std::sqrt(domain_->g() * maxRestDepth_);
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
  maxRestDepth_ = domain.maxWetDepth();
  walls_ = SweWalls(domain);
  layer_ = AbsorbingLayer(domain, std::sqrt(domain.g() * maxRestDepth_));
  volumeSink_ = 0.0;
  const int nx = domain.nx(), ny = domain.ny();
  h_ = eta0;
  u_ = v_ = depth_ = hDep_ = uDep_ = vDep_ = rhs_ = faceX_ = faceY_ = Field2D(nx, ny);
  cg_ = ConjugateGradient();
  reducedCg_ = RedBlackCg();
  ground_ = Field2D(nx, ny);
  // Eq. 25's shift is 1; the multigrid levels are built at the first multigrid solve, their
  // face coefficients recomputed every step (solveHelmholtz).
  unitShift_ = FivePointSystem::fromMask(nx, ny, domain.wetMask(), 1.0f).shift;
  helmholtzSolver_ = Multigrid();
  for (std::size_t k = 0; k < ground_.size(); ++k)
    ground_.data()[k] = -domain.restDepth().data()[k];
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (!domain.isWet(i, j)) h_(i, j) = 0.0f;
  keepDepthNonNegative();
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

// d^n was computed with the drying at the end of the last step (or by reset / addEta).
void SweSemiLagrangian::step(double dt) {
  interpolateAtDepartures(dt);
  applyForce(dt);
  assembleRhs(dt);
  assembleHelmholtz(dt);
  solveHelmholtz(dt);
  updateVelocity(dt);
  absorbAtOpenEdges(dt);
  keepDepthNonNegative();
  shear_ = velocityShear();
  lastDt_ = dt;
}

namespace {

// Runs span(begin, end) over the rows 1 to ny - 2 as one range of row-major indices (split
// between OpenMP threads for large grids) and cell(i, j) at the wet cells of the first and
// last rows, whose neighbours beyond the grid the kernels would read; returns the sum of what
// they return. The kernels take walls and solid cells from SweWalls' open-face factors, so a
// span may hold any cells; those of the first and last column read their row neighbours across
// the row's end, through a face that is closed.
template <class Span, class Cell>
double sumOverCells(const SweWalls& walls, int nx, int ny, const Span& span, const Cell& cell) {
  const std::size_t row = std::size_t(nx);
  double total = 0.0;
#pragma omp parallel reduction(+ : total) if (worthThreads(row * std::size_t(ny)))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const std::size_t j0 = 1 + std::size_t(ny - 2) * t / threads;
    const std::size_t j1 = 1 + std::size_t(ny - 2) * (t + 1) / threads;
    if (j1 > j0) total += span(j0 * row, j1 * row);
  }
  for (int j : {0, ny - 1})
    for (int i = 0; i < nx; ++i)
      if (walls.wet(i, j)) total += cell(i, j);
  return total;
}

// The branch-free kernels (see sumOverCells), free functions with restrict pointers so that
// the compiler vectorises them, with an AVX2 version chosen at load time. row
// is the grid's row length; openEast / openNorth are SweWalls' open-face factors. A closed
// face's neighbour value is replaced by the cell's own with a select between loaded values
// (the Neumann ghost of SweWalls::centredX), never with arithmetic in a select's arm, which
// GCC does not vectorise under -ftrapping-math (WB_SPAN_KERNEL: core/grid/parallel.hpp).

// Eq. 25, right side; see assembleRhs.
WB_SPAN_KERNEL void rhsSpan(float* __restrict rhs, const float* __restrict hDep,
                            const float* __restrict h, const float* __restrict d,
                            const float* __restrict u, const float* __restrict v,
                            const float* __restrict openEast, const float* __restrict openNorth,
                            float dtPerDx, std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    // A face's flux is the same expression from both sides: the divergence telescopes.
    const float east = openEast[k] * (0.25f * (d[k] + d[k + 1]) * (u[k] + u[k + 1]));
    const float west = openEast[k - 1] * (0.25f * (d[k - 1] + d[k]) * (u[k - 1] + u[k]));
    const float north = openNorth[k] * (0.25f * (d[k] + d[k + row]) * (v[k] + v[k + row]));
    const float south = openNorth[k - row] * (0.25f * (d[k - row] + d[k]) * (v[k - row] + v[k]));
    const float centre = h[k], hE = h[k + 1], hW = h[k - 1], hN = h[k + row], hS = h[k - row];
    const float east2 = openEast[k] != 0.0f ? hE : centre;
    const float west2 = openEast[k - 1] != 0.0f ? hW : centre;
    const float north2 = openNorth[k] != 0.0f ? hN : centre;
    const float south2 = openNorth[k - row] != 0.0f ? hS : centre;
    const float advection = u[k] * (0.5f * (east2 - west2)) + v[k] * (0.5f * (north2 - south2));
    rhs[k] = hDep[k] - dtPerDx * (((east - west) + (north - south)) - advection);
  }
}

// Eq. 25, left side: face coefficients mu d_f, 0 on closed faces.
WB_SPAN_KERNEL void facesSpan(float* __restrict faceX, float* __restrict faceY,
                              const float* __restrict d, const float* __restrict openEast,
                              const float* __restrict openNorth, float mu, std::size_t row,
                              std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    faceX[k] = openEast[k] * (0.5f * mu * (d[k] + d[k + 1]));
    faceY[k] = openNorth[k] * (0.5f * mu * (d[k] + d[k + row]));
  }
}

// q = A p at the cells [begin, end) away from the grid's first and last rows; returns sum(p q)
// over them. In float: the face terms nearly cancel at large dt, but each is a float product
// already rounded to eps of its size, so summing them in float adds an error of the same
// order (the floor of the true residual, about 8 g d dt^2 / dx^2 eps, stays); the dot product
// is summed in double.
WB_SPAN_KERNEL double helmholtzSpan(float* __restrict q, const float* __restrict p,
                                    const float* __restrict faceX, const float* __restrict faceY,
                                    std::size_t row, std::size_t begin, std::size_t end) {
  double dot = 0.0;
#pragma omp simd reduction(+ : dot)
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = p[k];
    const float out =
        centre + ((faceX[k] * (centre - p[k + 1]) + faceX[k - 1] * (centre - p[k - 1])) +
                  (faceY[k] * (centre - p[k + row]) + faceY[k - row] * (centre - p[k - row])));
    q[k] = out;
    dot += double(centre * out);
  }
  return dot;
}

// Eqs. 21-22 (the wall rule follows: SweWalls::enforceVelocity).
WB_SPAN_KERNEL void velocitySpan(float* __restrict u, float* __restrict v,
                                 const float* __restrict uDep, const float* __restrict vDep,
                                 const float* __restrict h, const float* __restrict openEast,
                                 const float* __restrict openNorth, double gDtPerDx,
                                 std::size_t row, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k) {
    const float centre = h[k], hE = h[k + 1], hW = h[k - 1], hN = h[k + row], hS = h[k - row];
    const float east = openEast[k] != 0.0f ? hE : centre;
    const float west = openEast[k - 1] != 0.0f ? hW : centre;
    const float north = openNorth[k] != 0.0f ? hN : centre;
    const float south = openNorth[k - row] != 0.0f ? hS : centre;
    u[k] = float(uDep[k] - gDtPerDx * (0.5f * (east - west)));
    v[k] = float(vDep[k] - gDtPerDx * (0.5f * (north - south)));
  }
}

// max(|u_x|, |u_y|, |v_x|, |v_y|) (per cell); free-slip ghosts at walls (a wall does not
// shear the flow along it); solid cells (u = v = 0, every face closed) give 0.
WB_SPAN_KERNEL float shearSpan(const float* __restrict u, const float* __restrict v,
                               const float* __restrict openEast, const float* __restrict openNorth,
                               std::size_t row, std::size_t begin, std::size_t end) {
  float shear = 0.0f;
#pragma omp simd reduction(max : shear)
  for (std::size_t k = begin; k < end; ++k) {
    const bool east = openEast[k] != 0.0f, west = openEast[k - 1] != 0.0f;
    const bool north = openNorth[k] != 0.0f, south = openNorth[k - row] != 0.0f;
    const float uc = u[k], uE = u[k + 1], uW = u[k - 1], uN = u[k + row], uS = u[k - row];
    const float vc = v[k], vE = v[k + 1], vW = v[k - 1], vN = v[k + row], vS = v[k - row];
    // Selects between values only: they vectorise (std::max's references do not).
    const float ux = std::fabs((east ? uE : uc) - (west ? uW : uc));
    const float uy = std::fabs((north ? uN : uc) - (south ? uS : uc));
    const float vx = std::fabs((east ? vE : vc) - (west ? vW : vc));
    const float vy = std::fabs((north ? vN : vc) - (south ? vS : vc));
    const float a = ux > uy ? ux : uy, b = vx > vy ? vx : vy;
    const float cell = a > b ? a : b;
    shear = cell > shear ? cell : shear;
  }
  return 0.5f * shear;
}

// Drying and depth (keepDepthNonNegative) on the cells [begin, end); returns the number of
// cells lifted.
WB_SPAN_KERNEL int dryAndDepthSpan(float* __restrict h, float* __restrict depth,
                                   const float* __restrict ground, const float* __restrict wet,
                                   float minDepth, std::size_t begin, std::size_t end) {
  int dry = 0;
#pragma omp simd reduction(+ : dry)
  for (std::size_t k = begin; k < end; ++k) {
    const float surface = h[k], floor = ground[k];
    const bool lift = (wet[k] != 0.0f) & !(surface >= floor);  // no short circuit: vectorises
    const float lifted = lift ? floor : surface;
    const float d = lifted - floor;
    h[k] = lifted;
    depth[k] = wet[k] * (d > minDepth ? d : minDepth);
    dry += lift;
  }
  return dry;
}

constexpr std::int32_t kOneBits = 0x3f800000;  // the bits of 1.0f

struct DepartureFields {
  const float *h, *u, *v, *wet;
  float *hDep, *uDep, *vDep;
};

// Eqs. 31-32 on the count cells (i, j) = (iFirst, jFirst) + m (di, dj), branch-free
// (SweWalls::bilinear is the reference): the departure offset -dt u / dx is split into floor
// and fraction in float, so the fraction keeps the offset's own precision whatever i is; the
// departure point is clamped to the grid like bilinear's; a solid corner's weight is
// multiplied by 0 and the others renormalised; if all four are solid the cell keeps its own
// values. Solid arrival cells get 0. The corners are gathered (emulated lane by lane): about
// 5 ns per cell, against 1 for departuresNear.
WB_SPAN_KERNEL void departuresLine(const DepartureFields& f, float cellsPerStep, int nx, int ny,
                                   int iFirst, int jFirst, int di, int dj, int count) {
  const float* __restrict h = f.h;
  const float* __restrict u = f.u;
  const float* __restrict v = f.v;
  const float* __restrict wet = f.wet;
  float* __restrict hDep = f.hDep;
  float* __restrict uDep = f.uDep;
  float* __restrict vDep = f.vDep;
  const int row = nx;
#pragma omp simd
  for (int m = 0; m < count; ++m) {
    const int i = iFirst + m * di, j = jFirst + m * dj;
    const int k = j * row + i;
    const float offsetX = -cellsPerStep * u[k], offsetY = -cellsPerStep * v[k];
    // floor() in integer arithmetic: std::floor does not vectorise under -ftrapping-math.
    const int truncX = int(offsetX), truncY = int(offsetY);
    const int wholeX = truncX - (offsetX < float(truncX));
    const int wholeY = truncY - (offsetY < float(truncY));
    const float floorX = float(wholeX), floorY = float(wholeY);
    // The interpolation cell's lower corner and the fraction; a point outside the grid is
    // clamped onto its edge. Arithmetic with 0/1 flags rather than selects: the loop stays
    // free of branches (and of speculated floating-point operations) and vectorises.
    const int cornerX = i + wholeX, cornerY = j + wholeY;
    const int westX = (cornerX < 0), eastX = (cornerX > nx - 2);
    const int southY = (cornerY < 0), northY = (cornerY > ny - 2);
    const int insideX = 1 - westX - eastX, insideY = 1 - southY - northY;
    const float fx = (offsetX - floorX) * float(insideX) + float(eastX);
    const float fy = (offsetY - floorY) * float(insideY) + float(northY);
    const int i0 = cornerX * insideX + (nx - 2) * eastX;
    const int j0 = cornerY * insideY + (ny - 2) * northY;
    const int c = j0 * row + i0;
    const float w00 = (1.0f - fx) * (1.0f - fy) * wet[c], w10 = fx * (1.0f - fy) * wet[c + 1];
    const float w01 = (1.0f - fx) * fy * wet[c + row], w11 = fx * fy * wet[c + row + 1];
    const float total = w00 + w10 + w01 + w11;
    // Where every corner is solid the weights become the cell's own (fallback) value's.
    const float own = std::bit_cast<float>(-std::int32_t(total == 0.0f) & kOneBits);
    const float scale = (1.0f - own) / (total + own);
    const float hd =
        (w00 * h[c] + w10 * h[c + 1] + w01 * h[c + row] + w11 * h[c + row + 1]) * scale +
        own * h[k];
    const float ud =
        (w00 * u[c] + w10 * u[c + 1] + w01 * u[c + row] + w11 * u[c + row + 1]) * scale +
        own * u[k];
    const float vd =
        (w00 * v[c] + w10 * v[c + 1] + w01 * v[c + row] + w11 * v[c + row + 1]) * scale +
        own * v[k];
    hDep[k] = wet[k] * hd;
    uDep[k] = wet[k] * ud;
    vDep[k] = wet[k] * vd;
  }
}

// The same at the cells [begin, end) (row-major indices, none in the grid's first or last row)
// whose departure point lies less than a cell away in x and in y (the common case: the flow's
// Courant number is below 1). Cells in the first or last column get meaningless values (their
// neighbours wrap to the next row): the caller recomputes them. Such a point's interpolation cell
// is one of the four around the cell, so its corners are among the 3 x 3 cells around it: the
// bilinear weights in x of columns i - 1, i, i + 1 are max(-o_x, 0), 1 - |o_x|, max(o_x, 0)
// (likewise in y), i.e. bilinear's (1 - f, f) on the interpolation cell and 0 on the other column.
// Contiguous loads instead of gathers. Cells whose departure point is a cell away or more get
// meaningless values from the same 3 x 3 block (the loads do not depend on the offset) and are
// counted: the caller recomputes them with departuresLine.
WB_SPAN_KERNEL int departuresNear(const DepartureFields& f, float cellsPerStep, int nx,
                                  std::ptrdiff_t begin, std::ptrdiff_t end) {
  const float* __restrict h = f.h;
  const float* __restrict u = f.u;
  const float* __restrict v = f.v;
  const float* __restrict wet = f.wet;
  float* __restrict hDep = f.hDep;
  float* __restrict uDep = f.uDep;
  float* __restrict vDep = f.vDep;
  const std::ptrdiff_t row = nx;
  int far = 0;
#pragma omp simd reduction(+ : far)
  for (std::ptrdiff_t k = begin; k < end; ++k) {
    const float ox = -cellsPerStep * u[k], oy = -cellsPerStep * v[k];
    // max(-o, 0) = (|o| - o) / 2 exactly (selects with arithmetic arms do not vectorise).
    const float ax = std::fabs(ox), ay = std::fabs(oy);
    far += int(ax >= 1.0f) | int(ay >= 1.0f);
    const float x[3] = {0.5f * (ax - ox), 1.0f - ax, 0.5f * (ax + ox)};
    const float y[3] = {0.5f * (ay - oy), 1.0f - ay, 0.5f * (ay + oy)};
    float w[3][3], total = 0.0f;
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        w[b][a] = y[b] * x[a] * wet[k + (b - 1) * row + (a - 1)];
        total += w[b][a];
      }
    float hs = 0.0f, us = 0.0f, vs = 0.0f;
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        const std::ptrdiff_t c = k + (b - 1) * row + (a - 1);
        hs += w[b][a] * h[c];
        us += w[b][a] * u[c];
        vs += w[b][a] * v[c];
      }
    // As in departuresLine: where every corner is solid the cell keeps its own values.
    const float own = std::bit_cast<float>(-std::int32_t(total == 0.0f) & kOneBits);
    const float scale = (1.0f - own) / (total + own);
    hDep[k] = wet[k] * (hs * scale + own * h[k]);
    uDep[k] = wet[k] * (us * scale + own * u[k]);
    vDep[k] = wet[k] * (vs * scale + own * v[k]);
  }
  return far;
}

}  // namespace

// Eq. 31: the departure point of the particle arriving at cell centre x_i is x_i - dt u^n(x_i).
// Eq. 32: h~, u~, v~ are the bilinear interpolants of h^n, u^n, v^n there, with SweWalls'
// wall rule (solid corners left out, the wet corners' weights renormalised).
void SweSemiLagrangian::interpolateAtDepartures(double dt) {
  const float cellsPerStep = float(dt / domain_->grid().dx);
  const int nx = h_.nx(), ny = h_.ny();
  const DepartureFields fields{h_.data(),    u_.data(),    v_.data(),   walls_.wetWeights(),
                               hDep_.data(), uDep_.data(), vDep_.data()};
  // One long vector loop over the rows between the first and the last (fewer loop tails than
  // row by row), then the first and last columns and the far departures cell by cell.
  const auto rows = [&](int j0, int j1) {
    if (j0 >= j1) return;
    const std::ptrdiff_t row = nx;
    const bool far = departuresNear(fields, cellsPerStep, nx, j0 * row + 1, j1 * row - 1) > 0;
    departuresLine(fields, cellsPerStep, nx, ny, 0, j0, 0, 1, j1 - j0);
    departuresLine(fields, cellsPerStep, nx, ny, nx - 1, j0, 0, 1, j1 - j0);
    if (!far) return;
    for (int j = j0; j < j1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const std::size_t k = h_.index(i, j);
        if (std::fabs(cellsPerStep * u_.data()[k]) >= 1.0f ||
            std::fabs(cellsPerStep * v_.data()[k]) >= 1.0f)
          departuresLine(fields, cellsPerStep, nx, ny, i, j, 1, 0, 1);
      }
  };
#pragma omp parallel if (worthThreads(h_.size()))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    rows(1 + (ny - 2) * t / threads, 1 + (ny - 2) * (t + 1) / threads);
  }
  departuresLine(fields, cellsPerStep, nx, ny, 0, 0, 1, 0, nx);
  departuresLine(fields, cellsPerStep, nx, ny, 0, ny - 1, 1, 0, nx);
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
  const float *openEast = walls_.openEast(), *openNorth = walls_.openNorth();
  float* rhs = rhs_.data();
  const std::size_t row = std::size_t(nx);
  const auto span = [&](std::size_t begin, std::size_t end) {
    rhsSpan(rhs, hDep, h, d, u, v, openEast, openNorth, float(dtPerDx), row, begin, end);
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
  sumOverCells(walls_, nx, ny, span, cell);
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
  const float *openEast = walls_.openEast(), *openNorth = walls_.openNorth();
  float *faceX = faceX_.data(), *faceY = faceY_.data();
  const std::size_t row = std::size_t(nx);
  const auto span = [&](std::size_t begin, std::size_t end) {
    facesSpan(faceX, faceY, d, openEast, openNorth, mu, row, begin, end);
    return 0.0;
  };
  const auto cell = [&](int i, int j) {
    faceX_(i, j) =
        i + 1 < nx && walls_.wet(i + 1, j) ? 0.5f * mu * (depth_(i, j) + depth_(i + 1, j)) : 0.0f;
    faceY_(i, j) =
        j + 1 < ny && walls_.wet(i, j + 1) ? 0.5f * mu * (depth_(i, j) + depth_(i, j + 1)) : 0.0f;
    return 0.0;
  };
  sumOverCells(walls_, nx, ny, span, cell);
}

// Rows 1 to ny - 2 whole, with the interior kernel: a face towards a solid cell is 0 (and so
// is `in` there), so the kernel gives the wall rule without a test, and a solid cell gets 0.
// The first and last rows (whose neighbours beyond the grid would be read) cell by cell.
double SweSemiLagrangian::applyHelmholtz(const Field2D& in, Field2D& out) const {
  const int nx = in.nx(), ny = in.ny();
  const float *p = in.data(), *faceX = faceX_.data(), *faceY = faceY_.data();
  float* q = out.data();
  const std::size_t row = std::size_t(nx);
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
  const auto span = [&](std::size_t begin, std::size_t end) {
    return helmholtzSpan(q, p, faceX, faceY, row, begin, end);
  };
  return sumOverCells(walls_, nx, ny, span, cell);
}

SweSemiLagrangian::HelmholtzSolver SweSemiLagrangian::chooseSolver(double dt) const {
  static const std::string kSolver = "helmholtz_solver";
  const int choice = params().getInt(kSolver);  // 0 auto, then the HelmholtzSolver values
  if (choice != 0) return HelmholtzSolver(choice);
  const double dx = domain_->grid().dx;
  const double coupling = domain_->g() * maxRestDepth_ * dt * dt / (dx * dx);
  if (coupling > kMultigridMinCoupling) return HelmholtzSolver::Multigrid;
  const bool large = h_.size() >= kReducedMinCells;
  return large && coupling > kReducedMinCoupling ? HelmholtzSolver::ReducedCg : HelmholtzSolver::Cg;
}

// Eq. 25 solved from h^n (warm start) to cg_tolerance on the faces of this step, by plain CG,
// CG on the red-black reduced system (core/solvers/red_black_cg.hpp) or multigrid V-cycles
// (core/solvers/multigrid.hpp). Each solver allocates its work fields at its first solve.
void SweSemiLagrangian::solveHelmholtz(double dt) {
  // Names longer than the short-string buffer would allocate on every step.
  static const std::string kTolerance = "cg_tolerance", kMaxIterations = "cg_max_iterations";
  const double tolerance = params().get(kTolerance);
  const int maxIterations = params().getInt(kMaxIterations);
  switch (chooseSolver(dt)) {
    case HelmholtzSolver::Multigrid:
      if (!helmholtzSolver_.ready())
        helmholtzSolver_.setup(
            FivePointSystem::fromMask(domain_->nx(), domain_->ny(), domain_->wetMask(), 1.0f));
      helmholtzSolver_.updateCoefficients(unitShift_, faceX_, faceY_);
      lastSolve_ = helmholtzSolver_.solve(rhs_, h_, tolerance, maxIterations);
      return;
    case HelmholtzSolver::ReducedCg:
      reducedCg_.updateCoefficients(unitShift_, faceX_, faceY_, domain_->wetMask());
      lastSolve_ = reducedCg_.solve(rhs_, h_, tolerance, maxIterations);
      return;
    case HelmholtzSolver::Cg:
      break;
  }
  const auto apply = [this](const Field2D& in, Field2D& out) { return applyHelmholtz(in, out); };
  lastSolve_ = cg_.solveFused(apply, rhs_, h_, domain_->wetMask(), tolerance, maxIterations);
}

// Eqs. 21-22: u^{n+1} = u~ - g dt h_x^{n+1}, v^{n+1} = v~ - g dt h_y^{n+1} (centred, Neumann
// ghosts), then zero normal velocity at walls (section 4.1).
void SweSemiLagrangian::updateVelocity(double dt) {
  const double gDtPerDx = domain_->g() * dt / domain_->grid().dx;
  const float *h = h_.data(), *uDep = uDep_.data(), *vDep = vDep_.data();
  const float *openEast = walls_.openEast(), *openNorth = walls_.openNorth();
  float *u = u_.data(), *v = v_.data();
  const std::size_t row = std::size_t(h_.nx());
  const auto span = [&](std::size_t begin, std::size_t end) {
    velocitySpan(u, v, uDep, vDep, h, openEast, openNorth, gDtPerDx, row, begin, end);
    return 0.0;
  };
  const auto cell = [&](int i, int j) {
    u_(i, j) = float(uDep_(i, j) - gDtPerDx * walls_.centredX(h_, i, j, true));
    v_(i, j) = float(vDep_(i, j) - gDtPerDx * walls_.centredY(h_, i, j, true));
    return 0.0;
  };
  sumOverCells(walls_, h_.nx(), h_.ny(), span, cell);
  walls_.enforceVelocity(u_, v_);
}

// In the layers of open edges the surface and the velocity relax toward rest at the same rate,
//   h_t + ... = -sigma h,  u_t + ... = -sigma u   (implicit: x <- x / (1 + sigma dt)),
// the matched damping of core/grid/edges.hpp under which the linearised equations pass an
// outgoing wave without reflection where sigma is constant. The water it removes is the sink.
void SweSemiLagrangian::absorbAtOpenEdges(double dt) {
  if (layer_.empty()) return;
  volumeSink_ += layer_.relax(h_.data(), dt) * domain_->grid().cellArea();
  layer_.relax(u_.data(), dt);
  layer_.relax(v_.data(), dt);
}

// Drying: a surface below the ground (negative depth) is lifted back to the ground; the water
// this adds shows up as volume drift and the cells are counted in dry_cells. In the same pass
// the depth of the next step, d = h - b, at least min_depth on wet cells (drying cells keep
// eq. 25 definite), 0 on solid ones.
void SweSemiLagrangian::keepDepthNonNegative() {
  static const std::string kMinDepth = "min_depth";
  const float minDepth = float(params().get(kMinDepth));
  const std::size_t n = h_.size();
  int dry = 0;
#pragma omp parallel reduction(+ : dry) if (worthThreads(n))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    dry += dryAndDepthSpan(h_.data(), depth_.data(), ground_.data(), walls_.wetWeights(), minDepth,
                           n * t / threads, n * (t + 1) / threads);
  }
  dryCells_ = dry;
}

double SweSemiLagrangian::velocityShear() const {
  const double dx = domain_->grid().dx;
  const int nx = h_.nx(), ny = h_.ny();
  const float *u = u_.data(), *v = v_.data();
  const float *openEast = walls_.openEast(), *openNorth = walls_.openNorth();
  const std::size_t row = std::size_t(nx);
  float shear = 0.0f;
  // As sumOverCells, with max for sum.
#pragma omp parallel reduction(max : shear) if (worthThreads(u_.size()))
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const std::size_t j0 = 1 + std::size_t(ny - 2) * t / threads;
    const std::size_t j1 = 1 + std::size_t(ny - 2) * (t + 1) / threads;
    if (j1 > j0) shear = shearSpan(u, v, openEast, openNorth, row, j0 * row, j1 * row);
  }
  // Free-slip ghosts: a wall does not shear the flow along it.
  for (int j : {0, ny - 1})
    for (int i = 0; i < nx; ++i) {
      if (!walls_.wet(i, j)) continue;
      shear = std::max({shear, std::fabs(walls_.centredX(u_, i, j, true)),
                        std::fabs(walls_.centredY(u_, i, j, true)),
                        std::fabs(walls_.centredX(v_, i, j, true)),
                        std::fabs(walls_.centredY(v_, i, j, true))});
    }
  return shear / dx;
}

double SweSemiLagrangian::addEta(const Field2D& delta) {
  const float minDepth = float(params().get("min_depth"));
  double added = 0.0;
  const auto& wet = domain_->wetMask();
  for (std::size_t k = 0; k < delta.size(); ++k) {
    if (!wet[k] || delta.data()[k] == 0.0f) continue;
    h_.data()[k] += delta.data()[k];
    added += delta.data()[k];
    depth_.data()[k] = std::max(h_.data()[k] - ground_.data()[k], minDepth);
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
