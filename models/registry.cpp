#include "models/registry.hpp"

#include <algorithm>
#include <utility>

#include "core/errors.hpp"
#include "models/advected_wave/advected_wave.hpp"
#include "models/damped_wave/damped_wave.hpp"
#include "models/fft_ocean/fft_ocean.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace wb {

namespace {
// A model class's catalogue entry, from its static id, title and parameter declarations.
template <class M>
ModelEntry entryOf(bool inDefaultSet = true) {
  auto factory = []() -> std::unique_ptr<Model> { return std::make_unique<M>(); };
  return {.id = M::kId,
          .title = M::kTitle,
          .specs = M::parameterSpecs(),
          .factory = factory,
          .inDefaultSet = inDefaultSet};
}

std::string knownIds() {
  std::string list;
  for (const auto& entry : modelCatalogue())
    list += (list.empty() ? "" : ", ") + entry.id;
  return list;
}
}  // namespace

const std::vector<ModelEntry>& modelCatalogue() {
  static const std::vector<ModelEntry> catalogue = {
      entryOf<DampedWave>(),
      entryOf<AdvectedWave>(),
      entryOf<SweSemiLagrangian>(),
      entryOf<SweAdi>(),
      // Not by default: most builtin domains have walls inside or uneven ground, which its
      // basis refuses (docs/fft-ocean.md).
      entryOf<FftOcean>(false),
  };
  return catalogue;
}

std::vector<std::string> modelIds() {
  std::vector<std::string> ids;
  for (const auto& entry : modelCatalogue())
    ids.push_back(entry.id);
  return ids;
}

std::vector<std::string> defaultModelIds() {
  std::vector<std::string> ids;
  for (const auto& entry : modelCatalogue())
    if (entry.inDefaultSet) ids.push_back(entry.id);
  return ids;
}

const ModelEntry& catalogueEntry(const std::string& id, const std::string& where) {
  for (const auto& entry : modelCatalogue())
    if (entry.id == id) return entry;
  throw InputError(where + ": unknown model '" + id + "' (known: " + knownIds() + ")");
}

std::unique_ptr<Model> createModel(const std::string& id, const std::string& where) {
  return catalogueEntry(id, where).factory();
}

void checkScenarioModels(const Scenario& scenario) {
  const auto inCatalogue = [](const std::string& id) {
    return std::ranges::any_of(modelCatalogue(), [&](const ModelEntry& e) { return e.id == id; });
  };
  for (const auto& [id, params] : scenario.modelParams)
    if (!inCatalogue(id))
      throw InputError(scenario.source + ": models." + id +
                       ": unknown model (known: " + knownIds() + ")");
}

Scenario loadCheckedScenario(const std::string& fileOrBuiltin) {
  Scenario scenario = loadScenario(fileOrBuiltin);
  checkScenarioModels(scenario);
  return scenario;
}

std::vector<std::unique_ptr<Model>> createScenarioModels(const Scenario& scenario,
                                                         std::vector<std::string> ids,
                                                         const std::vector<std::string>& overrides,
                                                         bool force) {
  checkScenarioModels(scenario);
  if (ids.empty())
    for (const auto& [id, params] : scenario.modelParams)
      ids.push_back(id);
  if (ids.empty()) ids = defaultModelIds();
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
    catalogueEntry(id, "--set " + text);  // names an unknown model clearly
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
