#include "core/study/study_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "core/errors.hpp"
#include "core/measure/gauge_record.hpp"

namespace wb {
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw InputError(where + ": " + why);
}

const ModelDeclaration& declaration(const std::vector<ModelDeclaration>& catalogue,
                                    const std::string& id, const std::string& where) {
  std::string known;
  for (const auto& model : catalogue) {
    if (model.id == id) return model;
    known += (known.empty() ? "" : ", ") + model.id;
  }
  fail(where, "unknown model '" + id + "' (known: " + known + ")");
}

// Each value of a parameter axis is checked the way --set checks it.
void checkParamAxis(const ParamAxis& axis, const ModelDeclaration& model,
                    const std::string& where) {
  ParamValues values(model.specs);
  if (axis.param == "dt" || axis.param == "force")
    fail(where, "use the study's \"dt\" axis and \"force\" key for the time step");
  if (!values.has(axis.param)) {
    std::string known;
    for (const auto& spec : model.specs)
      known += (known.empty() ? "" : ", ") + spec.name;
    fail(where, "unknown parameter of " + model.id + " (known: " + known + ")");
  }
  for (std::size_t k = 0; k < axis.values.size(); ++k)
    values.setFromText(axis.param, axis.values[k], where + "[" + std::to_string(k) + "]");
}

// The error times as whole ticks of the scenario's clock: the states a run has.
std::vector<long long> errorTicks(const std::vector<double>& times, const Scenario& base,
                                  const std::string& where) {
  std::vector<long long> ticks;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double count = times[k] / base.tick, whole = std::round(count);
    if (std::fabs(count - whole) > 1e-6 * std::max(1.0, whole)) {
      std::ostringstream why;
      why << times[k] << " s is not a whole number of the scenario's ticks of " << base.tick
          << " s";
      fail(where + "[" + std::to_string(k) + "]", why.str());
    }
    ticks.push_back((long long)whole);
  }
  return ticks;
}

std::string runName(const std::string& model, int grid, const DtChoice* dt,
                    const std::vector<std::pair<std::string, std::string>>& params) {
  std::string name = model + "_grid" + std::to_string(grid);
  if (dt) name += "_dt" + dt->text;
  for (const auto& [param, value] : params)
    name += "_" + param + value;
  return name;
}

json dtJson(const DtChoice& dt) {
  json out = {{"text", dt.text}};
  if (dt.seconds) out["seconds"] = *dt.seconds;
  if (dt.multiple) out["multiple"] = *dt.multiple;
  return out;
}

DtChoice dtFromJson(const json& in) {
  DtChoice dt;
  dt.text = in.at("text").get<std::string>();
  if (in.contains("seconds")) dt.seconds = in.at("seconds").get<double>();
  if (in.contains("multiple")) dt.multiple = in.at("multiple").get<double>();
  return dt;
}

}  // namespace

// FNV-1a, 64 bits: a fixed function, so a hash written by one build reads the same in another.
std::string contentHash(const std::string& bytes) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : bytes)
    hash = (hash ^ c) * 1099511628211ULL;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

std::vector<std::pair<std::string, std::string>> scenarioFileHashes(const Scenario& s) {
  std::vector<FileRef> files;
  for (const auto* field : {&s.bathymetry, &s.mask, &s.initialEta})
    if (*field) files.push_back((*field)->file);
  if (s.terrain) files.push_back(*s.terrain);
  // A mesh is named as the scenario writes it back: "builtin:NAME" or the resolved path.
  const auto mesh = [&](const BodySpec& body) {
    if (body.meshFile.empty()) return;
    const std::string prefix = "builtin:";
    if (body.meshFile.starts_with(prefix))
      files.push_back({body.meshFile.substr(prefix.size()), true});
    else
      files.push_back({body.meshFile, false});
  };
  for (const auto& body : s.rigidBodies)
    mesh(body);
  for (const auto& timed : s.excitations.bodies)
    mesh(timed.spec);
  std::vector<std::pair<std::string, std::string>> hashes;
  for (const auto& file : files)
    hashes.emplace_back(file.describe(), contentHash(file.read()));
  // A gauge's record, which the runs' gauge errors are taken against: the series as read (its
  // column, units, shift and zeroing applied), printed to the last digit.
  for (const auto& gauge : s.gauges) {
    if (!gauge.record) continue;
    std::string series;
    char row[64];
    for (std::size_t k = 0; k < gauge.record->times().size(); ++k) {
      std::snprintf(row, sizeof row, "%.17g %.17g\n", gauge.record->times()[k],
                    gauge.record->etas()[k]);
      series += row;
    }
    hashes.emplace_back(gauge.record->spec().file, contentHash(series));
  }
  return hashes;
}

