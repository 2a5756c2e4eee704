// The scenario's keys with a grammar of their own: the domain's edges, gauges, transects, the
// exact reference and the ocean's travelling window (docs/scenario.md).
#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "core/scenario/scenario_sections.hpp"

#include "core/scenario/gauge_record_keys.hpp"

namespace wb {
using nlohmann::json;

namespace {

// A name that is a column of a CSV file (gauges.csv, transects.csv).
std::string csvName(ObjectReader& r, const std::string& fallback) {
  std::string name = r.text("name", fallback);
  if (name.find_first_of(",\"\n\r") != std::string::npos)
    ObjectReader::fail(r.at("name"), "must not hold a comma, a quote or a line break");
  return name;
}

// Gauges (transects) are told apart in gauges.csv (transects.csv) by their names alone: a name
// given twice in one list is refused at its second use, naming the first.
void requireUniqueName(std::map<std::string, std::size_t>& seen, const std::string& name,
                       std::size_t k, ObjectReader& r, const std::string& list) {
  const auto [first, added] = seen.try_emplace(name, k);
  if (!added)
    ObjectReader::fail(r.at("name"), "'" + name + "' is already the name of " + list + "[" +
                                         std::to_string(first->second) +
                                         "]; each needs its own (its rows are told apart by it)");
}

// A point [x, y] inside the pool.
std::pair<double, double> readPoint(const json& v, const std::string& where, const Grid& grid) {
  if (!v.is_array() || v.size() != 2) ObjectReader::fail(where, "must be [x, y]");
  return {ObjectReader::checkedNumber(v[0], where, 0, grid.width()),
          ObjectReader::checkedNumber(v[1], where, 0, grid.height())};
}

// "window": {"follow": b, "size": [w, h]}: the grid travels with the boat towing body b
// (docs/scenario.md#window). The window is the whole grid: `size`, if given, must be its extent.
OceanWindow readWindow(const json& value, const std::string& where, const Scenario& s) {
  ObjectReader r(value, where);
  OceanWindow window;
  if (s.rigidBodies.empty())
    ObjectReader::fail(r.at("follow"), "the scenario has no body to follow");
  window.follow = std::size_t(r.requiredInteger("follow", 0, int(s.rigidBodies.size() - 1)));
  if (!s.rigidBodies[window.follow].towedBy)
    ObjectReader::fail(r.at("follow"), "body " + std::to_string(window.follow) +
                                           " is not towed (towed_by): the window follows the "
                                           "boat that tows it, the same for every model");
  if (r.has("size")) {
    const json& size = r.raw("size");
    if (!size.is_array() || size.size() != 2) ObjectReader::fail(r.at("size"), "must be [w, h]");
    const double w = ObjectReader::checkedNumber(size[0], r.at("size"), 0, kHuge);
    const double h = ObjectReader::checkedNumber(size[1], r.at("size"), 0, kHuge);
    const auto refuse = [&](const char* compared, const char* advice) {
      std::ostringstream why;
      why << "[" << w << ", " << h << "] m is " << compared << " than the grid (" << s.grid.width()
          << " x " << s.grid.height() << " m): " << advice;
      ObjectReader::fail(r.at("size"), why.str());
    };
    const double slack = 0.5 * s.grid.dx;
    if (w > s.grid.width() + slack || h > s.grid.height() + slack)
      refuse("larger", "the window is the local grid");
    if (w < s.grid.width() - slack || h < s.grid.height() - slack)
      refuse("smaller", "the window is the whole local grid; size it with grid.nx and grid.ny");
  }
  r.finish();
  if (s.maskPreset != "rect" || s.mask || s.bathymetry || s.terrain || s.terrainFile)
    ObjectReader::fail(where,
                       "the window travels, so the domain must be open water of one "
                       "depth: no mask, bathymetry or terrain");
  return window;
}

}  // namespace

std::vector<GaugeSpec> readGauges(const json& list, const std::string& where, const Grid& grid,
                                  const ScenarioFiles& files) {
  if (!list.is_array()) ObjectReader::fail(where, "must be [{\"name\", \"x\", \"y\"}, ...]");
  std::vector<GaugeSpec> gauges;
  std::map<std::string, std::size_t> names;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ObjectReader r(list[k], where + "[" + std::to_string(k) + "]");
    GaugeSpec gauge;
    gauge.name = csvName(r, "gauge " + std::to_string(k));
    requireUniqueName(names, gauge.name, k, r, "gauges");
    gauge.x = r.requiredNumber("x", 0, grid.width());
    gauge.y = r.requiredNumber("y", 0, grid.height());
    if (r.has("record")) gauge.record = readGaugeRecord(r.raw("record"), r.at("record"), files);
    r.finish();
    gauges.push_back(gauge);
  }
  return gauges;
}

