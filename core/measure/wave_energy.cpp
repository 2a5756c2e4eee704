#include "core/measure/wave_energy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/grid/parallel.hpp"

namespace wb {

namespace {
// The energy is taken from the variational form, whose error is quadratic in the potential's:
// a 1e-3 relative residual keeps it to about 1e-6 relative.
constexpr double kPotentialTolerance = 1e-3;
constexpr int kPotentialMaxIterations = 200;
// A pivot below this fraction of the largest diagonal entry drops its basis vector.
constexpr double kDroppedPivot = 1e-9;

constexpr int kBasis = WaveKineticEnergy::kBasis;
constexpr int kGramEntries = kBasis * (kBasis + 1) / 2;
// The prediction's sums: over this many chunks of cells, each in blocks of kBlock cells.
constexpr int kChunks = 32;
constexpr int kBlock = 256;

struct GramSums {
  double gram[kGramEntries];  // G_ij, i <= j, row by row
  double projection[kBasis];  // v_i.(b - bMean)
  double wetSum[kBasis];      // sum of v_i over wet cells
};

// The fields the prediction's basis is made of (see predict): phi^{m-1/2}, h^m, h^{m-1}, h^n,
// h^{n-1}, L of each, and b.
struct BasisFields {
  const float *phi, *lphi, *hm, *hm1, *lhm, *lhm1, *hn, *hn1, *lhn, *lhn1, *b;
};

template <class Real>
double dot(const double* x, const Real* y, int count) {
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (int q = 0; q < count; ++q)
    sum += x[q] * double(y[q]);
  return sum;
}

// Solves G c = r in place for a symmetric positive semi-definite G by Gaussian elimination
// without pivoting (an SPD matrix needs none), leaving out the directions whose pivot vanishes
// (their c is 0). False when the result is not finite.
bool solveSemidefinite(double (&g)[kBasis][kBasis], double (&c)[kBasis]) {
  double scale = 0.0;
  for (int i = 0; i < kBasis; ++i)
    scale = std::max(scale, g[i][i]);
  if (!(scale > 0.0)) return false;
  bool kept[kBasis];
  for (int p = 0; p < kBasis; ++p) {
    kept[p] = g[p][p] > kDroppedPivot * scale;
    if (!kept[p]) continue;
    for (int i = p + 1; i < kBasis; ++i) {
      const double f = g[i][p] / g[p][p];
      for (int j = p; j < kBasis; ++j)
        g[i][j] -= f * g[p][j];
      c[i] -= f * c[p];
    }
  }
  for (int p = kBasis - 1; p >= 0; --p) {
    if (!kept[p]) {
      c[p] = 0.0;
      continue;
    }
    for (int j = p + 1; j < kBasis; ++j)
      c[p] -= g[p][j] * c[j];
    c[p] /= g[p][p];
  }
  return std::all_of(c, c + kBasis, [](double x) { return std::isfinite(x); });
}
// Adds the Gram sums of the cells [first, first + count), count <= kBlock: the basis vectors
// and their A images go to a buffer, then each sum is a vector loop over it. target_clones
// adds an AVX2 version chosen at load time where the machine has it (models/damped_wave).
WB_SPAN_KERNEL void sumGramBlock(const BasisFields& f, double bMean,
                                 const std::uint8_t* __restrict wet, std::size_t first, int count,
                                 GramSums& sums) {
  double v[kBasis][kBlock], a[kBasis][kBlock], b[kBlock], w[kBlock];
#pragma omp simd
  for (int q = 0; q < count; ++q) {
    const std::size_t k = first + std::size_t(q);
    v[0][q] = f.phi[k], a[0][q] = -double(f.lphi[k]);
    v[1][q] = f.hm[k], a[1][q] = -double(f.lhm[k]);
    v[2][q] = double(f.hm[k]) - f.hm1[k], a[2][q] = double(f.lhm1[k]) - f.lhm[k];
    v[3][q] = f.hn1[k], a[3][q] = -double(f.lhn1[k]);
    v[4][q] = double(f.hn[k]) - f.hn1[k], a[4][q] = double(f.lhn1[k]) - f.lhn[k];
    w[q] = wet[k] ? 1.0 : 0.0;
    b[q] = w[q] * (double(f.b[k]) - bMean);
  }
  for (int i = 0, e = 0; i < kBasis; ++i) {
    sums.projection[i] += dot(v[i], b, count);
    sums.wetSum[i] += dot(v[i], w, count);
    for (int j = i; j < kBasis; ++j, ++e)
      sums.gram[e] += dot(v[i], a[j], count);
  }
}

// out = sum c_i (v_i - mean_i) on wet cells [first, last), 0 elsewhere.
WB_SPAN_KERNEL void combineBasis(const BasisFields& f, const double* c, const double* mean,
                                 const std::uint8_t* __restrict wet, float* __restrict out,
                                 std::size_t first, std::size_t last) {
  const double offset =
      c[0] * mean[0] + c[1] * mean[1] + c[2] * mean[2] + c[3] * mean[3] + c[4] * mean[4];
#pragma omp simd
  for (std::size_t k = first; k < last; ++k) {
    const double dm = double(f.hm[k]) - f.hm1[k], dn = double(f.hn[k]) - f.hn1[k];
    const double p =
        c[0] * f.phi[k] + c[1] * f.hm[k] + c[2] * dm + c[3] * f.hn1[k] + c[4] * dn - offset;
    out[k] = wet[k] ? float(p) : 0.0f;
  }
}

// The sums of WaveKineticEnergy::measure over wet cells [first, last): p.b + 1/2 p.L p, h.v
// (v = h^n - h^{n-1}), sum p, and |r|^2 and sum r for r = b + L p.
struct EnergySums {
  static constexpr int kCount = 5;
  double sum[kCount] = {};
};

WB_SPAN_KERNEL EnergySums sumEnergy(const float* __restrict p, const float* __restrict lp,
                                    const float* __restrict b, const float* __restrict h,
                                    const float* __restrict rate,
                                    const std::uint8_t* __restrict wet, std::size_t first,
                                    std::size_t last) {
  double variational = 0.0, mixed = 0.0, pSum = 0.0, rSquares = 0.0, rSum = 0.0;
#pragma omp simd reduction(+ : variational, mixed, pSum, rSquares, rSum)
  for (std::size_t k = first; k < last; ++k) {
    const double w = wet[k] ? 1.0 : 0.0, pk = w * p[k], r = w * (double(b[k]) + lp[k]);
    variational += pk * (double(b[k]) + 0.5 * double(lp[k]));
    pSum += pk;
    mixed += w * double(h[k]) * rate[k];
    rSquares += r * r;
    rSum += r;
  }
  return {{variational, mixed, pSum, rSquares, rSum}};
}

}  // namespace

double WaveKineticEnergy::compute(const WetStencil& stencil, const Domain& domain, bool singular,
                                  double c, const Field2D& h, const Field2D& rate, double dt) {
  if (!potential_.sameShape(h)) {
    for (Field2D* f :
         {&rhs_, &potential_, &product_, &surface_, &surfaceOld_, &surfaceBefore_,
          &surfaceBeforeOld_, &applied_, &appliedOld_, &appliedBefore_, &appliedBeforeOld_})
      *f = Field2D(h.nx(), h.ny());
    for (auto* v : {&residual_, &correction_, &appliedCorrection_})
      v->assign(h.size(), 0.0);
    predictable_ = false;
  }
  const double dx = domain.grid().dx, depth = c * c / domain.g();
  prepare(domain, singular);
  // -L phi = dx^2 / (d dt) (h^n - h^{n-1})
  const System system = assembleRightSide(h, rate, dx * dx / (depth * dt), domain, singular);
  stencil.apply(surface_, applied_);
  stencil.apply(surfaceOld_, appliedOld_);
  const Energy energy = solve(stencil, h, rate, system);
  // Kept for the next call's prediction.
  std::swap(surfaceBefore_, surface_);
  std::swap(surfaceBeforeOld_, surfaceOld_);
  std::swap(appliedBefore_, applied_);
  std::swap(appliedBeforeOld_, appliedOld_);
  predictable_ = true;
  return depth * energy.variational - 0.5 * domain.g() * energy.mixed * domain.grid().cellArea();
}

// b = scale (h^n - h^{n-1}) on wet cells, with its norm as the solver takes it: with mirror
// walls without its wet mean. In the same pass the prediction's copies of h^n and h^{n-1}: with
// mirror walls less a level close to their mean (the last call's), which L ignores, so that
// float keeps the digits of the waves in L h when they are small against the mean level.
WaveKineticEnergy::System WaveKineticEnergy::assembleRightSide(const Field2D& h,
                                                               const Field2D& rate, double scale,
                                                               const Domain& domain,
                                                               bool singular) {
  const std::size_t n = h.size();
  const std::uint8_t* wet = domain.wetMask().data();
  const float s = float(scale), level = singular ? float(level_) : 0.0f;
  const float *hn = h.data(), *vn = rate.data();
  float *b = rhs_.data(), *centred = surface_.data(), *centredOld = surfaceOld_.data();
  double bSquares = 0.0, bSum = 0.0, hSum = 0.0;
#pragma omp parallel for simd reduction(+ : bSquares, bSum, hSum) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    b[k] = wet[k] ? s * vn[k] : 0.0f;
    centred[k] = wet[k] ? hn[k] - level : 0.0f;
    centredOld[k] = wet[k] ? (hn[k] - vn[k]) - level : 0.0f;
    bSquares += double(b[k]) * b[k];
    bSum += b[k];
    hSum += wet[k] ? double(hn[k]) : 0.0;
  }
  const double cells = double(wetCells_), bMean = singular ? bSum / cells : 0.0;
  level_ = hSum / cells;
  return {wet, singular, cells, bMean, std::sqrt(std::max(0.0, bSquares - bMean * bSum))};
}