Scenario planScenario(const StudyPlan& plan) {
  const std::string copy = plan.scenarioJson.dump();
  if (contentHash(copy) != plan.scenarioHash)
    throw InputError("the plan's copy of the scenario was edited (hash " + contentHash(copy) +
                     ", planned " + plan.scenarioHash +
                     "): the run would not be the one planned; plan the study anew in another "
                     "folder");
  const Scenario scenario =
      parseStudyScenario(plan.scenarioJson, plan.scenario, !plan.scenarioPatch.is_null());
  const auto files = scenarioFileHashes(scenario);
  for (std::size_t k = 0; k < files.size() || k < plan.scenarioFiles.size(); ++k) {
    if (k < files.size() && k < plan.scenarioFiles.size() && files[k] == plan.scenarioFiles[k])
      continue;
    const auto& [file, hash] = k < files.size() ? files[k] : plan.scenarioFiles[k];
    const std::string planned = k < plan.scenarioFiles.size() ? plan.scenarioFiles[k].second : "";
    throw InputError(file + ": changed since the study was planned (content hash " + hash +
                     ", planned " + planned +
                     "): the run would not be the one planned; plan the study anew in another "
                     "folder");
  }
  return scenario;
}

Grid gridWithLongerSide(const Grid& base, int cells, const std::string& where) {
  const int longer = std::max(base.nx, base.ny), shorter = std::min(base.nx, base.ny);
  const long long scaled = 1LL * shorter * cells;
  if (scaled % longer != 0) {
    const int step = longer / std::gcd(longer, shorter);
    char other[32];
    std::snprintf(other, sizeof other, "%g", double(scaled) / longer);
    fail(where, std::to_string(cells) + " cells along the longer side give " + other +
                    " along the other (the scenario's grid is " + std::to_string(base.nx) + " x " +
                    std::to_string(base.ny) + "); use a multiple of " + std::to_string(step));
  }
  const int other = int(scaled / longer);
  if (other < 4)
    fail(where, std::to_string(cells) + " cells leave fewer than 4 on the shorter side");
  Grid grid;
  grid.dx = base.dx * longer / cells;
  grid.nx = base.nx >= base.ny ? cells : other;
  grid.ny = base.nx >= base.ny ? other : cells;
  return grid;
}

Scenario scenarioOnGrid(const Scenario& base, const Grid& grid, const std::string& where) {
  Scenario s = base;
  if (grid.nx == base.grid.nx && grid.ny == base.grid.ny) return s;
  const auto refuseCsv = [&](const std::optional<FieldSource>& field, const char* key) {
    if (field && field->format == FieldFormat::Csv)
      fail(where, base.source + ": " + key + " is a CSV of " + std::to_string(base.grid.nx) +
                      " x " + std::to_string(base.grid.ny) +
                      " cells, which a study does not resample; give it as a PNG (resampled "
                      "bilinearly) or leave the grid axis out");
  };
  refuseCsv(base.mask, "domain.mask");
  refuseCsv(base.bathymetry, "water.bathymetry");
  refuseCsv(base.initialEta, "initial.eta");
  s.grid = grid;
  // The checks reading the scenario makes of its grid: an open edge's layers are in cells.
  checkEdgesFit(s.edges, s.grid, where + ": " + base.source + ": domain.edges");
  return s;
}

