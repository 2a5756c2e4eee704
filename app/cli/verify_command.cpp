// wavebench-cli verify: the built-in analytic verification cases as a table; exit 0 when all
// pass, 1 otherwise. `list`: builtin scenarios and the models' declared parameters.
#include <algorithm>
#include <cstdio>

#include "app/cli/options.hpp"
#include "core/scenario/scenario.hpp"
#include "core/study/study_spec.hpp"
#include "models/registry.hpp"
#include "models/verification/verification.hpp"

namespace wb::cli {

int verifyCommand(const FlagReader& flags) {
  std::vector<std::string> only;
  if (auto list = flags.value("--models")) {
    only = splitList(*list);
    for (const auto& id : only)
      catalogueEntry(id, "--models");
  }
  std::printf("%-20s %-44s %12s %12s %-6s %s\n", "model", "case", "measured", "tolerance", "result",
              "detail");
  int failed = 0, ran = 0;
  for (const auto& c : verificationCases()) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.model) == only.end()) continue;
    const VerifyResult r = c.run();
    ++ran;
    failed += !r.passed;
    std::printf("%-20s %-44s %12.4g %12.4g %-6s %s\n", r.model.c_str(), r.name.c_str(), r.measured,
                r.tolerance, r.passed ? "PASS" : "FAIL", r.detail.c_str());
    std::fflush(stdout);
  }
  std::printf("%d of %d cases passed\n", ran - failed, ran);
  return failed ? 1 : 0;
}

int listCommand() {
  std::printf("builtin scenarios:\n");
  for (const auto& name : builtinScenarioNames()) {
    const Scenario s = loadScenario("builtin:" + name);
    std::printf("  builtin:%-14s %s\n", name.c_str(), s.description.c_str());
  }
  std::printf("builtin studies (wavebench-cli study run builtin:NAME --out DIR):\n");
  for (const auto& name : builtinStudyNames())
    std::printf("  builtin:%-26s %s\n", name.c_str(),
                loadStudy("builtin:" + name).description.c_str());
  std::printf("models:\n");
  for (const auto& entry : modelCatalogue()) {
    std::printf("  %s  (%s)\n", entry.id.c_str(), entry.title.c_str());
    const ParamValues defaults(entry.specs);
    for (const auto& spec : entry.specs)
      std::printf("    %-14s = %-8s %-6s %s\n", spec.name.c_str(), defaults.text(spec.name).c_str(),
                  spec.unit.c_str(), spec.doc.c_str());
  }
  return 0;
}

}  // namespace wb::cli
