// advected-wave: the velocity-advected wave model of Kim & Yoo (2008).
//
// A 2-D velocity field (u, v) evolves by Stam's stable fluids (1999, 2003): add force,
// advect semi-Lagrangian (core/grid/semi_lagrangian.hpp: solid cells hold 0), project to zero
// divergence. Between advection and projection the divergence the step created is turned into
// a height deviation (eq. 7) that enters the viscous wave update of the surface (eqs. 10, 13).
// One step, in the paper's order:
//   AddForce -> [Diffuse, optional, off by default] -> Advect -> UpdateHeight -> Project
//
// Sign: eq. 7 reads kappa dz = div u, but Sect. 4.1 says inflow (div u < 0) raises the water.
// We use the consistent form kappa dz = -div u. With the default kappa = 1 / (d dt) the
// height deviation is the linearised continuity equation dz = -d div(u) dt, and because eq. 13
// adds it to level k only (not k-1), it gives the surface a vertical velocity; together the
// model then obeys z_tt + nu z_t = c^2 lap(z) - d div(f) for a force f, the linear
// shallow-water response (a wind over a closed pool sets up the slope |f| / g).
//
// Eq. 10 is the wave equation z_tt + nu z_t = c^2 lap(z) (eq. 9) with central differences
// for both time derivatives:
//   z^{k+1} = [4 z^k + 2 mu L(z^k) - (2 - nu dt) z^{k-1}] / (2 + nu dt),  mu = c^2 dt^2/dx^2
// with L the 4-neighbour operator of core/grid/stencil.hpp (mirror walls, as damped-wave).
//
// Stability (von Neumann): a grid mode with -L eigenvalue s in [0, 8] has amplification
// factors lambda with (2 + nu dt) lambda^2 - (4 - 2 mu s) lambda + (2 - nu dt) = 0. By the
// Schur-Cohn test both roots lie in |lambda| <= 1 iff |2 - nu dt| <= 2 + nu dt (true for every
// nu >= 0) and |4 - 2 mu s| <= 4, i.e. mu s <= 4. With s_max = 8:
//   c dt / dx <= 1 / sqrt(2),
// independent of nu: unlike damped-wave's R = 1 - k dt, the central damping of eq. 10 never
// limits dt. The velocity part (semi-Lagrangian advection, implicit projection) is
// unconditionally stable (Stam), so this is the model's bound; the paper's warning that the
// height model can blow up is this bound being exceeded (refused unless `force`).
//
// With speed = local (advected_wave_local.cpp) eq. 9 takes the ground's depth,
// z_tt + nu z_t = div(c^2 grad z) with c^2 = g d on the stencil's links (L_d of
// core/grid/stencil.hpp), and eq. 7 the depth-weighted flow, kappa dz = -div(d u) / d_mean (the
// linearised continuity equation dz = -div(d u) dt with the default kappa); the bound holds with
// c = c_max = sqrt(g d_max).
#pragma once

#include <optional>

#include "core/grid/edges.hpp"
#include "core/grid/stencil.hpp"
#include "core/measure/wave_energy.hpp"
#include "core/model/model.hpp"
#include "core/model/rest_start.hpp"
#include "core/solvers/conjugate_gradient.hpp"
#include "core/solvers/multigrid.hpp"

namespace wb {

class AdvectedWave final : public Model {
 public:
  AdvectedWave();

  static constexpr const char* kId = "advected-wave";
  static constexpr const char* kTitle = "Velocity-advected waves (Kim & Yoo)";
  std::string id() const override { return kId; }
  std::string title() const override { return kTitle; }

  void reset(const Domain& domain, const Field2D& eta0) override;
  double maxStableDt() const override;
  double preferredDt() const override { return dt_; }
  void step(double dt) override;

  const Field2D& eta() const override { return *current_; }
  const Field2D* velocityU() const override { return &u_; }
  const Field2D* velocityV() const override { return &v_; }
  double addEta(const Field2D& delta) override;
  double changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) override;
  void shiftWindow(int di, int dj) override;
  void dampUnderBodies(const Field2D& rate, double dt) override;
  void setForce(const ForceField* force) override { force_ = force; }
  // Kinetic energy per unit density = flow part + wave part: 1/2 sum(d |u|^2) dA of the
  // advected velocity, plus the wave part of eq. 10 computed as damped-wave's (the flow the
  // three-level scheme is equivalent to, core/measure/wave_energy.hpp), so the two wave models'
  // energies compare like for like.
  double kineticEnergy() const override;
  // solver_iterations, solver_residual (relative, of the pressure solve), divergence_max
  // (max |div u| over wet cells now, i.e. after the last Project, 1/s), divergence_before
  // (the same before that Project).
  std::map<std::string, double> diagnostics() const override;
  bool absorbsAtOpenEdges() const override { return true; }
  bool entersAtIncomingEdges() const override { return true; }
  double volumeSink() const override { return pml_.volumeSink(); }

