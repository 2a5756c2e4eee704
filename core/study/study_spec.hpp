// A study file (docs/studies.md): a base scenario and the axes it is swept along (models,
// grids, time steps, model parameters), how each run is timed, and when its error is taken.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/scenario/scenario.hpp"

namespace wb {

// One value of the "dt" axis: seconds, or a multiple of each model's explicit limit ("4x").
// Neither: "auto", the model's own step.
struct DtChoice {
  std::string text;  // as written: "0.01", "0.5x", "auto"
  std::optional<double> seconds;
  std::optional<double> multiple;
};

// An axis over one declared parameter of one model ("swe-adi.iterations": [1, 2, 4]); the
// values stay as written (numbers, choice names, booleans) and are checked against the model's
// declaration when the plan is made.
struct ParamAxis {
  std::string model, param;
  std::vector<std::string> values;  // each as --set would take it
};

struct StudySpec {
  std::string source;  // the study file, for messages ("study.json", "builtin:NAME")
  std::string text;    // its content (part of the plan's hash)
  std::string description;
  std::string scenario;  // "builtin:NAME" or a path resolved against the study's folder
  // A JSON merge patch (RFC 7386) applied to the scenario before it is read: the study's own
  // variant of it (a smaller wave, another tick) without a copy of the file. Null: none.
  nlohmann::json scenarioPatch;
  std::vector<std::string> models;  // empty: the scenario's models, else the default set
  std::vector<int> grids;           // cells along the longer side; empty: the scenario's
  std::vector<DtChoice> dts;        // empty: each model's own step
  std::vector<ParamAxis> params;
  int repeats = 1;
  int threads = 1;
  bool warmup = true;
  bool force = false;           // a dt beyond a model's bound runs (and may blow up)
  std::vector<double> errorAt;  // s; empty: at the scenario's duration
};

// Parses a study; `source` names it in messages and a relative scenario path resolves against
// baseDir. Throws InputError "<source>: <key>: <reason>" for anything it cannot use.
StudySpec parseStudyText(const std::string& text, const std::string& source,
                         const std::filesystem::path& baseDir, bool builtin = false);
// The study's scenario ("builtin:NAME" or a path) with the patch applied (none when null).
// Throws InputError naming the scenario and the key.
Scenario loadPatchedScenario(const std::string& fileOrBuiltin, const nlohmann::json& patch);
// The same scenario as JSON: the file's (or the builtin's) with the patch applied. The plan
// keeps this copy and every run reads it (parseStudyScenario), so a run reads the scenario that
// was planned, whatever happens to the file later.
nlohmann::json patchedScenarioJson(const std::string& fileOrBuiltin, const nlohmann::json& patch);
// Reads that copy as loadPatchedScenario reads the file: the same name in messages, relative
// paths against the file's folder.
Scenario parseStudyScenario(const nlohmann::json& scenario, const std::string& fileOrBuiltin,
                            bool patched);
// "builtin:NAME" (resources/scenarios/NAME.study) or a path.
StudySpec loadStudy(const std::string& fileOrBuiltin);
// The study file's text (a builtin's embedded one); InputError when it cannot be read.
std::string studyText(const std::string& fileOrBuiltin);
std::vector<std::string> builtinStudyNames();

}  // namespace wb
