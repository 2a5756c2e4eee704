// wavebench-cli bench: cost of one model step on an N x N open pool, as the JSON contract
// of docs/cli.md says: [{model, grid, threads, steps_per_s, cells_per_s, ms_per_step_median}].
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/options.hpp"
#include "core/errors.hpp"
#include "core/forcing/excitations.hpp"
#include "models/registry.hpp"

namespace wb::cli {

int benchCommand(const FlagReader& flags) {
  const auto list = flags.value("--models");
  if (!list) throw InputError("bench: --models id,id is required");
  const int n = flags.integer("--grid", 0, 8, 4096);
  if (n == 0) throw InputError("bench: --grid N is required");
  const int steps = flags.integer("--frames", 50, 1, 1000000);
  const int threads = flags.integer("--threads", omp_get_max_threads(), 1, 1024);
  omp_set_num_threads(threads);

  const Domain domain(Grid{n, n, 10.0 / n}, 9.81, 1.0);
  Field2D eta0(n, n);
  stampGaussian(eta0, domain, {0.0, 4.0, 5.0, 0.5, 0.05, EventSource::Drop});
  nlohmann::json results = nlohmann::json::array();
  const std::vector<std::string> ids = splitList(*list);
  // --set id.param=value as `run` takes it (models/registry.hpp), for the models benched.
  for (const auto& text : flags.values("--set"))
    if (std::find(ids.begin(), ids.end(), text.substr(0, text.find('.'))) == ids.end())
      throw InputError("--set " + text + ": model '" + text.substr(0, text.find('.')) +
                       "' is not benched (--models " + *list + ")");
  auto models = createScenarioModels(Scenario{}, ids, flags.values("--set"), false);
  for (auto& model : models) {
    const std::string id = model->id();
    model->reset(domain, eta0);
    const double dt = model->preferredDt();
    for (int k = 0; k < std::min(steps, 5); ++k)
      model->step(dt);  // warm caches and solvers
    std::vector<double> seconds(steps);
    for (int k = 0; k < steps; ++k) {
      const auto start = std::chrono::steady_clock::now();
      model->step(dt);
      seconds[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::nth_element(seconds.begin(), seconds.begin() + steps / 2, seconds.end());
    const double median = seconds[steps / 2];
    results.push_back({{"model", id},
                       {"grid", n},
                       {"threads", threads},
                       {"steps_per_s", 1.0 / median},
                       {"cells_per_s", double(n) * n / median},
                       {"ms_per_step_median", 1e3 * median}});
  }
  if (flags.isSet("--json")) {
    std::cout << results.dump(2) << "\n";
  } else {
    for (const auto& r : results)
      std::printf("%-20s grid %5d threads %2d  %12.1f steps/s  %12.4g cells/s  %9.4f ms/step\n",
                  r["model"].get<std::string>().c_str(), r["grid"].get<int>(),
                  r["threads"].get<int>(), r["steps_per_s"].get<double>(),
                  r["cells_per_s"].get<double>(), r["ms_per_step_median"].get<double>());
  }
  return 0;
}

}  // namespace wb::cli
