// The travelling window (scenario "ocean.window", docs/scenario.md#window): the grid is a window
// on the open sea that follows a towed boat. The grid's point (x, y) lies at (x, y) + origin on
// the open sea, where excitations and bodies were placed; the origin is a whole number of cells,
// the same for every model.
//
// The Comparison moves the window when it plans a tick (follow: the boats' states after the
// tick are known then), and each model's water catches up with the tick's origin when the model
// starts stepping through it (carry): every model sees the window move at the same tick starts,
// whether the models run one after another or at once.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "core/forcing/excitations.hpp"
#include "core/grid/domain.hpp"

namespace wb {

class FloatingBodies;
class Model;
class RigidBodies;

// A window's origin on the open sea (cells); (0, 0) without a window.
struct WindowOrigin {
  int i = 0, j = 0;
  // The grid's coordinates of the open sea's point (x, y) (m), with cells of dx.
  double gridX(double x, double dx) const { return x - i * dx; }
  double gridY(double y, double dx) const { return y - j * dx; }
};

// What travels with one model's window: its state, its tracers and its buoyant bodies.
struct WindowedWater {
  Model& model;
  FloatingBodies& tracers;
  RigidBodies& bodies;
};

class TravellingWindow {
 public:
  // Starts centred on the boat (an index of Excitations::boats()), in whole cells.
  TravellingWindow(const Grid& grid, std::size_t boat, const BoatState& start);

  std::size_t boat() const { return boat_; }
  // The origin after the last tick planned.
  WindowOrigin origin() const { return origin_; }
  std::array<double, 2> originMetres() const {
    return {origin_.i * grid_.dx, origin_.j * grid_.dx};
  }
  // Follows the boat after a tick (boats: Excitations::boats() then); returns the new origin.
  WindowOrigin follow(const std::vector<BoatState>& boats);

  // Brings one model's water from the origin `at` to `to` (at becomes to) and returns the volume
  // that entered with it (m^3; < 0: left), which the model's budget takes.
  double carry(WindowedWater water, const Domain& domain, WindowOrigin& at, WindowOrigin to) const;
  // An event placed on the open sea, on the grid of a window at `at`.
  static SurfaceEvent place(SurfaceEvent event, WindowOrigin at, double dx);

 private:
  void follow(const BoatState& boat);

  Grid grid_;
  std::size_t boat_;
  WindowOrigin origin_;
};

}  // namespace wb