// From the prediction corrected once (or, without one, the last potential): accepted if its
// residual meets the tolerance, else solved by CG from there. Leaves product_ = L potential_.
WaveKineticEnergy::Energy WaveKineticEnergy::solve(const WetStencil& stencil, const Field2D& h,
                                                   const Field2D& rate, const System& system) {
  const auto check = [&](int iterations) {
    stencil.apply(potential_, product_);
    const Energy energy = measure(h, rate, system);
    const double relative = system.bNorm > 0.0 ? energy.residual / system.bNorm : 0.0;
    lastSolve_ = {iterations, relative, relative <= kPotentialTolerance};
    return energy;
  };
  Energy energy;
  if (predictable_ && predict(system)) {
    energy = check(0);
    if (!lastSolve_.converged) {
      correct(stencil, system);
      energy = check(1);
    }
  } else {
    energy = check(0);
  }
  if (lastSolve_.converged) return energy;
  const std::size_t n = h.size();
  const std::uint8_t* wet = system.wet;
  const auto negativeLaplacian = [&](const double* in, double* out) {
    stencil.apply(in, out);
    for (std::size_t k = 0; k < n; ++k)
      out[k] = wet[k] ? -out[k] : 0.0;
  };
  const CgResult solved = solver_.solve(negativeLaplacian, rhs_, potential_, kPotentialTolerance,
                                        kPotentialMaxIterations, system.singular);
  energy = check(0);
  lastSolve_ = solved;
  return energy;
}

