// The "excitations" list and the drops of "initial" (docs/scenario.md, excitations): each entry
// an object with a "type", read in the list's order (a body towed_by names a boat before it)
// with the key table of its type, declared here once (the parser, the writer and the docs'
// tables follow from it).
#include <functional>
#include <sstream>
#include <tuple>

#include "core/scenario/scenario_sections.hpp"

namespace wb {
using nlohmann::json;

namespace {

using K = KeyKind;

// A point's coordinate, inside the pool.
template <class Item>
Key<Item> coordinate(Key<Item> key, KeyExtent extent, double Item::*member) {
  key.extent = extent;
  key.unit = "m";
  if (key.rangeDoc.empty()) key.rangeDoc = "inside the pool, m";
  key.get = [member](const Item& item) { return json(item.*member); };
  key.set = [member](Item& item, const json& v, const KeyContext&) {
    item.*member = v.get<double>();
  };
  return key;
}

// A number bound to `member`.
template <class Item>
Key<Item> number(Key<Item> key, double Item::*member) {
  key.get = [member](const Item& item) { return json(item.*member); };
  key.set = [member](Item& item, const json& v, const KeyContext&) {
    item.*member = v.get<double>();
  };
  return key;
}

// A length that is `cells` cells unless given (a Gaussian's radius: 2 dx).
template <class Item>
Key<Item> cellsDefault(Key<Item> key, double Item::*member, double cells) {
  key = number(std::move(key), member);
  key.unit = "m";
  std::ostringstream text;
  text << cells << " dx";
  key.defaultDoc = text.str();
  key.fallback = [member, cells](Item& item, const KeyContext& at) {
    item.*member = cells * at.grid->dx;
  };
  return key;
}

// "end": never unless given, not before "start".
template <class Item>
Key<Item> endKey() {
  Key<Item> key = number<Item>({.name = "end",
                                .lo = 0,
                                .hi = 1e300,
                                .unit = "s",
                                .doc = "when it stops",
                                .defaultDoc = "never",
                                .rangeDoc = "not before `start`"},
                               &Item::end);
  key.get = [](const Item& item) { return item.end < 1e300 ? json(item.end) : json(); };
  key.check = [](const Item& item, const KeyContext& at) {
    if (item.end < item.start) ObjectReader::fail(at.where, "is before \"start\"");
  };
  return key;
}

// A point [x, y] inside the pool, `where` named.
std::pair<double, double> point(const json& v, const std::string& where, const Grid& grid) {
  if (!v.is_array() || v.size() != 2) ObjectReader::fail(where, "must be [x, y]");
  return {ObjectReader::checkedNumber(v[0], where, 0, grid.width()),
          ObjectReader::checkedNumber(v[1], where, 0, grid.height())};
}

std::vector<Key<SurfaceEvent>> declareDropKeys() {
  return {
      coordinate<SurfaceEvent>({.name = "x", .doc = "the centre", .required = true},
                               KeyExtent::Width, &SurfaceEvent::x),
      coordinate<SurfaceEvent>({.name = "y", .doc = "the centre", .required = true},
                               KeyExtent::Height, &SurfaceEvent::y),
      cellsDefault<SurfaceEvent>(
          {.name = "radius", .lo = 1e-6, .hi = kHuge, .doc = "the Gaussian's width"},
          &SurfaceEvent::radius, 2),
      number<SurfaceEvent>(
          {.name = "amplitude",
           .lo = -kHuge,
           .hi = kHuge,
           .unit = "m",
           .doc = "the height at the centre (negative: a dent); as an initial drop, and every "
                  "cell of `initial.eta`, at most 10 times the deepest rest depth in size"},
          &SurfaceEvent::amplitude),
  };
}

std::vector<Key<SurfaceEvent>> declareTimedDropKeys() {
  std::vector<Key<SurfaceEvent>> keys = dropKeys();
  keys.push_back(number<SurfaceEvent>({.name = "time",
                                       .lo = 0,
                                       .hi = kHuge,
                                       .unit = "s",
                                       .doc = "when it falls (not in `initial.drops`)"},
                                      &SurfaceEvent::time));
  return keys;
}

std::vector<Key<RainSpec>> declareRainKeys() {
  Key<RainSpec> end = endKey<RainSpec>();
  const auto endBefore = end.check;
  end.rangeDoc = "not before `start`; needed with `count`";
  end.check = [endBefore](const RainSpec& rain, const KeyContext& at) {
    endBefore(rain, at);
    if (rain.count > 0 && rain.end >= 1e300)
      ObjectReader::fail(at.where, "rain with a count needs an end time");
  };
  return {
      number<RainSpec>({.name = "rate",
                        .lo = 0,
                        .hi = 1e6,
                        .unit = "drops/s",
                        .doc = "a Poisson process over the whole pool"},
                       &RainSpec::rate),
      memberKey<RainSpec>(
          {.name = "count",
           .kind = K::Integer,
           .lo = 0,
           .hi = 1e7,
           .doc = "when above 0: exactly this many drops, uniform over [`start`, `end`)"},
          [](auto& rain) -> auto& { return rain.count; }),
      cellsDefault<RainSpec>(
          {.name = "radius", .lo = 1e-6, .hi = kHuge, .doc = "each drop's Gaussian width"},
          &RainSpec::radius, 2),
      number<RainSpec>(
          {.name = "amplitude", .lo = -kHuge, .hi = kHuge, .unit = "m", .doc = "each drop's"},
          &RainSpec::amplitude),
      number<RainSpec>(
          {.name = "start", .lo = 0, .hi = kHuge, .unit = "s", .doc = "when it starts"},
          &RainSpec::start),
      end,
  };
}

std::vector<Key<BoatSteer>> declareSteerKeys() {
  return {
      number<BoatSteer>({.name = "time",
                         .lo = 0,
                         .hi = kHuge,
                         .unit = "s",
                         .doc = "from when",
                         .required = true,
                         .rangeDoc = "not before the entry before it"},
                        &BoatSteer::time),
      {.name = "target",
       .kind = K::Custom,
       .doc = "where the boat heads from then on",
       .required = true,
       .typeDoc = "[x, y]",
       .rangeDoc = "inside the pool, m",
       .get =
           [](const BoatSteer& s) {
             return json::array({s.x, s.y});
           },
       .set = [](BoatSteer& s, const json& v,
                 const KeyContext& at) { std::tie(s.x, s.y) = point(v, at.where, *at.grid); }},
  };
}

std::vector<Key<BoatSpec>> declareBoatKeys() {
  Key<BoatSpec> path{
      .name = "path",
      .kind = K::Custom,
      .doc = "waypoints, visited in order and looped; `target` or `path` is required",
      .typeDoc = "[[x, y], ...]",
      .rangeDoc = "inside the pool, m",
      .get =
          [](const BoatSpec& b) {
            json out;
            for (const auto& [x, y] : b.waypoints)
              out.push_back({x, y});
            return out;
          },
      // With a travelling window (ocean.window) a path may run anywhere on the open sea.
      .set =
          [](BoatSpec& b, const json& path, const KeyContext& at) {
            if (!path.is_array() || path.empty())
              ObjectReader::fail(at.where, "must be [[x, y], ...]");
            const Grid& grid = *at.grid;
            const double lo = at.travels ? -kWorld : 0.0, far = at.travels ? kWorld : 0.0;
            for (std::size_t k = 0; k < path.size(); ++k) {
              const std::string where = at.where + "[" + std::to_string(k) + "]";
              if (!path[k].is_array() || path[k].size() != 2)
                ObjectReader::fail(where, "must be [x, y]");
              b.waypoints.push_back(
                  {ObjectReader::checkedNumber(path[k][0], where, lo, far + grid.width()),
                   ObjectReader::checkedNumber(path[k][1], where, lo, far + grid.height())});
            }
          },
      .check =
          [](const BoatSpec& b, const KeyContext& at) {
            if (b.waypoints.empty())
              ObjectReader::fail(at.object, "a boat needs a \"target\" or a \"path\"");
          }};
  // A boat's start: the pool's centre unless given.
  const auto start = [](std::string name, KeyExtent extent, double BoatSpec::*member,
                        double (Grid::*side)() const) {
    Key<BoatSpec> key = coordinate<BoatSpec>(
        {.name = std::move(name), .doc = "start position", .defaultDoc = "the pool's centre"},
        extent, member);
    key.fallback = [member, side](BoatSpec& b, const KeyContext& at) {
      b.*member = (at.grid->*side)() / 2;
    };
    return key;
  };
  const auto any = [](std::string name, std::string unit, std::string doc,
                      double BoatSpec::*member) {
    return number<BoatSpec>({.name = std::move(name),
                             .lo = -kHuge,
                             .hi = kHuge,
                             .unit = std::move(unit),
                             .doc = std::move(doc)},
                            member);
  };
  return {
      {.name = "target",
       .kind = K::Custom,
       .doc = "one waypoint (written back as a `path`)",
       .typeDoc = "[x, y]",
       .rangeDoc = "inside the pool, m",
       .get = [](const BoatSpec&) { return json(); },
       .set = [](BoatSpec& b, const json& v,
                 const KeyContext& at) { b.waypoints.push_back(point(v, at.where, *at.grid)); }},
      path,
      {.name = "steer",
       .kind = K::Custom,
       .doc = "a recorded steering: from each entry's time on, the boat heads for that target "
              "alone ([exports.md](exports.md); keys below)",
       .typeDoc = "[{`time`, `target`: [x, y]}, ...]",
       .get = [](const BoatSpec& b) { return writeItems(steerKeys(), b.steering); },
       .set =
           [](BoatSpec& b, const json& v, const KeyContext& at) {
             b.steering = readItems<BoatSteer>(
                 v, at, steerKeys(), "[{\"time\", \"target\": [x, y]}, ...]",
                 [](const std::vector<BoatSteer>& before, const BoatSteer& steer, ObjectReader& r) {
                   if (!before.empty() && steer.time < before.back().time)
                     ObjectReader::fail(r.at("time"),
                                        "must not be earlier than the entry before it");
                 });
           }},
      start("x", KeyExtent::Width, &BoatSpec::startX, &Grid::width),
      start("y", KeyExtent::Height, &BoatSpec::startY, &Grid::height),
      number<BoatSpec>({.name = "acceleration",
                        .lo = 0,
                        .hi = kHuge,
                        .unit = "m/s²",
                        .doc = "scales eq. 7's unit vector"},
                       &BoatSpec::acceleration),
      number<BoatSpec>(
          {.name = "max_speed", .lo = 0, .hi = kHuge, .unit = "m/s", .doc = "its top speed"},
          &BoatSpec::maxSpeed),
      cellsDefault<BoatSpec>(
          {.name = "wake_radius", .lo = 1e-6, .hi = kHuge, .doc = "the wake's Gaussian width"},
          &BoatSpec::wakeRadius, 2),
      any("wake_amplitude", "m", "the wake's height per boat step", &BoatSpec::wakeAmplitude),
      any("tilt_gain", "", "kappa of eq. 9", &BoatSpec::tiltGain),
      cellsDefault<BoatSpec>({.name = "arrive_radius",
                              .lo = 0,
                              .hi = kHuge,
                              .doc = "switch to the next waypoint inside it"},
                             &BoatSpec::arriveRadius, 4),
      number<BoatSpec>({.name = "step",
                        .lo = 1e-5,
                        .hi = 10,
                        .unit = "s",
                        .doc = "the boat's own fixed step",
                        .defaultDoc = "1/60"},
                       &BoatSpec::step),
  };
}

// A wind's region's corner coordinate; written only with a region.
Key<WindSpec> regionCorner(std::string name, double WindSpec::*member) {
  Key<WindSpec> key = number<WindSpec>({.name = std::move(name),
                                        .lo = -kHuge,
                                        .hi = kHuge,
                                        .unit = "m",
                                        .doc = "a corner of the rectangle",
                                        .required = true},
                                       member);
  key.get = [member](const WindSpec& w) { return w.hasRegion ? json(w.*member) : json(); };
  return key;
}

std::vector<Key<WindSpec>> declareWindRegionKeys() {
  Key<WindSpec> x1 = regionCorner("x1", &WindSpec::x1), y1 = regionCorner("y1", &WindSpec::y1);
  x1.rangeDoc = "not less than `x0`";
  y1.rangeDoc = "not less than `y0`";
  x1.check = [](const WindSpec& w, const KeyContext& at) {
    if (w.x1 < w.x0) ObjectReader::fail(at.where, "is less than x0");
  };
  y1.check = [](const WindSpec& w, const KeyContext& at) {
    if (w.y1 < w.y0) ObjectReader::fail(at.where, "is less than y0");
  };
  return {regionCorner("x0", &WindSpec::x0), regionCorner("y0", &WindSpec::y0), x1, y1};
}

std::vector<Key<WindSpec>> declareWindKeys() {
  return {
      number<WindSpec>(
          {.name = "direction", .lo = -360, .hi = 360, .unit = "degrees", .doc = "0 = +x, 90 = +y"},
          &WindSpec::direction),
      number<WindSpec>({.name = "strength",
                        .lo = 0,
                        .hi = 1e4,
                        .unit = "m/s²",
                        .doc = "the acceleration of the water"},
                       &WindSpec::strength),
      number<WindSpec>(
          {.name = "start", .lo = 0, .hi = kHuge, .unit = "s", .doc = "when it starts"},
          &WindSpec::start),
      endKey<WindSpec>(),
      {.name = "region",
       .kind = K::Object,
       .doc = "where it blows: the rectangle [`x0`, `x1`] x [`y0`, `y1`] (keys below)",
       .defaultDoc = "whole pool",
       .then = [](WindSpec& w, const KeyContext&) { w.hasRegion = true; },
       .children = windRegionKeys()},
  };
}

std::vector<Key<StirImpulse>> declareStirKeys() {
  // The range of a wind's strength: both are accelerations of the water.
  const auto push = [](std::string name, double StirImpulse::*member) {
    return number<StirImpulse>({.name = std::move(name),
                                .lo = -1e4,
                                .hi = 1e4,
                                .unit = "m/s²",
                                .doc = "the push at the centre"},
                               member);
  };
  return {
      number<StirImpulse>(
          {.name = "time", .lo = 0, .hi = kHuge, .unit = "s", .doc = "when it starts"},
          &StirImpulse::start),
      coordinate<StirImpulse>({.name = "x", .doc = "the centre", .required = true},
                              KeyExtent::Width, &StirImpulse::x),
      coordinate<StirImpulse>({.name = "y", .doc = "the centre", .required = true},
                              KeyExtent::Height, &StirImpulse::y),
      cellsDefault<StirImpulse>(
          {.name = "radius", .lo = 1e-6, .hi = kHuge, .doc = "the push's Gaussian width"},
          &StirImpulse::radius, 2),
      push("ax", &StirImpulse::ax),
      push("ay", &StirImpulse::ay),
      number<StirImpulse>(
          {.name = "duration", .lo = 0, .hi = kHuge, .unit = "s", .doc = "how long it pushes"},
          &StirImpulse::duration),
  };
}

std::vector<Key<MaskDab>> declareDabKeys() {
  return {
      coordinate<MaskDab>({.name = "x", .doc = "the centre", .required = true}, KeyExtent::Width,
                          &MaskDab::x),
      coordinate<MaskDab>({.name = "y", .doc = "the centre", .required = true}, KeyExtent::Height,
                          &MaskDab::y),
      coordinate<MaskDab>({.name = "radius",
                           .doc = "the cells whose centre lies within it; 0: the one cell",
                           .rangeDoc = "0 to the pool's longer side, m"},
                          KeyExtent::LongerSide, &MaskDab::radius),
  };
}

std::vector<Key<MaskStroke>> declareStrokeKeys() {
  return {
      number<MaskStroke>({.name = "time",
                          .lo = 0,
                          .hi = kHuge,
                          .unit = "s",
                          .doc = "the tick that holds it changes the cells"},
                         &MaskStroke::time),
      {.name = "solid",
       .kind = K::Custom,
       .doc = "true: walls; false: water; a stroke that would leave no water cell stops the "
              "run with `<file>: excitations: the mask stroke at t = 0.1 s leaves no water "
              "cell` (exit 2)",
       .typeDoc = "boolean",
       .get = [](const MaskStroke& s) { return json(s.solid); },
       .set =
           [](MaskStroke& s, const json& v, const KeyContext& at) {
             if (!v.is_boolean()) ObjectReader::fail(at.where, "must be true or false");
             s.solid = v.get<bool>();
           }},
      {.name = "dabs",
       .kind = K::Custom,
       .doc = "the brush's dabs (keys below)",
       .required = true,
       .typeDoc = "[{`x`, `y`, `radius`}, ...]",
       .rangeDoc = "at least one",
       .get =
           [](const MaskStroke& s) {
             const json dabs = writeItems(dabKeys(), s.dabs);
             return dabs.is_null() ? json::array() : dabs;
           },
       .set =
           [](MaskStroke& s, const json& v, const KeyContext& at) {
             const std::string shape = "[{\"x\", \"y\", \"radius\"}, ...]";
             if (v.is_array() && v.empty()) ObjectReader::fail(at.where, "must be " + shape);
             s.dabs = readItems(v, at, dabKeys(), shape);
           }},
  };
}

// One type of excitation: its entries read (the "type" read) into the specs and written back.
struct ExcitationType {
  std::string name;
  std::function<void(const json&, ObjectReader&, const KeyContext&, ExcitationSpecs&)> read;
  std::function<void(const ExcitationSpecs&, json&)> write;
};

// A type whose entries are objects of `keys`, each added to the specs by `add`.
template <class Item>
ExcitationType keyedType(std::string name, const std::vector<Key<Item>>& (*keys)(),
                         std::vector<Item> ExcitationSpecs::*list,
                         void (*add)(ExcitationSpecs&, Item) = nullptr) {
  return {
      name,
      [keys, list, add](const json&, ObjectReader& r, const KeyContext& at, ExcitationSpecs& out) {
        Item item{};
        readKeys(r, keys(), item, at);
        if (add)
          add(out, std::move(item));
        else
          (out.*list).push_back(std::move(item));
      },
      [name, keys, list](const ExcitationSpecs& specs, json& out) {
        for (const Item& item : specs.*list) {
          json entry = writeKeys(keys(), item);
          entry["type"] = name;
          out.push_back(std::move(entry));
        }
      }};
}

// A body that enters the water at `time` (a recorded throw): a buoyant body's keys and `time`.
ExcitationType bodyType() {
  return {"body",
          [](const json& value, ObjectReader& r, const KeyContext& at, ExcitationSpecs& out) {
            json keys = value;
            keys.erase("type");
            TimedBody body;
            if (r.has("time"))
              body.time = ObjectReader::checkedNumber(keys["time"], r.at("time"), 0, kHuge);
            keys.erase("time");
            for (const auto& [key, v] : keys.items())
              r.has(key);  // parseBody reads and refuses them
            body.spec = parseBody(keys, at.where, *at.grid, out.boats.size());
            if (body.spec.shape == BodyShape::Mesh)
              ObjectReader::fail(at.where + ".shape",
                                 "a body thrown in during the run is a box or a hull");
            out.bodies.push_back(body);
          },
          [](const ExcitationSpecs& specs, json& out) {
            for (const TimedBody& body : specs.bodies) {
              json b = {{"type", "body"}, {"time", body.time}};
              b.update(bodyJson(body.spec));
              out.push_back(b);
            }
          }};
}

// In the order the writer writes them.
const std::vector<ExcitationType>& excitationTypes() {
  static const std::vector<ExcitationType> types = {
      keyedType("drop", timedDropKeys, &ExcitationSpecs::drops),
      keyedType("rain", rainKeys, &ExcitationSpecs::rain),
      keyedType("boat", boatKeys, &ExcitationSpecs::boats),
      keyedType("wind", windKeys, &ExcitationSpecs::wind),
      keyedType("stir", stirKeys, &ExcitationSpecs::stirs),
      bodyType(),
      keyedType<MaskStroke>("mask", strokeKeys, &ExcitationSpecs::strokes,
                            [](ExcitationSpecs& out, MaskStroke stroke) {
                              const double time = stroke.time;
                              recordStroke(out, time, std::move(stroke));
                            }),
  };
  return types;
}

// "drop, rain, boat, wind, stir, body or mask".
std::string typeNames() {
  const auto& types = excitationTypes();
  std::string out;
  for (std::size_t k = 0; k < types.size(); ++k)
    out += (k == 0 ? "" : k + 1 == types.size() ? " or " : ", ") + types[k].name;
  return out;
}

void readExcitation(const json& value, const KeyContext& at, ExcitationSpecs& out) {
  if (!value.is_object() || !value.contains("type") || !value["type"].is_string())
    ObjectReader::fail(at.where, "needs a \"type\": " + typeNames());
  const std::string name = value["type"].get<std::string>();
  for (const ExcitationType& type : excitationTypes()) {
    if (type.name != name) continue;
    ObjectReader r(value, at.where);
    r.has("type");
    type.read(value, r, at, out);
    r.finish();
    return;
  }
  ObjectReader::fail(at.where + ".type",
                     "unknown excitation '" + name + "' (expected " + typeNames() + ")");
}

// A key table, declared once.
template <class Item, std::vector<Key<Item>> (*declare)()>
const std::vector<Key<Item>>& table() {
  static const std::vector<Key<Item>> keys = declare();
  return keys;
}

}  // namespace

const std::vector<Key<SurfaceEvent>>& dropKeys() {
  return table<SurfaceEvent, declareDropKeys>();
}
const std::vector<Key<SurfaceEvent>>& timedDropKeys() {
  return table<SurfaceEvent, declareTimedDropKeys>();
}
const std::vector<Key<RainSpec>>& rainKeys() {
  return table<RainSpec, declareRainKeys>();
}
const std::vector<Key<BoatSpec>>& boatKeys() {
  return table<BoatSpec, declareBoatKeys>();
}
const std::vector<Key<BoatSteer>>& steerKeys() {
  return table<BoatSteer, declareSteerKeys>();
}
const std::vector<Key<WindSpec>>& windKeys() {
  return table<WindSpec, declareWindKeys>();
}
const std::vector<Key<WindSpec>>& windRegionKeys() {
  return table<WindSpec, declareWindRegionKeys>();
}
const std::vector<Key<StirImpulse>>& stirKeys() {
  return table<StirImpulse, declareStirKeys>();
}
const std::vector<Key<MaskStroke>>& strokeKeys() {
  return table<MaskStroke, declareStrokeKeys>();
}
const std::vector<Key<MaskDab>>& dabKeys() {
  return table<MaskDab, declareDabKeys>();
}

void readExcitations(const json& list, const KeyContext& context, ExcitationSpecs& out) {
  if (!list.is_array()) ObjectReader::fail(context.where, "must be an array");
  for (std::size_t k = 0; k < list.size(); ++k) {
    KeyContext at = context;
    at.where = context.where + "[" + std::to_string(k) + "]";
    readExcitation(list[k], at, out);
  }
}

json excitationsJson(const ExcitationSpecs& specs) {
  json excitations = json::array();
  for (const ExcitationType& type : excitationTypes())
    type.write(specs, excitations);
  return excitations.empty() ? json() : excitations;
}

}  // namespace wb
