#include "core/scenario/gauge_record_keys.hpp"

#include "core/errors.hpp"
#include "core/scenario/object_reader.hpp"
#include "core/scenario/scenario_sections.hpp"

namespace wb {
using nlohmann::json;

namespace {

// [start, end] in s, the end after the start; unset when not given.
Key<RecordSpec> windowKey(Key<RecordSpec> key, std::optional<TimeWindow> RecordSpec::*member) {
  key.kind = KeyKind::Custom;
  key.optional = true;
  key.typeDoc = "[start, end]";
  key.get = [member](const RecordSpec& spec) {
    const auto& w = spec.*member;
    return w ? json::array({w->begin, w->end}) : json();
  };
  key.set = [member](RecordSpec& spec, const json& v, const KeyContext& at) {
    if (!v.is_array() || v.size() != 2) ObjectReader::fail(at.where, "must be [start, end] in s");
    const TimeWindow w{ObjectReader::checkedNumber(v[0], at.where, 0, 1e7),
                       ObjectReader::checkedNumber(v[1], at.where, 0, 1e7)};
    if (!(w.end > w.begin)) ObjectReader::fail(at.where, "the end must come after the start");
    spec.*member = w;
  };
  return key;
}

std::vector<Key<RecordSpec>> declareRecordKeys() {
  using K = KeyKind;
  Key<RecordSpec> timeColumn = memberKey<RecordSpec>(
      {.name = "time_column",
       .kind = K::Integer,
       .lo = 0,
       .hi = 1000,
       .doc = "the time, s, counted from 0"},
      [](auto& spec) -> auto& { return spec.timeColumn; });
  // Read after "column": the two must differ, whichever is given.
  timeColumn.check = [](const RecordSpec& spec, const KeyContext& at) {
    if (spec.column != spec.timeColumn) return;
    ObjectReader::fail(at.object + ".column", std::to_string(spec.column) + " is the time column");
  };
  Key<RecordSpec> units = memberKey<RecordSpec>(
      {.name = "units",
       .kind = K::Choice,
       .doc = "the elevation's unit",
       .choices = {"m", "cm", "mm"},
       .quoted = true},
      [](auto& spec) -> auto& { return spec.units; });
  return {
      {.name = "file",
       .kind = K::Custom,
       .doc = "the table: columns separated by commas (a line with a comma) or by spaces and "
              "tabs; `#` starts a comment; blank lines skipped; the first row may be a header (a "
              "row that is not all numbers)",
       .required = true,
       .typeDoc = "file name",
       .rangeDoc = "relative to the scenario, or `builtin:NAME`",
       .get = [](const RecordSpec& spec) { return json(spec.file); },
       .set =
           [](RecordSpec& spec, const json& v, const KeyContext& at) {
             spec.file = fileJson(at.files->file(v, at.where)).get<std::string>();
           }},
      memberKey<RecordSpec>(
          {.name = "column",
           .kind = K::Integer,
           .lo = 0,
           .hi = 1000,
           .doc = "the elevation, counted from 0; not `time_column`"},
          [](auto& spec) -> auto& { return spec.column; }),
      timeColumn,
      units,
      memberKey<RecordSpec>(
          {.name = "shift",
           .lo = -1e7,
           .hi = 1e7,
           .unit = "s",
           .doc = "added to the file's times: the run's t = 0 is the file's t = −shift"},
          [](auto& spec) -> auto& { return spec.shift; }),
      memberKey<RecordSpec>(
          {.name = "zero",
           .lo = 0,
           .hi = 1e7,
           .unit = "s",
           .doc = "subtract the mean of the file's first `zero` seconds from every value (0: "
                  "none): tank records are not zeroed, and their offset at rest would count as "
                  "error"},
          [](auto& spec) -> auto& { return spec.zero; }),
      windowKey({.name = "window",
                 .doc = "where the summary measures (cut to the run)",
                 .defaultDoc = "the whole run",
                 .rangeDoc = "0 to 1e7 s, end > start"},
                &RecordSpec::window),
      windowKey({.name = "align_window",
                 .doc = "where the best-aligning shift is sought",
                 .defaultDoc = "`window`",
                 .rangeDoc = "0 to 1e7 s, end > start"},
                &RecordSpec::alignWindow),
      memberKey<RecordSpec>(
          {.name = "max_shift",
           .lo = 1e-6,
           .hi = 1e4,
           .unit = "s",
           .doc = "the shifts tried: −max_shift to +max_shift"},
          [](auto& spec) -> auto& { return spec.maxShift; }),
      {.name = "arrival_threshold",
       .lo = 1e-12,
       .hi = 1e4,
       .unit = "m",
       .doc = "the arrival's threshold",
       .optional = true,
       .defaultDoc = "10 % of the record's largest \\|η\\| in the window",
       .get =
           [](const RecordSpec& spec) {
             return spec.arrivalThreshold ? json(*spec.arrivalThreshold) : json();
           },
       .set = [](RecordSpec& spec, const json& v,
                 const KeyContext&) { spec.arrivalThreshold = v.get<double>(); }},
  };
}

}  // namespace

const std::vector<Key<RecordSpec>>& recordKeys() {
  static const std::vector<Key<RecordSpec>> keys = declareRecordKeys();
  return keys;
}

std::shared_ptr<const GaugeRecord> readGaugeRecord(const json& value, const std::string& where,
                                                   const ScenarioFiles& files) {
  ObjectReader r(value, where);
  RecordSpec spec;
  readKeys(r, recordKeys(), spec, KeyContext{.where = where, .files = &files});
  r.finish();
  const FileRef file = files.file(value.at("file"), r.at("file"));
  return std::make_shared<const GaugeRecord>(file.read(), where + ": " + file.describe(),
                                             std::move(spec));
}

json gaugeRecordJson(const RecordSpec& spec) {
  return writeKeys(recordKeys(), spec);
}

void requireRecordsCover(const Scenario& scenario, double runEnd) {
  for (std::size_t g = 0; g < scenario.gauges.size(); ++g)
    if (const auto& record = scenario.gauges[g].record)
      record->requireCovers(runEnd, scenario.source + ": gauges[" + std::to_string(g) + "].record");
}

}  // namespace wb