StudyPlan expandStudy(const StudySpec& study, const Scenario& base,
                      const std::vector<ModelDeclaration>& catalogue,
                      const std::vector<std::string>& defaultModels) {
  StudyPlan plan;
  plan.source = study.source;
  plan.scenario = study.scenario;
  plan.scenarioPatch = study.scenarioPatch;
  plan.repeats = study.repeats;
  plan.threads = study.threads;
  plan.warmup = study.warmup;
  plan.force = study.force;
  plan.hasReference = base.reference.has_value();
  for (const GaugeSpec& gauge : base.gauges)
    if (gauge.record) plan.gaugeRecords.push_back(gauge.name);
  plan.errorAt = study.errorAt.empty() ? std::vector<double>{base.duration} : study.errorAt;
  checkIncomingCoversRun(base.edges, plan.errorAt.back(), base.source + ": domain.edges");
  errorTicks(plan.errorAt, base, study.source + ": error.at");
  plan.scenarioJson = patchedScenarioJson(study.scenario, study.scenarioPatch);
  plan.scenarioHash = contentHash(plan.scenarioJson.dump());
  plan.scenarioFiles = scenarioFileHashes(base);
  std::string files;
  for (const auto& [file, hash] : plan.scenarioFiles)
    files += file + " " + hash + "\n";
  plan.hash = contentHash(study.text + "\n" + scenarioToJson(base).dump() + "\n" +
                          plan.scenarioHash + "\n" + files);

  std::vector<std::string> models = study.models;
  if (models.empty())
    for (const auto& [id, params] : base.modelParams)
      models.push_back(id);
  if (models.empty()) models = defaultModels;
  for (std::size_t k = 0; k < models.size(); ++k)
    declaration(catalogue, models[k], study.source + ": axes.models[" + std::to_string(k) + "]");
  for (const auto& axis : study.params) {
    const std::string where = study.source + ": axes." + axis.model + "." + axis.param;
    if (std::find(models.begin(), models.end(), axis.model) == models.end())
      fail(where, "model '" + axis.model + "' is not among the study's models");
    checkParamAxis(axis, declaration(catalogue, axis.model, where), where);
    plan.paramColumns.push_back(axis.model + "." + axis.param);
  }
  std::vector<int> grids = study.grids;
  if (grids.empty()) grids = {std::max(base.grid.nx, base.grid.ny)};
  std::sort(grids.begin(), grids.end());
  std::vector<Grid> cells;
  for (int grid : grids) {
    const std::string where = study.source + ": axes.grid: " + std::to_string(grid);
    cells.push_back(gridWithLongerSide(base.grid, grid, where));
    scenarioOnGrid(base, cells.back(), where);
  }
  const std::vector<DtChoice> dts =
      study.dts.empty() ? std::vector<DtChoice>{{"auto", {}, {}}} : study.dts;

  for (const auto& model : models) {
    std::vector<const ParamAxis*> axes;
    for (const auto& axis : study.params)
      if (axis.model == model) axes.push_back(&axis);
    // Every combination of this model's parameter axes, the first axis outermost.
    std::vector<std::size_t> at(axes.size(), 0);
    for (bool more = true; more;) {
      std::vector<std::pair<std::string, std::string>> params;
      for (std::size_t a = 0; a < axes.size(); ++a)
        params.emplace_back(axes[a]->param, axes[a]->values[at[a]]);
      for (const auto& dt : dts)
        for (std::size_t g = 0; g < grids.size(); ++g) {
          PlannedRun run;
          run.index = int(plan.runs.size());
          run.model = model;
          run.grid = grids[g];
          run.cells = cells[g];
          run.dt = dt;
          run.params = params;
          run.name = runName(model, grids[g], study.dts.empty() ? nullptr : &dt, params);
          plan.runs.push_back(std::move(run));
        }
      more = false;
      for (std::size_t a = axes.size(); a-- > 0;) {
        if (++at[a] < axes[a]->values.size()) {
          more = true;
          break;
        }
        at[a] = 0;
      }
    }
  }
  return plan;
}

