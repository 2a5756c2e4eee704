// The model catalogue: every model the program knows, by id, with what the CLI and the GUI
// read without building one (its title and declared parameters). The one place a new model
// is added (docs/architecture.md, "How to add a model").
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {

struct ModelEntry {
  std::string id;                // "damped-wave": the name in --models, JSON and output folders
  std::string title;             // "Damped wave (Nishidate & Nikishkov)"
  std::vector<ParamSpec> specs;  // the model class's parameterSpecs()
  std::function<std::unique_ptr<Model>()> factory;
  // Whether the model runs when nothing names the models (a scenario without "models", the
  // GUI's default ticks): false for a model most builtin domains cannot hold (fft-ocean needs
  // the whole rectangle wet at one depth); it is still chosen by --models or "models".
  bool inDefaultSet = true;
};

// Every model, in the order the GUI and `wavebench-cli list` show them.
const std::vector<ModelEntry>& modelCatalogue();
// Every model's id, in catalogue order (the "known: ..." lists, the benchmark's rows).
std::vector<std::string> modelIds();
// The ids of the entries inDefaultSet: what runs when nothing names the models.
std::vector<std::string> defaultModelIds();
// Throws InputError "<where>: unknown model '<id>' (known: ...)" for an unknown id.
const ModelEntry& catalogueEntry(const std::string& id, const std::string& where = "models");
std::unique_ptr<Model> createModel(const std::string& id, const std::string& where = "models");

// Every id under the scenario's "models" key is in the catalogue; throws InputError
// "<file>: models.<id>: unknown model (known: ...)" otherwise.
void checkScenarioModels(const Scenario& scenario);
// loadScenario (a file or "builtin:NAME") checked against the catalogue: how the CLI and the
// GUI load a scenario.
Scenario loadCheckedScenario(const std::string& fileOrBuiltin);

// The models a scenario runs: `ids` if given, else the ids under the scenario's "models" key,
// else defaultModelIds(). Each gets the scenario's parameters, then the `--set id.param=value`
// overrides, then force=true when `force`. Throws InputError naming the offending key.
std::vector<std::unique_ptr<Model>> createScenarioModels(const Scenario& scenario,
                                                         std::vector<std::string> ids,
                                                         const std::vector<std::string>& overrides,
                                                         bool force);

}  // namespace wb
