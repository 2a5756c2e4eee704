// swe-semi-lagrangian: the verification cases (standing-wave period, front speed, lake at
// rest, volume budget, stability far beyond the explicit limit, symmetry) must pass; their
// measured figures are printed. Plus the model's contract: the shear bound on a user dt,
// velocity fields for drifting bodies, a wind force that moves the water.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include <omp.h>

#include "core/errors.hpp"
#include "core/scenario/scenario.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/swe_semi_lagrangian/swe_walls.hpp"
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

// The three Helmholtz solvers (plain CG, CG on the red-black reduced system, float V-cycles)
// give the same surface on the Pi pool (an odd side, so both colours meet every wall), at the
// default dt (coupling 16): each step's solve leaves a residual of at most cg_tolerance ||b||
// and A's eigenvalues are at least 1, so two surfaces may part by at most 2 x 1e-4 ||h|| a
// step; a wrong elimination parts them by O(1).
TEST(SweSemiLagrangian, HelmholtzSolversAgree) {
  constexpr int kN = 63, kSteps = 20;
  Domain domain(Grid{kN, kN, 1.0}, 9.81, 1.0);
  domain.applyPreset(MaskPreset::Pi);
  // A hump in the bar of the Pi (rows 38 to 62), near the legs' mouths.
  Field2D eta0(kN, kN);
  for (int j = 0; j < kN; ++j)
    for (int i = 0; i < kN; ++i)
      if (domain.isWet(i, j))
        eta0(i, j) = float(0.05 * std::exp(-((i - 25) * (i - 25) + (j - 48) * (j - 48)) / 9.0));
  SweSemiLagrangian models[3];  // helmholtz_solver cg, multigrid, reduced-cg
  for (int k = 0; k < 3; ++k) {
    models[k].params().set("helmholtz_solver", k + 1, "test");
    models[k].reset(domain, eta0);
  }
  double largestNorm = 0.0;
  for (int n = 0; n < kSteps; ++n) {
    for (auto& model : models)
      model.step(models[0].preferredDt());
    double squares = 0.0;
    for (std::size_t k = 0; k < eta0.size(); ++k)
      squares += double(models[0].eta().data()[k]) * models[0].eta().data()[k];
    largestNorm = std::max(largestNorm, std::sqrt(squares));
  }
  for (int other : {1, 2}) {
    double difference = 0.0;
    for (std::size_t k = 0; k < eta0.size(); ++k) {
      const double d = double(models[0].eta().data()[k]) - models[other].eta().data()[k];
      difference += d * d;
    }
    EXPECT_GT(models[other].diagnostics()["solver_iterations"], 0.0) << other;
    EXPECT_LE(std::sqrt(difference), kSteps * 2.0 * 1e-4 * largestNorm) << other;
    std::printf("solver %d against plain CG after %d steps: %.2e (|h| up to %.2e)\n", other + 1,
                kSteps, std::sqrt(difference), largestNorm);
  }
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

// The model's departure values (eqs. 31-32: the shared sampler of core/grid/semi_lagrangian.hpp,
// renormalised, with films as solid corners) against SweWalls::bilinear in double (films left
// out), on masked domains with walls, coasts and an island, after a swirling wind has set the
// water moving; at large multiples of dt the departure points lie many cells away, in solid
// cells and beyond the grid's edge. Equal to float round-off: 2e-5 of the field's largest value.
TEST(SweSemiLagrangian, DepartureValuesMatchTheWallAwareBilinearReference) {
  for (const std::string name : {"pi-pool", "harbour"}) {
    SCOPED_TRACE(name);
    const Domain domain = buildDomain(loadScenario("builtin:" + name));
    const int nx = domain.nx(), ny = domain.ny();
    Field2D eta0(nx, ny);
    ForceField swirl{Field2D(nx, ny), Field2D(nx, ny)};
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double x = (i - 0.4 * nx) / nx, y = (j - 0.6 * ny) / ny;
        eta0(i, j) = domain.isWet(i, j) ? float(0.05 * std::exp(-40 * (x * x + y * y))) : 0.0f;
        swirl.ax(i, j) = float(-4.0 * y);
        swirl.ay(i, j) = float(4.0 * x);
      }
    SweSemiLagrangian model;
    model.params().set("force", 1, "test");
    model.reset(domain, eta0);
    model.setForce(&swirl);
    for (int k = 0; k < 30; ++k)
      model.step(model.preferredDt());
    const Field2D &h = model.eta(), &u = *model.velocityU(), &v = *model.velocityV();
    // Films (thinner than film_depth, at rest by rule) are left out like solid corners.
    Domain moving = domain;
    const float film = float(model.params().get("film_depth"));
    int films = 0;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        if (domain.isWet(i, j) && h(i, j) - -domain.restDepth()(i, j) < film) {
          moving.setWet(i, j, false);
          ++films;
        }
    std::printf("[ swe ] %s: %d films\n", name.c_str(), films);
    const SweWalls walls(moving);
    const double cellsPerMetre = 1.0 / domain.grid().dx;
    for (double multiple : {1.0, 10.0, 100.0}) {
      const double dt = multiple * model.preferredDt();
      model.interpolateAtDepartures(dt);
      double worst = 0.0, fastest = 0.0;
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          fastest = std::max(fastest, dt * cellsPerMetre * std::hypot(u(i, j), v(i, j)));
          const double x = i - dt * u(i, j) * cellsPerMetre, y = j - dt * v(i, j) * cellsPerMetre;
          const auto check = [&](const Field2D& f, const Field2D& departure) {
            const float expected = moving.isWet(i, j) ? walls.interpolate(f, x, y, f(i, j)) : 0.0f;
            worst = std::max(worst, double(std::fabs(departure(i, j) - expected) / f.maxAbs()));
          };
          check(u, model.departureU());
          check(v, model.departureV());
        }
      std::printf("[ swe ] %s, %g x dt: departures up to %.2f cells, worst error %.2e\n",
                  name.c_str(), multiple, fastest, worst);
      EXPECT_LE(worst, 2e-5) << multiple << " x dt";
    }
  }
}