  // Lets tests and verification set a velocity field (m/s) directly; from then on the step no
  // longer takes the flow as at rest.
  Field2D& velocityUMutable() {
    flowAtRest_ = false;
    return u_;
  }
  Field2D& velocityVMutable() {
    flowAtRest_ = false;
    return v_;
  }
  // The last pressure solve's solution q = -p / dx^2 (1/s): -L q = div u (L: the mirror
  // 5-point operator, dx^2 times the Laplacian); extrapolated with the one before it, the
  // warm start of the next solve.
  const Field2D& pressure() const { return pressure_; }
  // With speed = local, the deepest water's c (the one of the bound).
  double waveSpeed() const { return c_; }
  bool localSpeed() const { return stencil_.localDepth(); }
  double viscosity() const { return nu_; }
  // kappa of eq. 7 for a step dt (1/(m s)).
  double kappa(double dt) const;

  static std::vector<ParamSpec> parameterSpecs();
  // The largest dt with mu s_max <= 4, mu = c^2 dt^2 / dx^2, s_max = 8 (4 neighbours).
  static double stabilityLimit(double c, double dx);

  // The operators of one step, public so that tests can check each against its equation.
  void addForce(double dt);
  void diffuse(double dt);
  void advect(double dt);
  void updateHeight(double dt);
  void project();
  // The open edges' layer (core/grid/edges.hpp) on z^{k+1} (the surface after updateHeight)
  // and the velocity.
  void absorbAtOpenEdges(double dt);
  const float* incomingAt(double offset);
  // div u on wet cells from face velocities (zero on wall faces); equals the paper's central
  // difference (u_{i+1} - u_{i-1}) / 2dx + (v_{j+1} - v_{j-1}) / 2dx away from walls.
  void computeDivergence(Field2D& out) const;

 private:
  // Project from the divergence in divergence_ and its max in divergenceBefore_.
  void projectDivergence();
  float edgeDivergence(std::size_t k, std::uint8_t open, float inverseDx) const;
  // updateHeight with speed = local (advected_wave_local.cpp), and its div(d u) / d_max next to
  // a wall.
  void updateHeightLocal(double dt);
  float edgeDepthFlux(std::size_t k, std::uint8_t open, float inverseDx) const;
  void enforceWalls();
  void followWalls();
  // The operator of the surface's z_tt at rest (core/model/rest_start.hpp).
  RestStart::Wave restWave();
  void applyNegativeLaplacian(const Field2D& in, Field2D& out) const;
  template <class SpanKernel, class CellAt>
  void forEachWetCell(const SpanKernel& spanKernel, const CellAt& cellAt) const;

  Domain walled_;                   // the domain given to reset, land above rest made solid
  const Domain* domain_ = nullptr;  // &walled_
  const ForceField* force_ = nullptr;
  WetStencil stencil_;
  LinkDepth links_ = LinkDepth::Uniform;  // the speed parameter, settled in reset
  WavePml pml_;
  AbsorbingLayer layer_;    // the flow's relaxation, at the PML's rates
  IncomingWaves incoming_;  // empty without incoming edges
  mutable WaveKineticEnergy waveKinetic_;
  ConjugateGradient cg_;      // Stam's optional diffusion
  Multigrid pressureSolver_;  // eq. 4: -L p = -dx^2 div u, 5-point, Neumann
  // The surface z^k and the next one z^{k+1} (swapped each step), and the increment
  // v^k = z^k - z^{k-1} (core/grid/wave_levels.hpp).
  Field2D surfaces_[2];
  Field2D* current_ = &surfaces_[0];
  Field2D* next_ = &surfaces_[1];
  Field2D rate_;
  RestStart restStart_;  // v^0 of a surface at rest
  // pressure_ holds q = -p / dx^2 (-L q = div u), previousPressure_ the step before's (the
  // solve starts from their extrapolation), rhs_ is the diffusion solve's right side.
  Field2D u_, v_, uOld_, vOld_, divergence_, pressure_, previousPressure_, rhs_;
  Field2D depthFlux_;  // div(d u) / d_max of eq. 7 with speed = local
  // diagnostics() measures the divergence left by the last Project here (once per frame, not
  // per step; a scratch so that it does not allocate).
  mutable Field2D divergenceAfter_;
  // Wet cells whose east/west (resp. north/south) neighbour is a wall: u (resp. v) is 0 there.
  std::vector<std::uint32_t> wallU_, wallV_;
  // The runs of wet cells of each row (Advect's work: it needs no stencil, so wall cells need
  // no list of their own; a run is one call of the span kernel).
  std::vector<WetStencil::Span> wetRuns_;
  // Per edge cell of stencil_ (same order): which of its faces lead to a wet cell.
  enum : std::uint8_t { kOpenEast = 1, kOpenWest = 2, kOpenNorth = 4, kOpenSouth = 8 };
  std::vector<std::uint8_t> openFaces_;
  double c_ = 1.0, nu_ = 0.0, depth_ = 1.0, dt_ = 0.01, lastDt_ = 0.01;
  double diffusion_ = 0.0, tolerance_ = 1e-4;
  int maxIterations_ = 1000;
  std::optional<double> kappaOverride_;  // the kappa parameter; none: 1 / (d dt)
  CgResult lastSolve_;
  double divergenceBefore_ = 0.0;
  bool pressureIsZero_ = true;  // pressure_ and previousPressure_ are 0 everywhere
  // u = v = 0 exactly: no force has acted since reset (drops move the surface, not the flow).
  bool flowAtRest_ = true;
};

}  // namespace wb
