#include "models/registry.hpp"

#include <functional>
#include <utility>

#include "core/errors.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/damped_wave/damped_wave.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace wb {

namespace {
using Factory = std::function<std::unique_ptr<Model>()>;
const std::vector<std::pair<std::string, Factory>>& factories() {
  static const std::vector<std::pair<std::string, Factory>> list = {
      {"damped-wave", [] { return std::make_unique<DampedWave>(); }},
      {"advected-wave", [] { return std::make_unique<AdvectedWave>(); }},
      {"swe-semi-lagrangian", [] { return std::make_unique<SweSemiLagrangian>(); }},
      {"swe-adi", [] { return std::make_unique<SweAdi>(); }},
  };
  return list;
}
}  // namespace

std::vector<std::string> modelIds() {
  std::vector<std::string> ids;
  for (const auto& [id, factory] : factories())
    ids.push_back(id);
  return ids;
}

std::unique_ptr<Model> createModel(const std::string& id, const std::string& where) {
  for (const auto& [known, factory] : factories())
    if (known == id) return factory();
  std::string list;
  for (const auto& known : modelIds())
    list += (list.empty() ? "" : ", ") + known;
  throw InputError(where + ": unknown model '" + id + "' (known: " + list + ")");
}

std::vector<std::unique_ptr<Model>> createScenarioModels(const Scenario& scenario,
                                                         std::vector<std::string> ids,
                                                         const std::vector<std::string>& overrides,
                                                         bool force) {
  if (ids.empty())
    for (const auto& [id, params] : scenario.modelParams)
      ids.push_back(id);
  if (ids.empty()) ids = modelIds();
  std::vector<std::unique_ptr<Model>> models;
  for (const auto& id : ids) {
    for (const auto& other : models)
      if (other->id() == id) throw InputError("--models: '" + id + "' is listed twice");
    auto model = createModel(id, "--models");
    if (auto it = scenario.modelParams.find(id); it != scenario.modelParams.end())
      applyParamJson(model->params(), it->second, scenario.source + ": models." + id);
    models.push_back(std::move(model));
  }
  for (const auto& text : overrides) {
    const auto eq = text.find('=');
    const auto dot = text.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq)
      throw InputError("--set " + text + ": expected id.param=value");
    const std::string id = text.substr(0, dot), name = text.substr(dot + 1, eq - dot - 1);
    createModel(id, "--set " + text);  // names an unknown model clearly
    for (auto& model : models)
      if (model->id() == id)
        model->params().setFromText(name, text.substr(eq + 1), "--set " + text);
  }
  if (force)
    for (auto& model : models)
      if (model->params().has("force")) model->params().set("force", 1, "--force");
  return models;
}

}  // namespace wb
