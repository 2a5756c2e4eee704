// Edges of the domain: each side is a wall (waves reflect), open (waves leave through an
// absorbing layer) or incoming (a prescribed wave enters through the layer while waves from
// inside leave through it: core/grid/incoming_wave.hpp). The layer occupies the outermost
// `layerCells` columns or rows of the grid on an open side; behind it the grid still ends in a
// wall, whose echo the layer has damped twice on the way out and back (docs/open-edges.md).
//
// The layer's damping rate sigma (1/s) grows from 0 at its inner side to sigma_max at the grid's
// edge with the profile sigma = sigma_max xi^p, xi the depth into the layer in [0, 1]. An
// outgoing wave under damping rate sigma on both its surface and its velocity (the matched,
// "distortionless" damping of h_tt + 2 sigma h_t + sigma^2 h = c^2 lap(h)) decays as
// exp(-integral sigma dx / c) without reflecting where sigma is constant; over the way in and
// back it loses the factor exp(-2 sigma_max W / ((p + 1) c)) = kLayerEcho, which fixes
//   sigma_max = (p + 1) c ln(1 / kLayerEcho) / (2 W),  W = layerCells dx.
// Where two layers meet (corners) their rates add.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/grid/incoming_wave.hpp"

namespace wb {

struct Grid;
class Domain;

enum class Side { West, East, South, North };
enum class EdgeKind { Wall, Open, Incoming };

inline constexpr std::array<Side, 4> kSides = {Side::West, Side::East, Side::South, Side::North};

struct Edges {
  // Layer width when a scenario does not say (cells): wide enough for the test pulses'
  // dominant wavelength (docs/open-edges.md, width rule).
  static constexpr int kDefaultLayerCells = 24;

  std::array<EdgeKind, 4> kinds{EdgeKind::Wall, EdgeKind::Wall, EdgeKind::Wall, EdgeKind::Wall};
  int layerCells = kDefaultLayerCells;
  // The wave of each incoming side (unused on the others).
  std::array<IncomingWave, 4> incoming{};

  EdgeKind kind(Side side) const { return kinds[std::size_t(side)]; }
  void set(Side side, EdgeKind kind) { kinds[std::size_t(side)] = kind; }
  // The side has an absorbing layer: open, or incoming (an open edge that also lets a wave in).
  bool isOpen(Side side) const { return kind(side) != EdgeKind::Wall; }
  bool anyOpen() const;
  bool anyIncoming() const;
  bool operator==(const Edges&) const = default;

  static Edges all(EdgeKind kind);
};

const char* sideName(Side side);          // "west", ...
const char* edgeKindName(EdgeKind kind);  // "wall", "open", "incoming"
// Parses "wall" / "open"; throws InputError naming `where` otherwise.
EdgeKind parseEdgeKind(const std::string& name, const std::string& where);

// The longest wave the closed domain holds: twice its longer side (the gravest standing mode).
double longestWave(const Grid& grid);
// The layer's width as a fraction of longestWave(grid).
double layerFractionOfLongestWave(const Edges& edges, const Grid& grid);
// Throws InputError naming `where` when an axis with open sides cannot hold its layers and as
// many cells of water again between them.
void checkEdgesFit(const Edges& edges, const Grid& grid, const std::string& where);

// The damping rates of the open edges' layers on one domain, for waves of speed c: sigma_x from
// the west and east layers, sigma_y from the south and north ones (1/s).
class AbsorbingLayer {
 public:
  // Power p of the profile sigma_max xi^p.
  static constexpr int kProfilePower = 3;
  // Amplitude left of a normally incident wave after the way through the layer and back.
  static constexpr double kLayerEcho = 1e-5;

  struct Cell {
    std::uint32_t index;       // row-major, as Field2D
    float sigmaX, sigmaY;      // at the cell centre
    float sigmaXEast;          // sigma_x on the cell's east face; 0 when that face is a wall
    float sigmaYNorth;         // sigma_y on the cell's north face; 0 when that face is a wall
    bool openEast, openNorth;  // the face leads to a wet cell
    float sigma() const { return sigmaX + sigmaY; }
  };

  AbsorbingLayer() = default;  // no open edge: nothing to damp
  AbsorbingLayer(const Domain& domain, double waveSpeed);

  bool empty() const { return cells_.empty(); }
  // The wet cells with sigma_x or sigma_y > 0, in row-major order. The faces on the layer's
  // inner side have sigma = 0 (xi = 0 there), so a PML's psi is 0 on them and never reaches
  // the cells beyond.
  const std::vector<Cell>& cells() const { return cells_; }
  double sigmaMax() const { return sigmaMax_; }

  // Relaxation toward rest at the rate sigma_x + sigma_y, implicit: x <- x / (1 + sigma dt).
  // Returns the change of sum(x) it made.
  double relax(float* x, double dt) const;
  // The same toward a target field (incoming waves; null: rest): x <- x* + (x - x*) / (1 +
  // sigma dt). Returns the change of sum(x) it made.
  double relaxToward(float* x, const float* target, double dt) const;
  // The same on the cells [begin, end) of cells() alone.
  double relaxToward(float* x, const float* target, double dt, std::size_t begin,
                     std::size_t end) const;

