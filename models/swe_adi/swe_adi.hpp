// swe-adi: the linearised shallow-water equations of Kass & Miller (1990) integrated by
// alternating-direction implicit (ADI) sweeps, as restated by Layton & van de Panne (2002,
// section 4.4 and appendix B) and Jensen & Golias (2001, eqs. 2-11..2-22).
//
//   du/dt = -g h_x,  dv/dt = -g h_y,  dh/dt = -div(d (u, v))        (Layton eqs. 33-35)
//   so  h_tt = g div(d grad h) = L h                                 (eqs. 28, 36)
// with h the surface height (Wavebench's eta: rest level 0), b = -restDepth the ground and
// d = h - b >= 0 the depth, frozen over a step (the linearisation). L is eq. 36's symmetric
// five-point form with face depths D_f = (d_C + d_N) / 2 (Kass & Miller's staggered grid:
// h at cell centres, u on east faces, v on north faces).
//
// Time stepping. The state is h and its rate hdot = dh/dt (eqs. 38-39). The trapezoidal rule
//   h^{n+1} = h^n + dt (hdot^n + hdot^{n+1}) / 2,  hdot^{n+1} = hdot^n + dt L h~,
//   h~ = (h^n + h^{n+1}) / 2
// is, in delta form (delta = h^{n+1} - h^n, q = (dt / 2)^2, the weight of eqs. 40-41),
//   (1 - q L) delta = dt hdot^n + 2 q L h^n
// solved by k ADI iterations: each factors 1 - q L into (1 - q L_x)(1 - q L_y) and corrects
// delta by one sweep of symmetric tridiagonal systems along the rows, then one along the
// columns (Thomas algorithm), the structure of Layton's eqs. 29-30 / 40-41. Layton's eqs.
// 40-41 are not used as printed: eq. 39 takes the rate of level n from h^n - h^{n-1} (a rate
// of level n - 1/2), which runs a standing wave 2 / sqrt(3) = 15 % slow at any dt, and eq.
// 41's explicit L_x term makes the scheme unstable beyond dt ~ 2 / omega (docs/swe-adi.md).
// The parameter theta generalises the rule to h~ = h^n + theta delta, q = (theta dt)^2 (0.5:
// the trapezoidal rule; above it, first order, damping short waves most; docs/swe-adi.md).
//
// Stability: any approximate solve changes the trapezoidal rule's energy E by -delta^T res. On
// a rectangle over a flat bed (L_x, L_y commute) the ADI iterations only take energy out (per
// mode |amplification| = sqrt(1 - 2 rho^k), rho the iteration's contraction). Elsewhere (solid
// cells, land, bathymetry) delta^T res has no sign and k iterations alone grew a drop next to an
// island to NaN at 20x the explicit limit; there the step checks delta^T res and, when the
// iterate would add energy, takes its Galerkin projection onto span{delta, c} instead, which
// keeps E (EnergyProjection; docs/swe-adi.md, "Stability"). So any dt is stable. Accuracy: the
// trapezoidal rule lengthens the period of a mode of frequency omega by (omega dt)^2 / 12, so the
// default dt is the explicit limit dx / sqrt(g d_max): 0.8 % at 20 cells per wavelength. Volume:
// every operator is a difference of face fluxes and sum(hdot) = 0, so sum(delta) = 0 to round-off.
// Flooding and drying (Kass & Miller): a face whose higher side is dry passes no water; a dry cell
// below its neighbour's surface fills. A cell the step would drain below its ground gets its
// deficit back from the wet cells joined to it (DepthPositivity: a flux correction,
// volume-neutral, reported as positivity_volume).
//
// Velocity: the face discharges q = D u follow q_t = -g D grad h (what h_tt = L h and
// h_t = -div q need), each face integrated with the mid-step surface of its direction of the
// ADI splitting, so that -div(q) is the rate hdot whatever the iterations' residual, where L_x
// and L_y commute (updateDischarges), up to 4x the explicit limit. Elsewhere every face takes h~ =
// h^n + delta / 2, so the velocities change by gradients only, and when max |-div(q) - hdot|
// exceeds 1 % of max |hdot| a Poisson solve takes the disagreement out by a gradient
// (DischargeSync): the discharges stay the irrotational flow whose divergence is the rate, at any
// dt. u = q / D on the faces.
//
// The code: this class is the ADI core (swe_adi.cpp: the step's operators; swe_adi_kernels.cpp:
// their row and column kernels; the tridiagonal solves are core/solvers/tridiagonal.hpp's) and
// the model's interface; the corrections are collaborators, each in its own file:
// EnergyProjection (energy_projection.hpp), DischargeSync (discharge_sync.hpp) and
// DepthPositivity (depth_positivity.hpp).
#pragma once

