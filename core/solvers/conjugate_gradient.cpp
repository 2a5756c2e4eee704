#include "core/solvers/conjugate_gradient.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "core/grid/parallel.hpp"

namespace wb {

namespace {

// This thread's share of [0, n) in a parallel region: 64-byte aligned chunks.
std::pair<std::size_t, std::size_t> chunkOf(std::size_t n) {
  constexpr std::size_t kFloatsPerLine = 16;
  const std::size_t threads = std::size_t(omp_get_num_threads());
  const std::size_t t = std::size_t(omp_get_thread_num());
  const std::size_t begin = (n * t / threads) & ~(kFloatsPerLine - 1);
  const std::size_t end = t + 1 == threads ? n : (n * (t + 1) / threads) & ~(kFloatsPerLine - 1);
  return {begin, end};
}

// Splits [0, n) between the team's threads (one thread for small grids) and sums what
// chunk(begin, end) returns.
template <class Chunk>
double sumOverChunks(std::size_t n, const Chunk& chunk) {
  double total = 0.0;
#pragma omp parallel reduction(+ : total) if (worthThreads(n))
  {
    const auto [begin, end] = chunkOf(n);
    total += chunk(begin, end);
  }
  return total;
}

WB_SPAN_KERNEL double dotChunk(const float* __restrict a, const float* __restrict b,
                               std::size_t begin, std::size_t end) {
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (std::size_t k = begin; k < end; ++k)
    sum += double(a[k]) * b[k];
  return sum;
}

WB_SPAN_KERNEL double updateChunk(float* __restrict x, float* __restrict r,
                                  const float* __restrict p, const float* __restrict q, float alpha,
                                  std::size_t begin, std::size_t end) {
  double rr = 0.0;
#pragma omp simd reduction(+ : rr)
  for (std::size_t k = begin; k < end; ++k) {
    x[k] += alpha * p[k];
    r[k] -= alpha * q[k];
    rr += double(r[k]) * r[k];
  }
  return rr;
}

WB_SPAN_KERNEL void directionChunk(float* __restrict p, const float* __restrict r, float beta,
                                   std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t k = begin; k < end; ++k)
    p[k] = r[k] + beta * p[k];
}

// b - q on wet cells, 0 on solid ones (a bit mask: selects with arithmetic arms do not
// vectorise under -ftrapping-math).
inline float wetDifference(float b, float q, std::uint8_t wet) {
  const std::uint32_t keep = 0u - std::uint32_t(wet != 0);
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(b - q) & keep);
}

// r = p = b - q on wet cells (0 on solid ones); adds r.r and b.b over wet cells to rr, bb.
WB_SPAN_KERNEL void initialResidualChunk(float* __restrict r, float* __restrict p,
                                         const float* __restrict b, const float* __restrict q,
                                         const std::uint8_t* __restrict wet, std::size_t begin,
                                         std::size_t end, double& rr, double& bb) {
  double sumR = 0.0, sumB = 0.0;
#pragma omp simd reduction(+ : sumR, sumB)
  for (std::size_t k = begin; k < end; ++k) {
    const float residual = wetDifference(b[k], q[k], wet[k]);
    const float rhs = wetDifference(b[k], 0.0f, wet[k]);
    r[k] = residual;
    p[k] = residual;
    sumR += double(residual) * residual;
    sumB += double(rhs) * rhs;
  }
  rr += sumR;
  bb += sumB;
}

// sum over wet cells of (b - q)^2.
WB_SPAN_KERNEL void wetResidualChunk(const float* __restrict b, const float* __restrict q,
                                     const std::uint8_t* __restrict wet, std::size_t begin,
                                     std::size_t end, double& rr) {
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (std::size_t k = begin; k < end; ++k) {
    const float d = wetDifference(b[k], q[k], wet[k]);
    sum += double(d) * d;
  }
  rr += sum;
}

void removeWetMean(Field2D& f, const std::vector<std::uint8_t>& wet) {
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t k = 0; k < f.size(); ++k)
    if (wet[k]) sum += f.data()[k], ++count;
  if (!count) return;
  const float mean = float(sum / double(count));
  for (std::size_t k = 0; k < f.size(); ++k)
    if (wet[k]) f.data()[k] -= mean;
}

}  // namespace

namespace cg_kernels {

double dot(const float* a, const float* b, std::size_t n) {
  return sumOverChunks(
      n, [&](std::size_t begin, std::size_t end) { return dotChunk(a, b, begin, end); });
}

double updateSolutionAndResidual(float* x, float* r, const float* p, const float* q, float alpha,
                                 std::size_t n) {
  return sumOverChunks(n, [&](std::size_t begin, std::size_t end) {
    return updateChunk(x, r, p, q, alpha, begin, end);
  });
}

void updateDirection(float* p, const float* r, float beta, std::size_t n) {
  sumOverChunks(n, [&](std::size_t begin, std::size_t end) {
    directionChunk(p, r, beta, begin, end);
    return 0.0;
  });
}

}  // namespace cg_kernels