// "reference": the exact solution the comparison is measured against (docs/scenario.md).
ReferenceSpec readReference(const json& value, const std::string& where, const Grid& grid) {
  ObjectReader r(value, where);
  ReferenceSpec spec;
  const std::string kind = r.text("kind", "");
  if (kind == "lake-at-rest") {
    spec.kind = ReferenceSpec::Kind::LakeAtRest;
  } else if (kind == "standing-mode") {
    spec.kind = ReferenceSpec::Kind::StandingMode;
    spec.m = r.integer("m", spec.m, 0, std::max(grid.nx, grid.ny) / 2);
    spec.n = r.integer("n", spec.n, 0, std::max(grid.nx, grid.ny) / 2);
    if (spec.m == 0 && spec.n == 0) ObjectReader::fail(r.at("n"), "m and n are both 0: no wave");
    spec.amplitude = r.number("amplitude", spec.amplitude, -1e3, 1e3);
  } else if (kind == "dam-break") {
    spec.kind = ReferenceSpec::Kind::DamBreak;
    spec.x0 = r.requiredNumber("x0", 0.0, grid.width());
    // A dam on an end wall (or beyond the last cell centre) leaves one side without water the
    // grid holds, while the 1-D solution drains it through the wall.
    const double first = 0.5 * grid.dx, last = grid.width() - 0.5 * grid.dx;
    if (!(spec.x0 > first && spec.x0 < last)) {
      std::ostringstream why;
      why << spec.x0 << " m must lie strictly inside the strip, between its first and last cell "
          << "centres (" << first << ", " << last << ") m";
      ObjectReader::fail(r.at("x0"), why.str());
    }
    spec.hLeft = r.requiredNumber("h_left", 1e-3, kMaxFieldMetres);
    spec.hRight = r.number("h_right", 0.0, 0.0, kMaxFieldMetres);
    if (!(spec.hRight < spec.hLeft))
      ObjectReader::fail(r.at("h_right"),
                         "must be less than h_left (the dam holds the deeper water on its left)");
  } else if (kind == "thacker") {
    spec.kind = ReferenceSpec::Kind::Thacker;
    spec.a = r.number("a", spec.a, 1e-3, kMaxFieldMetres);
    spec.h0 = r.number("h0", spec.h0, 1e-4, kMaxFieldMetres);
    spec.r0 = r.number("r0", spec.r0, 1e-3, kMaxFieldMetres);
  } else if (kind == "linear") {
    spec.kind = ReferenceSpec::Kind::Linear;
    const std::string dispersion = r.text("dispersion", "finite-depth");
    if (dispersion == "shallow-water")
      spec.dispersion = LinearReference::Dispersion::ShallowWater;
    else if (dispersion != "finite-depth")
      ObjectReader::fail(r.at("dispersion"), "must be \"finite-depth\" or \"shallow-water\"");
  } else {
    ObjectReader::fail(r.at("kind"),
                       "must be \"lake-at-rest\", \"standing-mode\", "
                       "\"dam-break\", \"thacker\" or \"linear\"");
  }
  r.finish();
  return spec;
}

