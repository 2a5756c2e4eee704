#include "core/study/eoc.hpp"

#include <algorithm>
#include <cmath>

namespace wb {

EocTable convergenceOrders(std::vector<GridError> points) {
  EocTable table;
  // A zero or non-finite error has no logarithm: an exact run, or one that blew up.
  std::erase_if(points,
                [](const GridError& p) { return !(p.error > 0.0 && std::isfinite(p.error)); });
  std::sort(points.begin(), points.end(),
            [](const GridError& a, const GridError& b) { return a.grid < b.grid; });
  table.points = points;
  for (std::size_t k = 0; k < points.size(); ++k)
    table.eoc.push_back(k == 0
                            ? std::nullopt
                            : std::optional(std::log(points[k - 1].error / points[k].error) /
                                            std::log(double(points[k].grid) / points[k - 1].grid)));
  if (points.size() < 2) return table;
  double mx = 0.0, my = 0.0;
  for (const auto& p : points)
    mx += std::log(double(p.grid)), my += std::log(p.error);
  mx /= double(points.size()), my /= double(points.size());
  double sxy = 0.0, sxx = 0.0;
  for (const auto& p : points) {
    const double x = std::log(double(p.grid)) - mx;
    sxy += x * (std::log(p.error) - my), sxx += x * x;
  }
  table.fit = -sxy / sxx;
  return table;
}

}  // namespace wb
