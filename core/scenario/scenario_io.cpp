// Scenario -> JSON, and Scenario -> Domain and initial elevation.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {
using nlohmann::json;

namespace {

Field2D readField(const FieldSource& source, int nx, int ny) {
  const std::string bytes = source.file.read();
  if (source.format == FieldFormat::Csv)
    return parseCsvField(bytes, source.file.describe(), nx, ny);
  return decodePngField(bytes, source.file.describe(), nx, ny);
}

// A field read from a file obeys the range of the key it stands for.
void requireRange(const Field2D& field, const FieldSource& source, const std::string& key,
                  double lo, double hi) {
  for (int j = 0; j < field.ny(); ++j)
    for (int i = 0; i < field.nx(); ++i) {
      const double value = field(i, j);
      if (value >= lo && value <= hi) continue;
      std::ostringstream why;
      why << source.file.describe() << ": cell (" << i << ", " << j << "): " << value
          << " m is outside [" << lo << ", " << hi << "] (" << key << ")";
      throw InputError(why.str());
    }
}

}  // namespace

// The key table's writers (core/scenario/scenario_keys.cpp): every key whose value is set.
json scenarioToJson(const Scenario& s) {
  json out = writeKeys(scenarioKeys(), s);
  return out;
}

void saveScenarioFile(const Scenario& scenario, const std::filesystem::path& file) {
  const std::string text = scenarioToJson(scenario).dump(2) + "\n";
  writeFileAtomically(file, [&](std::ostream& out) { out << text; });
}

namespace {

// Thacker's reference is its own ground (references.hpp, ThackerBowl): the bowl centred in the
// grid, which must hold the shoreline at its widest with a cell to spare, on a domain that
// gives no ground or walls of its own.
void shapeThackerBowl(const Scenario& s, Domain& domain) {
  const std::string where = s.source + ": reference: thacker ";
  if (s.bathymetry || s.terrain)
    throw InputError(where + "sets the ground (a bowl): give no water.bathymetry or terrain");
  if (s.mask || domain.wetCount() != 1LL * s.grid.nx * s.grid.ny)
    throw InputError(where + "needs water on every cell (no mask walls)");
  const ThackerBowl bowl = Reference(*s.reference, domain).thacker();
  const double room = 0.5 * std::min(s.grid.width(), s.grid.height()) - s.grid.dx;
  if (!(bowl.maxShorelineRadius() <= room)) {
    std::ostringstream why;
    why << where << "its shoreline reaches " << bowl.maxShorelineRadius()
        << " m from the centre; the grid holds " << room
        << " m (half its shorter side less a cell)";
    throw InputError(why.str());
  }
  Field2D rest(s.grid.nx, s.grid.ny);
  for (int j = 0; j < s.grid.ny; ++j)
    for (int i = 0; i < s.grid.nx; ++i)
      rest(i, j) = float(bowl.restDepth(s.grid.x(i), s.grid.y(j)));
  domain.setRestDepth(rest);
}

}  // namespace

Domain buildDomain(const Scenario& s) {
  Domain domain(s.grid, s.g, s.depth);
  domain.setEdges(s.edges);
  if (s.bathymetry) {
    Field2D depth = readField(*s.bathymetry, s.grid.nx, s.grid.ny);
    if (s.bathymetry->format == FieldFormat::Png)
      for (std::size_t k = 0; k < depth.size(); ++k)
        depth.data()[k] = float(s.bathymetryMinDepth +
                                depth.data()[k] * (s.bathymetryMaxDepth - s.bathymetryMinDepth));
    requireRange(depth, *s.bathymetry, "water.bathymetry", -kMaxFieldMetres, kMaxFieldMetres);
    domain.setRestDepth(depth);
  }
  if (s.mask) {
    const Field2D mask = readField(*s.mask, s.grid.nx, s.grid.ny);
    std::vector<std::uint8_t> wet(mask.size());
    // CSV holds 1 = water, 0 = solid; a PNG holds white = water, black = solid.
    for (std::size_t k = 0; k < mask.size(); ++k)
      wet[k] = mask.data()[k] >= 0.5f;
    domain.setMask(wet);
  } else {
    domain.applyPreset(parseMaskPreset(s.maskPreset, s.source + ": domain.mask"));
  }
  if (s.terrain) {
    Field2D height = decodePngField(s.terrain->read(), s.terrain->describe(), s.grid.nx, s.grid.ny);
    for (std::size_t k = 0; k < height.size(); ++k)
      height.data()[k] *= float(s.terrainHeightScale);
    domain.applyTerrain(height, s.seaLevel, s.coast);
  }
  if (s.reference && s.reference->kind == ReferenceSpec::Kind::Thacker) shapeThackerBowl(s, domain);
  if (domain.wetCount() == 0) throw InputError(s.source + ": domain has no water cells");
  return domain;
}

// The largest standing-mode amplitude, as a share of the depth (docs/scenario.md, "reference").
constexpr double kMaxLinearModeShare = 0.1;

