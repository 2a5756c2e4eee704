// docs/scenario.md's key tables, written from the declarations (scenario_keys.hpp): each
// table's rows as the docs show them, checked by ScenarioKeys.DocsTablesAreTheDeclaredOnes.
#include <cmath>
#include <sstream>
#include <string>

#include "core/ocean/ocean_layer.hpp"
#include "core/scenario/gauge_record_keys.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/scenario_keys.hpp"
#include "core/scenario/scenario_sections.hpp"
#include "core/scenario/terrain_file_keys.hpp"

namespace wb {
using nlohmann::json;

namespace {

// A number as the docs' tables write a bound: powers of ten from 1e3 and below 1e-2 as 1eN,
// 2^53 as such.
std::string boundText(double x) {
  if (x == 9007199254740992.0) return "2^53";
  const double e = std::round(std::log10(std::fabs(x)));
  if (x != 0 && std::fabs(std::fabs(x) - std::pow(10.0, e)) <= 1e-9 * std::fabs(x) &&
      (e >= 3 || e <= -3))
    return std::string(x < 0 ? "-" : "") + "1e" + std::to_string(int(e));
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string valueText(const json& value) {
  if (value.is_null()) return "none";
  if (value.is_string()) return "`" + value.dump() + "`";
  if (value.is_number()) {
    std::ostringstream out;
    out << value.get<double>();
    return out.str();
  }
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t k = 0; k < value.size(); ++k)
      out += (k ? ", " : "") + valueText(value[k]);
    return out + "]";
  }
  return "`" + value.dump() + "`";
}

template <class Target>
std::string typeText(const Key<Target>& key) {
  if (!key.typeDoc.empty()) return key.typeDoc;
  switch (key.kind) {
    case KeyKind::Number:
      return "number";
    case KeyKind::Integer:
      return "integer";
    case KeyKind::Text:
      return "string";
    case KeyKind::Triple:
      return "[x, y, z]";
    case KeyKind::Choice: {
      std::string out;
      for (std::size_t k = 0; k < key.choices.size(); ++k)
        out += std::string(k == 0                        ? ""
                           : k + 1 == key.choices.size() ? " or "
                                                         : ", ") +
               "`\"" + key.choices[k] + "\"`";
      return out;
    }
    case KeyKind::Object:
      return "object";
    case KeyKind::Custom:
      break;
  }
  return "";
}

template <class Target>
std::string rangeText(const Key<Target>& key) {
  const bool numeric =
      key.kind == KeyKind::Number || key.kind == KeyKind::Integer || key.kind == KeyKind::Triple;
  if (!numeric || key.extent != KeyExtent::None) return key.rangeDoc;
  std::string out = boundText(key.lo) + " to " + boundText(key.hi);
  if (!key.unit.empty()) out += " " + key.unit;
  if (key.kind == KeyKind::Triple) out += " each";
  if (!key.rangeDoc.empty()) out += ", " + key.rangeDoc;
  return out;
}

}  // namespace

template <class Target>
std::string keyTableMarkdown(const std::vector<Key<Target>>& keys, const Target& defaults) {
  std::string out = "| key | type | default | range, unit | meaning |\n|---|---|---|---|---|\n";
  for (const Key<Target>& key : keys) {
    const std::string fallback = !key.defaultDoc.empty()       ? key.defaultDoc
                                 : key.required                ? "**required**"
                                 : key.kind == KeyKind::Object ? "none"
                                                               : valueText(key.get(defaults));
    for (const std::string& cell :
         {"`" + key.name + "`", typeText(key), fallback, rangeText(key), key.doc})
      out += "| " + cell + (cell.empty() ? "" : " ");
    out += "|\n";
  }
  return out;
}
template std::string keyTableMarkdown(const std::vector<ScenarioKey>&, const Scenario&);
template std::string keyTableMarkdown(const std::vector<BodyKey>&, const BodySpec&);
template std::string keyTableMarkdown(const std::vector<Key<GaugeSpec>>&, const GaugeSpec&);
template std::string keyTableMarkdown(const std::vector<Key<RecordSpec>>&, const RecordSpec&);
template std::string keyTableMarkdown(const std::vector<Key<TransectSpec>>&, const TransectSpec&);
template std::string keyTableMarkdown(const std::vector<Key<ReferenceSpec>>&, const ReferenceSpec&);
template std::string keyTableMarkdown(const std::vector<Key<IncomingWave>>&, const IncomingWave&);
template std::string keyTableMarkdown(const std::vector<Key<SurfaceEvent>>&, const SurfaceEvent&);
template std::string keyTableMarkdown(const std::vector<Key<RainSpec>>&, const RainSpec&);
template std::string keyTableMarkdown(const std::vector<Key<BoatSpec>>&, const BoatSpec&);
template std::string keyTableMarkdown(const std::vector<Key<BoatSteer>>&, const BoatSteer&);
template std::string keyTableMarkdown(const std::vector<Key<WindSpec>>&, const WindSpec&);
template std::string keyTableMarkdown(const std::vector<Key<StirImpulse>>&, const StirImpulse&);
template std::string keyTableMarkdown(const std::vector<Key<MaskStroke>>&, const MaskStroke&);
template std::string keyTableMarkdown(const std::vector<Key<MaskDab>>&, const MaskDab&);

