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

// A name that is a column of a CSV file (gauges.csv, transects.csv), "NOUN k" by default.
template <class Item>
Key<Item> csvNameKey(const std::string& noun, std::string doc) {
  Key<Item> key = memberKey<Item>(
      {.name = "name",
       .kind = KeyKind::Text,
       .doc = std::move(doc),
       .defaultDoc = "`" + noun + " k`"},
      [](auto& item) -> auto& { return item.name; });
  key.read = [](const json& v, const KeyContext& at) {
    const std::string name = ObjectReader::checkedText(v, at.where);
    if (name.find_first_of(",\"\n\r") != std::string::npos)
      ObjectReader::fail(at.where, "must not hold a comma, a quote or a line break");
    return json(name);
  };
  key.fallback = [noun](Item& item, const KeyContext& at) {
    item.name = noun + " " + std::to_string(at.index);
  };
  return key;
}

// Gauges (transects) are told apart in gauges.csv (transects.csv) by their names alone: a name
// given twice in one list is refused at its second use, naming the first.
template <class Item>
std::function<void(const std::vector<Item>&, const Item&, ObjectReader&)> uniqueNames(
    const std::string& list) {
  return [list](const std::vector<Item>& before, const Item& item, ObjectReader& r) {
    for (std::size_t first = 0; first < before.size(); ++first)
      if (before[first].name == item.name)
        ObjectReader::fail(r.at("name"),
                           "'" + item.name + "' is already the name of " + list + "[" +
                               std::to_string(first) +
                               "]; each needs its own (its rows are told apart by it)");
  };
}

// A point [x, y] inside the pool.
std::pair<double, double> readPoint(const json& v, const std::string& where, const Grid& grid) {
  if (!v.is_array() || v.size() != 2) ObjectReader::fail(where, "must be [x, y]");
  return {ObjectReader::checkedNumber(v[0], where, 0, grid.width()),
          ObjectReader::checkedNumber(v[1], where, 0, grid.height())};
}

// A transect's end [x, y], `x` and `y` its members.
Key<TransectSpec> transectEnd(Key<TransectSpec> key, double TransectSpec::*x,
                              double TransectSpec::*y) {
  key.kind = KeyKind::Custom;
  key.required = true;
  key.typeDoc = "[x, y]";
  key.rangeDoc = "inside the pool, m";
  key.get = [x, y](const TransectSpec& t) { return json::array({t.*x, t.*y}); };
  key.set = [x, y](TransectSpec& t, const json& v, const KeyContext& at) {
    std::tie(t.*x, t.*y) = readPoint(v, at.where, *at.grid);
  };
  return key;
}

std::vector<Key<GaugeSpec>> declareGaugeKeys() {
  const auto coordinate = [](std::string name, KeyExtent extent, auto member) {
    return memberKey<GaugeSpec>({.name = std::move(name),
                                 .extent = extent,
                                 .unit = "m",
                                 .doc = "the point; not in a wall cell",
                                 .required = true,
                                 .rangeDoc = "inside the pool, m"},
                                member);
  };
  return {
      csvNameKey<GaugeSpec>("gauge", "the gauge's name in gauges.csv, one to a gauge"),
      coordinate(
          "x", KeyExtent::Width, [](auto& g) -> auto& { return g.x; }),
      coordinate(
          "y", KeyExtent::Height, [](auto& g) -> auto& { return g.y; }),
      {.name = "record",
       .kind = KeyKind::Custom,
       .doc = "a measured series at the gauge, its reference ([Gauge records](#gauge-records))",
       .typeDoc = "object",
       .get =
           [](const GaugeSpec& g) { return g.record ? gaugeRecordJson(g.record->spec()) : json(); },
       .set = [](GaugeSpec& g, const json& v,
                 const KeyContext& at) { g.record = readGaugeRecord(v, at.where, *at.files); }},
  };
}

