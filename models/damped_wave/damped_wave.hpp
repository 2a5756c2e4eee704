// damped-wave: the damped 2-D wave equation of Nishidate & Nikishkov (2005) with the
// implementation notes of Bressler (2007).
//
//   h_tt + k h_t = c^2 lap(h)                                  (Bressler eq. 1)
// The paper's eq. 3 writes -k h_t (anti-damping) and its eq. 5 flips the Laplacian's sign;
// this is the consistent form. Explicit three-level scheme, R = 1 - k dt:
//   h^{n+1} = h^n + R (h^n - h^{n-1}) + (c^2 dt^2 / dx^2) L(h^n)  (Bressler eq. 2)
// with L the 4- or 8-neighbour operator of eqs. 5 and 6, the latter normalised (see
// core/grid/stencil.hpp). Walls: mirror (the paper's symmetry condition) or zero (Bressler 3.1).
//
// Stability (von Neumann, derived in docs/models.md, damped-wave): the amplitude of a grid mode
// with -L eigenvalue s obeys a^{n+1} = (1 + R - mu s) a^n - R a^{n-1}, mu = c^2 dt^2/dx^2, which is
// bounded iff mu s <= 2 (1 + R). With s_max = 8 (4 neighbours) this is Bressler's
//   k dt + 4 c^2 dt^2 / dx^2 <= 2,
// and with s_max = 4 (normalised 8 neighbours)
//   k dt + 2 c^2 dt^2 / dx^2 <= 2.
//
// With speed = local, eq. 1 takes the ground's depth: h_tt + k h_t = div(c^2 grad h), c^2 = g d,
// in flux form on the stencil's links (L_d of core/grid/stencil.hpp), mu = c_max^2 dt^2 / dx^2
// with c_max = sqrt(g d_max); the bounds above hold with c = c_max.
#pragma once

#include <optional>

#include "core/grid/edges.hpp"
#include "core/grid/stencil.hpp"
#include "core/measure/wave_energy.hpp"
#include "core/model/model.hpp"
#include "core/model/rest_start.hpp"

namespace wb {

class DampedWave final : public Model {
 public:
  DampedWave();

  static constexpr const char* kId = "damped-wave";
  static constexpr const char* kTitle = "Damped wave (Nishidate & Nikishkov)";
  std::string id() const override { return kId; }
  std::string title() const override { return kTitle; }

  void reset(const Domain& domain, const Field2D& eta0) override;
  double maxStableDt() const override;
  double preferredDt() const override { return dt_; }
  void step(double dt) override;

  const Field2D& eta() const override { return *current_; }
  double addEta(const Field2D& delta) override;
  double changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) override;
  void shiftWindow(int di, int dj) override;
  void dampUnderBodies(const Field2D& rate, double dt) override;
  // Kinetic energy: core/measure/wave_energy.hpp, from the flow the scheme is equivalent to; with
  // k = 0 potential + kinetic is the energy leapfrog conserves exactly.
  double kineticEnergy() const override;
  std::map<std::string, double> diagnostics() const override;
  bool absorbsAtOpenEdges() const override { return true; }
  bool entersAtIncomingEdges() const override { return true; }
  double volumeSink() const override { return pml_.volumeSink(); }

  // With speed = local, the deepest water's c (the one of the bound).
  double waveSpeed() const { return c_; }
  bool localSpeed() const { return stencil_.localDepth(); }
  double damping() const { return k_; }
  const WetStencil& stencil() const { return stencil_; }

  static std::vector<ParamSpec> parameterSpecs();
  // The largest dt with k dt + (s_max / 2) c^2 dt^2 / dx^2 <= 2.
  static double stabilityLimit(double k, double c, double dx, double spectralRadius);

 private:
  // Eq. 2 (Bressler) / eqs. 5-6 (Nishidate), over interior spans and edge cells.
  void advanceHeight(double dt);
  // The open edges' layer (core/grid/edges.hpp) on h^{n+1}.
  void absorbAtOpenEdges(double dt);
  const float* incomingAt(double offset);
  // The operator of the surface's h_tt at rest (core/model/rest_start.hpp).
  RestStart::Wave restWave();

  Domain walled_;                   // the domain given to reset, land above rest made solid
  const Domain* domain_ = nullptr;  // &walled_
  WetStencil stencil_;
  bool mirrorWalls_ = true;               // the boundary parameter, settled in reset
  LinkDepth links_ = LinkDepth::Uniform;  // the speed parameter, settled in reset
  WavePml pml_;
  IncomingWaves incoming_;  // empty without incoming edges
  // The surface h^n and the next one h^{n+1} (swapped each step), and the increment
  // v^n = h^n - h^{n-1} (core/grid/wave_levels.hpp).
  Field2D surfaces_[2];
  Field2D* current_ = &surfaces_[0];
  Field2D* next_ = &surfaces_[1];
  Field2D rate_;
  RestStart restStart_;  // v^0 of a surface at rest
  double c_ = 1.0, k_ = 0.0, dt_ = 0.01, lastDt_ = 0.0;
  // Kinetic energy is computed on demand (once per frame), warm-started from the last phi.
  mutable WaveKineticEnergy kinetic_;
  mutable std::optional<double> kineticCache_;
};

}  // namespace wb