std::vector<TransectSpec> readTransects(const json& list, const std::string& where,
                                        const Grid& grid) {
  if (!list.is_array())
    ObjectReader::fail(where, "must be [{\"name\", \"from\", \"to\", \"samples\"}, ...]");
  std::vector<TransectSpec> transects;
  std::map<std::string, std::size_t> names;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ObjectReader r(list[k], where + "[" + std::to_string(k) + "]");
    TransectSpec t;
    t.name = csvName(r, "transect " + std::to_string(k));
    requireUniqueName(names, t.name, k, r, "transects");
    std::tie(t.x0, t.y0) = readPoint(r.raw("from"), r.at("from"), grid);
    std::tie(t.x1, t.y1) = readPoint(r.raw("to"), r.at("to"), grid);
    t.samples = r.integer("samples", t.samples, 2, 100000);
    if (t.x0 == t.x1 && t.y0 == t.y1)
      ObjectReader::fail(r.at("to"), "the transect has zero length");
    r.finish();
    transects.push_back(t);
  }
  return transects;
}

// domain.edges: "wall" | "open" | {"west": ..., "east": ..., "south": ..., "north": ...,
// "layer_cells": N}; a side not named is a wall.
Edges readEdges(const json& value, const std::string& where, const Grid& grid,
                const ScenarioFileResolver& resolve) {
  Edges edges;
  if (value.is_string()) {
    edges = Edges::all(parseEdgeKind(value.get<std::string>(), where));
  } else {
    if (!value.is_object())
      ObjectReader::fail(where, "must be \"wall\", \"open\" or an object of sides");
    ObjectReader r(value, where);
    for (Side side : kSides)
      if (r.has(sideName(side))) {
        const json& kind = r.raw(sideName(side));
        if (kind.is_object()) {  // {"incoming": {...}}: core/scenario/incoming_keys.hpp
          edges.set(side, EdgeKind::Incoming);
          edges.incoming[std::size_t(side)] = readIncomingEdge(kind, r.at(sideName(side)), resolve);
          continue;
        }
        if (!kind.is_string()) ObjectReader::fail(r.at(sideName(side)), "must be a string");
        edges.set(side, parseEdgeKind(kind.get<std::string>(), r.at(sideName(side))));
      }
    edges.layerCells = r.integer("layer_cells", edges.layerCells, 1, 1 << 15);
    r.finish();
  }
  checkEdgesFit(edges, grid, where);
  return edges;
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

json gaugesJson(const std::vector<GaugeSpec>& gauges) {
  json out;
  for (const GaugeSpec& g : gauges) {
    out.push_back({{"name", g.name}, {"x", g.x}, {"y", g.y}});
    if (g.record) out.back()["record"] = gaugeRecordJson(g.record->spec());
  }
  return out;
}

json transectsJson(const std::vector<TransectSpec>& transects) {
  json out;
  for (const TransectSpec& t : transects)
    out.push_back(
        {{"name", t.name}, {"from", {t.x0, t.y0}}, {"to", {t.x1, t.y1}}, {"samples", t.samples}});
  return out;
}

json referenceJson(const ReferenceSpec& r) {
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
  return reference;
}

void readOcean(const json& ocean, const KeyContext& context, Scenario& s) {
  if (!ocean.is_object()) ObjectReader::fail(context.where, "must be an object");
  s.ocean = ocean;
  if (context.travels) s.oceanWindow = readWindow(ocean.at("window"), context.where + ".window", s);
  oceanParams(s);  // refuses an unknown key or a bad value now, naming it
}

json fileJson(const FileRef& file) {
  return file.builtin ? file.describe() : file.path.generic_string();
}

json fieldJson(const FieldSource& field) {
  return {{field.format == FieldFormat::Csv ? "csv" : "png", fileJson(field.file)}};
}

}  // namespace wb
