#include "core/model/mask_change.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace wb {

namespace {

// Whether cell (i, j) lies in an open side's layer (core/grid/edges.hpp).
bool inLayer(const Domain& domain, int i, int j) {
  const Edges& edges = domain.edges();
  const int w = edges.layerCells;
  return (edges.isOpen(Side::West) && i < w) ||
         (edges.isOpen(Side::East) && i >= domain.nx() - w) ||
         (edges.isOpen(Side::South) && j < w) ||
         (edges.isOpen(Side::North) && j >= domain.ny() - w);
}

// Shifts the increment v = h^n - h^{n-1} of `cells`, whose sum is `rate`, to the sum `target`
// (h^{n-1} shifted uniformly). Each float addition rounds (~1e-7 of |v| per cell), and the
// roundings would leave a rate that the recurrence carries on as a steady volume trend; what is
// left after the uniform shift is put on one cell, where it is a few ulps of that cell's value.
void shiftRate(Field2D& increment, const std::vector<std::size_t>& cells, double rate,
               double target) {
  const float shift = float((rate - target) / double(cells.size()));
  double left = 0.0;
  for (const std::size_t k : cells) {
    increment.data()[k] -= shift;
    left += double(increment.data()[k]);
  }
  increment.data()[cells.front()] -= float(left - target);
}

}  // namespace

double heightRate(const Domain& domain, const Field2D& increment) {
  double rate = 0.0;
  for (std::size_t k = 0; k < increment.size(); ++k)
    if (domain.wetMask()[k]) rate += double(increment.data()[k]);
  return rate;
}

void balanceHeightRate(const Domain& domain, Field2D& increment, double openRate) {
  const int nx = domain.nx(), ny = domain.ny();
  const auto& wet = domain.wetMask();
  std::vector<std::uint8_t> seen(wet.size(), 0);
  std::vector<std::size_t> body, open;
  double rateOfOpen = 0.0;
  for (std::size_t start = 0; start < wet.size(); ++start) {
    if (!wet[start] || seen[start]) continue;
    body.assign(1, start);
    seen[start] = 1;
    double rate = 0.0;
    bool reachesLayer = false;
    for (std::size_t next = 0; next < body.size(); ++next) {
      const std::size_t k = body[next];
      rate += double(increment.data()[k]);
      const int i = int(k % std::size_t(nx)), j = int(k / std::size_t(nx));
      reachesLayer = reachesLayer || inLayer(domain, i, j);
      const auto visit = [&](int a, int b) {
        if (a < 0 || b < 0 || a >= nx || b >= ny) return;
        const std::size_t n = std::size_t(b) * std::size_t(nx) + std::size_t(a);
        if (wet[n] && !seen[n]) {
          seen[n] = 1;
          body.push_back(n);
        }
      };
      visit(i - 1, j), visit(i + 1, j), visit(i, j - 1), visit(i, j + 1);
    }
    if (reachesLayer) {
      open.insert(open.end(), body.begin(), body.end());
      rateOfOpen += rate;
      continue;
    }
    shiftRate(increment, body, rate, 0.0);
  }
  if (!open.empty()) shiftRate(increment, open, rateOfOpen, openRate);
}

double refillChangedCell(const Domain& domain, std::size_t k, Field2D& surface, Field2D& ground) {
  const bool wet = domain.wetMask()[k] != 0;
  ground.data()[k] = -domain.restDepth().data()[k];
  const float before = surface.data()[k];
  surface.data()[k] = wet ? std::max(0.0f, ground.data()[k]) : 0.0f;
  return wet ? double(surface.data()[k]) : -double(before);
}

}  // namespace wb
