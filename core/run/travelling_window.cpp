#include "core/run/travelling_window.hpp"

#include <cmath>

#include "core/forcing/floating_bodies.hpp"
#include "core/forcing/rigid_bodies.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/model/model.hpp"

namespace wb {

TravellingWindow::TravellingWindow(const Grid& grid, std::size_t boat, const BoatState& start)
    : grid_(grid), boat_(boat) {
  follow(start);
}

WindowOrigin TravellingWindow::follow(const std::vector<BoatState>& boats) {
  follow(boats[boat_]);
  return origin_;
}

// The boat's offset from the window's centre, in cells; a whole cell of it or more moves the
// origin by its whole part, so the window jumps only as far as the boat has gone.
void TravellingWindow::follow(const BoatState& boat) {
  const double offsetI = boat.x / grid_.dx - (origin_.i + 0.5 * grid_.nx);
  const double offsetJ = boat.y / grid_.dx - (origin_.j + 0.5 * grid_.ny);
  if (std::fabs(offsetI) >= 1.0) origin_.i += int(std::trunc(offsetI));
  if (std::fabs(offsetJ) >= 1.0) origin_.j += int(std::trunc(offsetJ));
}

// The model's state moves (Model::shiftWindow) and the volume that changed is measured; tracers
// leaving re-enter on the far side (the sea is statistically the same everywhere); buoyant
// bodies move with the water under them.
double TravellingWindow::carry(WindowedWater water, const Domain& domain, WindowOrigin& at,
                               WindowOrigin to) const {
  const int di = to.i - at.i, dj = to.j - at.j;
  if (di == 0 && dj == 0) return 0.0;
  const double before = summarizeSurface(water.model.eta(), domain).volume;
  water.model.shiftWindow(di, dj);
  const double entered = summarizeSurface(water.model.eta(), domain).volume - before;
  const double dx = grid_.dx;
  water.tracers.translate(-di * dx, -dj * dx);
  water.bodies.translate(-di * dx, -dj * dx);
  at = to;
  return entered;
}

SurfaceEvent TravellingWindow::place(SurfaceEvent event, WindowOrigin at, double dx) {
  if (event.source == EventSource::Rain) return event;  // falls on the window, wherever it is
  event.x = at.gridX(event.x, dx);
  event.y = at.gridY(event.y, dx);
  return event;
}

}  // namespace wb
