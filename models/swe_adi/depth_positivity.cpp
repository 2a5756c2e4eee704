#include "models/swe_adi/depth_positivity.hpp"

#include <algorithm>

namespace wb {

void DepthPositivity::reset(std::size_t cells) {
  reached_.clear();
  reached_.reserve(cells);
  visited_.assign(cells, 0);
  visitStamp_ = 0;
}

// A cell the step left below its ground (the frozen-depth step drew more than it held) is
// lifted to its ground and the deficit taken back from the wet cells joined to it, nearest
// first, in proportion to their depth: a correction of the step's face fluxes that moves
// water but does not create any.
double DepthPositivity::restore(Field2D& h, Field2D& rate, const Field2D& ground,
                                const SweWalls& walls, const std::vector<RowCounts>& rows,
                                double dt) {
  double deficits = 0.0;
  for (int j = 0; j < h.ny(); ++j) {
    if (rows[std::size_t(j)].drained == 0) continue;
    for (int i = 0; i < h.nx(); ++i) {
      const std::size_t k = h.index(i, j);
      if (walls.wetWeights()[k] != 0.0f && h.data()[k] < ground.data()[k])
        deficits += refill(k, h, rate, ground, walls, dt);
    }
  }
  return deficits;
}

// Lifts cell k to its ground, taking the water from the joined wet cells breadth first until
// they hold enough; returns the deficit (m). The rates follow the corrected surfaces: each
// donor's by -2 take / dt (the trapezoidal rate of its smaller change); the drained cell is
// left at rest on its ground and its rate handed to the donors in proportion to what they
// gave, so that sum(rate) stays 0 and no water appears later.
double DepthPositivity::refill(std::size_t k, Field2D& surface, Field2D& rates,
                               const Field2D& ground, const SweWalls& walls, double dt) {
  float* h = surface.data();
  float* rate = rates.data();
  const float* b = ground.data();
  const double deficit = double(b[k]) - h[k];
  h[k] = b[k];
  if (++visitStamp_ == 0) std::fill(visited_.begin(), visited_.end(), visitStamp_ = 1);
  reached_.clear();
  reached_.push_back(k);
  visited_[k] = visitStamp_;
  double available = 0.0;
  const std::size_t nx = std::size_t(surface.nx());
  for (std::size_t next = 0; next < reached_.size() && available < deficit; ++next) {
    const std::size_t c = reached_[next];
    const std::size_t neighbours[4] = {c + 1, c - 1, c + nx, c - nx};
    const bool open[4] = {walls.openEast()[c] != 0.0f, c > 0 && walls.openEast()[c - 1] != 0.0f,
                          walls.openNorth()[c] != 0.0f,
                          c >= nx && walls.openNorth()[c - nx] != 0.0f};
    for (int f = 0; f < 4; ++f) {
      const std::size_t n = neighbours[f];
      if (!open[f] || visited_[n] == visitStamp_) continue;
      visited_[n] = visitStamp_;
      reached_.push_back(n);
      available += std::max(double(h[n]) - b[n], 0.0);
    }
  }
  // Each reached cell gives deficit * its depth / available (all of it when short).
  const double share = available > 0.0 ? std::min(deficit / available, 1.0) : 0.0;
  const double given = share * available;
  const double rateOfCell = double(rate[k]) + 2.0 * deficit / dt;
  for (std::size_t r = 1; r < reached_.size(); ++r) {
    const std::size_t n = reached_[r];
    const double take = share * std::max(double(h[n]) - b[n], 0.0);
    h[n] = float(double(h[n]) - take);
    const double handed = given > 0.0 ? rateOfCell * take / given : 0.0;
    rate[n] = float(double(rate[n]) - 2.0 * take / dt + handed);
  }
  rate[k] = 0.0f;
  return deficit;
}

}  // namespace wb
