// Experimental orders of convergence of one group of runs (one model and one value of every
// other axis) over its grids (docs/studies.md, eoc.csv):
//   eoc_k = log(e_{k-1} / e_k) / log(n_k / n_{k-1})
// between successive grids n_{k-1} < n_k, and the least-squares slope of log e over log n of
// all of them (negated, so that both read as an order).
#pragma once

#include <optional>
#include <vector>

namespace wb {

struct GridError {
  int grid = 0;  // cells along the longer side
  double error = 0.0;
};

struct EocTable {
  std::vector<GridError> points;           // ascending grid; non-finite and zero errors left out
  std::vector<std::optional<double>> eoc;  // one per point; none for the first
  std::optional<double> fit;               // with at least two points
};

EocTable convergenceOrders(std::vector<GridError> points);

}  // namespace wb