// The branch-free kernels take the wall rule from SweWalls' open-face factors; against the
// cell-by-cell reference (SweWalls::centredX / centredY with Neumann or free-slip ghosts) on
// masked domains: the velocity update (eqs. 21-22 plus the step's momentum change where the
// flow converged, then section 4.1's rule) and the shear, also as the step measured it.
// The harbour's open sea edge is closed here: its absorbing layer is not a wall rule.
TEST(SweSemiLagrangian, WallRulesOfTheKernelsMatchTheCellByCellReference) {
  for (const std::string name : {"pi-pool", "harbour"}) {
    SCOPED_TRACE(name);
    Scenario scenario = loadScenario("builtin:" + name);
    scenario.edges = Edges{};
    const Domain domain = buildDomain(scenario);
    const int nx = domain.nx(), ny = domain.ny();
    Field2D eta0(nx, ny);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double x = (i - 0.4 * nx) / nx, y = (j - 0.6 * ny) / ny;
        eta0(i, j) = domain.isWet(i, j) ? float(0.05 * std::exp(-40 * (x * x + y * y))) : 0.0f;
      }
    SweSemiLagrangian model;
    model.reset(domain, eta0);
    for (int k = 0; k < 20; ++k)
      model.step(model.preferredDt());
    const double dt = model.preferredDt();
    model.step(dt);
    const SweWalls walls(domain);
    const Field2D &h = model.eta(), &u = *model.velocityU(), &v = *model.velocityV();
    const double gDtPerDx = domain.g() * dt / domain.grid().dx;
    Field2D uRef(nx, ny), vRef(nx, ny);
    double shearRef = 0.0;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (!domain.isWet(i, j)) continue;
        uRef(i, j) = float(model.departureU()(i, j) - gDtPerDx * walls.centredX(h, i, j, true)) +
                     model.momentumChangeU()(i, j);
        vRef(i, j) = float(model.departureV()(i, j) - gDtPerDx * walls.centredY(h, i, j, true)) +
                     model.momentumChangeV()(i, j);
        shearRef = std::max({shearRef, double(std::fabs(walls.centredX(u, i, j, true))),
                             double(std::fabs(walls.centredY(u, i, j, true))),
                             double(std::fabs(walls.centredX(v, i, j, true))),
                             double(std::fabs(walls.centredY(v, i, j, true)))});
      }
    walls.enforceVelocity(uRef, vRef);
    const float scale = std::max(uRef.maxAbs(), vRef.maxAbs());
    ASSERT_GT(scale, 0.0f);
    double worst = 0.0;
    for (std::size_t k = 0; k < u.size(); ++k)
      worst = std::max({worst, double(std::fabs(u.data()[k] - uRef.data()[k])) / scale,
                        double(std::fabs(v.data()[k] - vRef.data()[k])) / scale});
    EXPECT_LE(worst, 1e-6);
    EXPECT_NEAR(model.velocityShear(), shearRef / domain.grid().dx,
                1e-6 * shearRef / domain.grid().dx);
    // The shear the step measured in its drying pass, one row behind (auto dt's bound).
    EXPECT_NEAR(model.diagnostics()["shear_number"], dt * shearRef / domain.grid().dx,
                1e-6 * dt * shearRef / domain.grid().dx);
  }
}

