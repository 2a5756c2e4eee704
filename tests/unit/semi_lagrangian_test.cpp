// The shared semi-Lagrangian sampler (core/grid/semi_lagrangian.hpp) against its scalar
// references in double: sampleBilinear (core/grid/interpolation.hpp) for SolidIsZero and
// SweWalls::bilinear (the wall rule of Layton & van de Panne 4.1) for Renormalise, on random
// flows over a grid with walls (a solid block, an island, scattered solid cells), with
// departure points less than a cell away (the near and block paths) and many cells away,
// in solid cells and beyond the grid's edge (the far path, the clamp, the all-solid fallback).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "core/grid/interpolation.hpp"
#include "core/grid/semi_lagrangian.hpp"
#include "models/swe_semi_lagrangian/swe_walls.hpp"

namespace wb {
namespace {

// A 75 x 41 grid (rows not a multiple of the 32-cell block): a 7 x 6 solid block, a round
// island, and one cell in 15 solid at random outside the band of uniform flow (randomFlow).
bool inUniformBand(int i, int j) {
  return i < 64 && j >= 15 && j < 23;
}
Domain wallsDomain(std::mt19937& random) {
  const int nx = 75, ny = 41;
  Domain domain(Grid{nx, ny, 1.0}, 9.81, 1.0);
  std::uniform_int_distribution<int> oneIn(0, 14);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const bool block = i >= 50 && i < 57 && j >= 8 && j < 14;
      const bool island = std::hypot(i - 20.0, j - 28.0) < 4.5;
      if (block || island || (!inUniformBand(i, j) && oneIn(random) == 0))
        domain.setWet(i, j, false);
    }
  return domain;
}

// A swirl plus noise over most of the grid and a uniform flow in a band (where whole blocks
// share one offset; its pairs of rows run in each of the four diagonal directions, so that
// whole rows take each of the 2 x 2 layouts), as offsets in cells per step of about `cells` at
// most.
struct Flow {
  Field2D u, v;
};
Flow randomFlow(const Domain& domain, double cells, std::mt19937& random) {
  const int nx = domain.nx(), ny = domain.ny();
  std::uniform_real_distribution<double> noise(-0.15, 0.15);
  Flow f{Field2D(nx, ny), Field2D(nx, ny)};
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double x = double(i) / nx - 0.5, y = double(j) / ny - 0.5;
      const bool uniform = inUniformBand(i, j);
      const double east = (j / 2) % 2 == 0 ? 1.0 : -1.0, north = (j / 4) % 2 == 0 ? 1.0 : -1.0;
      f.u(i, j) = float(cells * (uniform ? -0.61 * east : -1.6 * y + noise(random)));
      f.v(i, j) = float(cells * (uniform ? -0.37 * north : 1.6 * x + noise(random)));
    }
  return f;
}

Field2D randomField(const Domain& domain, std::mt19937& random) {
  std::uniform_real_distribution<float> value(-1.0f, 2.0f);
  Field2D f(domain.nx(), domain.ny());
  for (std::size_t k = 0; k < f.size(); ++k)
    f.data()[k] = value(random);
  return f;
}

struct Outcome {
  double worst = 0.0;  // largest |kernel - reference| / max |field|
  SamplePaths paths;
  int allSolid = 0;  // Renormalise: wet cells whose four corners are solid
  bool pathsAgree = true;
};

