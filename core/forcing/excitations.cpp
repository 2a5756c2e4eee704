#include "core/forcing/excitations.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

namespace wb {

double stampGaussian(Field2D& delta, const Domain& domain, const SurfaceEvent& event) {
  const Grid& grid = domain.grid();
  // Beyond 4 radii the Gaussian is below 1e-7 of its peak: not worth touching.
  const double reach = 4.0 * event.radius;
  // Clamped as doubles: a huge radius must not overflow the conversion to int.
  auto cell = [](double index, int n) { return int(std::clamp(index, -1.0, double(n))); };
  const int i0 = std::max(0, cell(std::floor((event.x - reach) / grid.dx), grid.nx));
  const int i1 = std::min(grid.nx - 1, cell(std::ceil((event.x + reach) / grid.dx), grid.nx));
  const int j0 = std::max(0, cell(std::floor((event.y - reach) / grid.dx), grid.ny));
  const int j1 = std::min(grid.ny - 1, cell(std::ceil((event.y + reach) / grid.dx), grid.ny));
  const double inverseRadius2 = 1.0 / (event.radius * event.radius);
  double added = 0.0;
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      if (!domain.isWet(i, j)) continue;
      const double rx = grid.x(i) - event.x, ry = grid.y(j) - event.y;
      const float value = float(event.amplitude * std::exp(-(rx * rx + ry * ry) * inverseRadius2));
      delta(i, j) += value;
      added += value;
    }
  return added * grid.cellArea();
}

Excitations::Excitations(const ExcitationSpecs& specs, const Domain& domain, std::uint64_t seed)
    : specs_(specs), domain_(&domain), random_(seed) {
  // Rain with a fixed count (the paper's 128 drops) is drawn up front from the seed.
  for (const auto& rain : specs_.rain) {
    if (rain.count <= 0) continue;
    std::uniform_real_distribution<double> when(rain.start, rain.end);
    for (int k = 0; k < rain.count; ++k) {
      SurfaceEvent drop{when(random_), 0, 0, rain.radius, rain.amplitude, EventSource::Rain};
      if (randomWetPoint(drop.x, drop.y)) rainDrops_.push_back(drop);
    }
  }
  for (const auto& boat : specs_.boats) {
    BoatState state;
    state.x = boat.startX;
    state.y = boat.startY;
    boatStates_.push_back(state);
    boatTimes_.push_back(0.0);
    boatSteered_.push_back(0);
  }
}

std::vector<SurfaceEvent> Excitations::advance(double t0, double t1) {
  std::vector<SurfaceEvent> out;
  for (const auto* drops : {&specs_.drops, &rainDrops_})
    for (const auto& drop : *drops)
      if (drop.time >= t0 && drop.time < t1) out.push_back(drop);
  addRain(t0, t1, out);
  for (std::size_t b = 0; b < boatStates_.size(); ++b)
    advanceBoat(b, t1, out);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.time < b.time; });
  return out;
}

void recordDrop(ExcitationSpecs& specs, double time, SurfaceEvent drop) {
  drop.time = time;
  specs.drops.push_back(drop);
}

void recordStir(ExcitationSpecs& specs, double time, StirImpulse stir) {
  stir.start = time;
  specs.stirs.push_back(stir);
}

void recordBody(ExcitationSpecs& specs, double time, const BodySpec& body) {
  auto& bodies = specs.bodies;
  const auto after = std::upper_bound(bodies.begin(), bodies.end(), time,
                                      [](double t, const TimedBody& b) { return t < b.time; });
  bodies.insert(after, TimedBody{time, body});
}

std::vector<BodySpec> Excitations::bodiesEntering(double t0, double t1) const {
  std::vector<BodySpec> entering;
  for (const TimedBody& body : specs_.bodies)
    if (body.time >= t0 && body.time < t1) entering.push_back(body.spec);
  return entering;
}

void recordStroke(ExcitationSpecs& specs, double time, MaskStroke stroke) {
  stroke.time = time;
  auto& strokes = specs.strokes;
  const auto after = std::upper_bound(strokes.begin(), strokes.end(), time,
                                      [](double t, const MaskStroke& s) { return t < s.time; });
  strokes.insert(after, std::move(stroke));
}

void recordMaskDab(ExcitationSpecs& specs, double time, bool solid, const MaskDab& dab) {
  auto& strokes = specs.strokes;
  if (!strokes.empty() && strokes.back().time == time && strokes.back().solid == solid) {
    strokes.back().dabs.push_back(dab);
    return;
  }
  recordStroke(specs, time, MaskStroke{time, solid, {dab}});
}

std::vector<MaskStroke> Excitations::strokesIn(double t0, double t1) const {
  std::vector<MaskStroke> strokes;
  for (const MaskStroke& stroke : specs_.strokes)
    if (stroke.time >= t0 && stroke.time < t1) strokes.push_back(stroke);
  return strokes;
}