std::string paramTableMarkdown(const std::vector<ParamSpec>& specs) {
  std::string out = "| key | type | default | range, unit | meaning |\n|---|---|---|---|---|\n";
  for (const ParamSpec& spec : specs) {
    std::string type, fallback, range;
    switch (spec.kind) {
      case ParamKind::Real:
      case ParamKind::Integer:
        type = spec.kind == ParamKind::Real ? "number" : "integer";
        fallback = spec.autoDerived ? "auto" : valueText(spec.defaultValue);
        range =
            spec.kind == ParamKind::Integer
                ? std::to_string((long long)spec.min) + " to " + std::to_string((long long)spec.max)
                : boundText(spec.min) + " to " + boundText(spec.max);
        if (!spec.unit.empty()) range += " " + spec.unit;
        break;
      case ParamKind::Choice:
        for (std::size_t k = 0; k < spec.choices.size(); ++k)
          type += std::string(k == 0                         ? ""
                              : k + 1 == spec.choices.size() ? " or "
                                                             : ", ") +
                  "`\"" + spec.choices[k] + "\"`";
        fallback = "`\"" + spec.choices.at(std::size_t(spec.defaultValue)) + "\"`";
        break;
      case ParamKind::Flag:
        type = "true or false";
        fallback = spec.defaultValue != 0.0 ? "true" : "false";
        break;
    }
    // A bar in a doc (|k.w|) would end its cell.
    std::string doc;
    for (char c : spec.doc)
      doc += c == '|' ? std::string("\\|") : std::string(1, c);
    for (const std::string& cell : {"`" + spec.name + "`", type, fallback, range, doc})
      out += "| " + cell + (cell.empty() ? "" : " ");
    out += "|\n";
  }
  return out;
}

std::vector<KeyTable> scenarioKeyTables() {
  const Scenario defaults;
  std::vector<BodyKey> bodies = bodyKeys();
  bodies.insert(bodies.end(), meshBodyKeys().begin(), meshBodyKeys().end());
  std::vector<KeyTable> tables;
  tables.push_back({"## Top level", keyTableMarkdown(scenarioKeys(), defaults)});
  for (const char* name : {"grid", "water", "domain", "terrain", "initial", "friction"})
    tables.push_back(
        {std::string("## `") + name + "`", keyTableMarkdown(sectionKeys(name), defaults)});
  tables.push_back(
      {"### Terrain from elevation files", keyTableMarkdown(terrainFileKeys(), defaults)});
  const std::string excitations = "## `excitations`";
  tables.push_back({excitations, keyTableMarkdown(timedDropKeys(), SurfaceEvent{})});
  tables.push_back({excitations, keyTableMarkdown(rainKeys(), RainSpec{})});
  tables.push_back({excitations, keyTableMarkdown(boatKeys(), BoatSpec{})});
  tables.push_back({excitations, keyTableMarkdown(steerKeys(), BoatSteer{})});
  tables.push_back({excitations, keyTableMarkdown(windKeys(), WindSpec{})});
  tables.push_back({excitations, keyTableMarkdown(windRegionKeys(), WindSpec{})});
  tables.push_back({excitations, keyTableMarkdown(stirKeys(), StirImpulse{})});
  tables.push_back({excitations, keyTableMarkdown(strokeKeys(), MaskStroke{})});
  tables.push_back({excitations, keyTableMarkdown(dabKeys(), MaskDab{})});
  tables.push_back({"## `bodies`", keyTableMarkdown(tracerKeys(), defaults)});
  tables.push_back({"## `bodies`", keyTableMarkdown(bodies, BodySpec{})});
  tables.push_back({"## `gauges` and `transects`", keyTableMarkdown(gaugeKeys(), GaugeSpec{})});
  tables.push_back(
      {"## `gauges` and `transects`", keyTableMarkdown(transectKeys(), TransectSpec{})});
  tables.push_back({"### Gauge records", keyTableMarkdown(recordKeys(), RecordSpec{})});
  tables.push_back({"## `reference`", keyTableMarkdown(referenceKeys(), ReferenceSpec{})});
  for (const auto* keys : {&incomingKeys(), &incomingSineKeys(), &incomingSolitaryKeys()})
    tables.push_back({"### Incoming edges", keyTableMarkdown(*keys, IncomingWave{})});
  tables.push_back({"## `ocean`", paramTableMarkdown(oceanParameterSpecs())});
  return tables;
}

}  // namespace wb
