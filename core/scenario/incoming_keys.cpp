#include "core/scenario/incoming_keys.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "core/errors.hpp"

namespace wb {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw InputError(where + ": " + why);
}

void refuseUnknownKeys(const json& object, const std::string& where,
                       const std::set<std::string>& known) {
  if (!object.is_object()) fail(where, "must be an object");
  for (const auto& [key, value] : object.items())
    if (!known.count(key)) fail(where + "." + key, "unknown key");
}

double number(const json& object, const std::string& key, const std::string& where, double lo,
              double hi, bool required, double fallback = 0.0) {
  if (!object.contains(key)) {
    if (required) fail(where + "." + key, "missing");
    return fallback;
  }
  const json& v = object.at(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    fail(where + "." + key, "must be a number");
  const double x = v.get<double>();
  if (x < lo || x > hi) {
    std::ostringstream why;
    why << x << " is outside [" << lo << ", " << hi << "]";
    fail(where + "." + key, why.str());
  }
  return x;
}

// Each time after the one before it: the record is a function of time.
void appendSample(IncomingWave& wave, double t, double eta, const std::string& where) {
  if (!wave.times.empty() && !(t > wave.times.back())) {
    std::ostringstream why;
    why << "time " << t << " s does not increase (the sample before is at " << wave.times.back()
        << " s)";
    fail(where, why.str());
  }
  wave.times.push_back(t);
  wave.etas.push_back(eta);
}

void checkRecordLength(const IncomingWave& wave, const std::string& where) {
  if (wave.times.size() < 2) fail(where, "a record needs at least two samples");
}

}  // namespace

IncomingWave parseIncomingRecord(const std::string& text, const std::string& where) {
  IncomingWave wave;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream fields(line);
    std::string first;
    if (!(fields >> first) || first[0] == '#') continue;
    const std::string at = where + ": line " + std::to_string(number);
    std::istringstream firstField(first);
    double t = 0.0, eta = 0.0;
    std::string extra;
    if (!(firstField >> t) || !firstField.eof() || !(fields >> eta) || (fields >> extra) ||
        !std::isfinite(t) || !std::isfinite(eta))
      fail(at, "expected two numbers, time (s) and elevation (m): '" + line + "'");
    appendSample(wave, t, eta, at);
  }
  checkRecordLength(wave, where);
  return wave;
}

IncomingWave readIncomingEdge(const json& value, const std::string& where,
                              const ScenarioFileResolver& resolve) {
  refuseUnknownKeys(value, where, {"incoming"});
  const std::string at = where + ".incoming";
  if (!value.contains("incoming")) fail(at, "missing");
  const json& spec = value.at("incoming");
  refuseUnknownKeys(spec, at, {"series", "sine", "solitary", "then"});
  const int forms =
      int(spec.contains("series")) + int(spec.contains("sine")) + int(spec.contains("solitary"));
  if (forms != 1) fail(at, "needs exactly one of \"series\", \"sine\" or \"solitary\"");
  IncomingWave wave;
  if (spec.contains("series")) {
    const json& series = spec.at("series");
    const std::string seriesAt = at + ".series";
    if (series.is_string()) {
      const FileRef file = resolve(series, seriesAt);
      wave = parseIncomingRecord(file.read(), seriesAt + " (" + file.describe() + ")");
      wave.file = file.describe();
    } else if (series.is_array()) {
      for (std::size_t k = 0; k < series.size(); ++k) {
        const std::string rowAt = seriesAt + "[" + std::to_string(k) + "]";
        const json& row = series[k];
        if (!row.is_array() || row.size() != 2 || !row[0].is_number() || !row[1].is_number())
          fail(rowAt, "must be [time, elevation] (two numbers)");
        appendSample(wave, row[0].get<double>(), row[1].get<double>(), rowAt);
      }
      checkRecordLength(wave, seriesAt);
    } else {
      fail(seriesAt, "must be a file name or [[time, elevation], ...]");
    }
  } else if (spec.contains("sine")) {
    const json& sine = spec.at("sine");
    refuseUnknownKeys(sine, at + ".sine", {"amplitude", "period"});
    wave.form = IncomingWave::Form::Sine;
    wave.amplitude = number(sine, "amplitude", at + ".sine", -1e3, 1e3, true);
    wave.period = number(sine, "period", at + ".sine", 1e-6, 1e7, true);
  } else {
    const json& solitary = spec.at("solitary");
    refuseUnknownKeys(solitary, at + ".solitary", {"amplitude", "crest_time"});
    wave.form = IncomingWave::Form::Solitary;
    wave.amplitude = number(solitary, "amplitude", at + ".solitary", 1e-9, 1e3, true);
    wave.crestTime = number(solitary, "crest_time", at + ".solitary", 0.0, 1e7, false, -1.0);
  }
  if (spec.contains("then")) {
    const json& then = spec.at("then");
    if (!then.is_string() || then.get<std::string>() != "open")
      fail(at + ".then", "must be \"open\" (what the side becomes when the record ends)");
    if (wave.form != IncomingWave::Form::Series)
      fail(at + ".then", "only a series ends; a sine or solitary wave has no end");
    wave.thenOpen = true;
  }
  return wave;
}

json incomingEdgeJson(const IncomingWave& wave) {
  json spec;
  switch (wave.form) {
    case IncomingWave::Form::Series:
      if (!wave.file.empty()) {
        spec["series"] = wave.file;
      } else {
        json rows = json::array();
        for (std::size_t k = 0; k < wave.times.size(); ++k)
          rows.push_back({wave.times[k], wave.etas[k]});
        spec["series"] = rows;
      }
      if (wave.thenOpen) spec["then"] = "open";
      break;
    case IncomingWave::Form::Sine:
      spec["sine"] = {{"amplitude", wave.amplitude}, {"period", wave.period}};
      break;
    case IncomingWave::Form::Solitary:
      spec["solitary"] = {{"amplitude", wave.amplitude}};
      if (wave.crestTime >= 0.0) spec["solitary"]["crest_time"] = wave.crestTime;
      break;
  }
  return {{"incoming", spec}};
}

}  // namespace wb