ConjugateGradient::ConjugateGradient(int nx, int ny)
    : residual_(nx, ny), direction_(nx, ny), product_(nx, ny), rhs_(nx, ny) {}

CgResult ConjugateGradient::solve(const Operator& apply, const Field2D& b, Field2D& x,
                                  const std::vector<std::uint8_t>& wet, double tolerance,
                                  int maxIterations, bool removeMean) {
  const auto fused = [&apply](const Field2D& in, Field2D& out) {
    apply(in, out);
    return cg_kernels::dot(in.data(), out.data(), in.size());
  };
  return solveFused(fused, b, x, wet, tolerance, maxIterations, removeMean);
}

CgResult ConjugateGradient::solveFused(const FusedOperator& apply, const Field2D& b, Field2D& x,
                                       const std::vector<std::uint8_t>& wet, double tolerance,
                                       int maxIterations, bool removeMean) {
  if (!residual_.sameShape(b)) *this = ConjugateGradient(b.nx(), b.ny());
  if (removeMean) {
    rhs_ = b;  // same shape: copies without allocating
    removeWetMean(rhs_, wet);
    removeWetMean(x, wet);
  }
  const Field2D& rhs = removeMean ? rhs_ : b;
  const std::size_t n = b.size();
  float* r = residual_.data();
  float* p = direction_.data();
  const float* q = product_.data();
  // r = b - A x on wet cells, 0 on solid ones; p = r
  apply(x, product_);
  double rr = 0.0, bb = 0.0;
#pragma omp parallel reduction(+ : rr, bb) if (worthThreads(n))
  {
    const auto [begin, end] = chunkOf(n);
    initialResidualChunk(r, p, rhs.data(), q, wet.data(), begin, end, rr, bb);
  }
  const double bNorm = std::sqrt(bb);
  CgResult result;
  if (bNorm == 0.0) {
    x.fill(0.0f);
    result.converged = true;
    return result;
  }
  const double target = tolerance * bNorm;
  while (std::sqrt(rr) > target && result.iterations < maxIterations) {
    const double pAp = apply(direction_, product_);
    if (pAp <= 0.0) break;  // not positive definite on this subspace: stop honestly
    const float alpha = float(rr / pAp);
    const double rrNew = cg_kernels::updateSolutionAndResidual(x.data(), r, p, q, alpha, n);
    cg_kernels::updateDirection(p, r, float(rrNew / rr), n);
    rr = rrNew;
    ++result.iterations;
  }
  if (removeMean) removeWetMean(x, wet);
  // Report the true residual, not the recurrence's estimate.
  apply(x, product_);
  double trueRr = 0.0;
#pragma omp parallel reduction(+ : trueRr) if (worthThreads(n))
  {
    const auto [begin, end] = chunkOf(n);
    wetResidualChunk(rhs.data(), q, wet.data(), begin, end, trueRr);
  }
  result.relativeResidual = std::sqrt(trueRr) / bNorm;
  result.converged = result.relativeResidual <= tolerance * 1.0001;
  return result;
}

namespace {

double dotDouble(const double* a, const double* b, std::size_t n) {
  double sum = 0.0;
#pragma omp parallel for simd reduction(+ : sum) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    sum += a[k] * b[k];
  return sum;
}

void removeWetMeanDouble(double* f, const std::vector<std::uint8_t>& wet) {
  const std::size_t n = wet.size();
  const std::uint8_t* isWet = wet.data();
  // The mask as a 0/1 weight: the loops stay free of selects and widths mix only once.
  double sum = 0.0, count = 0.0;
#pragma omp parallel for simd reduction(+ : sum, count) if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    const double weight = isWet[k];
    sum += weight * f[k];
    count += weight;
  }
  if (count == 0.0) return;
  const double mean = sum / count;
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    f[k] -= double(isWet[k]) * mean;
}

// Restarts from the current iterate when the recurrence's residual has drifted from the true
// one (each restart recomputes it); this many at most.
constexpr int kPcgRestarts = 2;

}  // namespace