std::vector<Key<TransectSpec>> declareTransectKeys() {
  Key<TransectSpec> to = transectEnd({.name = "to", .doc = "the last sample's point; not `from`"},
                                     &TransectSpec::x1, &TransectSpec::y1);
  to.check = [](const TransectSpec& t, const KeyContext& at) {
    if (t.x0 == t.x1 && t.y0 == t.y1) ObjectReader::fail(at.where, "the transect has zero length");
  };
  return {
      csvNameKey<TransectSpec>("transect",
                               "the transect's name in transects.csv, one to a transect"),
      transectEnd({.name = "from", .doc = "the first sample's point"}, &TransectSpec::x0,
                  &TransectSpec::y0),
      to,
      memberKey<TransectSpec>(
          {.name = "samples",
           .kind = KeyKind::Integer,
           .lo = 2,
           .hi = 100000,
           .doc = "evenly spaced points, both ends included"},
          [](auto& t) -> auto& { return t.samples; }),
  };
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

// The keys of one kind of reference: read and written only for it.
Key<ReferenceSpec> forKind(ReferenceSpec::Kind kind, Key<ReferenceSpec> key) {
  key.applies = [kind](const ReferenceSpec& r) { return r.kind == kind; };
  return key;
}

std::vector<Key<ReferenceSpec>> declareReferenceKeys() {
  using K = KeyKind;
  using Kind = ReferenceSpec::Kind;
  static constexpr Kind kKinds[] = {Kind::LakeAtRest, Kind::StandingMode, Kind::DamBreak,
                                    Kind::Thacker, Kind::Linear};
  std::vector<std::string> names;
  for (Kind kind : kKinds)
    names.push_back(referenceKindName(kind));
  Key<ReferenceSpec> kind{
      .name = "kind",
      .kind = K::Choice,
      .doc = "which exact solution (the keys below name the kind they belong to)",
      .choices = names,
      .quoted = true,
      .defaultDoc = "**required**",
      .get = [](const ReferenceSpec& r) { return json(referenceKindName(r.kind)); },
      .set =
          [names](ReferenceSpec& r, const json& v, const KeyContext&) {
            const auto at = std::find(names.begin(), names.end(), v.get<std::string>());
            r.kind = kKinds[at - names.begin()];
          }};
  // Not given is a choice of none: its message lists them.
  kind.fallback = [names](ReferenceSpec&, const KeyContext& at) {
    checkedKeyValue(K::Choice, names, 0, 0, json(""), at.where, true);
  };
  const auto mode = [](std::string name, std::string doc, auto member) {
    return forKind(Kind::StandingMode,
                   memberKey<ReferenceSpec>({.name = std::move(name),
                                             .kind = K::Integer,
                                             .extent = KeyExtent::HalfCells,
                                             .doc = std::move(doc),
                                             .rangeDoc = "0 to half the longer side in cells"},
                                            member));
  };
  Key<ReferenceSpec> n = mode(
      "n", "standing-mode: the half-waves along y; not 0 with `m`",
      [](auto& r) -> auto& { return r.n; });
  n.check = [](const ReferenceSpec& r, const KeyContext& at) {
    if (r.m == 0 && r.n == 0) ObjectReader::fail(at.where, "m and n are both 0: no wave");
  };
  Key<ReferenceSpec> x0 = forKind(
      Kind::DamBreak,
      memberKey<ReferenceSpec>(
          {.name = "x0",
           .extent = KeyExtent::Width,
           .unit = "m",
           .doc = "dam-break: the dam, across x",
           .required = true,
           .rangeDoc = "strictly inside the strip, between its first and last cell centres, m"},
          [](auto& r) -> auto& { return r.x0; }));
  // A dam on an end wall (or beyond the last cell centre) leaves one side without water the
  // grid holds, while the 1-D solution drains it through the wall.
  x0.check = [](const ReferenceSpec& r, const KeyContext& at) {
    const Grid& grid = *at.grid;
    const double first = 0.5 * grid.dx, last = grid.width() - 0.5 * grid.dx;
    if (r.x0 > first && r.x0 < last) return;
    std::ostringstream why;
    why << r.x0 << " m must lie strictly inside the strip, between its first and last cell "
        << "centres (" << first << ", " << last << ") m";
    ObjectReader::fail(at.where, why.str());
  };
  Key<ReferenceSpec> hRight = forKind(
      Kind::DamBreak, memberKey<ReferenceSpec>(
                          {.name = "h_right",
                           .lo = 0.0,
                           .hi = kMaxFieldMetres,
                           .unit = "m",
                           .doc = "dam-break: the water right of the dam at t = 0 (Ritter's dry "
                                  "bed when 0)",
                           .rangeDoc = "less than `h_left`"},
                          [](auto& r) -> auto& { return r.hRight; }));
  hRight.check = [](const ReferenceSpec& r, const KeyContext& at) {
    if (!(r.hRight < r.hLeft))
      ObjectReader::fail(at.where,
                         "must be less than h_left (the dam holds the deeper water on its left)");
  };
  const auto bowl = [](std::string name, double lo, std::string doc, auto member) {
    return forKind(Kind::Thacker, memberKey<ReferenceSpec>({.name = std::move(name),
                                                            .lo = lo,
                                                            .hi = kMaxFieldMetres,
                                                            .unit = "m",
                                                            .doc = std::move(doc)},
                                                           member));
  };
  Key<ReferenceSpec> dispersion{
      .name = "dispersion",
      .kind = K::Choice,
      .doc =
          "linear: the exact linear solution on the walled flat basin "
          "(`core/measure/linear_reference.hpp`), fft-ocean's field: each cosine mode of the "
          "initial surface and of every drop (scheduled and rain, at its own time) turns at "
          "ω² = g k tanh(k d), or ω = √(g d) k with `shallow-water`; the scenario's own "
          "`initial` is its start",
      .choices = {"finite-depth", "shallow-water"},
      .quoted = true,
      .get =
          [](const ReferenceSpec& r) {
            return json(r.dispersion == LinearReference::Dispersion::ShallowWater ? "shallow-water"
                                                                                  : "finite-depth");
          },
      .set =
          [](ReferenceSpec& r, const json& v, const KeyContext&) {
            r.dispersion = v == "shallow-water" ? LinearReference::Dispersion::ShallowWater
                                                : LinearReference::Dispersion::FiniteDepth;
          }};
  return {
      kind,
      mode(
          "m",
          "standing-mode: η = A cos(m π x / Lx) cos(n π y / Ly) cos(ω t), ω = √(g d) π √((m/Lx)² "
          "+ (n/Ly)²): the linear shallow-water mode; m the half-waves along x",
          [](auto& r) -> auto& { return r.m; }),
      n,
      forKind(Kind::StandingMode, memberKey<ReferenceSpec>(
                                      {.name = "amplitude",
                                       .lo = -1e3,
                                       .hi = 1e3,
                                       .unit = "m",
                                       .doc = "standing-mode: A",
                                       .rangeDoc = "\\|A\\| at most a tenth of the depth"},
                                      [](auto& r) -> auto& { return r.amplitude; })),
      x0,
      forKind(Kind::DamBreak,
              memberKey<ReferenceSpec>(
                  {.name = "h_left",
                   .lo = 1e-3,
                   .hi = kMaxFieldMetres,
                   .unit = "m",
                   .doc = "dam-break: the water left of the dam at t = 0 (Stoker's solution, or "
                          "Ritter's on a dry bed when h_right is 0; SWASHES 4.1.1 and 4.1.2)",
                   .required = true},
                  [](auto& r) -> auto& { return r.hLeft; })),
      hRight,
      bowl(
          "a", 1e-3,
          "thacker: Thacker's radial oscillation in a paraboloid bowl (SWASHES 4.2.1), ground "
          "z = −h0 (1 − r²/a²) about the grid's centre, surface h0 (√(1 − A²)/q − 1 − r²/a² "
          "((1 − A²)/q² − 1)), q = 1 − A cos ω t, ω = √(8 g h0)/a, A = (a² − r0²)/(a² + r0²); "
          "at rest at t = 0 with its shoreline at √(a r0)",
          [](auto& r) -> auto& { return r.a; }),
      bowl(
          "h0", 1e-4, "thacker: the bowl's depth at its centre",
          [](auto& r) -> auto& { return r.h0; }),
      bowl(
          "r0", 1e-3, "thacker: the shoreline's radius at its widest",
          [](auto& r) -> auto& { return r.r0; }),
      forKind(Kind::Linear, dispersion),
  };
}

}  // namespace

