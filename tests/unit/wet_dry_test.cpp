// Wet/dry fronts of swe-semi-lagrangian (docs/wet-dry.md): depth never negative, volume kept
// to float round-off while fronts flood and drain, films at rest, no water out of dry cells
// whatever the velocity there, and the declared film threshold. Ritter's and Stoker's dam
// breaks and the lake around islands are verification cases (models/verification/
// swe_wet_dry_cases.cpp, run by verification_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"
#include "models/swe_semi_lagrangian/swe_semi_lagrangian_kernels.hpp"

namespace wb {
namespace {

constexpr double kG = 9.81;

double volume(const Field2D& eta, const Domain& domain) {
  double sum = 0.0;
  for (std::size_t k = 0; k < eta.size(); ++k)
    if (domain.wetMask()[k]) sum += eta.data()[k];
  return sum * domain.grid().cellArea();
}

// A column of water 1 m deep and 3 m across collapses onto a dry bed 1 m below its top, over
// a mound whose crest stands 0.3 m above the bed and around a solid block; it floods, runs up
// the mound and the walls and drains back. Every step: no cell below its ground, volume
// within float round-off of the start (1e-6 of the water over the run), films at rest.
TEST(WetDry, CollapsingColumnKeepsDepthVolumeAndFilmsAtRest) {
  const int n = 64;
  const double dx = 0.25;
  Domain domain(Grid{n, n, dx}, kG, 1.0);
  Field2D depth(n, n, 1.0f), eta0(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = domain.grid().x(i), y = domain.grid().y(j);
      const double mound = 0.7 * std::exp(-(std::pow(x - 11.0, 2) + std::pow(y - 5.0, 2)) / 2.0);
      depth(i, j) = float(1.0 - mound);
    }
  domain.setRestDepth(depth);
  for (int j = 40; j < 46; ++j)
    for (int i = 8; i < 12; ++i)
      domain.setWet(i, j, false);
  double water = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double r = std::hypot(domain.grid().x(i) - 5.0, domain.grid().y(j) - 6.0);
      const float ground = -domain.restDepth()(i, j);
      eta0(i, j) = domain.isWet(i, j) ? (r < 1.5 ? 0.0f : ground) : 0.0f;
      water += domain.isWet(i, j) ? (eta0(i, j) - ground) * domain.grid().cellArea() : 0.0;
    }
  SweSemiLagrangian model;
  model.reset(domain, eta0);
  const float film = float(model.params().get("film_depth"));
  const double v0 = volume(model.eta(), domain);
  double worstDrift = 0.0, lowest = 1.0, time = 0.0;
  int flooded = 0, lifted = 0;
  for (int step = 0; step < 400; ++step) {
    const double dt = model.preferredDt();
    model.step(dt);
    time += dt;
    worstDrift = std::max(worstDrift, std::fabs(volume(model.eta(), domain) - v0) / water);
    lifted += int(model.diagnostics().at("lifted_cells"));
    int wet = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        if (!domain.isWet(i, j)) continue;
        const double d = model.eta()(i, j) + domain.restDepth()(i, j);
        lowest = std::min(lowest, d);
        wet += d >= film;
        if (d < film) {
          ASSERT_EQ((*model.velocityU())(i, j), 0.0f) << "film at " << i << ", " << j;
          ASSERT_EQ((*model.velocityV())(i, j), 0.0f) << "film at " << i << ", " << j;
        }
      }
    flooded = std::max(flooded, wet);
  }
  std::printf(
      "[ wet/dry ] column: %.2f s, up to %d cells wet (%d at the start), worst drift %.2e "
      "of the water, lowest depth %.2e m, %d lifts\n",
      time, flooded, int(std::lround(water / (domain.grid().cellArea()))), worstDrift, lowest,
      lifted);
  EXPECT_GE(lowest, 0.0);
  EXPECT_LE(worstDrift, 1e-6);
  EXPECT_GT(flooded, 10 * 113);  // the column (113 cells) spread well beyond itself
}

// A lake 0.5 m deep beside a dry beach whose ground stands 0.3 m above the lake's surface,
// under wind that blows along the strip one way, then the other. The wind gives the beach's
// dry cells a departure velocity, and their neighbours too; none of them may hand on water
// they do not hold: the beach stays bit for bit at its ground, and the lake's volume is kept.
TEST(WetDry, WindOverADryBeachMovesNoWaterOutOfIt) {
  const int nx = 48, ny = 8;
  Domain domain(Grid{nx, ny, 1.0}, kG, 1.0);
  Field2D depth(nx, ny, 1.0f), eta0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = nx / 2; i < nx; ++i)
      depth(i, j) = 0.2f;
  domain.setRestDepth(depth);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      eta0(i, j) = std::max(-0.5f, -depth(i, j));
  SweSemiLagrangian model;
  model.reset(domain, eta0);
  const double v0 = volume(model.eta(), domain);
  ForceField wind{Field2D(nx, ny), Field2D(nx, ny, 0.05f)};
  model.setForce(&wind);
  for (int step = 0; step < 400; ++step) {
    const float ax = step < 200 ? 0.02f : -0.02f;
    for (std::size_t k = 0; k < wind.ax.size(); ++k)
      wind.ax.data()[k] = ax;
    model.step(model.preferredDt());
  }
  for (int j = 0; j < ny; ++j)
    for (int i = nx / 2; i < nx; ++i)
      ASSERT_EQ(model.eta()(i, j), -0.2f) << "beach cell " << i << ", " << j;
  EXPECT_GT(model.velocityU()->maxAbs(), 0.0f);  // the lake did move
  EXPECT_LE(std::fabs(volume(model.eta(), domain) - v0), 1e-6 * 0.5 * nx / 2 * ny);
}

