// The start of a three-level wave scheme from a surface at rest (damped-wave, advected-wave).
//
// Their steps read h^{n+1} from h^n and h^{n-1}, so a surface at rest needs an h^{-1}. Taking
// h^{-1} = h^0 starts the run in the state of t = -dt/2 rather than t = -dt: the whole run then
// lags dt/2 behind the exact solution, a first-order error A omega (dt/2) |sin omega t| for a
// mode A cos(omega t). A surface at rest has h_t = 0, so its wave equation
// h_tt + nu h_t = c^2 lap(h) gives h_tt = c^2 lap(h) and, by Taylor,
//   h(-dt) = h - dt h_t + (dt^2/2) h_tt + O(dt^3) = h + (dt^2/2) h_tt + O(dt^3):
//   h^{-1} = h^0 + (dt^2/2) a(h^0),  a(h) = (c^2 / dx^2) L(h) - Q h,            (1)
// with L the model's own operator (its WetStencil: neighbours, wall rule and mask as the step
// uses them; 0 on solid cells) and Q = sx sy + nu (sx + sy) in an open edge's layer, where the
// equation is h_tt + (nu + sx + sy) h_t + Q h = c^2 lap(h) + div(psi) with psi = 0 at rest
// (core/grid/edges.hpp), and 0 elsewhere. The step's first h^1 then matches h(dt) to O(dt^3)
// (eq. 2 of damped-wave gives h^1 = h^0 + (dt^2/2) a (1 + k dt), eq. 10 of advected-wave
// exactly h^0 + (dt^2/2) a), and the run converges at the scheme's second order.
//
// A surface change delta added to a running surface without changing its velocity (addEta)
// is a bump at rest on top of the motion: by linearity it adds (dt^2/2) a(delta) to h^{n-1}
// beyond the delta added to both levels. a(delta) is not 0 one cell beyond the bump, so h^{n-1}
// changes there too.
//
// Which dt: the step's own. A run may take steps shorter than the model's preferredDt()
// (TickSteps divides a tick into equal steps), so (1) is held as a(h) until the next step, and
// settle() applies it with that step's dt to the increment v = h^n - h^{n-1} the schemes keep
// (core/grid/wave_levels.hpp). Until then v is untouched: a surface at
// rest reports no kinetic energy and its potential energy as its whole energy. With mirror walls
// sum L(h) = 0, so (1) changes the volume rate only through the layer's Q h, which is passed to
// the layer's volume sink as the change its own step would have made
// (WavePml::carryLevelChange).
#pragma once

#include "core/grid/edges.hpp"
#include "core/grid/field2d.hpp"
#include "core/grid/stencil.hpp"

namespace wb {

class RestStart {
 public:
  struct Wave {
    const WetStencil& stencil;
    const WavePml& pml;
    double c2OverDx2;  // c^2 / dx^2 (1/s^2)
    double damping;    // nu of the layer's Q (1/s)
    // The wave of a scheme with wave speed c on cells of side dx whose layers see the damping
    // nu (damped-wave's k, advected-wave's nu): what both schemes' restWave() give.
    static Wave of(const WetStencil& stencil, const WavePml& pml, double c, double dx, double nu) {
      return {.stencil = stencil, .pml = pml, .c2OverDx2 = c * c / (dx * dx), .damping = nu};
    }
  };

  // The surface h starts at rest: a(h) is held for the next step (anything held is dropped).
  void start(const Wave& wave, const Field2D& h);
  // delta (0 on solid cells) was added to both levels at rest: a(delta) joins what is held.
  void add(const Wave& wave, const Field2D& delta);
  // Before a step of dt: v = h^n - h^{n-1} loses (dt^2/2) a of all that started at rest since
  // the last step (h^{n-1} gains it; core/grid/wave_levels.hpp).
  void settle(double dt, WavePml& pml, Field2D& rate);
  // A mask change: what is held belongs to the old walls and is dropped.
  void forget() { pending_ = false; }
  // The travelling window moved the levels by whole cells: what is held moves with them. Its
  // share in the open edges' layers is kept: what starts at rest mid-run is a drop or a body's
  // stamp, inside the window, which a move of a few cells keeps out of the layers.
  void shift(int di, int dj) {
    if (pending_) acceleration_.shift(di, dj, 0.0f);
  }

 private:
  // fresh_ = a(h); returns the layer's share sum(-Q h).
  double compute(const Wave& wave, const Field2D& h);

  Field2D acceleration_, fresh_;  // a of all that started at rest since the last step; a scratch
  double layerSum_ = 0.0;         // sum(-Q h) of acceleration_
  bool pending_ = false;
};

}  // namespace wb
