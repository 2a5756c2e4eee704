#include "core/conjugate_gradient.hpp"

#include <cmath>

namespace wb {

namespace {

double dotWet(const Field2D& a, const Field2D& b, const std::vector<std::uint8_t>& wet) {
  double sum = 0.0;
  const float* pa = a.data();
  const float* pb = b.data();
  const std::size_t n = a.size();
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::size_t k = 0; k < n; ++k)
    if (wet[k]) sum += double(pa[k]) * pb[k];
  return sum;
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

ConjugateGradient::ConjugateGradient(int nx, int ny)
    : residual_(nx, ny), direction_(nx, ny), product_(nx, ny), rhs_(nx, ny) {}

CgResult ConjugateGradient::solve(const Operator& apply, const Field2D& b, Field2D& x,
                                  const std::vector<std::uint8_t>& wet, double tolerance,
                                  int maxIterations, bool removeMean) {
  if (!residual_.sameShape(b)) *this = ConjugateGradient(b.nx(), b.ny());
  rhs_ = b;
  if (removeMean) {
    removeWetMean(rhs_, wet);
    removeWetMean(x, wet);
  }
  const std::size_t n = b.size();
  float* r = residual_.data();
  float* p = direction_.data();
  float* q = product_.data();
  float* xs = x.data();
  // r = b - A x, p = r
  apply(x, product_);
  for (std::size_t k = 0; k < n; ++k) {
    r[k] = wet[k] ? rhs_.data()[k] - q[k] : 0.0f;
    p[k] = r[k];
  }
  const double bNorm = std::sqrt(dotWet(rhs_, rhs_, wet));
  CgResult result;
  if (bNorm == 0.0) {
    for (std::size_t k = 0; k < n; ++k)
      xs[k] = 0.0f;
    result.converged = true;
    return result;
  }
  double rr = dotWet(residual_, residual_, wet);
  const double target = tolerance * bNorm;
  while (std::sqrt(rr) > target && result.iterations < maxIterations) {
    apply(direction_, product_);
    const double pAp = dotWet(direction_, product_, wet);
    if (pAp <= 0.0) break;  // not positive definite on this subspace: stop honestly
    const float alpha = float(rr / pAp);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < n; ++k) {
      xs[k] += alpha * p[k];
      r[k] -= alpha * q[k];
    }
    const double rrNew = dotWet(residual_, residual_, wet);
    const float beta = float(rrNew / rr);
    rr = rrNew;
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < n; ++k)
      p[k] = r[k] + beta * p[k];
    ++result.iterations;
  }
  if (removeMean) removeWetMean(x, wet);
  // Report the true residual, not the recurrence's estimate.
  apply(x, product_);
  double trueRr = 0.0;
  for (std::size_t k = 0; k < n; ++k)
    if (wet[k]) {
      const double d = double(rhs_.data()[k]) - q[k];
      trueRr += d * d;
    }
  result.relativeResidual = std::sqrt(trueRr) / bNorm;
  result.converged = result.relativeResidual <= tolerance * 1.0001;
  return result;
}

}  // namespace wb
