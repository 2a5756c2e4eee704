// The 5-point systems the solver tests share (core/solvers/multigrid.hpp's form): the Pi pool, a
// Helmholtz system with variable faces like Layton eq. 25, a right side, and the true residual
// recomputed from the coefficients, independently of any solver's operator.
#pragma once

#include <cmath>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/solvers/multigrid.hpp"

namespace wb {

// g d dt^2 / dx^2 of swe-semi-lagrangian's automatic step (docs/performance.md).
constexpr float kHelmholtzWeight = 16.0f;

inline Domain piPool(int nx, int ny) {
  Domain domain(Grid{nx, ny, 1.0}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  return domain;
}

inline Domain piPool(int n) {
  Domain domain(Grid{n, n, 1.0}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  return domain;
}

// Faces weighted by a smooth depth-like factor in [0.5, 1.5].
inline FivePointSystem helmholtzSystem(const Domain& domain) {
  const int nx = domain.nx(), ny = domain.ny();
  FivePointSystem system = FivePointSystem::fromMask(nx, ny, domain.wetMask(), 1.0f);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float depth = 1.0f + 0.5f * float(std::sin(6.0 * i / nx) * std::cos(4.0 * j / ny));
      system.faceX(i, j) *= kHelmholtzWeight * depth;
      system.faceY(i, j) *= kHelmholtzWeight * depth;
    }
  return system;
}

// A Gaussian bump plus deterministic noise on the wet cells.
inline std::vector<double> rightSide(const Domain& domain) {
  const int nx = domain.nx(), ny = domain.ny();
  std::vector<double> b(std::size_t(nx) * ny, 0.0);
  unsigned state = 12345u;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!domain.isWet(i, j)) continue;
      state = state * 1664525u + 1013904223u;
      const double noise = double(state >> 8) / double(1u << 24) - 0.5;
      const double x = (i + 0.5) / nx - 0.2, y = (j + 0.5) / ny - 0.7;
      b[std::size_t(j) * nx + i] = std::exp(-50.0 * (x * x + y * y)) + 0.1 * noise;
    }
  return b;
}

// ||b - A x|| / ||b|| from the system's fields, with b projected to zero mean when singular.
inline double trueRelativeResidual(const FivePointSystem& s, std::vector<double> b,
                                   const std::vector<double>& x, bool removeMean) {
  const int nx = s.shift.nx(), ny = s.shift.ny();
  if (removeMean) {
    double sum = 0.0, count = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k)
      if (s.wet[k]) sum += b[k], count += 1.0;
    for (std::size_t k = 0; k < b.size(); ++k)
      if (s.wet[k]) b[k] -= sum / count;
  }
  double rr = 0.0, bb = 0.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = std::size_t(j) * nx + i;
      if (!s.wet[k]) continue;
      double ax = s.shift(i, j) * x[k];
      if (i + 1 < nx) ax += s.faceX(i, j) * (x[k] - x[k + 1]);
      if (i > 0) ax += s.faceX(i - 1, j) * (x[k] - x[k - 1]);
      if (j + 1 < ny) ax += s.faceY(i, j) * (x[k] - x[k + nx]);
      if (j > 0) ax += s.faceY(i, j - 1) * (x[k] - x[k - nx]);
      rr += (b[k] - ax) * (b[k] - ax);
      bb += b[k] * b[k];
    }
  return std::sqrt(rr / bb);
}

// out = A in in float from the system's coefficients, 0 on solid cells (the operator a model's
// fused kernel computes, for the plain CG); returns in . out.
inline double applyFivePoint(const FivePointSystem& s, const Field2D& in, Field2D& out) {
  const int nx = in.nx(), ny = in.ny();
  double dot = 0.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!s.wet[in.index(i, j)]) {
        out(i, j) = 0.0f;
        continue;
      }
      const float c = in(i, j);
      float sum = s.shift(i, j) * c;
      if (i + 1 < nx) sum += s.faceX(i, j) * (c - in(i + 1, j));
      if (i > 0) sum += s.faceX(i - 1, j) * (c - in(i - 1, j));
      if (j + 1 < ny) sum += s.faceY(i, j) * (c - in(i, j + 1));
      if (j > 0) sum += s.faceY(i, j - 1) * (c - in(i, j - 1));
      out(i, j) = sum;
      dot += double(c) * sum;
    }
  return dot;
}

inline Field2D toField(int nx, int ny, const std::vector<double>& values) {
  Field2D field(nx, ny);
  for (std::size_t k = 0; k < values.size(); ++k)
    field.data()[k] = float(values[k]);
  return field;
}

inline Field2D toField(int n, const std::vector<double>& values) {
  return toField(n, n, values);
}

inline std::vector<double> toDoubles(const Field2D& field) {
  return std::vector<double>(field.data(), field.data() + field.size());
}

}  // namespace wb
