// A gauge's "record" key (docs/scenario.md#gauge-records): {file, column, time_column, units,
// shift, zero, window, align_window, max_shift, arrival_threshold}, read, its file loaded
// (core/measure/gauge_record.hpp), and written back.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/measure/gauge_record.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/scenario_keys.hpp"

namespace wb {

// The record's keys, declared once: read, written and tabled in docs/scenario.md from here.
const std::vector<Key<RecordSpec>>& recordKeys();
// Reads the object at `where` ("s.json: gauges[0].record") and loads its file, resolved as the
// scenario's files are. Throws InputError naming the key, or the file and line.
std::shared_ptr<const GaugeRecord> readGaugeRecord(const nlohmann::json& value,
                                                   const std::string& where,
                                                   const ScenarioFiles& files);
nlohmann::json gaugeRecordJson(const RecordSpec& spec);

// Refuses (InputError naming the gauge) a record that does not cover the run [0, runEnd].
void requireRecordsCover(const Scenario& scenario, double runEnd);

}  // namespace wb
