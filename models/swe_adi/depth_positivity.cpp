#include "models/swe_adi/depth_positivity.hpp"

#include <algorithm>

namespace wb {

void DepthPositivity::reset(std::size_t cells) {
  reached_.clear();
  reached_.reserve(cells);
  parent_.clear();
  parent_.reserve(cells);
  rateChange_.clear();
  rateChange_.reserve(cells);
  visited_.assign(cells, 0);
  visitStamp_ = 0;
}

// A cell the step left below its ground (the frozen-depth step drew more than it held) is
// lifted to its ground and the deficit taken back from the wet cells joined to it, nearest
// first, in proportion to their depth: a correction of the step's face fluxes that moves
// water but does not create any.
double DepthPositivity::restore(Field2D& h, Field2D& rate, const Faces& faces,
                                const Field2D& ground, const SweWalls& walls,
                                const std::vector<RowCounts>& rows, double dt) {
  double deficits = 0.0;
  ranShort_ = false;
  for (int j = 0; j < h.ny(); ++j) {
    if (rows[std::size_t(j)].drained == 0) continue;
    for (int i = 0; i < h.nx(); ++i) {
      const std::size_t k = h.index(i, j);
      if (walls.wetWeights()[k] != 0.0f && h.data()[k] < ground.data()[k]) {
        deficits += refill(k, h, rate, ground, walls, dt);
        carryThroughFaces(faces);
      }
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
  parent_.clear();
  reached_.push_back(k);
  parent_.push_back(0);
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
      parent_.push_back(std::uint32_t(next));
      available += std::max(double(h[n]) - b[n], 0.0);
    }
  }
  // Each reached cell gives deficit * its depth / available (all of it when short).
  const double share = available > 0.0 ? std::min(deficit / available, 1.0) : 0.0;
  const double given = share * available;
  const double rateOfCell = double(rate[k]) + 2.0 * deficit / dt;
  rateChange_.assign(reached_.size(), 0.0);
  for (std::size_t r = 1; r < reached_.size(); ++r) {
    const std::size_t n = reached_[r];
    const double take = share * std::max(double(h[n]) - b[n], 0.0);
    h[n] = float(double(h[n]) - take);
    const double handed = given > 0.0 ? rateOfCell * take / given : 0.0;
    const float before = rate[n];
    rate[n] = float(double(rate[n]) - 2.0 * take / dt + handed);
    rateChange_[r] = double(rate[n]) - before;
  }
  rateChange_[0] = -double(rate[k]);
  rate[k] = 0.0f;
  ranShort_ = ranShort_ || given < deficit;
  return deficit;
}

// The rates' changes of the last refill as discharges, hdot = -div(q): each reached cell's
// change, with those of the cells reached from it, flows from the cell it was reached from
// across the face between them (dx hdot per unit length), the tree of the breadth-first search
// from the farthest cells in. The changes sum to 0 unless the refill ran short, so the cell
// lifted receives what its donors give. The face velocities follow their discharges.
void DepthPositivity::carryThroughFaces(const Faces& faces) {
  float *qx = faces.qx.data(), *qy = faces.qy.data();
  float *u = faces.u.data(), *v = faces.v.data();
  for (std::size_t r = reached_.size() - 1; r >= 1; --r) {
    const double inflow = rateChange_[r] * faces.dx;  // from the parent into cell r
    rateChange_[parent_[r]] += rateChange_[r];
    if (inflow == 0.0) continue;
    const std::size_t n = reached_[r], p = reached_[parent_[r]];
    // The face's discharge runs east or north: into n where n lies east or north of p.
    const bool alongX = n == p + 1 || n + 1 == p, intoN = n > p;
    const std::size_t face = std::min(n, p);
    float* q = alongX ? qx : qy;
    q[face] = float(q[face] + (intoN ? inflow : -inflow));
    float* velocity = alongX ? u : v;
    velocity[face] = faceVelocity(q[face], (alongX ? faces.depthX : faces.depthY).data()[face]);
  }
}

}  // namespace wb
