// Incoming-wave edges (docs/open-edges.md, "Incoming waves"): a side of the grid where a
// prescribed surface elevation eta_in(t) enters while waves from inside leave through it.
//
// The side carries the open edge's absorbing layer (core/grid/edges.hpp), but the layer relaxes
// the water toward the incoming long wave instead of toward rest: with e = (h - h_in, u - u_in)
// the departure from the incoming wave,
//   h <- h_in + (h - h_in) / (1 + sigma dt),   u <- u_in + (u - u_in) / (1 + sigma dt)
// (a generating-absorbing "relaxation zone", Jacobsen, Fuhrman & Fredsoe 2012, eqs. 9-10; the
// wave-maker zones of OceanWave3D and waves2Foam). The incoming wave is a solution of the linear
// long-wave equations, so e obeys the same equations as the water and the layer absorbs it as an
// open edge absorbs any wave: the incoming wave enters, what comes from inside leaves. It plays
// the part of the Flather / characteristic condition u_b = sqrt(g/d) (2 eta_in - eta) that
// Basilisk (`radiation()` in src/elevation.h, used by examples/tsunami.c and test/monai.c) and
// GeoClaw (the wave-maker ghost cells of its Monai example) put on one cell face: there the
// incoming Riemann invariant is prescribed and the outgoing one passes, here the incoming wave
// is prescribed across the layer and the outgoing one is absorbed in it.
//
// The incoming wave in the layer of side S: eta_in(t - s / c), s the distance from the grid's
// edge on S (so eta_in(t) is the elevation at the grid's edge, as GeoClaw's boundary input), c
// the wave speed of the cell (sqrt(g d0) for the shallow-water models, c for the wave models);
// its velocity c eta / d0 along the inward normal, its discharge c eta. When the record ends
// (`then: open`) eta_in is 0: the side is an open edge.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace wb {

class Domain;
struct Edges;
enum class Side;

struct IncomingWave {
  enum class Form { Series, Sine, Solitary };
  Form form = Form::Series;
  // Series: times (s, strictly increasing) and elevations (m); file is where it was read from
  // ("" when inline), as written back.
  std::vector<double> times, etas;
  std::string file;
  bool thenOpen = false;  // after the record's end the side is open; else the run must end first
  // Sine: amplitude sin(2 pi t / period). Solitary: amplitude sech^2(k c (t - crestTime)) with
  // k = sqrt(3 a / (4 d^3)), c = sqrt(g (d + a)) (the KdV solitary wave passing a fixed point),
  // d the mean rest depth along the side; crestTime < 0: the time at which eta(0) = 1e-3 a.
  double amplitude = 0.0, period = 0.0, crestTime = -1.0;

  // eta_in at the grid's edge at time t (m); g and depth for the solitary wave's shape.
  double elevation(double t, double g, double depth) const;
  // The same, a series' segment found by walking from `segment` (kept by the caller between
  // calls: O(1) for times that move by less than a sample, as a cell's do step by step).
  double elevation(double t, double g, double depth, std::uint32_t& segment) const;
  // When eta_in ends: the record's last time, or infinity.
  double endTime() const;
  bool operator==(const IncomingWave&) const = default;
};

// Throws InputError naming `where` (domain.edges) when a record ends before the run's end
// (s) and does not say "then": "open".
void checkIncomingCoversRun(const Edges& edges, double runEnd, const std::string& where);
// Throws InputError naming `where` when an incoming side has no wet cell along the grid's edge.
void checkIncomingSidesWet(const Domain& domain, const std::string& where);

// The incoming waves of a domain's incoming sides as fields on its grid (0 outside their
// layers), for the models' layers to relax toward. Holds the model's clock.
class IncomingWaves {
 public:
  IncomingWaves() = default;  // no incoming side
  // waveSpeed > 0: the model's one speed; 0: sqrt(g d0) per cell.
  IncomingWaves(const Domain& domain, double waveSpeed);

  bool empty() const { return cells_.empty(); }
  double time() const { return time_; }
  void advance(double dt) { time_ += dt; }
  // Fills the fields at time t: elevation at cell centres, velocity c eta / d0 at centres and
  // discharge c eta at east / north faces, signed along x / y.
  void evaluate(double t);
  const float* elevation() const { return eta_.data(); }
  const float* velocityX() const { return velX_.data(); }
  const float* velocityY() const { return velY_.data(); }
  const float* dischargeX() const { return flowX_.data(); }
  const float* dischargeY() const { return flowY_.data(); }

 private:
  struct Cell {
    std::uint32_t index;
    std::uint8_t side;             // which incoming side
    bool alongX;                   // the wave travels along x (west / east sides)
    float sign;                    // +1 into the grid from the low side, -1 from the high side
    float distance, faceDistance;  // s of the centre and of the east / north face (m)
    float speed, depth;
    // The readings of the series at the centre's and at the face's delay.
    std::uint32_t centreReading, faceReading;
  };
  // One reading of a side's series at time t - delay, shared by every cell with that delay (a
  // side of one depth: each distance from it), with the series segment it last read
  // (IncomingWave::elevation).
  struct Reading {
    std::uint8_t side;
    double delay;
    std::uint32_t segment = 1;
  };

  std::array<IncomingWave, 4> waves_;
  std::array<double, 4> sideDepth_{};
  // From this many cells of a side (or readings) on, evaluate shares them among threads.
  static constexpr std::size_t kParallelEvaluations = 1024;
  std::vector<Cell> cells_;  // side by side
  std::vector<Reading> readings_;
  std::vector<double> readValues_;  // per reading, the elevation at the time evaluated
  std::array<std::pair<std::size_t, std::size_t>, 4> sideCells_{};  // each side's run of cells_
  std::vector<float> eta_, velX_, velY_, flowX_, flowY_;
  double g_ = 9.81, time_ = 0.0;
  bool sidesMeet_ = false;  // a cell is in two incoming sides' layers
  // The cells [begin, end) of cells_ set to their side's wave, or with add, that added.
  void setCells(std::size_t begin, std::size_t end, bool add);
};

}  // namespace wb
