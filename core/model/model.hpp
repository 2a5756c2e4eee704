// The one interface every water model implements. A model owns its state on the shared
// Domain's grid, derives its constants from the Domain (g, rest depth, dx) and its declared
// parameters, and reports the surface elevation eta (height above rest) on that grid.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/grid/interpolation.hpp"
#include "core/model/parameters.hpp"

namespace wb {

// A horizontal acceleration field (m/s^2) acting on the water during a step, e.g. wind.
struct ForceField {
  Field2D ax;
  Field2D ay;
};

class Model {
 public:
  virtual ~Model() = default;

  virtual std::string id() const = 0;     // "damped-wave", ...
  virtual std::string title() const = 0;  // "Damped wave equation (Nishidate & ...)"
  ParamValues& params() { return params_; }
  const ParamValues& params() const { return params_; }

  // Builds the state for the domain and initial elevation (eta0 on the domain's grid) with
  // the current parameters. Throws InputError when a parameter is unusable for this domain
  // (e.g. a user dt beyond the stability bound without `force`).
  virtual void reset(const Domain& domain, const Field2D& eta0) = 0;

  // The derived stability limit of the model's time step for the current domain (s);
  // infinity when the method has none.
  virtual double maxStableDt() const = 0;
  // The step the model wants: the user's dt or an automatic one inside the bound (s).
  virtual double preferredDt() const = 0;
  // Advances the state by dt (dt <= preferredDt()).
  virtual void step(double dt) = 0;

  virtual const Field2D& eta() const = 0;
  // Depth-averaged velocity (m/s) where the model has one; nullptr otherwise.
  virtual const Field2D* velocityU() const { return nullptr; }
  virtual const Field2D* velocityV() const { return nullptr; }
  // The velocity's bilinear interpolant (u, v) in a cell found by bilinearCell, as
  // sampleBilinear takes it from velocityU() and velocityV(); nullopt without a velocity. A
  // model that computes those fields on demand reads only the four cells' (gauges sample every
  // step).
  virtual std::optional<std::array<float, 2>> velocityAt(const BilinearCell& cell) const {
    const Field2D *u = velocityU(), *v = velocityV();
    if (!u || !v) return std::nullopt;
    return std::array<float, 2>{sampleBilinear(*u, cell), sampleBilinear(*v, cell)};
  }

  // Displaces the surface by delta (m) on wet cells without changing the water's velocity
  // (a drop, a wake). Returns the volume added (m^3).
  virtual double addEta(const Field2D& delta) = 0;
  // A mask stroke while the model runs: `domain`, the domain reset() was given, has a new mask
  // (and rest depth) at `cells` (row-major). A cell turned solid loses its water and velocity;
  // a cell turned wet starts at rest at the rest level (eta = 0, or dry on ground above it):
  // the one state every model defines alike without neighbours (a wide stroke's inner cells
  // have none), so the models stay comparable; the surface step to its neighbours runs off
  // as a small wave, like a dam opened. Walls, stencils, wet masks and open-edge layers follow
  // the new mask. Returns the volume the change added (m^3, negative when it took water away):
  // the budget's masked term, so that drift stays the model's own error.
  virtual double changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) = 0;
  // The travelling window (docs/scenario.md#window) re-centres by whole cells: cell (i, j)
  // takes the state of cell (i + di, j + dj), cells entering start at rest (eta 0, no
  // velocity), what leaves is gone. Only on open water of one depth, without walls. A model
  // that cannot translate its state throws InputError naming itself.
  virtual void shiftWindow(int di, int dj) {
    (void)di, (void)dj;
    throw InputError(id() + ": cannot travel with a window (ocean.window)");
  }
  // Accelerates the water during the next steps; models without velocity ignore it.
  virtual void setForce(const ForceField* force) { (void)force; }
  // The wave shadow of buoyant bodies (core/forcing/wave_shadow.hpp): after a step, damps the
  // water's motion by the extra rate (1/s) of each cell over dt, keeping the volume.
  virtual void dampUnderBodies(const Field2D& rate, double dt) = 0;

  // Kinetic energy per unit density (m^5/s^2), from the model's own state; each model
  // documents its definition beside its implementation.
  virtual double kineticEnergy() const = 0;
  // Open edges (core/grid/edges.hpp): whether reset() puts an absorbing layer on the
  // domain's open sides. The Comparison refuses open edges for a model that does not.
  virtual bool absorbsAtOpenEdges() const { return false; }
  // Whether the model floods and drains ground above the rest level (wet/dry physics,
  // docs/wet-dry.md); a model that does not takes such land as a wall. Maximum maps report a
  // run-up only for a model that does (core/measure/max_map.hpp).
  virtual bool floodsLand() const { return false; }
  // Incoming-wave edges (core/grid/incoming_wave.hpp): whether the layers of incoming sides
  // let the prescribed wave in. The Comparison refuses incoming edges for a model that does not.
  virtual bool entersAtIncomingEdges() const { return false; }
  // Volume the absorbing layers took out of the water since reset (m^3; negative when water
  // left, positive when an incoming edge brought more in than left): the sink term of the
  // volume budget, so that drift stays the model's own error.
  virtual double volumeSink() const { return 0.0; }
  // Bottom friction (the domain's Manning n, core/model/manning_friction.hpp): whether the
  // model applies it. The Comparison notes a non-zero n that a model does not apply.
  virtual bool appliesBottomFriction() const { return false; }

  // Solver figures of the last step, e.g. {"solver_iterations": 2, "divergence_max": 1e-7}.
  virtual std::map<std::string, double> diagnostics() const { return {}; }

 protected:
  explicit Model(std::vector<ParamSpec> specs) : params_(std::move(specs)) {}

 private:
  ParamValues params_;
};

}  // namespace wb
