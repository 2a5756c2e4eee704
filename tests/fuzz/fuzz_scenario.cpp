// libFuzzer target: the scenario parser. Any text must either give a Scenario or an
// InputError. An accepted scenario on a small grid is also built (domain, initial elevation,
// a few frames of excitations), and it must survive a round trip through its own JSON.
// Files are looked up among the builtin resources, so the fuzzer never touches the disk.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "core/forcing/excitations.hpp"
#include "core/scenario/scenario.hpp"

namespace {

// Larger grids are valid but too slow to build thousands of times a second.
constexpr long long kMaxFuzzCells = 64 * 64;
constexpr int kFuzzFrames = 3;

void buildSmall(const wb::Scenario& s) {
  if (static_cast<long long>(s.grid.nx) * s.grid.ny > kMaxFuzzCells) return;
  const wb::Domain domain = wb::buildDomain(s);
  const wb::Field2D eta = wb::buildInitialEta(s, domain);
  if (!eta.allFinite()) std::abort();
  wb::Excitations excitations(s.excitations, domain, s.seed);
  wb::Field2D delta(s.grid.nx, s.grid.ny);
  for (int f = 0; f < kFuzzFrames; ++f) {
    for (const auto& event : excitations.advance(f * s.frameDt, (f + 1) * s.frameDt))
      wb::stampGaussian(delta, domain, event);
    excitations.windAt(f * s.frameDt);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  wb::Scenario scenario;
  try {
    scenario = wb::parseScenarioText(text, "fuzz.json", {}, true);
  } catch (const wb::InputError&) {
    return 0;
  }
  // What the program writes it must read back.
  try {
    wb::parseScenario(wb::scenarioToJson(scenario), "roundtrip.json", {}, true);
  } catch (const wb::InputError&) {
    std::abort();
  }
  try {
    buildSmall(scenario);
  } catch (const wb::InputError&) {
  }
  return 0;
}
