#include "core/study/study_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/scenario/builtin_resources.hpp"
#include "core/scenario/field_io.hpp"

namespace wb {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kBuiltinPrefix = "builtin:";
constexpr const char* kStudySuffix = ".study";  // not .json: builtin scenarios are the .json files

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw InputError(where + ": " + why);
}

std::string numberText(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

double checkedNumber(const json& value, const std::string& where, double lo, double hi) {
  if (!value.is_number()) fail(where, "must be a number");
  const double v = value.get<double>();
  if (!std::isfinite(v) || v < lo || v > hi)
    fail(where, numberText(v) + " is outside [" + numberText(lo) + ", " + numberText(hi) + "]");
  return v;
}

int checkedInteger(const json& value, const std::string& where, int lo, int hi) {
  const double v = checkedNumber(value, where, lo, hi);
  if (v != std::floor(v)) fail(where, "must be an integer");
  return int(v);
}

const json& nonEmptyArray(const json& value, const std::string& where) {
  if (!value.is_array()) fail(where, "must be a list of values");
  if (value.empty()) fail(where, "empty axis: give at least one value");
  return value;
}

template <class T>
void refuseRepeats(const std::vector<T>& values, const std::string& where) {
  for (std::size_t a = 0; a < values.size(); ++a)
    for (std::size_t b = a + 1; b < values.size(); ++b)
      if (values[a] == values[b]) fail(where + "[" + std::to_string(b) + "]", "repeats a value");
}

// "4x", "0.5x": a multiple of the explicit limit; a number: seconds; "auto".
DtChoice readDt(const json& value, const std::string& where) {
  DtChoice dt;
  if (value.is_number()) {
    dt.seconds = checkedNumber(value, where, 1e-9, 1e4);
    dt.text = numberText(*dt.seconds);
    return dt;
  }
  if (!value.is_string()) fail(where, "must be seconds, \"Nx\" (N explicit limits) or \"auto\"");
  dt.text = value.get<std::string>();
  if (dt.text == "auto") return dt;
  double multiple = 0.0;
  const char* first = dt.text.data();
  const char* last = first + dt.text.size();
  const auto [end, ec] = std::from_chars(first, last, multiple);
  if (ec != std::errc() || end + 1 != last || *end != 'x' || !(multiple > 0.0) ||
      !std::isfinite(multiple) || multiple > 1e4)
    fail(where, "'" + dt.text + "' is not seconds, \"Nx\" with 0 < N <= 10000, or \"auto\"");
  dt.multiple = multiple;
  dt.text = numberText(multiple) + "x";  // "0.50x" and "0.5x" are one step, named alike
  return dt;
}

// A parameter value as --set takes it.
std::string paramText(const json& value, const std::string& where) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) {
    if (!std::isfinite(value.get<double>())) fail(where, "must be finite");
    return numberText(value.get<double>());
  }
  fail(where, "must be a number, a string or true/false");
}

void readAxes(const json& axes, const std::string& where, StudySpec& study) {
  if (!axes.is_object()) fail(where, "must be an object of axes");
  for (const auto& [key, value] : axes.items()) {
    const std::string at = where + "." + key;
    const json& list = nonEmptyArray(value, at);
    if (key == "models") {
      for (std::size_t k = 0; k < list.size(); ++k) {
        if (!list[k].is_string()) fail(at + "[" + std::to_string(k) + "]", "must be a model id");
        study.models.push_back(list[k].get<std::string>());
      }
      refuseRepeats(study.models, at);
    } else if (key == "grid") {
      for (std::size_t k = 0; k < list.size(); ++k)
        study.grids.push_back(checkedInteger(list[k], at + "[" + std::to_string(k) + "]", 4, 4096));
      refuseRepeats(study.grids, at);
    } else if (key == "dt") {
      // Compared by value: "0.5x" and "0.50x" are the same step (the canonical text says so).
      std::vector<std::string> texts;
      for (std::size_t k = 0; k < list.size(); ++k) {
        study.dts.push_back(readDt(list[k], at + "[" + std::to_string(k) + "]"));
        texts.push_back(study.dts.back().text);
      }
      refuseRepeats(texts, at);
    } else if (const auto dot = key.find('.'); dot != std::string::npos && dot > 0) {
      ParamAxis axis{key.substr(0, dot), key.substr(dot + 1), {}};
      for (std::size_t k = 0; k < list.size(); ++k)
        axis.values.push_back(paramText(list[k], at + "[" + std::to_string(k) + "]"));
      refuseRepeats(axis.values, at);
      study.params.push_back(std::move(axis));
    } else {
      fail(at, "unknown axis (expected models, grid, dt or model.parameter)");
    }
  }
}

void readError(const json& error, const std::string& where, StudySpec& study) {
  if (!error.is_object()) fail(where, "must be {\"at\": [seconds, ...]}");
  for (const auto& [key, value] : error.items()) {
    if (key != "at") fail(where + "." + key, "unknown key");
    const json& list = nonEmptyArray(value, where + ".at");
    for (std::size_t k = 0; k < list.size(); ++k)
      study.errorAt.push_back(
          checkedNumber(list[k], where + ".at[" + std::to_string(k) + "]", 0.0, 1e7));
    refuseRepeats(study.errorAt, where + ".at");
    std::sort(study.errorAt.begin(), study.errorAt.end());
  }
}

}  // namespace

