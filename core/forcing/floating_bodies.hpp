// Floating boxes on the water of one model (Kim & Yoo Sect. 5: 200 boxes show the advection).
// The coupling is one-way (Layton Sect. 4): the water moves the boxes, never the reverse.
//
// Two rules, chosen by what the model offers:
// - Carried (the model has a velocity, Model::velocityU/V): Layton eqs. 26-27,
//     p^{n+1} = p^n + u^n(p^n) dt,
//   with u^n(p) bilinear between cell centres (Layton eq. 32, core/grid/interpolation.hpp).
// - Riding (no velocity, e.g. damped-wave): the box moves with the water velocity that the
//   surface implies in linear shallow water, u_t = -g grad(eta), relaxed by a linear drag so
//   that errors do not accumulate into a drift:
//     w^{n+1} = (w^n - g grad(eta)(p^n) dt) / (1 + drag dt),  p^{n+1} = p^n + w^{n+1} dt.
//   It oscillates with passing waves and slides down a standing slope at terminal speed
//   g |grad eta| / drag. grad(eta) is bilinear in the cells' central differences (equal to
//   the central difference of bilinear samples one cell apart); a solid neighbour takes the
//   cell's own value (mirror wall).
//   On the open sea (core/ocean/ocean_layer.hpp) the box rides the model's own surface and
//   the sea's orbital velocity u_sea is added to the move: p^{n+1} = p^n + (w^{n+1} + u_sea) dt.
// In both rules every box bobs: z = eta(p), bilinear.
//
// Walls: a box's centre never enters a solid cell or leaves the grid. A move that would is
// cut back per axis (first keep the x move, then the y move, else stay), and the velocity
// component into the wall is zeroed.
#pragma once

#include <cstdint>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/model/model.hpp"

namespace wb {

struct FloatingBody {
  double x = 0.0, y = 0.0;    // centre (m)
  double vx = 0.0, vy = 0.0;  // velocity of the last move (m/s)
  double z = 0.0;             // surface height under the centre (m)
  // The riding rule's water velocity w (m/s); the move adds a carrying velocity to it.
  double rideX = 0.0, rideY = 0.0;
};

class FloatingBodies {
 public:
  // Linear drag of the riding rule (1/s): a box sliding on a slope reaches its terminal speed
  // in about a second.
  static constexpr double kRideDrag = 1.0;

  FloatingBodies() = default;
  // `count` boxes of edge `size` (m), centres uniform over the wet cells, from `seed` (the same
  // seed places them identically for every model of a comparison).
  FloatingBodies(const Domain& domain, int count, double size, std::uint64_t seed);

  // One step of dt with the model's velocity if it has one, else the riding rule.
  void advance(double dt, const Model& model);
  // Layton eqs. 26-27 with the given cell-centred velocity; with `bobOn`, each box then takes
  // its height on that surface (in the same pass).
  void advect(double dt, const Field2D& u, const Field2D& v, const Field2D* bobOn = nullptr);
  // The riding rule on the surface eta (and the heights on `bobOn`); with `carryU` and
  // `carryV` (cell-centred, e.g. the open sea's orbital velocity) the box moves with
  // w + carry(p^n) while w keeps its own equation.
  void ride(double dt, const Field2D& eta, const Field2D* bobOn = nullptr,
            const Field2D* carryU = nullptr, const Field2D* carryV = nullptr);

  // Moves every box by (dx, dy) m; one that leaves the grid re-enters on the far side (the
  // travelling window: the open sea is the same everywhere). Only on a grid without walls.
  void translate(double dx, double dy);
  const std::vector<FloatingBody>& bodies() const { return bodies_; }
  std::size_t size() const { return bodies_.size(); }
  double boxSize() const { return boxSize_; }
  // Boxes whose centre is in a solid cell or outside the grid (0 by construction).
  int countInSolid() const;

 private:
  // floor(x / dx) as a cell index without std::floor (a library call on baseline x86-64);
  // far outside and NaN give -1, outside every grid.
  static int cellIndex(double x, double dx) {
    const double cells = x / dx;
    if (!(cells >= 0.0 && cells < 1e9)) return -1;
    return int(cells);
  }
  bool wetAt(double x, double y) const {
    const double dx = domain_->grid().dx;
    return domain_->isWetOrOutside(cellIndex(x, dx), cellIndex(y, dx));
  }
  void moveTo(FloatingBody& body, double x, double y);
  void updateSlopes(const Field2D& eta);

  const Domain* domain_ = nullptr;
  std::vector<FloatingBody> bodies_;
  double boxSize_ = 1.0;
  Field2D slopeX_, slopeY_;  // grad(eta) on the cells, the riding rule's (1)
};

}  // namespace wb
