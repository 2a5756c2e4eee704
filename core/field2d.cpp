#include "core/field2d.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

Field2D::Field2D(int nx, int ny, float value) : nx_(nx), ny_(ny) {
  if (nx < 0 || ny < 0) throw std::invalid_argument("Field2D: negative size");
  data_.assign(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), value);
}

void Field2D::fill(float value) { std::fill(data_.begin(), data_.end(), value); }

double Field2D::sum() const {
  double total = 0.0;
  for (float v : data_) total += v;
  return total;
}

float Field2D::maxAbs() const {
  float m = 0.0f;
  for (float v : data_) m = std::max(m, std::fabs(v));
  return m;
}

bool Field2D::allFinite() const {
  return std::all_of(data_.begin(), data_.end(), [](float v) { return std::isfinite(v); });
}

}  // namespace wb