#include <array>
#include <cstdint>

#include "core/grid/edges.hpp"
#include "core/model/manning_friction.hpp"
#include "core/model/model.hpp"
#include "models/swe_adi/depth_positivity.hpp"
#include "models/swe_adi/discharge_sync.hpp"
#include "models/swe_adi/energy_projection.hpp"
#include "models/swe_adi/open_edge_layer.hpp"
#include "models/swe_adi/swe_adi_kernels.hpp"
#include "models/swe_semi_lagrangian/swe_walls.hpp"

namespace wb {

class SweAdi final : public Model {
 public:
  SweAdi();

  static constexpr const char* kId = "swe-adi";
  static constexpr const char* kTitle = "Shallow water, implicit ADI (Kass & Miller)";
  std::string id() const override { return kId; }
  std::string title() const override { return kTitle; }

  void reset(const Domain& domain, const Field2D& eta0) override;
  // Infinity: the scheme is stable for any dt.
  double maxStableDt() const override;
  double preferredDt() const override { return dt_; }
  void step(double dt) override;

  const Field2D& eta() const override { return h_; }
  // Cell-centred depth-averaged velocity: the mean of the cell's two face velocities of the
  // step, u_C = (u_w + u_e) / 2, v_C = (v_s + v_n) / 2 (a closed face's velocity is 0),
  // computed when first asked for after a step (the step itself does not need it).
  const Field2D* velocityU() const override { return &cellVelocities(cellU_); }
  const Field2D* velocityV() const override { return &cellVelocities(cellV_); }
  // The four cells' velocities alone, from the face velocities (or, where those are stale, the
  // discharges), where the cell velocities are stale (gauges read it every step; the fields'
  // passes would cost a grid).
  std::optional<std::array<float, 2>> velocityAt(const BilinearCell& cell) const override;
  double addEta(const Field2D& delta) override;
  double changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) override;
  void shiftWindow(int di, int dj) override;
  void dampUnderBodies(const Field2D& rate, double dt) override;
  // Open edges: h, its rate and the discharges relax toward rest in the layer
  // (docs/open-edges.md); the water the layer takes out is the volume budget's sink.
  bool absorbsAtOpenEdges() const override { return true; }
  // Manning's n of the domain on the face discharges (applyFriction, swe_adi_friction.cpp).
  bool appliesBottomFriction() const override { return true; }
  bool floodsLand() const override { return true; }
  bool entersAtIncomingEdges() const override { return true; }
  double volumeSink() const override { return volumeSink_; }
  void setForce(const ForceField* force) override { force_ = force; }
  // Kinetic energy on the faces, where the velocities live: 1/2 sum_faces D_f u_f^2 dA with
  // D_f the face depth of the last step, the depth-integrated kinetic energy per unit density.
  double kineticEnergy() const override;
  // solver_iterations (ADI iterations per step), adi_correction (max |last correction| /
  // max |delta|: how far the iterations were from converged), dry_cells (depth at most
  // dry_threshold), positivity_volume (m^3 the drying correction moved in the last step),
  // discharge_mismatch (dischargeMismatch(), m/s), discharge_sync (1 when the last step
  // corrected the discharges, DischargeSync), adi_energy_check and adi_weight_delta /
  // adi_weight_correction (whether the last step was checked, and its projection's weights,
  // EnergyProjection), friction_energy (the discharges' kinetic energy that bottom friction
  // took out since reset, m^5/s^2; with a Manning n only).
  std::map<std::string, double> diagnostics() const override;
  // The energy the trapezoidal rule keeps (m^4 / s^2): 1/2 sum_cells hdot^2 dA + 1/2 sum_faces
  // g D_f ((h_N - h_C) / dx)^2 dA = 1/2 (hdot^T hdot + h^T (-L) h) dA, the face depths of the last
  // step. Exact solves keep it; the ADI iterations may only take it out (EnergyProjection).
  double waveEnergy() const;
  // The state's rate dh/dt (m/s).
  const Field2D& rate() const { return rate_; }
  // max |-div(q) - hdot| (m/s) over wet cells: the discharges' disagreement with the rate.
  double dischargeMismatch() const;

