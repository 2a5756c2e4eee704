// swe-semi-lagrangian: the nonlinear shallow-water equations over bathymetry integrated by the
// implicit semi-Lagrangian scheme of Layton & van de Panne (2002).
//
//   du/dt + g h_x = 0,  dv/dt + g h_y = 0,  dh/dt - u.grad(b) + d div(u) = 0   (eqs. 13-14)
// with d/dt the Lagrangian derivative, h the surface height (Wavebench's eta: rest level 0),
// b = -restDepth the ground and d = h - b the total depth. One step (section 3.2.1):
//   i.   departure points x - dt u^n                                     (appendix A, eq. 31)
//   ii.  u, v at the departure points by bilinear interpolation          (eq. 32; h~ is
//        not needed: eq. 25 is assembled in flux form, docs/wet-dry.md)
//        (core/grid/semi_lagrangian.hpp, the renormalised wall rule)
//   iii. the Helmholtz equation for h^{n+1}                              (eqs. 24-25)
//   iv.  u^{n+1} = u~ - g dt h_x^{n+1}, v^{n+1} = v~ - g dt h_y^{n+1}    (eqs. 21-22)
// Walls as section 4.1 (see swe_walls.hpp). Wet/dry fronts (docs/wet-dry.md): the continuity
// equation is solved in flux form over faces whose depth is hydrostatically reconstructed,
// and each cell's outgoing fluxes are scaled so that it cannot give more water than it holds;
// depth stays non-negative and volume is kept to round-off, with no minimum depth. First order in
// time and space, implicit: the gravity-wave CFL limit dx / sqrt(g d) does not apply. The method's
// own limit (section 4.2, Pudykiewicz et al. 1985) bounds dt times the velocity shear max(|u_x|,
// |u_y|, |v_x|, |v_y|); Wavebench takes the bound as 1, the Lipschitz condition under which
// departure trajectories do not cross (Smolarkiewicz & Pudykiewicz 1992).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/grid/edges.hpp"
#include "core/model/manning_friction.hpp"
#include "core/model/model.hpp"
#include "core/solvers/conjugate_gradient.hpp"
#include "core/solvers/helmholtz_solver.hpp"
#include "models/swe_semi_lagrangian/swe_walls.hpp"

namespace wb {
namespace swe_sl {
struct SettleSums;  // swe_semi_lagrangian_kernels.hpp
struct DepthCounts;
}  // namespace swe_sl

class SweSemiLagrangian final : public Model {
 public:
  SweSemiLagrangian();

  static constexpr const char* kId = "swe-semi-lagrangian";
  static constexpr const char* kTitle = "Shallow water, semi-Lagrangian (Layton & van de Panne)";
  std::string id() const override { return kId; }
  std::string title() const override { return kTitle; }

  void reset(const Domain& domain, const Field2D& eta0) override;
  // kMaxShearNumber / shear, the shear measured now or estimated from the initial surface.
  double maxStableDt() const override;
  double preferredDt() const override;
  void step(double dt) override;

  const Field2D& eta() const override { return h_; }
  const Field2D* velocityU() const override { return &u_; }
  const Field2D* velocityV() const override { return &v_; }
  double addEta(const Field2D& delta) override;
  double changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) override;
  // Sets the depth-averaged velocity after reset (analytic cases that start moving, such as
  // Thacker's oscillation); films and solid cells keep 0 (keepDepthNonNegative's rule).
  void setVelocity(const Field2D& u, const Field2D& v);
  void shiftWindow(int di, int dj) override;
  void dampUnderBodies(const Field2D& rate, double dt) override;
  void setForce(const ForceField* force) override { force_ = force; }
  // Kinetic energy: 1/2 sum(d |u|^2) dA with d = h - b >= 0 the total depth, the
  // depth-integrated kinetic energy of shallow water per unit density.
  double kineticEnergy() const override;
  // solver_iterations, solver_residual (CG on eq. 25), shear_number (dt times the shear),
  // dry_cells (cells holding a film thinner than film_depth after the last step),
  // lifted_cells (cells whose surface round-off put below the ground, lifted back to it),
  // friction_energy (kinetic energy bottom friction took out since reset, m^5/s^2; with a
  // Manning n only).
  std::map<std::string, double> diagnostics() const override;
  bool absorbsAtOpenEdges() const override { return true; }
  // Manning's n of the domain on the velocity after each step (applyFriction).
  bool appliesBottomFriction() const override { return true; }
  bool floodsLand() const override { return true; }
  bool entersAtIncomingEdges() const override { return true; }
  double volumeSink() const override { return volumeSink_; }

