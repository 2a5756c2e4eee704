#include "core/grid/field2d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace wb {

Field2D::Field2D(int nx, int ny, float value) : nx_(nx), ny_(ny) {
  if (nx < 0 || ny < 0) throw std::invalid_argument("Field2D: negative size");
  data_.assign(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), value);
}

void Field2D::fill(float value) {
  std::fill(data_.begin(), data_.end(), value);
}

void Field2D::shift(int di, int dj, float fill) {
  if (di == 0 && dj == 0) return;
  Field2D moved(nx_, ny_);
  moved.fill(fill);
  const int iFrom = std::max(0, -di), iTo = std::min(nx_, nx_ - di);
  for (int j = std::max(0, -dj); j < std::min(ny_, ny_ - dj); ++j)
    if (iFrom < iTo)
      std::copy(row(j + dj) + iFrom + di, row(j + dj) + iTo + di, moved.row(j) + iFrom);
  *this = std::move(moved);
}

double Field2D::sum() const {
  double total = 0.0;
  for (float v : data_)
    total += v;
  return total;
}

float Field2D::maxAbs() const {
  const float* v = data_.data();
  float m = 0.0f;
#pragma omp simd reduction(max : m)
  for (std::size_t k = 0; k < data_.size(); ++k)
    m = std::max(m, std::fabs(v[k]));
  return m;
}

bool Field2D::allFinite() const {
  const float* v = data_.data();
  int nonFinite = 0;
#pragma omp simd reduction(+ : nonFinite)
  for (std::size_t k = 0; k < data_.size(); ++k)
    nonFinite += !(std::fabs(v[k]) <= std::numeric_limits<float>::max());  // NaN fails too
  return nonFinite == 0;
}

}  // namespace wb