CgResult PreconditionedCg::solve(const Operator& apply, const Preconditioner& precondition,
                                 const double* b, double* x, const std::vector<std::uint8_t>& wet,
                                 double tolerance, int maxIterations, bool removeMean) {
  const std::size_t n = wet.size();
  if (rhs_.size() != n)
    for (auto* v : {&rhs_, &solution_, &residual_, &preconditioned_, &direction_, &product_})
      v->assign(n, 0.0);
  const std::uint8_t* isWet = wet.data();
  double* rhs = rhs_.data();
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    rhs[k] = isWet[k] ? b[k] : 0.0;
    x[k] = isWet[k] ? x[k] : 0.0;
  }
  if (removeMean) {
    removeWetMeanDouble(rhs_.data(), wet);
    removeWetMeanDouble(x, wet);
  }
  const double bNorm = std::sqrt(dotDouble(rhs_.data(), rhs_.data(), n));
  CgResult result;
  if (bNorm == 0.0) {
    std::fill(x, x + n, 0.0);
    result.converged = true;
    return result;
  }
  result = iterate(apply, precondition, x, wet, bNorm, tolerance, maxIterations, removeMean);
  for (int restart = 0; restart < kPcgRestarts && !result.converged; ++restart) {
    if (result.iterations >= maxIterations) break;
    const int used = result.iterations;
    result =
        iterate(apply, precondition, x, wet, bNorm, tolerance, maxIterations - used, removeMean);
    result.iterations += used;
  }
  return result;
}

CgResult PreconditionedCg::solve(const Operator& apply, const Preconditioner& precondition,
                                 const Field2D& b, Field2D& x, const std::vector<std::uint8_t>& wet,
                                 double tolerance, int maxIterations, bool removeMean) {
  const std::size_t n = b.size();
  if (solution_.size() != n)
    for (auto* v : {&rhs_, &solution_, &residual_, &preconditioned_, &direction_, &product_})
      v->assign(n, 0.0);
  // b goes through preconditioned_ (free until the iterations start) so that nothing allocates.
  const float *bIn = b.data(), *xIn = x.data();
  double *bCopy = preconditioned_.data(), *solution = solution_.data();
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k) {
    bCopy[k] = bIn[k];
    solution[k] = xIn[k];
  }
  const CgResult result =
      solve(apply, precondition, bCopy, solution, wet, tolerance, maxIterations, removeMean);
  float* xOut = x.data();
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    xOut[k] = float(solution[k]);
  return result;
}

// Preconditioned CG (Saad, Iterative Methods, Alg. 9.1) from x, with r = b - A x recomputed.
CgResult PreconditionedCg::iterate(const Operator& apply, const Preconditioner& precondition,
                                   double* x, const std::vector<std::uint8_t>& wet, double bNorm,
                                   double tolerance, int maxIterations, bool removeMean) {
  const std::size_t n = wet.size();
  double *r = residual_.data(), *z = preconditioned_.data(), *p = direction_.data();
  double* q = product_.data();
  const double* b = rhs_.data();
  const std::uint8_t* isWet = wet.data();
  const auto computeResidual = [&] {
    apply(x, q);
    double rr = 0.0;
#pragma omp parallel for simd reduction(+ : rr) if (worthThreads(n))
    for (std::size_t k = 0; k < n; ++k) {
      r[k] = isWet[k] ? b[k] - q[k] : 0.0;
      rr += r[k] * r[k];
    }
    return std::sqrt(rr);
  };
  const auto preconditionResidual = [&] {
    precondition(r, z);
    if (removeMean) removeWetMeanDouble(z, wet);
    return dotDouble(r, z, n);
  };
  CgResult result;
  double rNorm = computeResidual();
  const double target = tolerance * bNorm;
  // A warm start that already meets the tolerance needs no preconditioner application.
  if (rNorm <= target) {
    result.relativeResidual = rNorm / bNorm;
    result.converged = true;
    return result;
  }
  double rz = preconditionResidual();
#pragma omp parallel for simd if (worthThreads(n))
  for (std::size_t k = 0; k < n; ++k)
    p[k] = z[k];
  while (rNorm > target && result.iterations < maxIterations) {
    apply(p, q);
    const double pq = dotDouble(p, q, n);
    if (pq <= 0.0 || rz <= 0.0) break;  // not positive definite on this subspace: stop honestly
    const double alpha = rz / pq;
    double rr = 0.0;
#pragma omp parallel for simd reduction(+ : rr) if (worthThreads(n))
    for (std::size_t k = 0; k < n; ++k) {
      x[k] += alpha * p[k];
      r[k] -= alpha * q[k];
      rr += r[k] * r[k];
    }
    rNorm = std::sqrt(rr);
    ++result.iterations;
    if (rNorm <= target) break;
    const double rzNew = preconditionResidual();
    const double beta = rzNew / rz;
    rz = rzNew;
#pragma omp parallel for simd if (worthThreads(n))
    for (std::size_t k = 0; k < n; ++k)
      p[k] = z[k] + beta * p[k];
  }
  if (removeMean) removeWetMeanDouble(x, wet);
  // Report the true residual, not the recurrence's estimate.
  result.relativeResidual = computeResidual() / bNorm;
  result.converged = result.relativeResidual <= tolerance * 1.0001;
  return result;
}

}  // namespace wb