// In cell units, so that a dab of r cells centred on a cell centre covers exactly the cells
// (i, j) with (i - ci)^2 + (j - cj)^2 <= r^2, as the domain editor's brush does; the tolerance
// absorbs the round-off of metres and back.
std::vector<std::uint32_t> strokeCells(const MaskStroke& stroke, const Grid& grid) {
  std::vector<std::uint8_t> covered(std::size_t(grid.nx) * std::size_t(grid.ny), 0);
  for (const MaskDab& dab : stroke.dabs) {
    const double cx = dab.x / grid.dx - 0.5, cy = dab.y / grid.dx - 0.5, r = dab.radius / grid.dx;
    const double reach = r * r + 1e-6;
    const auto cell = [&](int i, int j) {
      covered[std::size_t(j) * std::size_t(grid.nx) + std::size_t(i)] = 1;
    };
    cell(std::clamp(int(std::floor(dab.x / grid.dx)), 0, grid.nx - 1),
         std::clamp(int(std::floor(dab.y / grid.dx)), 0, grid.ny - 1));
    for (int j = std::max(0, int(std::floor(cy - r)));
         j <= std::min(grid.ny - 1, int(std::ceil(cy + r))); ++j)
      for (int i = std::max(0, int(std::floor(cx - r)));
           i <= std::min(grid.nx - 1, int(std::ceil(cx + r))); ++i)
        if ((i - cx) * (i - cx) + (j - cy) * (j - cy) <= reach) cell(i, j);
  }
  std::vector<std::uint32_t> cells;
  for (std::size_t k = 0; k < covered.size(); ++k)
    if (covered[k]) cells.push_back(std::uint32_t(k));
  return cells;
}

void recordBoatSteer(ExcitationSpecs& specs, double time, std::size_t boat, double x, double y) {
  if (boat >= specs.boats.size()) return;
  auto& steering = specs.boats[boat].steering;
  if (!steering.empty() && steering.back().time == time) steering.pop_back();
  steering.push_back({time, x, y});
}

namespace {
// Stops at `time` every entry acting then; entries left without any time to act are dropped.
// Rain with a count is drawn up front from the whole interval: it is never cut.
template <class Spec>
void stopAt(std::vector<Spec>& specs, double time) {
  auto switchable = [](const Spec& spec) {
    if constexpr (std::is_same_v<Spec, RainSpec>) return spec.count == 0;
    return true;
  };
  for (auto& spec : specs)
    if (switchable(spec) && spec.start <= time && time < spec.end) spec.end = time;
  std::erase_if(specs,
                [&](const Spec& spec) { return switchable(spec) && spec.end <= spec.start; });
}
}  // namespace

void recordRain(ExcitationSpecs& specs, double time, std::optional<RainSpec> rain) {
  stopAt(specs.rain, time);
  if (!rain) return;
  rain->start = time;
  rain->end = 1e300;
  specs.rain.push_back(*rain);
}

void recordWind(ExcitationSpecs& specs, double time, std::optional<WindSpec> wind) {
  stopAt(specs.wind, time);
  if (!wind) return;
  wind->start = time;
  wind->end = 1e300;
  specs.wind.push_back(*wind);
}

bool Excitations::randomWetPoint(double& x, double& y) {
  const Grid& grid = domain_->grid();
  std::uniform_real_distribution<double> ux(0.0, grid.width()), uy(0.0, grid.height());
  for (int attempt = 0; attempt < 64; ++attempt) {
    x = ux(random_);
    y = uy(random_);
    const int i = std::min(grid.nx - 1, int(x / grid.dx));
    const int j = std::min(grid.ny - 1, int(y / grid.dx));
    if (domain_->isWet(i, j)) return true;
  }
  return false;
}

// Rain is a Poisson process in time with drops uniform over the wet cells.
void Excitations::addRain(double t0, double t1, std::vector<SurfaceEvent>& out) {
  for (const auto& rain : specs_.rain) {
    const double from = std::max(t0, rain.start), to = std::min(t1, rain.end);
    if (rain.count > 0) continue;  // scheduled once, in the constructor
    if (to <= from || rain.rate <= 0) continue;
    std::poisson_distribution<int> count(rain.rate * (to - from));
    std::uniform_real_distribution<double> when(from, to);
    const int n = count(random_);
    for (int k = 0; k < n; ++k) {
      SurfaceEvent drop{when(random_), 0, 0, rain.radius, rain.amplitude, EventSource::Rain};
      if (randomWetPoint(drop.x, drop.y)) out.push_back(drop);
    }
  }
}

