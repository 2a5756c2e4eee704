// swe-semi-lagrangian: the verification cases (standing-wave period, front speed, lake at
// rest, volume budget, stability far beyond the explicit limit, symmetry) must pass; their
// measured figures are printed. Plus the model's contract: the shear bound on a user dt,
// velocity fields for drifting bodies, a wind force that moves the water.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/verification/verification.hpp"

namespace wb {
namespace {

class SweCase : public ::testing::TestWithParam<std::string> {};

TEST_P(SweCase, Passes) {
  for (const auto& c : verificationCases()) {
    if (c.model != "swe-semi-lagrangian" || c.name != GetParam()) continue;
    const VerifyResult r = c.run();
    std::printf("[ swe ] %s: measured %g %s (tolerance %g): %s\n", r.name.c_str(), r.measured,
                r.unit.c_str(), r.tolerance, r.detail.c_str());
    EXPECT_TRUE(r.passed) << r.name << ": " << r.detail;
    return;
  }
  FAIL() << "no case named " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Verification, SweCase,
                         ::testing::Values("period (1,0) dt=1x", "period (1,1) dt=1x",
                                           "period (2,1) dt=4x", "front flat", "front shelf",
                                           "lake at rest", "volume", "bounded 10x", "bounded 50x",
                                           "largest stable dt", "symmetry"),
                         [](const auto& info) {
                           std::string name;
                           for (char ch : info.param)
                             name += std::isalnum(ch) ? ch : '_';
                           return name;
                         });

Field2D hump(int n, double amplitude) {
  Field2D eta(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      eta(i, j) =
          float(amplitude *
                std::exp(-((i - n / 2.0) * (i - n / 2.0) + (j - n / 2.0) * (j - n / 2.0)) / 9.0));
  return eta;
}

TEST(SweSemiLagrangian, RefusesDtBeyondTheShearBoundUnlessForced) {
  const Domain domain(Grid{32, 32, 1.0}, 9.81, 1.0);
  SweSemiLagrangian model;
  model.reset(domain, hump(32, 0.2));
  const double limit = model.maxStableDt();
  ASSERT_TRUE(std::isfinite(limit));
  EXPECT_GT(limit, model.explicitLimit());
  model.params().set("dt", 2.0 * limit, "test");
  EXPECT_THROW(model.reset(domain, hump(32, 0.2)), InputError);
  model.params().set("force", 1, "test");
  EXPECT_NO_THROW(model.reset(domain, hump(32, 0.2)));
}

TEST(SweSemiLagrangian, AutoDtIsSeveralTimesTheExplicitLimit) {
  const Domain domain(Grid{32, 32, 1.0}, 9.81, 1.0);
  SweSemiLagrangian model;
  model.reset(domain, Field2D(32, 32));
  EXPECT_DOUBLE_EQ(model.preferredDt(),
                   SweSemiLagrangian::kAutoExplicitMultiple * model.explicitLimit());
}

TEST(SweSemiLagrangian, WindAcceleratesTheWaterAndWallsStopIt) {
  const int n = 16;
  const Domain domain(Grid{n, n, 1.0}, 9.81, 1.0);
  SweSemiLagrangian model;
  model.reset(domain, Field2D(n, n));
  ForceField wind{Field2D(n, n, 0.1f), Field2D(n, n, 0.0f)};
  model.setForce(&wind);
  model.step(0.1);
  ASSERT_NE(model.velocityU(), nullptr);
  EXPECT_GT((*model.velocityU())(n / 2, n / 2), 0.0f);
  EXPECT_EQ((*model.velocityU())(0, n / 2), 0.0f);      // west wall: zero normal velocity
  EXPECT_EQ((*model.velocityU())(n - 1, n / 2), 0.0f);  // east wall
  EXPECT_EQ((*model.velocityV())(0, 0), 0.0f);          // concave corner: both zero
  EXPECT_GT(model.kineticEnergy(), 0.0);
}

}  // namespace
}  // namespace wb
