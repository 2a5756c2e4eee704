// core/solvers/tridiagonal.hpp alone: the banded Thomas solves of
//   (1 + c_{i-1} + c_i) x_i - c_{i-1} x_{i-1} - c_i x_{i+1} = s_i,   c_i = scale w_i,
// along rows and along columns, against a direct solution of the same systems in double
// precision (Gaussian elimination on the dense matrix, with partial pivoting).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/solvers/tridiagonal.hpp"

namespace wb {
namespace {

// The solution of the system above on one line of n unknowns (couplings c[0..n-1), the last
// one the closed end), by dense Gaussian elimination.
std::vector<double> directSolve(const std::vector<double>& c, const std::vector<double>& s) {
  const std::size_t n = s.size();
  std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    const double west = i > 0 ? c[i - 1] : 0.0, east = i + 1 < n ? c[i] : 0.0;
    a[i][i] = 1.0 + west + east;
    if (i > 0) a[i][i - 1] = -west;
    if (i + 1 < n) a[i][i + 1] = -east;
    a[i][n] = s[i];
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t pivot = k;
    for (std::size_t r = k + 1; r < n; ++r)
      if (std::fabs(a[r][k]) > std::fabs(a[pivot][k])) pivot = r;
    std::swap(a[k], a[pivot]);
    for (std::size_t r = k + 1; r < n; ++r) {
      const double f = a[r][k] / a[k][k];
      for (std::size_t col = k; col <= n; ++col)
        a[r][col] -= f * a[k][col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t k = n; k-- > 0;) {
    double sum = a[k][n];
    for (std::size_t col = k + 1; col < n; ++col)
      sum -= a[k][col] * x[col];
    x[k] = sum / a[k][k];
  }
  return x;
}

// Weights from 0.5 to 5.5 (couplings up to 55 with scale 10), the last of each line 0.
float weightAt(int i, int r, int n) {
  return i + 1 < n ? 0.5f + 0.5f * float((i * 7 + r * 3) % 11) : 0.0f;
}
float sourceAt(int i, int r) {
  return std::sin(0.3f * float(i) + 0.7f * float(r)) + 0.1f * float(r);
}

// A band of rows: each row's solution agrees with the direct one to float round-off (the
// systems are diagonally dominant: relative error ~1e-6). A full band of 16 rows goes through
// the staging fused into the recurrences, a partial one through separate passes; each row's
// arithmetic is the same, so the 15 rows they share come out bit for bit equal.
TEST(Tridiagonal, RowBandMatchesTheDirectSolutionAndFullAndPartialBandsAgree) {
  constexpr int nx = 24, rows = kRowBand;
  const float scale = 10.0f;
  std::vector<float> weight(std::size_t(rows) * nx), source(weight.size());
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < nx; ++i) {
      weight[std::size_t(r) * nx + i] = weightAt(i, r, nx);
      source[std::size_t(r) * nx + i] = sourceAt(i, r);
    }
  const auto solve = [&](int bandRows) {
    std::vector<float> bandC(std::size_t(nx) * kRowBand), bandP(bandC.size()), stage(bandC.size()),
        out(weight.size(), -1.0f);
    factorRowBands(weight.data(), scale, nx, nx, bandRows, bandC.data(), bandP.data());
    solveRowBandStaged(source.data(), out.data(), bandC.data(), bandP.data(), stage.data(), nx, nx,
                       bandRows);
    return out;
  };
  const std::vector<float> full = solve(rows), partial = solve(rows - 1);
  for (int r = 0; r < rows; ++r) {
    std::vector<double> c(nx), s(nx);
    for (int i = 0; i < nx; ++i) {
      c[i] = double(scale * weight[std::size_t(r) * nx + i]);
      s[i] = source[std::size_t(r) * nx + i];
    }
    const std::vector<double> exact = directSolve(c, s);
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = std::size_t(r) * nx + i;
      ASSERT_NEAR(full[k], exact[i], 1e-5 * (1.0 + std::fabs(exact[i]))) << r << ", " << i;
      if (r < rows - 1) {
        ASSERT_EQ(full[k], partial[k]) << r << ", " << i;
      }
    }
  }
}

// Columns of a field, solved band by band with the factors computed on the way and then read
// back (the second solve, in place), each agreeing with the direct solution; the sum
// accumulates the solution and measure reports max |x| and max |sum|.
TEST(Tridiagonal, ColumnsMatchTheDirectSolutionWithFactorsComputedOrRead) {
  constexpr int nx = 70, ny = 33;  // four column bands, the last wider
  const float scale = 10.0f;
  std::vector<float> weight(std::size_t(nx) * ny), source(weight.size());
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      weight[std::size_t(j) * nx + i] = weightAt(j, i, ny);
      source[std::size_t(j) * nx + i] = sourceAt(j, i);
    }
  std::vector<float> pivots(weight.size()), out(weight.size()), inPlace = source,
                                                                sum(weight.size(), 0.0f);
  float maxX = 0.0f, maxSum = 0.0f;
  for (int band = 0; band < columnBands(nx); ++band) {
    const auto [i0, i1] = columnBand(band, nx);
    solveColumns(source.data(), out.data(), weight.data(), scale, pivots.data(), nullptr,
                 std::size_t(nx), ny, i0, i1, true, false);
    const ColumnResult r =
        solveColumns(inPlace.data(), inPlace.data(), weight.data(), scale, pivots.data(),
                     sum.data(), std::size_t(nx), ny, i0, i1, false, true);
    maxX = std::max(maxX, r.maxCorrection);
    maxSum = std::max(maxSum, r.maxDelta);
  }
  float largest = 0.0f;
  for (int i = 0; i < nx; ++i) {
    std::vector<double> c(ny), s(ny);
    for (int j = 0; j < ny; ++j) {
      c[j] = double(scale * weight[std::size_t(j) * nx + i]);
      s[j] = source[std::size_t(j) * nx + i];
    }
    const std::vector<double> exact = directSolve(c, s);
    for (int j = 0; j < ny; ++j) {
      const std::size_t k = std::size_t(j) * nx + i;
      ASSERT_NEAR(out[k], exact[j], 1e-5 * (1.0 + std::fabs(exact[j]))) << i << ", " << j;
      ASSERT_EQ(inPlace[k], out[k]) << i << ", " << j;
      ASSERT_EQ(sum[k], out[k]) << i << ", " << j;
      largest = std::max(largest, std::fabs(out[k]));
    }
  }
  EXPECT_EQ(maxX, largest);
  EXPECT_EQ(maxSum, largest);
}

}  // namespace
}  // namespace wb