void Excitations::advanceBoat(std::size_t index, double until, std::vector<SurfaceEvent>& out) {
  const BoatSpec& spec = specs_.boats[index];
  BoatState& boat = boatStates_[index];
  double& time = boatTimes_[index];
  // Steering recorded before the end of this interval takes over from here (the GUI steers
  // between frames, so its entries carry the time of the frame they precede).
  std::size_t& steered = boatSteered_[index];
  while (steered < spec.steering.size() && spec.steering[steered].time < until) {
    boat.waypoint = 0;
    ++steered;
  }
  std::vector<std::pair<double, double>> steeredTo;
  if (steered > 0) steeredTo = {{spec.steering[steered - 1].x, spec.steering[steered - 1].y}};
  const auto& waypoints = steered > 0 ? steeredTo : spec.waypoints;
  while (time + spec.step <= until + 1e-12) {
    if (waypoints.empty()) {
      time += spec.step;
      continue;
    }
    auto [tx, ty] = waypoints[boat.waypoint % waypoints.size()];
    double dx = tx - boat.x, dy = ty - boat.y;
    double distance = std::hypot(dx, dy);
    if (distance < spec.arriveRadius && waypoints.size() > 1) {
      boat.waypoint = (boat.waypoint + 1) % waypoints.size();
      std::tie(tx, ty) = waypoints[boat.waypoint];
      dx = tx - boat.x, dy = ty - boat.y;
      distance = std::hypot(dx, dy);
    }
    const double oldX = boat.x, oldY = boat.y, oldVx = boat.vx, oldVy = boat.vy;
    // Eq. 7: a = (x_m - x_b, y_m - y_b) / |x_m - x_b|, scaled by the boat's acceleration.
    if (distance > 1e-9) {
      boat.vx += spec.acceleration * dx / distance * spec.step;
      boat.vy += spec.acceleration * dy / distance * spec.step;
    }
    const double speed = std::hypot(boat.vx, boat.vy);
    if (speed > spec.maxSpeed) boat.vx *= spec.maxSpeed / speed, boat.vy *= spec.maxSpeed / speed;
    boat.x += boat.vx * spec.step;
    boat.y += boat.vy * spec.step;
    // Eq. 8: d theta = arccos(v^t/|v^t| . v^{t+dt}/|v^{t+dt}|), signed by the turn direction.
    const double oldSpeed = std::hypot(oldVx, oldVy), newSpeed = std::hypot(boat.vx, boat.vy);
    double turn = 0.0;
    if (oldSpeed > 1e-9 && newSpeed > 1e-9) {
      const double cosine = (oldVx * boat.vx + oldVy * boat.vy) / (oldSpeed * newSpeed);
      turn = std::acos(std::clamp(cosine, -1.0, 1.0));
      if (oldVx * boat.vy - oldVy * boat.vx < 0) turn = -turn;
    } else if (newSpeed > 1e-9) {
      boat.heading = std::atan2(boat.vy, boat.vx);
    }
    // Eq. 9: theta^{t+dt} = theta^t + d theta, phi = kappa d theta.
    boat.heading += turn;
    boat.tilt = spec.tiltGain * turn;
    time += spec.step;
    // The wake: a negative height increment at the previous position.
    out.push_back({time, oldX, oldY, spec.wakeRadius, spec.wakeAmplitude, EventSource::Wake});
  }
}

std::vector<int> Excitations::forcingAt(double t) const {
  std::vector<int> acting;
  const int winds = int(specs_.wind.size());
  for (int k = 0; k < winds; ++k)
    if (t >= specs_.wind[k].start && t < specs_.wind[k].end) acting.push_back(k);
  for (int k = 0; k < int(specs_.stirs.size()); ++k) {
    const StirImpulse& stir = specs_.stirs[std::size_t(k)];
    if (t >= stir.start && t < stir.start + stir.duration) acting.push_back(winds + k);
  }
  return acting;
}

std::optional<ForceField> Excitations::windAt(double t) const {
  const Grid& grid = domain_->grid();
  std::optional<ForceField> force;
  for (const auto& wind : specs_.wind) {
    if (t < wind.start || t >= wind.end) continue;
    if (!force) force = ForceField{Field2D(grid.nx, grid.ny), Field2D(grid.nx, grid.ny)};
    const double angle = wind.direction * std::numbers::pi / 180.0;
    const float ax = float(wind.strength * std::cos(angle));
    const float ay = float(wind.strength * std::sin(angle));
    for (int j = 0; j < grid.ny; ++j)
      for (int i = 0; i < grid.nx; ++i) {
        if (!domain_->isWet(i, j)) continue;
        if (wind.hasRegion && (grid.x(i) < wind.x0 || grid.x(i) > wind.x1 || grid.y(j) < wind.y0 ||
                               grid.y(j) > wind.y1))
          continue;
        force->ax(i, j) += ax;
        force->ay(i, j) += ay;
      }
  }
  for (const auto& stir : specs_.stirs) {
    if (t < stir.start || t >= stir.start + stir.duration) continue;
    if (!force) force = ForceField{Field2D(grid.nx, grid.ny), Field2D(grid.nx, grid.ny)};
    SurfaceEvent shape{t, stir.x, stir.y, stir.radius, 1.0, EventSource::User};
    Field2D weight(grid.nx, grid.ny);
    stampGaussian(weight, *domain_, shape);
    for (std::size_t k = 0; k < weight.size(); ++k) {
      force->ax.data()[k] += float(stir.ax) * weight.data()[k];
      force->ay.data()[k] += float(stir.ay) * weight.data()[k];
    }
  }
  return force;
}

}  // namespace wb