// Samples count fields (the velocity itself first, as both models do) with the rule, whole
// rows at once, then compares each cell with the scalar reference, and bit for bit with the
// rows sampled span by span and with the cells sampled one by one (a one-cell span always
// takes the contiguous path).
Outcome compare(const Domain& domain, SampleRule rule, int count, double cells,
                std::mt19937& random) {
  const int nx = domain.nx(), ny = domain.ny();
  Flow flow = randomFlow(domain, cells, random);
  Field2D h = randomField(domain, random);
  std::vector<float> wet(domain.wetMask().begin(), domain.wetMask().end());
  if (rule == SampleRule::SolidIsZero)  // the rule's premise: solid cells hold 0
    for (std::size_t k = 0; k < wet.size(); ++k)
      if (wet[k] == 0.0f) flow.u.data()[k] = flow.v.data()[k] = h.data()[k] = 0.0f;
  const Field2D* in[3] = {&flow.u, &flow.v, &h};
  std::vector<Field2D> out(3, Field2D(nx, ny)), spans(3, Field2D(nx, ny)),
      alone(3, Field2D(nx, ny));
  const float cellsPerVelocity = 1.0f;
  const Departures d{flow.u.data(), flow.v.data(), cellsPerVelocity, nx, ny, wet.data()};
  SampledFields rows{count, {}, {}}, bySpan{count, {}, {}}, cellByCell{count, {}, {}};
  for (int n = 0; n < count; ++n) {
    rows.in[n] = bySpan.in[n] = cellByCell.in[n] = in[n]->data();
    rows.out[n] = out[n].data();
    bySpan.out[n] = spans[n].data();
    cellByCell.out[n] = alone[n].data();
  }
  Outcome o;
  o.paths = sampleRowsAtDepartures(d, rows, rule, 0, ny);
  for (int j = 0; j < ny; ++j) {
    sampleAtDepartures(d, bySpan, rule, j, 0, nx);
    for (int i = 0; i < nx; ++i)
      sampleAtDepartures(d, cellByCell, rule, j, i, i + 1);
  }
  const SweWalls walls(domain);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      // The departure point in cell units from the same float offset.
      const double x = i + double(-cellsPerVelocity * flow.u(i, j));
      const double y = j + double(-cellsPerVelocity * flow.v(i, j));
      const SweWalls::Bilinear corners = walls.bilinear(x, y);
      if (rule == SampleRule::Renormalise && domain.isWet(i, j) && corners.inverseTotal == 0.0)
        ++o.allSolid;
      for (int n = 0; n < count; ++n) {
        const Field2D& f = *in[n];
        float expected = 0.0f;
        if (rule == SampleRule::SolidIsZero)
          expected = sampleBilinear(f, 1.0, x + 0.5, y + 0.5);  // world units: centres at i + 1/2
        else if (domain.isWet(i, j))
          expected = corners.at(f, f(i, j));
        o.worst = std::max(o.worst, std::fabs(out[n](i, j) - double(expected)) / f.maxAbs());
        o.pathsAgree =
            o.pathsAgree && out[n](i, j) == alone[n](i, j) && spans[n](i, j) == alone[n](i, j);
      }
    }
  return o;
}

TEST(SemiLagrangian, SamplesMatchTheScalarReferencesForEachRuleNearAndFar) {
  std::mt19937 random(20261126);
  const Domain domain = wallsDomain(random);
  for (const SampleRule rule : {SampleRule::SolidIsZero, SampleRule::Renormalise})
    for (const int count : {2, 3})
      for (const double cells : {0.8, 9.0}) {
        const char* name = rule == SampleRule::SolidIsZero ? "solid is zero" : "renormalised";
        SCOPED_TRACE(std::string(name) + ", " + std::to_string(count) + " fields, " +
                     std::to_string(cells) + " cells");
        const Outcome o = compare(domain, rule, count, cells, random);
        std::printf(
            "[ sl ] %s, %d fields, up to %.1f cells: blocks %d contiguous, %d near, %d far;"
            " %d chunks on the 2 x 2; %d all-solid; worst error %.2e\n",
            name, count, cells, o.paths.block, o.paths.near, o.paths.far, o.paths.quad, o.allSolid,
            o.worst);
        // Float round-off: a few ulps of the field's largest value.
        EXPECT_LE(o.worst, 2e-6);
        EXPECT_TRUE(o.pathsAgree) << "the paths of a row and of single cells differ";
        EXPECT_GT(o.paths.block, 0);
        if (cells < 1.0) {
          EXPECT_GT(o.paths.near, 0);
          // The band's 8 rows (4 layouts) whole rows weigh on their 2 x 2.
          if (rule == SampleRule::Renormalise) {
            EXPECT_GE(o.paths.quad, 8);
          }
        } else {
          EXPECT_GT(o.paths.far, 0);
          if (rule == SampleRule::Renormalise) {
            EXPECT_GT(o.allSolid, 0);
          }
        }
      }
}

}  // namespace
}  // namespace wb