  // The fastest flow from a wet cell into a film or dry cell (m/s): a front moves at most one
  // cell per step (fluxes join neighbours only), so auto dt keeps its Courant number at most
  // kFrontCourant. Ritter's front lags more at larger values; at 0.1 a film runs ahead of it
  // (docs/wet-dry.md, measured at 0.1 to 0.5).
  double frontSpeed() const;
  static constexpr double kFrontCourant = 0.15;

  // The explicit (CFL) limit dx / sqrt(g d_max), for comparison with the implicit steps.
  double explicitLimit() const;
  // max(|u_x|, |u_y|, |v_x|, |v_y|) over wet cells (1/s).
  double velocityShear() const;

  // Operators of one step, public so that tests/bench can time them one by one.
  // Appendix A, eq. 31 and eq. 32: the departure values u~, v~.
  void interpolateAtDepartures(double dt);
  // Its results u~, v~ (before the force of the step is added), for tests.
  const Field2D& departureU() const { return uDep_; }
  const Field2D& departureV() const { return vDep_; }
  // What the last step added to u, v where the flow converged (flux-form momentum advection
  // minus the semi-Lagrangian one; 0 elsewhere), for tests.
  const Field2D& momentumChangeU() const { return momentumU_; }
  const Field2D& momentumChangeV() const { return momentumV_; }
  // Left side of eq. 25: out = A in on wet cells; solid cells (where in must be 0) get 0 or
  // keep their value; returns sum(in * out) for CG. Its coefficients are those of the last
  // step.
  double applyHelmholtz(const Field2D& in, Field2D& out) const;
  // (A in) at one cell, any cell of the grid.
  float helmholtzAt(const Field2D& in, int i, int j) const;

  static std::vector<ParamSpec> parameterSpecs();
  // dt times the shear may not exceed this (section 4.2; trajectories do not cross).
  static constexpr double kMaxShearNumber = 1.0;
  // Auto dt: this multiple of the explicit limit ("several times"), inside the shear bound.
  static constexpr double kAutoExplicitMultiple = 4.0;
  // Auto dt keeps dt times the shear at this fraction of the bound.
  static constexpr double kAutoShearSafety = 0.5;
  // helmholtz_solver auto: multigrid above this coupling g d_max dt^2 / dx^2 (the face
  // weights of eq. 25; (dt / explicit limit)^2). CG on the red-black reduced system
  // (core/solvers/red_black_cg.hpp) needs about half the iterations of plain CG, each over half the
  // cells; float V-cycles need 2-3. Measured (wavebench_bench solve/swe-step-*, one thread,
  // steps on the one-drop pool) at coupling 16 / 100 / 400: 256^2, reduced CG 0.92 / 1.41 /
  // 1.96 ms per step, V-cycles 2.03 / 2.29 / 1.58 (plain CG 1.11 / 2.87 / 4.64); 1024^2,
  // reduced CG 22 / 53 / 100 ms, V-cycles 69 / 69 / 72 (plain CG 29 / 97 / 247). They cross
  // near coupling 200 at both sizes.
  static constexpr double kMultigridMinCoupling = 200.0;
  // helmholtz_solver auto: plain CG up to this coupling or below this many cells, where the
  // reduced system's set-up (packing, elimination, back-substitution: 151 B/cell against
  // plain CG's 58, in short rows) costs more than the iterations it saves. Measured (one
  // thread, ms per step at coupling 4 / 16 / 64): 80^2 plain 0.041 at 16, reduced 0.060-0.063;
  // 128^2 plain 0.13-0.14 / 0.15-0.16 / 0.16-0.18, reduced 0.15 / 0.16-0.17 / 0.15-0.16;
  // 256^2 plain 0.64-0.69 / 1.13-1.14 / 2.0-2.04, reduced 0.69-0.70 / 0.88-1.06 / 1.18-1.26.
  static constexpr double kReducedMinCoupling = 4.0;
  static constexpr std::size_t kReducedMinCells = 200 * 200;

