// Every model the program knows, by id. The one place a new model is added.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {

std::vector<std::string> modelIds();
// Throws InputError naming `where` for an unknown id.
std::unique_ptr<Model> createModel(const std::string& id, const std::string& where = "models");

// The models a scenario runs: `ids` if given, else the ids under the scenario's "models" key,
// else every model. Each gets the scenario's parameters, then the `--set id.param=value`
// overrides, then force=true when `force`. Throws InputError naming the offending key.
std::vector<std::unique_ptr<Model>> createScenarioModels(const Scenario& scenario,
                                                         std::vector<std::string> ids,
                                                         const std::vector<std::string>& overrides,
                                                         bool force);

}  // namespace wb