// 1/2 d phi.b = d max J, J(p) = p.b - 1/2 p.A p: the iterate p is off by e in phi, J by only
// 1/2 e.A e. With mirror walls b is taken without its mean (the solver's system), so J does not
// depend on p's. With it the residual b - A p of p (A p = -L p), for the solver's test.
WaveKineticEnergy::Energy WaveKineticEnergy::measure(const Field2D& h, const Field2D& rate,
                                                     const System& system) const {
  std::array<EnergySums, kChunks> chunks{};
  const std::size_t n = h.size();
#pragma omp parallel for schedule(static) if (worthThreads(n))
  for (int chunk = 0; chunk < kChunks; ++chunk)
    chunks[std::size_t(chunk)] = sumEnergy(
        potential_.data(), product_.data(), rhs_.data(), h.data(), rate.data(), system.wet,
        n * std::size_t(chunk) / kChunks, n * std::size_t(chunk + 1) / kChunks);
  EnergySums total;
  for (const EnergySums& chunk : chunks)
    for (int i = 0; i < EnergySums::kCount; ++i)
      total.sum[i] += chunk.sum[i];
  const auto [variational, mixed, pSum, rSquares, rSum] = total.sum;
  Energy e;
  e.variational = variational - system.bMean * pSum;
  e.mixed = mixed;
  e.residualMean = system.singular ? rSum / system.wetCells : 0.0;
  e.residual = std::sqrt(std::max(0.0, rSquares - e.residualMean * rSum));
  return e;
}

// One step of steepest descent preconditioned by the solver's V-cycle: z = B r for the
// residual r = b - A p (without b's mean, which L's sums do not have: the V-cycle's right side),
// p += alpha z with alpha = z.r / z.A z, the minimum of J along z (CG's first step).
void WaveKineticEnergy::correct(const WetStencil& stencil, const System& system) {
  const std::size_t n = rhs_.size();
  const std::uint8_t* wet = system.wet;
  const float *b = rhs_.data(), *lp = product_.data();
  double *r = residual_.data(), *z = correction_.data(), *lz = appliedCorrection_.data();
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    r[k] = wet[k] ? double(b[k]) - system.bMean + lp[k] : 0.0;
  solver_.multigrid().vcycle(r, z);
  stencil.apply(z, lz);  // 0 on solid cells: untouched there since allocation, as z is
  double zr = 0.0, zAz = 0.0;
#pragma omp parallel for simd reduction(+ : zr, zAz) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    zr += z[k] * r[k];
    zAz -= z[k] * lz[k];
  }
  if (!(zAz > 0.0) || !std::isfinite(zr)) return;
  const double alpha = zr / zAz;
  float* p = potential_.data();
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    p[k] = float(p[k] + alpha * z[k]);
}

