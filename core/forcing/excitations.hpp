// Excitations shared by every model of a comparison: drops, rain, a boat with its wake, wind
// and stirs. The Comparison runner advances one Excitations object tick by tick; everything
// random comes from one seeded stream, so every model receives the same events at the same
// simulated times, and a run is reproducible from its scenario.
//
// Sessions: what a user does while the models run (a click, a stir, the boat steered, rain or
// wind switched, a body thrown in) is one more timed entry of the excitation list (the record*
// functions below). The workbench applies each such edit, with the same simulated time, to the
// running comparison's list and to the scenario it saves, so `wavebench-cli run` on the saved file
// replays the session exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/forcing/rigid_bodies.hpp"
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
// From `time` on the boat heads for (x, y) alone (the GUI's boat follows the mouse).
struct BoatSteer {
  double time = 0.0;  // s
  double x = 0.0, y = 0.0;
};

struct BoatSpec {
  std::vector<std::pair<double, double>> waypoints;  // visited in order, then looped
  std::vector<BoatSteer> steering;                   // in time order; overrides the waypoints
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

// A stir (a drag in the GUI): a short Gaussian force impulse,
//   a(x) = (ax, ay) exp(-|x - (x, y)|^2 / radius^2)  (m/s^2)
// acting on the water over [start, start + duration). Only models with a velocity feel it
// (Model::setForce), exactly as they feel the wind.
struct StirImpulse {
  double x = 0.0, y = 0.0;
  double radius = 0.5;
  double ax = 0.0, ay = 0.0;
  double duration = 0.1;  // s
  double start = 0.0;     // s
};

// A buoyant body that enters every model's water at `time` (a body thrown in the workbench):
// the Comparison adds it at the start of the tick that holds its time.
struct TimedBody {
  double time = 0.0;  // s
  BodySpec spec;
};

// A mask stroke made while the models run (a brush dragged over the domain): at `time` the
// cells of its dabs become solid (walls) or water. A dab covers the cells whose centre lies
// within `radius` (m) of (x, y), and always the cell holding (x, y). The Comparison changes
// every model's mask at the start of the tick that holds `time` (Model::changeMask).
struct MaskDab {
  double x = 0.0, y = 0.0;
  double radius = 0.0;  // m
};
struct MaskStroke {
  double time = 0.0;  // s
  bool solid = true;  // walls, or water
  std::vector<MaskDab> dabs;
};
// The cells a stroke covers on the grid (row-major indices, ascending, each once).
std::vector<std::uint32_t> strokeCells(const MaskStroke& stroke, const Grid& grid);

struct ExcitationSpecs {
  std::vector<SurfaceEvent> drops;  // scheduled drops
  std::vector<RainSpec> rain;
  std::vector<BoatSpec> boats;
  std::vector<WindSpec> wind;
  std::vector<StirImpulse> stirs;
  std::vector<TimedBody> bodies;    // in time order
  std::vector<MaskStroke> strokes;  // in time order
};

// Session entries at simulated time `time` (the start of the frame they act in).
void recordDrop(ExcitationSpecs& specs, double time, SurfaceEvent drop);
void recordStir(ExcitationSpecs& specs, double time, StirImpulse stir);
// A body thrown in: after every body recorded at or before `time`.
void recordBody(ExcitationSpecs& specs, double time, const BodySpec& body);
// A mask stroke: after every stroke recorded at or before `time`.
void recordStroke(ExcitationSpecs& specs, double time, MaskStroke stroke);
// One dab of a brush dragged while the models run: it joins the last stroke when that one has
// the same time and kind (the dabs of one frame), else starts a stroke.
void recordMaskDab(ExcitationSpecs& specs, double time, bool solid, const MaskDab& dab);
// Steers boat `boat` towards (x, y); a later steer at the same time replaces this one.
void recordBoatSteer(ExcitationSpecs& specs, double time, std::size_t boat, double x, double y);
// Switches rain (or wind): everything raining (blowing) at `time` stops then, and `rain`
// (`wind`), when given, starts then and lasts until switched again.
void recordRain(ExcitationSpecs& specs, double time, std::optional<RainSpec> rain);
void recordWind(ExcitationSpecs& specs, double time, std::optional<WindSpec> wind);

// Adds amplitude * exp(-r^2/radius^2) to delta on the domain's wet cells; returns the
// volume added (m^3).
double stampGaussian(Field2D& delta, const Domain& domain, const SurfaceEvent& event);

class Excitations {
 public:
  Excitations(const ExcitationSpecs& specs, const Domain& domain, std::uint64_t seed);

  // Advances the boats and the random stream over [t0, t1) and returns every surface event
  // in that interval, sorted by time.
  std::vector<SurfaceEvent> advance(double t0, double t1);
  // Edits the list from now on with one of the record* functions (a session entry); entries
  // in the past (before the next advance's t0) have no effect.
  template <class Edit>
  void record(const Edit& edit) {
    edit(specs_);
  }

  // The bodies that enter the water in [t0, t1), in time order.
  std::vector<BodySpec> bodiesEntering(double t0, double t1) const;

  // The mask strokes made in [t0, t1), in time order.
  std::vector<MaskStroke> strokesIn(double t0, double t1) const;

  const std::vector<BoatState>& boats() const { return boatStates_; }
  // The wind and stir acceleration at time t over the domain, or nullopt when none acts.
  std::optional<ForceField> windAt(double t) const;
  // Which wind and stir entries act at time t (wind indices, then stirs after them): windAt(t)
  // changes only when this does (and when the domain's mask does).
  std::vector<int> forcingAt(double t) const;
  bool hasWind() const { return !specs_.wind.empty(); }
  // The scenario's list with every recorded entry (rain drawn up front is not in it).
  const ExcitationSpecs& specs() const { return specs_; }

 private:
  void advanceBoat(std::size_t index, double until, std::vector<SurfaceEvent>& out);
  void addRain(double t0, double t1, std::vector<SurfaceEvent>& out);
  bool randomWetPoint(double& x, double& y);

  ExcitationSpecs specs_;
  const Domain* domain_;
  std::mt19937_64 random_;
  std::vector<SurfaceEvent> rainDrops_;  // of the rain with a count, drawn up front
  std::vector<BoatState> boatStates_;
  std::vector<double> boatTimes_;
  std::vector<std::size_t> boatSteered_;  // steering entries taken up, per boat
};

}  // namespace wb