// A layer 2 mm deep on half a strip, pushed by a strong wind at a dt where the water crosses
// several cells per step: unlimited, the outgoing fluxes would take more than a cell holds.
// The limiter of the continuity update keeps every depth >= 0 (the surface is never lifted
// back to the ground) and the volume to round-off: the update h = h^n - div(F) rounds each
// cell by about an ulp of |h| (the fluxes themselves cancel exactly between neighbours), so
// the drift may not exceed the sum over steps and cells of 2 eps |h| dA. The ground is 1 cm
// below the rest level: the model stores the surface h in float, and that bound for a 2 mm
// layer on ground 1 m down would be larger than the layer.
TEST(WetDry, StrongWindOverAThinLayerNeverOverdrawsACell) {
  const int nx = 64, ny = 6;
  const double dx = 0.1, dt = 0.05;
  const Domain domain(Grid{nx, ny, dx}, kG, 0.01);
  Field2D eta0(nx, ny, -0.01f);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx / 2; ++i)
      eta0(i, j) = -0.008f;
  SweSemiLagrangian model;
  model.params().set("dt", dt, "test");
  model.params().set("force", 1, "test");
  model.reset(domain, eta0);
  const double v0 = volume(model.eta(), domain), water = 0.002 * (nx / 2) * ny * dx * dx;
  const ForceField wind{Field2D(nx, ny, 20.0f), Field2D(nx, ny)};
  model.setForce(&wind);
  double lowest = 1.0, fastest = 0.0, worstDrift = 0.0, roundOff = 0.0;
  int lifted = 0;
  for (int step = 0; step < 100; ++step) {
    model.step(dt);
    lifted += int(model.diagnostics().at("lifted_cells"));
    fastest = std::max(fastest, double(model.velocityU()->maxAbs()) * dt / dx);
    worstDrift = std::max(worstDrift, std::fabs(volume(model.eta(), domain) - v0));
    for (std::size_t k = 0; k < model.eta().size(); ++k) {
      lowest = std::min(lowest, model.eta().data()[k] + 0.01);
      roundOff += 2.0 * std::numeric_limits<float>::epsilon() * std::fabs(model.eta().data()[k]) *
                  domain.grid().cellArea();
    }
  }
  std::printf(
      "[ wet/dry ] thin layer: up to %.1f cells per step, lowest depth %.2e m, %d lifts, "
      "worst drift %.2e of the water (round-off bound %.2e)\n",
      fastest, lowest, lifted, worstDrift / water, roundOff / water);
  EXPECT_GT(fastest, 2.0);
  EXPECT_GE(lowest, 0.0);
  EXPECT_EQ(lifted, 0);
  EXPECT_LE(worstDrift, roundOff);
}

// The film threshold is a declared parameter (GUI, JSON and --set come from it) in metres.
TEST(WetDry, FilmDepthIsADeclaredParameter) {
  const auto specs = SweSemiLagrangian::parameterSpecs();
  const auto film = std::find_if(specs.begin(), specs.end(),
                                 [](const ParamSpec& s) { return s.name == "film_depth"; });
  ASSERT_NE(film, specs.end());
  EXPECT_EQ(film->unit, "m");
  EXPECT_GT(film->defaultValue, 0.0);
  EXPECT_FALSE(film->doc.empty());
  EXPECT_TRUE(std::none_of(specs.begin(), specs.end(),
                           [](const ParamSpec& s) { return s.name == "min_depth"; }));
}