StudySpec parseStudyText(const std::string& text, const std::string& source,
                         const fs::path& baseDir, bool builtin) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    std::string why = e.what();
    if (auto tag = why.find("] "); why.starts_with("[json.") && tag != std::string::npos)
      why = why.substr(tag + 2);
    throw InputError(source + ": malformed JSON: " + why);
  }
  if (!root.is_object()) fail(source, "a study must be a JSON object");
  StudySpec study;
  study.source = source;
  study.text = text;
  const auto at = [&](const std::string& key) { return source + ": " + key; };
  for (const auto& [key, value] : root.items()) {
    if (key == "scenario") {
      if (!value.is_string() || value.get<std::string>().empty())
        fail(at(key), "must be a file name or \"builtin:NAME\"");
      study.scenario = value.get<std::string>();
      if (!study.scenario.starts_with(kBuiltinPrefix)) {
        if (builtin) fail(at(key), "a builtin study names a builtin scenario");
        study.scenario = (baseDir / study.scenario).lexically_normal().string();
      }
    } else if (key == "scenario_patch") {
      if (!value.is_object())
        fail(at(key), "must be an object (a JSON merge patch of the scenario)");
      study.scenarioPatch = value;
    } else if (key == "axes") {
      readAxes(value, at(key), study);
    } else if (key == "repeats") {
      study.repeats = checkedInteger(value, at(key), 1, 1000);
    } else if (key == "threads") {
      study.threads = checkedInteger(value, at(key), 1, 1024);
    } else if (key == "warmup" || key == "force") {
      if (!value.is_boolean()) fail(at(key), "must be true or false");
      (key == "warmup" ? study.warmup : study.force) = value.get<bool>();
    } else if (key == "error") {
      readError(value, at(key), study);
    } else if (key == "name" || key == "description") {
      if (!value.is_string()) fail(at(key), "must be a string");
      if (key == "description") study.description = value.get<std::string>();
    } else {
      fail(at(key), "unknown key");
    }
  }
  if (study.scenario.empty()) fail(at("scenario"), "missing");
  return study;
}

std::string studyText(const std::string& fileOrBuiltin) {
  if (fileOrBuiltin.starts_with(kBuiltinPrefix)) {
    const std::string name = fileOrBuiltin.substr(std::string(kBuiltinPrefix).size());
    const auto text = builtinResource(name + kStudySuffix);
    if (!text) {
      std::string known;
      for (const auto& n : builtinStudyNames())
        known += (known.empty() ? "" : ", ") + n;
      throw InputError(fileOrBuiltin + ": no such builtin study (known: " + known + ")");
    }
    return std::string(*text);
  }
  return readFileBytes(fileOrBuiltin);
}

StudySpec loadStudy(const std::string& fileOrBuiltin) {
  const std::string text = studyText(fileOrBuiltin);
  if (fileOrBuiltin.starts_with(kBuiltinPrefix))
    return parseStudyText(text, fileOrBuiltin, {}, true);
  return parseStudyText(text, fileOrBuiltin, fs::absolute(fileOrBuiltin).parent_path());
}

Scenario loadPatchedScenario(const std::string& fileOrBuiltin, const json& patch) {
  if (patch.is_null()) return loadScenario(fileOrBuiltin);
  return parseStudyScenario(patchedScenarioJson(fileOrBuiltin, patch), fileOrBuiltin, true);
}

json patchedScenarioJson(const std::string& fileOrBuiltin, const json& patch) {
  std::string text;
  if (fileOrBuiltin.starts_with(kBuiltinPrefix)) {
    const auto bytes =
        builtinResource(fileOrBuiltin.substr(std::string(kBuiltinPrefix).size()) + ".json");
    if (!bytes) loadScenario(fileOrBuiltin);  // names the builtins there are
    text = std::string(*bytes);
  } else {
    text = readFileBytes(fileOrBuiltin);
  }
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception&) {
    loadScenario(fileOrBuiltin);  // its own message for malformed JSON
    throw;
  }
  if (!patch.is_null()) root.merge_patch(patch);
  return root;
}

Scenario parseStudyScenario(const json& scenario, const std::string& fileOrBuiltin, bool patched) {
  const bool builtin = fileOrBuiltin.starts_with(kBuiltinPrefix);
  const std::string source = patched ? fileOrBuiltin + " (patched by the study)" : fileOrBuiltin;
  return parseScenario(scenario, source,
                       builtin ? fs::path() : fs::absolute(fileOrBuiltin).parent_path(), builtin);
}

std::vector<std::string> builtinStudyNames() {
  std::vector<std::string> names;
  const std::string suffix = kStudySuffix;
  for (const auto& file : builtinResourceNames())
    if (file.size() > suffix.size() && file.ends_with(suffix))
      names.push_back(file.substr(0, file.size() - suffix.size()));
  return names;
}

}  // namespace wb