Scenario runScenario(const StudyPlan& plan, const Scenario& base, const PlannedRun& run) {
  Scenario s = scenarioOnGrid(base, run.cells, plan.source + ": axes.grid");
  const auto ticks = errorTicks(plan.errorAt, base, plan.source + ": error.at");
  long long every = 0;
  for (long long t : ticks)
    every = std::gcd(every, t);
  s.frameDt = double(std::max(every, 1LL)) * base.tick;
  s.duration = plan.errorAt.back();
  return s;
}

json planToJson(const StudyPlan& plan) {
  json runs = json::array();
  for (const auto& run : plan.runs) {
    json params = json::array();
    for (const auto& [param, value] : run.params)
      params.push_back({param, value});
    runs.push_back({{"index", run.index},
                    {"name", run.name},
                    {"model", run.model},
                    {"grid", run.grid},
                    {"nx", run.cells.nx},
                    {"ny", run.cells.ny},
                    {"dx", run.cells.dx},
                    {"dt", dtJson(run.dt)},
                    {"dt_s", run.dtSeconds},
                    {"params", params},
                    {"step_s", run.stepSeconds},
                    {"steps", run.steps},
                    {"estimate_s", run.estimateSeconds}});
  }
  return {{"study", plan.source},
          {"scenario", plan.scenario},
          {"scenario_patch", plan.scenarioPatch},
          {"scenario_json", plan.scenarioJson},
          {"scenario_hash", plan.scenarioHash},
          {"scenario_files", plan.scenarioFiles},
          {"hash", plan.hash},
          {"param_columns", plan.paramColumns},
          {"error_at", plan.errorAt},
          {"repeats", plan.repeats},
          {"threads", plan.threads},
          {"warmup", plan.warmup},
          {"force", plan.force},
          {"has_reference", plan.hasReference},
          {"gauge_records", plan.gaugeRecords},
          {"runs", runs}};
}

StudyPlan planFromJson(const json& in, const std::string& source) {
  try {
    StudyPlan plan;
    plan.source = in.at("study").get<std::string>();
    plan.scenario = in.at("scenario").get<std::string>();
    plan.scenarioPatch = in.at("scenario_patch");
    if (!in.contains("scenario_json"))
      throw InputError(
          "it holds no copy of its scenario (written by an older wavebench-cli); "
          "use another folder or remove it");
    plan.scenarioJson = in.at("scenario_json");
    plan.scenarioHash = in.at("scenario_hash").get<std::string>();
    plan.scenarioFiles =
        in.at("scenario_files").get<std::vector<std::pair<std::string, std::string>>>();
    plan.hash = in.at("hash").get<std::string>();
    plan.paramColumns = in.at("param_columns").get<std::vector<std::string>>();
    plan.errorAt = in.at("error_at").get<std::vector<double>>();
    plan.repeats = in.at("repeats").get<int>();
    plan.threads = in.at("threads").get<int>();
    plan.warmup = in.at("warmup").get<bool>();
    plan.force = in.at("force").get<bool>();
    plan.hasReference = in.at("has_reference").get<bool>();
    plan.gaugeRecords = in.at("gauge_records").get<std::vector<std::string>>();
    for (const auto& r : in.at("runs")) {
      PlannedRun run;
      run.index = r.at("index").get<int>();
      run.name = r.at("name").get<std::string>();
      run.model = r.at("model").get<std::string>();
      run.grid = r.at("grid").get<int>();
      run.cells = {r.at("nx").get<int>(), r.at("ny").get<int>(), r.at("dx").get<double>()};
      run.dt = dtFromJson(r.at("dt"));
      run.dtSeconds = r.at("dt_s").get<double>();
      for (const auto& p : r.at("params"))
        run.params.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
      run.stepSeconds = r.at("step_s").get<double>();
      run.steps = r.at("steps").get<long long>();
      run.estimateSeconds = r.at("estimate_s").get<double>();
      plan.runs.push_back(std::move(run));
    }
    if (plan.errorAt.empty()) throw InputError("no error time");
    return plan;
  } catch (const std::exception& e) {
    throw InputError(source + ": not a study plan: " + e.what());
  }
}

}  // namespace wb