// The step's parallel regions split the rows into bands, and the passes made row by row wait
// for the neighbouring bands at barriers; each cell's arithmetic is the same whatever the
// bands, so any number of threads gives the one-thread surface and velocity bit for bit. On a
// long, low grid (10 interior rows) 7 and 12 threads leave bands of one row and empty ones.
// Without land the passes made without films run; around an island whose top stands above
// rest (films on its shore) the passes with films.
TEST(SweSemiLagrangian, AnyNumberOfThreadsGivesTheOneThreadResult) {
  struct Case {
    int nx, ny;
    bool island;
  };
  for (const Case c : {Case{2048, 12, false}, Case{160, 130, false}, Case{160, 130, true}}) {
    const int nx = c.nx, ny = c.ny;
    SCOPED_TRACE(std::to_string(nx) + " x " + std::to_string(ny) + (c.island ? ", island" : ""));
    Domain domain(Grid{nx, ny, 1.0}, 9.81, 1.0);
    Field2D rest(nx, ny, 1.0f), eta0(nx, ny);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double island = std::hypot(i - 0.7 * nx, j - 0.5 * ny) / std::min(nx, ny);
        if (c.island) rest(i, j) = float(std::min(1.0, 4.0 * island) - 0.2);  // top above rest
        const double x = (i - 0.3 * nx) / 8.0, y = (j - 0.4 * ny) / 8.0;
        eta0(i, j) = float(0.05 * std::exp(-(x * x + y * y)));
      }
    domain.setRestDepth(rest);
    const auto run = [&](int threads) {
      omp_set_num_threads(threads);
      SweSemiLagrangian model;
      model.reset(domain, eta0);
      for (int k = 0; k < 20; ++k)
        model.step(model.preferredDt());
      EXPECT_EQ(model.diagnostics().at("dry_cells") > 0.0, c.island);
      return std::array<Field2D, 3>{model.eta(), *model.velocityU(), *model.velocityV()};
    };
    const int before = omp_get_max_threads();
    const auto one = run(1);
    for (const int threads : {2, 3, 7, 12}) {
      const auto many = run(threads);
      for (int f = 0; f < 3; ++f)
        for (std::size_t k = 0; k < one[f].size(); ++k)
          ASSERT_EQ(one[f].data()[k], many[f].data()[k])
              << threads << " threads, field " << f << ", cell " << k;
    }
    omp_set_num_threads(before);
  }
}

}  // namespace
}  // namespace wb