const std::vector<Key<GaugeSpec>>& gaugeKeys() {
  static const std::vector<Key<GaugeSpec>> keys = declareGaugeKeys();
  return keys;
}

const std::vector<Key<TransectSpec>>& transectKeys() {
  static const std::vector<Key<TransectSpec>> keys = declareTransectKeys();
  return keys;
}

std::vector<GaugeSpec> readGauges(const json& list, const KeyContext& context) {
  return readItems(list, context, gaugeKeys(), "[{\"name\", \"x\", \"y\"}, ...]",
                   uniqueNames<GaugeSpec>("gauges"));
}

std::vector<TransectSpec> readTransects(const json& list, const KeyContext& context) {
  return readItems(list, context, transectKeys(),
                   "[{\"name\", \"from\", \"to\", \"samples\"}, ...]",
                   uniqueNames<TransectSpec>("transects"));
}

const std::vector<Key<ReferenceSpec>>& referenceKeys() {
  static const std::vector<Key<ReferenceSpec>> keys = declareReferenceKeys();
  return keys;
}

// "reference": the exact solution the comparison is measured against (docs/scenario.md).
ReferenceSpec readReference(const json& value, const KeyContext& context) {
  ObjectReader r(value, context.where);
  ReferenceSpec spec;
  readKeys(r, referenceKeys(), spec, context);
  r.finish();
  return spec;
}

// domain.edges: "wall" | "open" | {"west": ..., "east": ..., "south": ..., "north": ...,
// "layer_cells": N}; a side not named is a wall.
Edges readEdges(const json& value, const KeyContext& context) {
  const std::string& where = context.where;
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
          KeyContext at = context;
          at.where = r.at(sideName(side));
          edges.incoming[std::size_t(side)] = readIncomingEdge(kind, at);
          continue;
        }
        if (!kind.is_string()) ObjectReader::fail(r.at(sideName(side)), "must be a string");
        edges.set(side, parseEdgeKind(kind.get<std::string>(), r.at(sideName(side))));
      }
    edges.layerCells = r.integer("layer_cells", edges.layerCells, 1, 1 << 15);
    r.finish();
  }
  checkEdgesFit(edges, *context.grid, where);
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