 private:
  // The parameters, settled once per reset (swe_semi_lagrangian_params.cpp).
  struct Settings {
    std::optional<double> userDt;  // none: automatic
    double cgTolerance = 1e-3;
    int solverChoice = 0;  // helmholtz_solver: 0 auto, then the HelmholtzMethod values
    int cgMaxIterations = 200;
    float filmDepth = 1e-4f;
    bool force = false;
  };
  static Settings settle(const ParamValues& values);

  double estimatedInitialShear() const;
  void applyForce(double dt);
  void applyFriction(double dt);
  // Eq. 25's faces, right side and the start of its solve in one pass over row bands.
  void assembleEq25(double dt);
  // The depth of each face for eq. 25 and the fluxes (swe_semi_lagrangian_wet_dry.cpp), and
  // the left side of eq. 25 in conservative form: face coefficients mu d_face, mu = g dt^2 /
  // dx^2, of the rows [first, end) below the last, and of the last row.
  void faceDepthRows(int first, int end, float mu, float dtPerDx);
  void lastRowFaceDepths(float mu, float dtPerDx);
  // A film's departure velocity becomes the mean of its wet neighbours' (the water that
  // floods it arrives with their velocity).
  void extendVelocityIntoFilms();
  // The velocity of the cells flooded in this step, from the dry-bed Riemann invariant.
  void startFloodedCells();
  // Right side of eq. 25 at one cell.
  float rhsAt(int i, int j, float dtPerDx) const;
  // helmholtz_solver's choice, or after auto the method that wins at this coupling.
  HelmholtzMethod chooseSolver(double dt) const;
  void solveHelmholtz(double dt);
  // Eqs. 21-22 with the momentum in compressions, and the wall rule of section 4.1: rows 1 to
  // ny - 2 by the kernel ([first, end)), the first and last rows cell by cell.
  void updateVelocity(double dt);
  void velocityRows(int first, int end, double gDtPerDx);
  void velocityEdgeRow(int j, double gDtPerDx);
  // updateVelocity, startFloodedCells, absorbAtOpenEdges and keepDepthNonNegative where the two
  // in the middle do nothing (no films, no open edges), in one pass.
  void finishWetStep(double dt);
  // The open edges' layer (core/grid/edges.hpp): h, u, v relax toward rest.
  void absorbAtOpenEdges(double dt);
  // The continuity equation in flux form with the solved surface, each cell's outflow limited
  // to the water it holds (swe_semi_lagrangian_wet_dry.cpp).
  void transportVolume(double dt);
  // transportVolume's factors: dt / dx, g dt / dx, and dt if a force acts (else 0).
  struct TransportStep {
    float dtPerDx, gDtPerDx, force;
  };
  // Its fluxes and limiter of one row (the first and last rows cell by cell).
  void fluxRow(int j, const TransportStep& step);
  void fluxEdgeRow(int j, const TransportStep& step);
  void scaleRow(int j);
  void scaleEdgeRow(int j);
  // The surface after the step from the flux-form one and eq. 25's solution, with the
  // momentum in compressions measured on the way: rows 1 to ny - 2 one by one (surfaceRow,
  // inside transportVolume's pass), then the first and last rows and the volume left.
  swe_sl::SettleSums surfaceRow(int j, float forceStep);
  void settleSurface(float forceStep, double left, double solvedDepth);
  // transportVolume's face flux f at (i, j) (0 beyond the grid's first row or column), the
  // same limited, and the flux-form surface, at one cell.
  float fluxAt(const Field2D& f, int i, int j) const;
  float limitedFlux(const Field2D& f, int i, int j, int di, int dj) const;
  float fluxFormAt(int i, int j) const;
  // Where the flow converges: the momentum advected in flux form with the continuity fluxes
  // (measured into momentumU_/V_ by settleSurface, added by updateVelocity), at one cell.
  void momentumAt(int i, int j, float fluxForm, float forceStep);
  // Cells holding less than this before or after a step take the flux-form surface.
  static constexpr float kExactDepth = 0.01f;
  // Water thinner than this (m) flowing towards thinner water on flat ground is a flood's
  // tail: it keeps the Riemann invariant of the water behind it (startFloodedCells).
  static constexpr float kThinTail = 0.01f;
  // d = h - b for the next step, round-off below the ground lifted, films' velocity zeroed;
  // and shear_ measured.
  void keepDepthNonNegative();
  swe_sl::DepthCounts depthRow(int j);
  // The shear (velocityShear) of the rows [first, end) inside rows 1 to ny - 2 (per cell, not
  // per dx), and with the first and last rows', per dx.
  float shearRows(int first, int end) const;
  double shearWithEdgeRows(float interior) const;

