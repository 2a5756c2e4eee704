// swe-adi: the verification cases must pass (their figures are printed); plus the model's
// contract: volume to round-off, no negative depth while flooding, wind moves the water,
// damping, velocity from the face fluxes, bad parameters refused with one-line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/errors.hpp"
#include "core/measure/diagnostics.hpp"
#include "models/registry.hpp"
#include "models/swe_adi/swe_adi.hpp"
#include "models/verification/verification.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {

class SweAdiCase : public ::testing::TestWithParam<std::string> {};

TEST_P(SweAdiCase, Passes) {
  for (const auto& c : verificationCases()) {
    if (c.model != "swe-adi" || c.name != GetParam()) continue;
    const VerifyResult r = c.run();
    std::printf("[ swe-adi ] %s: measured %g %s (tolerance %g): %s\n", r.name.c_str(), r.measured,
                r.unit.c_str(), r.tolerance, r.detail.c_str());
    EXPECT_TRUE(r.passed) << r.name << ": " << r.detail;
    return;
  }
  FAIL() << "no case named " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Verification, SweAdiCase,
                         ::testing::Values("period (4,0) 20 cells", "period (2,2) 28 cells",
                                           "period (1,0) 64 cells", "front flat", "front shelf",
                                           "lake at rest", "volume pi pool", "dam break",
                                           "bounded 20x", "bounded 100x", "symmetry"),
                         [](const auto& info) {
                           std::string name;
                           for (char ch : info.param)
                             name += std::isalnum(ch) ? ch : '_';
                           return name;
                         });

}  // namespace
}  // namespace wb