// A standing mode and a dam break are exact on flat ground with no wall inside the grid, and
// a standing mode only between walls on every side (docs/scenario.md, "reference").
void checkReferenceDomain(const Scenario& s, const Domain& domain) {
  const ReferenceSpec& spec = *s.reference;
  // Lake at rest: any domain. Thacker: its own ground, checked by shapeThackerBowl.
  if (spec.kind == ReferenceSpec::Kind::LakeAtRest || spec.kind == ReferenceSpec::Kind::Thacker)
    return;
  const std::string where = s.source + ": reference: " + referenceKindName(spec.kind) + " ";
  const long long cells = 1LL * s.grid.nx * s.grid.ny;
  if (domain.wetCount() != cells)
    throw InputError(where + "needs water on every cell (no mask walls): the domain has " +
                     std::to_string(cells - domain.wetCount()) + " solid cells");
  const Field2D& rest = domain.restDepth();
  const auto [low, high] = std::minmax_element(rest.data(), rest.data() + rest.size());
  if (*low != *high) {
    std::ostringstream why;
    why << where << "needs flat ground: the rest depth runs from " << *low << " to " << *high
        << " m (bathymetry or terrain)";
    throw InputError(why.str());
  }
  // The standing mode is the linear one: its nonlinear terms (u u_x beside g eta_x) are a
  // fraction A / d of the linear ones, so the mode is exact only where that fraction is small;
  // beyond a tenth of the depth the error columns would measure the reference's own error.
  if (spec.kind == ReferenceSpec::Kind::StandingMode &&
      !(std::fabs(spec.amplitude) <= kMaxLinearModeShare * double(*low))) {
    std::ostringstream why;
    why << s.source << ": reference.amplitude: " << spec.amplitude << " m on " << *low
        << " m of water is beyond the linear mode's small-amplitude bound, |amplitude| <= "
        << kMaxLinearModeShare << " x depth = " << kMaxLinearModeShare * double(*low) << " m";
    throw InputError(why.str());
  }
  const bool walled =
      spec.kind == ReferenceSpec::Kind::StandingMode || spec.kind == ReferenceSpec::Kind::Linear;
  if (walled && s.edges.anyOpen())
    throw InputError(where + "needs walls on every side: domain.edges has an open side");
  if (spec.kind == ReferenceSpec::Kind::Linear) {
    // Drops and rain change the surface at rest; nothing else has a linear solution here.
    const ExcitationSpecs& e = s.excitations;
    const char* other = !e.boats.empty()         ? "a boat"
                        : !e.wind.empty()        ? "wind"
                        : !e.stirs.empty()       ? "a stir"
                        : !e.bodies.empty()      ? "a body"
                        : !e.strokes.empty()     ? "a mask stroke"
                        : !s.rigidBodies.empty() ? "buoyant bodies"
                                                 : nullptr;
    if (other) throw InputError(where + "holds for drops and rain only: the scenario has " + other);
  }
}

Field2D buildInitialEta(const Scenario& s, const Domain& domain) {
  const double bound = kMaxEtaDepths * domain.maxWetDepth();
  std::ostringstream limit;
  limit << "at most " << kMaxEtaDepths << " times the deepest water, " << domain.maxWetDepth()
        << " m";
  Field2D eta(s.grid.nx, s.grid.ny);
  if (s.reference) checkReferenceDomain(s, domain);
  if (s.reference && s.reference->kind != ReferenceSpec::Kind::Linear) {
    const Reference reference(*s.reference, domain);
    for (int j = 0; j < eta.ny(); ++j)
      for (int i = 0; i < eta.nx(); ++i)
        eta(i, j) = float(reference.eta(s.grid.x(i), s.grid.y(j), 0.0));
    const auto [low, high] = std::minmax_element(eta.data(), eta.data() + eta.size());
    if (std::max(-double(*low), double(*high)) > bound) {
      std::ostringstream why;
      why << s.source << ": reference: its initial surface reaches "
          << std::max(-double(*low), double(*high)) << " m (" << limit.str() << ")";
      throw InputError(why.str());
    }
  }
  if (s.initialEta) {
    eta = readField(*s.initialEta, s.grid.nx, s.grid.ny);
    requireRange(eta, *s.initialEta, "initial.eta, " + limit.str(), -bound, bound);
  }
  for (std::size_t k = 0; k < s.initialDrops.size(); ++k) {
    const SurfaceEvent& drop = s.initialDrops[k];
    if (!(std::fabs(drop.amplitude) <= bound)) {
      std::ostringstream why;
      why << s.source << ": initial.drops[" << k << "].amplitude: " << drop.amplitude
          << " m is outside [" << -bound << ", " << bound << "] (" << limit.str() << ")";
      throw InputError(why.str());
    }
    stampGaussian(eta, domain, drop);
  }
  for (int j = 0; j < eta.ny(); ++j)
    for (int i = 0; i < eta.nx(); ++i)
      if (!domain.isWet(i, j)) eta(i, j) = 0.0f;
  return eta;
}

}  // namespace wb
