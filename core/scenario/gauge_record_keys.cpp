#include "core/scenario/gauge_record_keys.hpp"

#include "core/errors.hpp"
#include "core/scenario/object_reader.hpp"
#include "core/scenario/scenario_sections.hpp"

namespace wb {
using nlohmann::json;

namespace {

int column(ObjectReader& r, const std::string& key, int fallback) {
  return r.integer(key, fallback, 0, 1000);
}

std::optional<TimeWindow> window(ObjectReader& r, const std::string& key) {
  if (!r.has(key)) return std::nullopt;
  const json& v = r.raw(key);
  if (!v.is_array() || v.size() != 2) ObjectReader::fail(r.at(key), "must be [start, end] in s");
  const TimeWindow w{ObjectReader::checkedNumber(v[0], r.at(key), 0, 1e7),
                     ObjectReader::checkedNumber(v[1], r.at(key), 0, 1e7)};
  if (!(w.end > w.begin)) ObjectReader::fail(r.at(key), "the end must come after the start");
  return w;
}

}  // namespace

std::shared_ptr<const GaugeRecord> readGaugeRecord(const json& value, const std::string& where,
                                                   const ScenarioFiles& files) {
  ObjectReader r(value, where);
  const FileRef file = files.file(r.raw("file"), r.at("file"));
  RecordSpec spec;
  spec.file = fileJson(file).get<std::string>();
  spec.column = column(r, "column", spec.column);
  spec.timeColumn = column(r, "time_column", spec.timeColumn);
  if (spec.column == spec.timeColumn)
    ObjectReader::fail(r.at("column"), std::to_string(spec.column) + " is the time column");
  spec.units = r.text("units", spec.units);
  if (!unitScale(spec.units)) ObjectReader::fail(r.at("units"), "must be \"m\", \"cm\" or \"mm\"");
  spec.shift = r.number("shift", spec.shift, -1e7, 1e7);
  spec.zero = r.number("zero", spec.zero, 0, 1e7);
  spec.window = window(r, "window");
  spec.alignWindow = window(r, "align_window");
  spec.maxShift = r.number("max_shift", spec.maxShift, 1e-6, 1e4);
  if (r.has("arrival_threshold"))
    spec.arrivalThreshold = r.requiredNumber("arrival_threshold", 1e-12, 1e4);
  r.finish();
  return std::make_shared<const GaugeRecord>(file.read(), where + ": " + file.describe(),
                                             std::move(spec));
}

json gaugeRecordJson(const RecordSpec& spec) {
  json out = {
      {"file", spec.file},         {"column", spec.column}, {"time_column", spec.timeColumn},
      {"units", spec.units},       {"shift", spec.shift},   {"zero", spec.zero},
      {"max_shift", spec.maxShift}};
  if (spec.window) out["window"] = {spec.window->begin, spec.window->end};
  if (spec.alignWindow) out["align_window"] = {spec.alignWindow->begin, spec.alignWindow->end};
  if (spec.arrivalThreshold) out["arrival_threshold"] = *spec.arrivalThreshold;
  return out;
}

void requireRecordsCover(const Scenario& scenario, double runEnd) {
  for (std::size_t g = 0; g < scenario.gauges.size(); ++g)
    if (const auto& record = scenario.gauges[g].record)
      record->requireCovers(runEnd, scenario.source + ": gauges[" + std::to_string(g) + "].record");
}

}  // namespace wb