  // The explicit (CFL) limit dx / sqrt(g d_max), the default dt.
  double explicitLimit() const;
  // Face velocities (m/s): u on the face east of cell (i, j), v on the face north of it.
  const Field2D& faceU() const { return faceVelocities(u_); }
  const Field2D& faceV() const { return faceVelocities(v_); }

  static std::vector<ParamSpec> parameterSpecs();

 private:
  // The operators of one step, in step order: the ADI iterations (called inside one parallel
  // region) ...
  void iterate(double dt);
  void firstRowSweep(double dt);
  void assembleRhs(int j, double dt, const float* southDepth);
  void residual(int j);
  template <class PrepareRow>
  void sweepRows(PrepareRow prepareRow);
  enum class ColumnSweep { kFirst, kNext, kLast };
  void sweepColumns(ColumnSweep sweep);
  // ... the energy projection's inputs, the new discharges and surface ...
  EnergyProjection::Step projectionInputs();
  void updateDischarges(double dt);
  void updateSurface(double dt);
  // ... and after the region, the discharge correction, the drying correction and the open
  // edges' layer (core/grid/edges.hpp).
  DischargeSync::Fields dischargeFields();
  void prepareDischargeSync();
  void keepDepthNonNegative(double dt);
  void absorbAtOpenEdges(double dt);
  // Manning's bottom friction on the face discharges, the rate moved with them.
  void applyFriction(double dt);
  // The face velocities q / D_f of the present discharges and the cell velocities of those,
  // computed if stale; each returns which.
  const Field2D& faceVelocities(const Field2D& which) const;
  const Field2D& cellVelocities(const Field2D& which) const;

  const Domain* domain_ = nullptr;
  SweWalls walls_;          // open faces: the boundary handling in one place
  OpenEdgeLayer layer_;     // empty with walls on every side
  IncomingWaves incoming_;  // empty without incoming edges
  double volumeSink_ = 0.0;
  const ForceField* force_ = nullptr;
  // The state: the surface and its rate dh/dt (m/s).
  Field2D h_, rate_, ground_;
  // The collaborators of the step (each its own file): the energy check where the ADI iterate
  // may add energy, the discharges' correction toward the rate, the drying correction.
  EnergyProjection projection_;
  DischargeSync sync_;
  DepthPositivity positivity_;
  // Face discharges q = D u (m^2/s) and velocities q / D of the east and north faces.
  Field2D fluxX_, fluxY_;
  mutable Field2D u_, v_;  // a cache, like the cell velocities
  mutable bool faceVelocitiesStale_ = true;
  // D_f of the same faces (m), 0 when closed.
  Field2D faceDepthX_, faceDepthY_;
  float couple_ = 0.0f;  // q g / dx^2 of the step: the couplings are couple_ D_f
  Field2D pivotY_;       // the pivots of the column systems
  Field2D rhs_, delta_, work_;
  // A cache: stale after every step and every change of the face velocities. Velocities are
  // not needed by the step, only by its observers.
  mutable Field2D cellU_, cellV_;
  mutable bool cellVelocitiesStale_ = true;
  // Work space of the step, sized at reset (no allocation inside a step).
  std::vector<RowCounts> rowCounts_;
  std::vector<float> bandCorrection_, bandDelta_;
  // The row systems' couplings and Thomas factors, staged by bands of kRowBand rows, and a
  // staging buffer per thread.
  std::vector<float> bandC_, bandP_;
  std::vector<std::vector<float>> stages_;
  // Per row, where the friction pass left its north faces' changes (a thread's staging buffer).
  std::vector<const float*> blockEnd_;
  double maxRestDepth_ = 0.0;
  double dt_ = 0.01;
  float dryThreshold_ = 0.0f, damping_ = 0.0f;
  double theta_ = 0.5;  // the step's time weight (docs/swe-adi.md, "Scheme")
  int iterations_ = 1;
  int dryCells_ = 0, wetCells_ = 1;
  float rateMean_ = 0.0f;
  double positivityVolume_ = 0.0, lastCorrection_ = 0.0;
  ManningFriction friction_;     // the domain's n; inactive at n = 0
  double frictionEnergy_ = 0.0;  // kinetic energy friction took out since reset (m^5/s^2)
};

}  // namespace wb
