// Diagnostics measured the same way for every model (docs/architecture.md):
//   volume(t) = volume(0) + sources(t) + sink(t) + displaced(t) + masked(t) + window(t)
//               + drift(t),
//   volume = sum(eta) dA over wet cells, the absorbing layers of open edges included
//   (core/grid/edges.hpp); sink is what those layers took out (Model::volumeSink, 0 with
//   walls); masked what mask strokes made during the run added or removed
//   (Model::changeMask); window what the travelling window's re-centring took out
//   (Model::shiftWindow: the water of the cells left behind, less that of the cells entering);
//   potential energy = 1/2 g sum(eta^2) dA (per unit density, m^5/s^2), over the same cells
//   as the volume (what is still in a layer counts until the layer has damped it);
//   kinetic energy from each model's own state (Model::kineticEnergy).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

// What one pass over a surface gives: its wet volume and potential energy, and over all cells
// its largest |eta| and whether every value is finite (the Comparison's blow-up check).
struct SurfaceSummary {
  double volume = 0.0;           // sum(eta) dA over wet cells (m^3)
  double potentialEnergy = 0.0;  // 1/2 g sum(eta^2) dA over wet cells
  float maxAbs = 0.0f;
  bool finite = true;
};
// Rows are summed in fixed blocks, added in order: the sums do not depend on the thread count.
SurfaceSummary summarizeSurface(const Field2D& eta, const Domain& domain);
double wetVolume(const Field2D& eta, const Domain& domain);

// Solver figures a model may report in Model::diagnostics(); the CSV has a column for each.
inline constexpr std::array<std::string_view, 4> kSolverColumns = {
    "solver_iterations", "solver_residual", "divergence_max", "bodies_in_solid"};

struct FrameRecord {
  int frame = 0;
  double time = 0.0;
  std::string model;
  double volume = 0.0;
  double volumeSources = 0.0;
  double volumeSink = 0.0;       // taken out by the layers of open edges (<= 0 when water left)
  double volumeDisplaced = 0.0;  // pushed in by buoyant bodies as they sank in (m^3)
  double volumeMasked = 0.0;     // added (removed: < 0) by mask strokes during the run (m^3)
  double volumeWindow = 0.0;     // added (removed: < 0) by the window's re-centring (m^3)
  double volumeDrift = 0.0;
  double energyPotential = 0.0;
  double energyKinetic = 0.0;
  double stepMs = 0.0;  // mean wall time of one step in this frame
  int substeps = 0;
  double dt = 0.0;
  double maxAbsEta = 0.0;
  std::map<std::string, double> solver;
  // Against the scenario's reference (core/measure/references.hpp), when it names one.
  std::optional<double> errorL1, errorL2, errorMax, frontX;
  // The open sea under the model (scenario "ocean"), the same for every model: its potential
  // and kinetic energy (core/ocean/ocean_layer.hpp), apart from the model's own.
  std::optional<double> oceanPotential, oceanKinetic;
  double energyTotal() const { return energyPotential + energyKinetic; }
};

// The median of stepMs over the records [end - window, end) of one model's history (fewer at
// its start; 0 for none). Wall times jump when the machine is busy elsewhere; the median shows
// the model's own cost.
double medianStepMs(const std::vector<FrameRecord>& history, std::size_t end, std::size_t window);

// series.csv: one row per model per frame (docs/cli.md, series.csv).
void writeSeriesHeader(std::ostream& out);
void writeSeriesRow(std::ostream& out, const FrameRecord& record);

}  // namespace wb