// Minimises J(p) = p.b - 1/2 p.A p, A = -L, over p = sum c_i v_i with the basis
//   v = (phi^{m-1/2}, h^m, h^m - h^{m-1}, h^{n-1}, h^n - h^{n-1}):
// G c = (v_i.b), G_ij = v_i.A v_j. The L v come from this call's and the last call's stencil
// passes (L phi^{m-1/2} is product_). Beside the trapezoidal pair h^m, h^{n-1}, the two
// differences carry the surface's rate of change at both ends (a cubic in time). A basis vector
// whose pivot vanishes (e.g. a flat surface, in A's null space) is left out.
bool WaveKineticEnergy::predict(const System& system) {
  const std::size_t n = rhs_.size();
  const BasisFields f{potential_.data(),
                      product_.data(),
                      surfaceBefore_.data(),
                      surfaceBeforeOld_.data(),
                      appliedBefore_.data(),
                      appliedBeforeOld_.data(),
                      surface_.data(),
                      surfaceOld_.data(),
                      applied_.data(),
                      appliedOld_.data(),
                      rhs_.data()};
  // L v and b are 0 on solid cells (L's output is untouched there since allocation): no mask.
  // Summed over fixed chunks in order: the sums do not depend on the thread count.
  std::array<GramSums, kChunks> chunks{};
#pragma omp parallel for schedule(static) if (worthThreads(n))
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    const std::size_t last = n * std::size_t(chunk + 1) / kChunks;
    for (std::size_t first = n * std::size_t(chunk) / kChunks; first < last; first += kBlock)
      sumGramBlock(f, system.bMean, system.wet, first,
                   int(std::min<std::size_t>(kBlock, last - first)), chunks[std::size_t(chunk)]);
  }
  GramSums total{};
  for (const GramSums& chunk : chunks) {
    for (int e = 0; e < kGramEntries; ++e)
      total.gram[e] += chunk.gram[e];
    for (int i = 0; i < kBasis; ++i) {
      total.projection[i] += chunk.projection[i];
      total.wetSum[i] += chunk.wetSum[i];
    }
  }
  // With mirror walls constants are in A's null space: J ignores them (b less its mean), and p
  // is kept at zero mean so that float keeps its digits.
  double mean[kBasis] = {};
  if (system.singular)
    for (int i = 0; i < kBasis; ++i)
      mean[i] = total.wetSum[i] / system.wetCells;
  double g[kBasis][kBasis], c[kBasis];
  for (int i = 0, e = 0; i < kBasis; ++i) {
    c[i] = total.projection[i];
    for (int j = i; j < kBasis; ++j, ++e)
      g[i][j] = g[j][i] = total.gram[e];
  }
  if (!solveSemidefinite(g, c)) return false;  // keep starting from phi^{m-1/2}
#pragma omp parallel for schedule(static) if (worthThreads(n))
  for (int chunk = 0; chunk < kChunks; ++chunk)
    combineBasis(f, c, mean, system.wet, potential_.data(), n * std::size_t(chunk) / kChunks,
                 n * std::size_t(chunk + 1) / kChunks);
  return true;
}

// The preconditioner: -dx^2 lap with the same walls on the 5-point stencil. Zero walls hold a
// missing neighbour at 0, which adds its weight to the diagonal: a shift per cell.
void WaveKineticEnergy::prepare(const Domain& domain, bool singular) {
  if (solver_.multigrid().ready() && preparedSingular_ == singular &&
      preparedMask_ == domain.wetMask())
    return;
  FivePointSystem system =
      FivePointSystem::fromMask(domain.nx(), domain.ny(), domain.wetMask(), 0.0f);
  if (!singular)
    for (int j = 0; j < domain.ny(); ++j)
      for (int i = 0; i < domain.nx(); ++i) {
        if (!domain.isWet(i, j)) continue;
        const int missing = !domain.isWetOrOutside(i - 1, j) + !domain.isWetOrOutside(i + 1, j) +
                            !domain.isWetOrOutside(i, j - 1) + !domain.isWetOrOutside(i, j + 1);
        system.shift(i, j) = float(missing);
      }
  solver_.setup(system);
  preparedMask_ = domain.wetMask();
  preparedSingular_ = singular;
  wetCells_ = domain.wetCount();
  predictable_ = false;
}

}  // namespace wb
