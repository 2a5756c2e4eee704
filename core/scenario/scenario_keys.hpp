// The scenario's keys, declared once. A key says its name, kind, range, unit, default and doc,
// how its checked value is set and how it is written back: the parser (parseScenario), the
// writer (scenarioToJson), the docs' key tables (docs/scenario.md, checked by the test
// ScenarioKeys.DocsTablesAreTheDeclaredOnes) and the workbench's Bodies tab (bodyKeys()) all walk
// the same tables. The top-level table (scenarioKeys()) is read in its order: a key may use what
// the keys before it set (the grid bounds every point, the boats bound towed_by, the bodies
// bound ocean.window.follow). Adding a key: docs/architecture.md, "Adding a scenario key".
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/grid/domain.hpp"
#include "core/model/parameters.hpp"
#include "core/scenario/object_reader.hpp"

namespace wb {

struct Scenario;
struct FileRef;
struct FieldSource;

enum class KeyKind {
  Number,   // a finite number in [lo, hi]
  Integer,  // a whole number in [lo, hi]
  Text,     // a string
  Choice,   // one of `choices`
  Triple,   // [x, y, z], each in [lo, hi]
  Object,   // an object of the key's `children`, read into the same target
  Custom    // checked by the key's own `read`
};
// A number's upper bound that is not a constant: the pool's width or height, the last boat,
// half the grid's longer side in cells, the pool's longer side.
enum class KeyExtent { None, Width, Height, Boats, HalfCells, LongerSide };

// The scenario's files: relative names resolve against its folder, or against the embedded
// resources for a builtin scenario ("builtin:NAME" names an embedded one from anywhere).
struct ScenarioFiles {
  std::string source;
  std::filesystem::path baseDir;
  bool builtin = false;
  FileRef file(const nlohmann::json& value, const std::string& where) const;
  // {"csv": F} or {"png": F}.
  FieldSource field(const nlohmann::json& value, const std::string& where) const;
};

// What a key's reader may use besides its value: where it is (for messages), the grid and the
// boats read before it, the files, and whether the grid travels (ocean.window, looked up before
// the walk: the boats' paths are read before the ocean that says so).
struct KeyContext {
  std::string where;
  const Grid* grid = nullptr;
  std::size_t boats = 0;
  const ScenarioFiles* files = nullptr;
  bool travels = false;
  // The "terrain" section when it names an elevation file (looked up before the walk too: with
  // "grid": "file" its samples are the grid, which the keys after "grid" need), and where it is.
  const nlohmann::json* terrainFile = nullptr;
  std::string terrainWhere{};
  // An item's index in its list (readItems): a default that names it ("gauge 2").
  std::size_t index = 0;
  // The object a key is read from ("s.json: gauges[0].record"): a check across keys names
  // another key of it, or the object.
  std::string object{};
};

template <class Target>
struct Key {
  using Kind = KeyKind;
  using Extent = KeyExtent;
  std::string name{};
  Kind kind = Kind::Number;
  double lo = 0.0, hi = 0.0;
  Extent extent = Extent::None;
  std::string unit{};
  std::string doc{};
  std::vector<std::string> choices{};  // of a Choice
  bool quoted = false;                 // its message quotes them: must be "m", "cm" or "mm"
  bool required = false;               // "missing" when absent
  bool optional = false;               // may be unset (get gives null): z, towed_by
  // Read only when this sibling key is given; else the key is unknown (min_depth: bathymetry).
  std::string onlyWith{};
  // Read and written only when this holds of the keys set before it (a reference's m: its kind
  // is standing-mode); else the key is unknown.
  std::function<bool(const Target&)> applies{};
  // The docs' type, default and range where they are not the kind's, the default target's value
  // and [lo, hi] unit: a default that depends on the grid ("2 dx"), a range note.
  std::string typeDoc{}, defaultDoc{}, rangeDoc{};
  // The key's value of a target, as written (null: not written).
  std::function<nlohmann::json(const Target&)> get{};
  // Sets a checked value (of the key's kind, or what `read` returned).
  std::function<void(Target&, const nlohmann::json&, const KeyContext&)> set{};
  // Checks a value of a Custom kind (or replaces the kind's check) and returns what `set` takes.
  std::function<nlohmann::json(const nlohmann::json&, const KeyContext&)> read{};
  // The key absent: sets a default that depends on keys read before it (max_depth: depth).
  std::function<void(Target&, const KeyContext&)> fallback{};
  // After the key (an Object: all its children) is set, or its default stands: checks across
  // keys.
  std::function<void(const Target&, const KeyContext&)> check{};
  // After the key is set and checked: what follows from it (the grid: an elevation file read
  // onto it).
  std::function<void(Target&, const KeyContext&)> then{};
  std::vector<Key<Target>> children{};  // of an Object

