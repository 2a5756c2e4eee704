// Scenario -> JSON, and Scenario -> Domain and initial elevation.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/incoming_keys.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {
using nlohmann::json;

namespace {

// Builtin resources by name ("builtin:coast.png"), files by the path they were read from:
// either resolves from the folder the scenario is saved to.
std::string fileJson(const FileRef& file) {
  return file.builtin ? file.describe() : file.path.generic_string();
}

json fieldJson(const FieldSource& field) {
  return {{field.format == FieldFormat::Csv ? "csv" : "png", fileJson(field.file)}};
}

json dropJson(const SurfaceEvent& drop, bool timed) {
  json out = {{"x", drop.x}, {"y", drop.y}, {"radius", drop.radius}, {"amplitude", drop.amplitude}};
  if (timed) out["type"] = "drop", out["time"] = drop.time;
  return out;
}

// The long form always: it says which sides are open and the layer's width.
json edgesJson(const Edges& edges) {
  json out;
  for (Side side : kSides)
    out[sideName(side)] = edges.kind(side) == EdgeKind::Incoming
                              ? incomingEdgeJson(edges.incoming[std::size_t(side)])
                              : json(edgeKindName(edges.kind(side)));
  out["layer_cells"] = edges.layerCells;
  return out;
}

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

json scenarioToJson(const Scenario& s) {
  json out;
  out["name"] = s.name;
  if (!s.description.empty()) out["description"] = s.description;
  out["grid"] = {{"nx", s.grid.nx}, {"ny", s.grid.ny}, {"dx", s.grid.dx}};
  out["water"] = {{"g", s.g}, {"depth", s.depth}, {"density", s.waterDensity}};
  if (s.bathymetry) {
    out["water"]["bathymetry"] = fieldJson(*s.bathymetry);
    out["water"]["min_depth"] = s.bathymetryMinDepth;
    out["water"]["max_depth"] = s.bathymetryMaxDepth;
  }
  out["domain"]["mask"] = s.mask ? fieldJson(*s.mask) : json(s.maskPreset);
  if (s.edges.anyOpen()) out["domain"]["edges"] = edgesJson(s.edges);
  if (s.terrain)
    out["terrain"] = {{"png", fileJson(*s.terrain)},
                      {"sea_level", s.seaLevel},
                      {"height_scale", s.terrainHeightScale}};
  if (s.terrain && s.coast == Domain::Coast::Ground) out["terrain"]["coast"] = "ground";
  if (s.initialEta) out["initial"]["eta"] = fieldJson(*s.initialEta);
  for (const auto& drop : s.initialDrops)
    out["initial"]["drops"].push_back(dropJson(drop, false));
  json excitations = json::array();
  for (const auto& drop : s.excitations.drops)
    excitations.push_back(dropJson(drop, true));
  for (const auto& rain : s.excitations.rain) {
    json r = {{"type", "rain"},        {"rate", rain.rate},           {"count", rain.count},
              {"radius", rain.radius}, {"amplitude", rain.amplitude}, {"start", rain.start}};
    if (rain.end < 1e300) r["end"] = rain.end;
    excitations.push_back(r);
  }
  for (const auto& boat : s.excitations.boats) {
    json b = {{"type", "boat"},
              {"x", boat.startX},
              {"y", boat.startY},
              {"acceleration", boat.acceleration},
              {"max_speed", boat.maxSpeed},
              {"wake_radius", boat.wakeRadius},
              {"wake_amplitude", boat.wakeAmplitude},
              {"tilt_gain", boat.tiltGain},
              {"arrive_radius", boat.arriveRadius},
              {"step", boat.step}};
    for (const auto& [x, y] : boat.waypoints)
      b["path"].push_back({x, y});
    for (const auto& steer : boat.steering)
      b["steer"].push_back({{"time", steer.time}, {"target", {steer.x, steer.y}}});
    excitations.push_back(b);
  }
  for (const auto& wind : s.excitations.wind) {
    json w = {{"type", "wind"},
              {"direction", wind.direction},
              {"strength", wind.strength},
              {"start", wind.start}};
    if (wind.end < 1e300) w["end"] = wind.end;
    if (wind.hasRegion)
      w["region"] = {{"x0", wind.x0}, {"y0", wind.y0}, {"x1", wind.x1}, {"y1", wind.y1}};
    excitations.push_back(w);
  }
  for (const auto& stir : s.excitations.stirs)
    excitations.push_back({{"type", "stir"},
                           {"time", stir.start},
                           {"x", stir.x},
                           {"y", stir.y},
                           {"radius", stir.radius},
                           {"ax", stir.ax},
                           {"ay", stir.ay},
                           {"duration", stir.duration}});
  for (const auto& body : s.excitations.bodies) {
    json b = {{"type", "body"}, {"time", body.time}};
    b.update(bodyJson(body.spec));
    excitations.push_back(b);
  }
  for (const auto& stroke : s.excitations.strokes) {
    json dabs = json::array();
    for (const MaskDab& dab : stroke.dabs)
      dabs.push_back({{"x", dab.x}, {"y", dab.y}, {"radius", dab.radius}});
    excitations.push_back(
        {{"type", "mask"}, {"time", stroke.time}, {"solid", stroke.solid}, {"dabs", dabs}});
  }
  if (!excitations.empty()) out["excitations"] = excitations;
  if (s.bodies.count > 0) out["bodies"] = {{"count", s.bodies.count}, {"size", s.bodies.size}};
  if (!s.rigidBodies.empty()) {
    out["bodies"] = json::array();
    for (const BodySpec& body : s.rigidBodies)
      out["bodies"].push_back(bodyJson(body));
  }
  for (const auto& [id, params] : s.modelParams)
    out["models"][id] = params;
  if (s.reference) {
    const ReferenceSpec& r = *s.reference;
    json reference = {{"kind", referenceKindName(r.kind)}};
    if (r.kind == ReferenceSpec::Kind::StandingMode)
      reference.update({{"m", r.m}, {"n", r.n}, {"amplitude", r.amplitude}});
    if (r.kind == ReferenceSpec::Kind::DamBreak)
      reference.update({{"x0", r.x0}, {"h_left", r.hLeft}, {"h_right", r.hRight}});
    if (r.kind == ReferenceSpec::Kind::Thacker)
      reference.update({{"a", r.a}, {"h0", r.h0}, {"r0", r.r0}});
    if (r.kind == ReferenceSpec::Kind::Linear)
      reference["dispersion"] = r.dispersion == LinearReference::Dispersion::ShallowWater
                                    ? "shallow-water"
                                    : "finite-depth";
    out["reference"] = reference;
  }
  if (s.ocean) out["ocean"] = *s.ocean;
  for (const GaugeSpec& g : s.gauges)
    out["gauges"].push_back({{"name", g.name}, {"x", g.x}, {"y", g.y}});
  for (const TransectSpec& t : s.transects)
    out["transects"].push_back(
        {{"name", t.name}, {"from", {t.x0, t.y0}}, {"to", {t.x1, t.y1}}, {"samples", t.samples}});
  out["tick"] = s.tick;
  out["frame_dt"] = s.frameDt;
  out["duration"] = s.duration;
  out["seed"] = s.seed;
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
