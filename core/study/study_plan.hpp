// A study's plan: every run the axes make (docs/studies.md), in the order the convergence
// tables read them: per model, per combination of its parameter axes, per dt, grids from the
// coarsest. The plan is written to the output folder as study.json, so that one run of it can
// be run anywhere (`study run-one DIR INDEX`, a Slurm array task) and the folder can tell its
// own study from another's (the hash).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/grid/domain.hpp"
#include "core/model/parameters.hpp"
#include "core/scenario/scenario.hpp"
#include "core/study/study_spec.hpp"

namespace wb {

// What the plan needs to know of a model without building one (the catalogue's entry).
struct ModelDeclaration {
  std::string id;
  std::vector<ParamSpec> specs;
};

struct PlannedRun {
  int index = 0;
  std::string name;  // "damped-wave_grid64_dt0.5x_iterations2": model and the axes' values
  std::string model;
  int grid = 0;  // cells along the longer side
  Grid cells;    // the run's nx, ny, dx
  DtChoice dt;
  // The step asked of the model (s), resolved on the run's grid; 0 for its own (auto).
  double dtSeconds = 0.0;
  std::vector<std::pair<std::string, std::string>> params;  // axis parameter -> value text
  double stepSeconds = 0.0;      // the step it takes, as planned: a whole number per tick
  long long steps = 0;           // of one pass, as planned
  double estimateSeconds = 0.0;  // from the calibration (study plan)
};

struct StudyPlan {
  std::string source;            // the study file
  std::string scenario;          // "builtin:NAME" or an absolute path
  nlohmann::json scenarioPatch;  // the study's, null for none
  // The scenario every run reads (patchedScenarioJson), its hash, and each file it reads
  // (fields, terrain, meshes) with the hash of its content: a run refuses to start when any of
  // them is not what was planned (planScenario).
  nlohmann::json scenarioJson;
  std::string scenarioHash;
  std::vector<std::pair<std::string, std::string>> scenarioFiles;  // file -> content hash
  std::vector<std::string> paramColumns;  // "swe-adi.iterations", one per parameter axis
  std::vector<double> errorAt;            // s, ascending
  int repeats = 1, threads = 1;
  bool warmup = true, force = false;
  bool hasReference = false;  // errors against the scenario's reference, else the finest grid
  std::vector<std::string> gaugeRecords;  // the names of the scenario's gauges with a record
  std::string hash;                       // of the study file, the scenario and the files it read
  std::vector<PlannedRun> runs;
};

// A fixed 64-bit hash of some bytes (FNV-1a), as 16 hex digits: the same in every build.
std::string contentHash(const std::string& bytes);
// Each file the scenario reads (masks, bathymetry, initial surface, terrain, body meshes), as
// it names them, with the hash of its content. Throws InputError naming a file it cannot read.
std::vector<std::pair<std::string, std::string>> scenarioFileHashes(const Scenario& scenario);

// The runs of a study on its base scenario. Checks every axis against the catalogue and the
// scenario (unknown model or parameter, a bad value, a grid the scenario cannot take, an error
// time the run cannot reach) and throws InputError "<study>: axes.<key>...: <reason>".
// The dt of each run is resolved later, on its grid, by whoever can build the model.
StudyPlan expandStudy(const StudySpec& study, const Scenario& base,
                      const std::vector<ModelDeclaration>& catalogue,
                      const std::vector<std::string>& defaultModels);

// The grid with `cells` along the base's longer side over the same physical size: dx scales
// and the shorter side follows, which must then be a whole number of cells.
Grid gridWithLongerSide(const Grid& base, int cells, const std::string& where);
// The base scenario on another grid of the same physical size. Fields the scenario reads from
// CSV files have a fixed size and are refused (PNG fields are resampled, presets and drops are
// in metres).
Scenario scenarioOnGrid(const Scenario& base, const Grid& grid, const std::string& where);
// The run's scenario: on its grid, sampled at frames that fall on every error time, for as
// long as the last one.
Scenario runScenario(const StudyPlan& plan, const Scenario& base, const PlannedRun& run);

// The scenario as planned, read from the plan's own copy. Throws InputError, naming what
// differs, when the copy or a file the scenario reads is not what the plan recorded (edited
// since), so that no run takes a scenario that was not planned.
Scenario planScenario(const StudyPlan& plan);

nlohmann::json planToJson(const StudyPlan& plan);
// Throws InputError naming `source` when the plan cannot be read.
StudyPlan planFromJson(const nlohmann::json& json, const std::string& source);

}  // namespace wb