// The face depths (swe_sl::faceDepthOf, docs/wet-dry.md "The rule"): inside the water the
// gravity depth is the cells' mean; the advective depth is the upwind cell's, reconstructed
// with its minmod-limited slope and advanced half a step (MUSCL-Hancock), where the flow runs
// towards thinner water over ground that does not rise without converging (a dam break's
// rarefaction and tip), the upwind depth where it also converges (a bore's face), the centred
// mean elsewhere (towards deeper water, or up a slope); a shoreline face takes
// d*_C + d*_N and the upwind d*; a face above both surfaces is closed.
TEST(WetDry, FaceDepthsAreCentredExceptWhereTheFlowThinsOverFlatGround) {
  const float film = 1e-4f;
  using swe_sl::FaceCells;
  using swe_sl::faceDepthOf;
  // Surfaces and grounds of C and N, the depths before C and after N, the two velocities.
  const auto face = [&](FaceCells cells, bool forward, float courant = 0.0f) {
    return faceDepthOf(cells, forward, courant, film);
  };
  // Flat ground at -1: C holds 1 m, N 0.5 m, the cell before C 1.2 m: slopes -0.2 and -0.5.
  const auto thinning = face({0.0f, -1.0f, -0.5f, -1.0f, 1.2f, 0.5f, 0.0f, 0.0f}, true);
  EXPECT_FLOAT_EQ(thinning.gravity, 0.75f);
  EXPECT_FLOAT_EQ(thinning.carry, 0.9f);  // 1 + (-0.2) / 2
  // Half a cell per step: half the slope's reach, (1 - C) s / 2.
  EXPECT_FLOAT_EQ(face({0.0f, -1.0f, -0.5f, -1.0f, 1.2f, 0.5f, 0.0f, 0.0f}, true, 0.5f).carry,
                  0.95f);
  // A Courant number of 1 or more: the upwind depth.
  EXPECT_FLOAT_EQ(face({0.0f, -1.0f, -0.5f, -1.0f, 1.2f, 0.5f, 0.0f, 0.0f}, true, 3.0f).carry,
                  1.0f);
  // C a crest (the cell before it shallower): slopes of opposite signs, the upwind depth.
  EXPECT_FLOAT_EQ(face({0.0f, -1.0f, -0.5f, -1.0f, 0.8f, 0.5f, 0.0f, 0.0f}, true).carry, 1.0f);
  // A steep drop: the smaller slope (-0.5 against -1) gives the mean at most.
  EXPECT_FLOAT_EQ(face({0.0f, -1.0f, -0.5f, -1.0f, 2.0f, 0.5f, 0.0f, 0.0f}, true).carry, 0.75f);
  // Converging towards the thinner water (u_N < u_C, a bore's face): the upwind depth; the
  // same flow mirrored (N -> C, the velocities negated) alike.
  EXPECT_FLOAT_EQ(face({0.0f, -1.0f, -0.5f, -1.0f, 1.2f, 0.5f, 2.0f, 0.5f}, true).carry, 1.0f);
  EXPECT_FLOAT_EQ(face({-0.5f, -1.0f, 0.0f, -1.0f, 0.5f, 1.2f, -0.5f, -2.0f}, false).carry, 1.0f);
  // Expanding (u_N > u_C): reconstructed, in either direction.
  EXPECT_FLOAT_EQ(face({0.0f, -1.0f, -0.5f, -1.0f, 1.2f, 0.5f, 1.0f, 2.0f}, true).carry, 0.9f);
  EXPECT_FLOAT_EQ(face({-0.5f, -1.0f, 0.0f, -1.0f, 0.5f, 1.2f, -2.0f, -1.0f}, false).carry, 0.9f);
  const auto deepening = face({0.0f, -1.0f, -0.5f, -1.0f, 1.2f, 0.5f, 0.0f, 0.0f}, false);
  EXPECT_FLOAT_EQ(deepening.carry, 0.75f);  // centred: N -> C runs towards deeper water
  // Up a slope: C's ground at -1, N's at -0.9, both surfaces at -0.5 (0.5 and 0.4 m deep).
  const auto uphill = face({-0.5f, -1.0f, -0.5f, -0.9f, 0.5f, 0.4f, 0.0f, 0.0f}, true);
  EXPECT_FLOAT_EQ(uphill.gravity, 0.45f);
  EXPECT_FLOAT_EQ(uphill.carry, 0.45f);  // centred: the ground rises
  const auto downhill = face({-0.5f, -0.9f, -0.5f, -1.0f, 0.4f, 0.5f, 0.0f, 0.0f}, false);
  EXPECT_FLOAT_EQ(downhill.carry, 0.45f);  // N -> C runs towards thinner water, but uphill
  // A shoreline: N dry at -0.4 beside C's surface at -0.3 over ground at -1.
  const auto shore = face({-0.3f, -1.0f, -0.4f, -0.4f, 0.7f, 0.0f, 0.0f, 0.0f}, true);
  EXPECT_FLOAT_EQ(shore.gravity, 0.1f);  // d*_C = -0.3 - (-0.4)
  EXPECT_FLOAT_EQ(shore.carry, 0.1f);
  // Ground above both surfaces: closed.
  const auto closed = face({-0.5f, -1.0f, -0.2f, -0.2f, 0.5f, 0.0f, 0.0f, 0.0f}, true);
  EXPECT_EQ(closed.gravity, 0.0f);
  EXPECT_EQ(closed.carry, 0.0f);
}

}  // namespace
}  // namespace wb
