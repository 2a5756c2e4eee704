// Excitations shared by every model of a comparison: drops, rain, a boat with its wake, and
// wind. The Comparison runner advances one Excitations object frame by frame; everything
// random comes from one seeded stream, so every model receives the same events at the same
// simulated times, and a run is reproducible from its scenario.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/model/model.hpp"

namespace wb {

enum class EventSource { Drop, Rain, Wake, User };

// A Gaussian displacement of the surface: amplitude * exp(-r^2 / radius^2) (m); a negative
// amplitude is a dent.
struct SurfaceEvent {
  double time = 0.0;  // s
  double x = 0.0, y = 0.0;
  double radius = 1.0;
  double amplitude = -0.1;
  EventSource source = EventSource::Drop;
};

struct RainSpec {
  double rate = 16.0;  // drops per second over the whole pool (a Poisson process)
  int count = 0;       // when > 0: exactly this many drops, uniform over [start, end)
  double radius = 1.0;
  double amplitude = -0.05;
  double start = 0.0;
  double end = 1e300;
};

// Nishidate & Nikishkov 2.3: a boat pulled towards a target with unit acceleration (eq. 7),
// its heading turned by d theta (eq. 8) and tilted by phi = tiltGain d theta (eq. 9); after
// each move a negative height increment (the wake) is applied at its previous position.
struct BoatSpec {
  std::vector<std::pair<double, double>> waypoints;  // visited in order, then looped
  double startX = 0.0, startY = 0.0;
  double acceleration = 1.0;     // m/s^2, scales the unit vector of eq. 7
  double maxSpeed = 2.0;         // m/s
  double wakeRadius = 1.0;       // m
  double wakeAmplitude = -0.01;  // m per boat step
  double tiltGain = 1.0;         // kappa of eq. 9
  double arriveRadius = 1.0;     // m, switch to the next waypoint inside it
  double step = 1.0 / 60.0;      // s, the boat's own fixed step
};

struct BoatState {
  double x = 0.0, y = 0.0;
  double vx = 0.0, vy = 0.0;
  double heading = 0.0;  // theta (rad)
  double tilt = 0.0;     // phi (rad)
  std::size_t waypoint = 0;
};

// Uniform wind, or wind over a rectangular region: a horizontal acceleration of the water.
struct WindSpec {
  double direction = 0.0;  // degrees, 0 = +x, 90 = +y
  double strength = 0.5;   // m/s^2
  bool hasRegion = false;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  double start = 0.0;
  double end = 1e300;
};

// An interactive stir (a drag in the GUI): a short Gaussian force impulse,
//   a(x) = (ax, ay) exp(-|x - (x, y)|^2 / radius^2)  (m/s^2)
// acting on the water from the next frame for `duration` seconds. Only models with a velocity
// feel it (Model::setForce), exactly as they feel the wind.
struct StirImpulse {
  double x = 0.0, y = 0.0;
  double radius = 0.5;
  double ax = 0.0, ay = 0.0;
  double duration = 0.1;  // s
  double start = 0.0;     // s, set when the stir is taken up by advance()
};

struct ExcitationSpecs {
  std::vector<SurfaceEvent> drops;  // scheduled drops
  std::vector<RainSpec> rain;
  std::vector<BoatSpec> boats;
  std::vector<WindSpec> wind;
};

// Adds amplitude * exp(-r^2/radius^2) to delta on the domain's wet cells; returns the
// volume added (m^3).
double stampGaussian(Field2D& delta, const Domain& domain, const SurfaceEvent& event);

class Excitations {
 public:
  Excitations(const ExcitationSpecs& specs, const Domain& domain, std::uint64_t seed);

  // Advances the boats and the random stream over [t0, t1) and returns every surface event
  // in that interval, sorted by time.
  std::vector<SurfaceEvent> advance(double t0, double t1);
  // Adds an interactive event (a click) at the next advance.
  void addUserEvent(const SurfaceEvent& event) { pending_.push_back(event); }
  // Adds an interactive stir that starts at the next advance.
  void addStir(const StirImpulse& stir) { pendingStirs_.push_back(stir); }
  // Sets the target of boat `index` (the boat follows the mouse in the GUI).
  void setBoatTarget(std::size_t index, double x, double y);

  const std::vector<BoatState>& boats() const { return boatStates_; }
  // The wind and stir acceleration at time t over the domain, or nullopt when none acts.
  std::optional<ForceField> windAt(double t) const;
  bool hasWind() const { return !specs_.wind.empty(); }
  void setWind(std::vector<WindSpec> wind) { specs_.wind = std::move(wind); }
  void setRain(std::vector<RainSpec> rain) { specs_.rain = std::move(rain); }
  const ExcitationSpecs& specs() const { return specs_; }

 private:
  void advanceBoat(std::size_t index, double until, std::vector<SurfaceEvent>& out);
  void addRain(double t0, double t1, std::vector<SurfaceEvent>& out);
  bool randomWetPoint(double& x, double& y);

  ExcitationSpecs specs_;
  const Domain* domain_;
  std::mt19937_64 random_;
  std::vector<BoatState> boatStates_;
  std::vector<double> boatTimes_;
  std::vector<SurfaceEvent> pending_;
  std::vector<StirImpulse> pendingStirs_, stirs_;
};

}  // namespace wb