  const Domain* domain_ = nullptr;
  SweWalls walls_;
  AbsorbingLayer layer_;
  IncomingWaves incoming_;  // empty without incoming edges
  double volumeSink_ = 0.0;
  // One solver per method (HelmholtzMethod - 1), made at its first solve: auto dt may move
  // the coupling across a threshold and back, and a method's work space is then kept.
  std::array<std::unique_ptr<HelmholtzSolver>, 3> solvers_;
  Field2D unitShift_;  // the shift 1 of eq. 25 on wet cells
  Settings settings_;
  const ForceField* force_ = nullptr;
  Field2D h_, u_, v_, ground_, depth_;
  Field2D uDep_, vDep_, rhs_;
  Field2D faceX_, faceY_;  // Helmholtz coefficients of the east and north faces of each cell
  Field2D faceDepthX_, faceDepthY_;  // gravity depth of the east and north faces (0: closed or dry)
  Field2D faceCarryX_, faceCarryY_;  // their advective (upwind) depth
  Field2D fluxX_, fluxY_, outflowScale_;  // face fluxes (m per step); the limiter
  Field2D moving_;  // 1 on wet cells holding more than a film: eq. 32's corner weights
  Field2D momentumU_, momentumV_;  // conservative minus semi-Lagrangian advection, or 0
  Field2D floodX_, floodY_;  // the mean flooding direction of each film (extendVelocityIntoFilms)
  // The changes of h solved by the last two steps (eq. 25), the start of the next solve, and
  // their dt (0: none yet).
  Field2D change_, olderChange_;
  std::array<double, 2> changeDt_{};
  // A guessed change smaller than this (m) starts from 0. The solution's tails decay
  // exponentially away from the waves; a guess made of them carries subnormal floats into
  // CG's vectors, whose arithmetic is many times slower (one thread at 1024^2 on the one-drop
  // pool: the step 1.04-1.06x slower with the tails kept).
  static constexpr float kNegligibleChange = 1e-20f;
  Field2D solved_;         // 1 where settleSurface kept eq. 25's solution
  double unspread_ = 0.0;  // settleSurface's volume not yet applied (m times cells)
  int liftedCells_ = 0;
  double frontSpeed_ = 0.0;    // measured after the last step (m/s)
  double maxRestDepth_ = 0.0;  // the domain's deepest wet cell at reset (m)
  double dt_ = 0.01, lastDt_ = 0.0;
  double shear_ = 0.0;         // measured after the last step (1/s)
  double initialShear_ = 0.0;  // estimated from the initial surface (1/s)
  bool autoDt_ = true;
  CgResult lastSolve_;
  int dryCells_ = 0;
  ManningFriction friction_;     // the domain's n; inactive at n = 0
  double frictionEnergy_ = 0.0;  // kinetic energy friction took out since reset (m^5/s^2)
};

}  // namespace wb