  // The upper bound on this grid with this many boats.
  double upper(const Grid& grid, std::size_t boats) const {
    switch (extent) {
      case Extent::Width:
        return grid.width();
      case Extent::Height:
        return grid.height();
      case Extent::Boats:
        return double(boats) - 1.0;
      case Extent::HalfCells:
        return double(std::max(grid.nx, grid.ny) / 2);
      case Extent::LongerSide:
        return std::max(grid.width(), grid.height());
      case Extent::None:
        break;
    }
    return hi;
  }
};

// `key` bound to the member of its target that `member` returns (a lambda taking auto&, so
// that one lambda serves the reader and the writer: [](auto& s) -> auto& { return s.depth; }).
template <class Target, class Member>
Key<Target> memberKey(Key<Target> key, Member member) {
  key.get = [member](const Target& t) { return nlohmann::json(member(t)); };
  key.set = [member](Target& t, const nlohmann::json& v, const KeyContext&) {
    auto& field = member(t);
    field = v.get<std::decay_t<decltype(field)>>();
  };
  return key;
}

// A value of a key's kind, checked against [lo, hi] (hi the key's upper bound here); `where`
// names it; `quoted`: a Choice's message quotes the choices.
nlohmann::json checkedKeyValue(KeyKind kind, const std::vector<std::string>& choices, double lo,
                               double hi, const nlohmann::json& value, const std::string& where,
                               bool quoted = false);

// Reads `keys` of one object into `target` in their order; the caller finishes the reader.
template <class Target>
void readKeys(ObjectReader& r, const std::vector<Key<Target>>& keys, Target& target,
              const KeyContext& context) {
  for (const Key<Target>& key : keys) {
    if (!key.onlyWith.empty() && !r.has(key.onlyWith)) continue;
    if (key.applies && !key.applies(target)) continue;
    if (key.required) r.raw(key.name);  // "missing"
    KeyContext at = context;
    at.where = r.at(key.name);
    at.object = context.where;
    if (!r.has(key.name)) {
      if (key.fallback) key.fallback(target, at);
      if (key.check) key.check(target, at);
      continue;
    }
    const nlohmann::json& value = r.raw(key.name);
    if (key.kind == KeyKind::Object) {
      ObjectReader object(value, at.where);
      readKeys(object, key.children, target, at);
      if (key.check) key.check(target, at);
      object.finish();
      if (key.then) key.then(target, at);
      continue;
    }
    if (key.extent == KeyExtent::Boats && context.boats == 0)
      ObjectReader::fail(at.where, "the scenario has no boat to tow it");
    const double hi = context.grid ? key.upper(*context.grid, context.boats) : key.hi;
    if (key.read)
      key.set(target, key.read(value, at), at);
    else if (key.kind == KeyKind::Custom)
      key.set(target, value, at);
    else
      key.set(target,
              checkedKeyValue(key.kind, key.choices, key.lo, hi, value, at.where, key.quoted), at);
    if (key.check) key.check(target, at);
    if (key.then) key.then(target, at);
  }
}

// The object of `keys` of a target: every key whose value is not null, an Object when it
// holds any.
template <class Target>
nlohmann::json writeKeys(const std::vector<Key<Target>>& keys, const Target& target) {
  nlohmann::json out = nlohmann::json::object();
  for (const Key<Target>& key : keys) {
    if (key.applies && !key.applies(target)) continue;
    if (key.kind == KeyKind::Object) {
      if (nlohmann::json object = writeKeys(key.children, target); !object.empty())
        out[key.name] = std::move(object);
    } else if (nlohmann::json value = key.get(target); !value.is_null()) {
      out[key.name] = std::move(value);
    }
  }
  return out;
}

// An array of objects (gauges, transects), each read with `keys` into an Item, its index in
// the context; `shape` is what a value that is not an array is told it must be ("[{\"name\",
// \"x\", \"y\"}, ...]"); `each` (may be empty) checks an item against the items before it,
// before its reader is finished.
template <class Item>
std::vector<Item> readItems(
    const nlohmann::json& list, const KeyContext& context, const std::vector<Key<Item>>& keys,
    const std::string& shape,
    const std::function<void(const std::vector<Item>&, const Item&, ObjectReader&)>& each = {}) {
  if (!list.is_array()) ObjectReader::fail(context.where, "must be " + shape);
  std::vector<Item> items;
  for (std::size_t k = 0; k < list.size(); ++k) {
    KeyContext at = context;
    at.where = context.where + "[" + std::to_string(k) + "]";
    at.index = k;
    ObjectReader r(list[k], at.where);
    Item item{};
    readKeys(r, keys, item, at);
    if (each) each(items, item, r);
    r.finish();
    items.push_back(std::move(item));
  }
  return items;
}

// The array of `items` as `keys` write them; null when there are none.
template <class Item>
nlohmann::json writeItems(const std::vector<Key<Item>>& keys, const std::vector<Item>& items) {
  nlohmann::json out;
  for (const Item& item : items)
    out.push_back(writeKeys(keys, item));
  return out;
}

using ScenarioKey = Key<Scenario>;
// The scenario's top-level keys in reading order, sections (grid, water, ...) as Objects of
// their keys (core/scenario/scenario_keys.cpp).
const std::vector<ScenarioKey>& scenarioKeys();
// The key table of one top-level Object ("grid", "water", ...).
const std::vector<ScenarioKey>& sectionKeys(const std::string& section);
// "bodies" as an object: the passive tracers' keys.
const std::vector<ScenarioKey>& tracerKeys();

// One docs table: the Markdown rows of `keys` (| key | type | default | range, unit | meaning |),
// the defaults being those of `defaults`.
template <class Target>
std::string keyTableMarkdown(const std::vector<Key<Target>>& keys, const Target& defaults);
// One docs table of model parameters (the "ocean" section's, declared as fft-ocean's): the same
// columns, the default "auto" for a parameter the model derives.
std::string paramTableMarkdown(const std::vector<ParamSpec>& specs);
// Every table docs/scenario.md generates from the declarations, each under the heading it
// follows ("## `grid`"), in page order.
struct KeyTable {
  std::string heading;
  std::string markdown;
};
std::vector<KeyTable> scenarioKeyTables();

}  // namespace wb