 private:
  std::vector<Cell> cells_;
  double sigmaMax_ = 0.0;
};

// The perfectly matched layer of a three-level scheme for the damped wave equation
// h_tt + nu h_t = c^2 lap(h) (Grote & Sim 2010, "Efficient PML for the wave equation", eqs.
// 8-9, with the damping nu carried through the stretching (s + nu)(s + sx)(s + sy) / s, whose
// corner term nu sx sy / s is dropped):
//   h_tt + (nu + sx + sy) h_t + (sx sy + nu (sx + sy)) h = c^2 lap(h) + div(psi)
//   psi_x,t = -sx psi_x + c^2 (sy - sx) h_x,   psi_y,t = -sy psi_y + c^2 (sx - sy) h_y
// psi lives on cell faces (psi_x on east faces, 0 on walls); D_x, D_y are the differences
// across a face, div(psi) the difference of a cell's two faces per axis (the 5-point split of
// lap(h); the 8-neighbour stencil's own split, rows averaged 1/8, 3/4, 1/8, measured no
// different: 7.9e-5, 3.7e-3, 1.8e-2 at 0, 30, 60 degrees either way).
// A model whose step is (1 + kappa) h^{n+1} = 2 h^n - (1 - kappa) h^{n-1} + (its right side)
// calls apply() after that step; the layer's h_t term is centred, its h term averaged over
// h^{n+1} and h^{n-1}:
//   (1 + kappa + s + q/2) h^{n+1} = (1 + kappa) hModel + (s - q/2) h^{n-1} + dt^2 div(psi^n)
// with s = (sx + sy) dt / 2, q = (sx sy + nu (sx + sy)) dt^2; then psi^{n+1} from h^{n+1},
// Crank-Nicolson in its own decay:
//   psi_x^{n+1} = [(1 - sx dt/2) psi_x^n + dt c^2 (sy - sx) D_x h^{n+1}] / (1 + sx dt/2).
class WavePml {
 public:
  struct Scheme {
    double kappa = 0.0;             // of the model's step, above
    double damping = 0.0;           // nu (1/s)
    double volumeRecurrence = 1.0;  // R in V^{n+1} - V^n = R (V^n - V^{n-1})
  };

  WavePml() = default;  // no open edge
  WavePml(const Domain& domain, double waveSpeed);

  bool empty() const { return layer_.empty(); }
  // The largest Courant number c dt / dx at which a model's explicit step with a layer of
  // `layerCells` stays stable: thin layers, whose profile rises steeply from cell to cell,
  // lower it below the interior bounds (1 for damped-wave's normalised 8-neighbour stencil,
  // 1/sqrt(2) for the 5-point ones). Measured, not derived (docs/open-edges.md, "Stability"):
  // the largest stable value over both stencils, less 3 %.
  static double stableCourant(int layerCells);
  // Before the model's step: h^{n-1} = h^n - v^n on the layer's cells, for apply() (the step
  // overwrites v, core/grid/wave_levels.hpp).
  // With incoming waves (core/grid/incoming_wave.hpp) the layer acts on the departure from them:
  // `incoming` is the incoming wave's surface at t^{n-1} here and at t^{n+1} in apply (null:
  // none), so that the incoming wave passes and what differs from it is absorbed.
  void holdPreviousLevel(const float* h, const float* rate, const float* incoming = nullptr);
  // hNew holds the model's h^{n+1} and rate its v^{n+1} = h^{n+1} - h^n; the layer's update
  // replaces both on its cells, with the h^{n-1} held before the step. The layer's change of
  // each step is carried on by the model's own volume recurrence into the sink.
  void apply(float* hNew, float* rate, double dt, const Scheme& scheme,
             const float* incoming = nullptr);
  // The same layer over the domain's new mask (a mask stroke during the run): psi is kept on
  // the faces between two cells that stay wet and is 0 on the others; the sink so far is kept.
  void followMask(const Domain& domain);
  // The wave models' local speed (core/grid/stencil.hpp, LinkDepth::Local): psi's c^2 on each
  // face becomes c^2 (D_a + D_b), the face's link factor from halfDepth = d / (2 d_max) with c
  // the layer's speed sqrt(g d_max). psi with the deepest water's c^2 over shallower ground
  // would turn the layer's flux c_local^2 h_x + psi into (c_local^2 - c^2) h_x at low
  // frequencies, a negative diffusion that blows up. Call again after followMask.
  void useLinkDepths(const float* halfDepth);
  // The travelling window moved the water by whole cells (Field2D::shift): psi moves with it,
  // 0 where it lands outside the layer.
  void shift(int di, int dj);
  // The layer's term of a surface h at rest (psi = 0, h_t = 0): h_tt = c^2 lap(h) - Q h with
  // Q = sx sy + damping (sx + sy), so acceleration -= Q h on the layer's cells
  // (core/model/rest_start.hpp). Returns sum(-Q h) over them (m/s^2).
  double addRestAcceleration(const float* h, double damping, float* acceleration) const;
  // The model changed v^n = h^n - h^{n-1} in the layer, changing the volume rate V^n - V^{n-1} by
  // heightSum dA: the layer's own doing, carried on into the sink like a step's change.
  void carryLevelChange(double heightSum) { sinkRate_ += heightSum * cellArea_; }
  // Volume the layer took out since construction (m^3), the budget's sink.
  double volumeSink() const { return sink_; }

 private:
  // div(psi) at cell k.
  double divergence(std::size_t k) const;

  AbsorbingLayer layer_;
  std::vector<float> psiX_, psiY_;    // on every cell's east / north face, 0 outside the layer
  std::vector<float> previousLevel_;  // h^{n-1} per layer cell (holdPreviousLevel)
  // Per layer cell, the link factor of its east / north face (useLinkDepths); empty: 1.
  std::vector<float> faceX_, faceY_;
  int nx_ = 0;
  double c2_ = 0.0, inverseDx_ = 0.0, cellArea_ = 0.0;
  double sinkRate_ = 0.0, sink_ = 0.0;  // volume per step and in all
};

}  // namespace wb
