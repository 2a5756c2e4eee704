// swe-adi's passes after the ADI step, shared among threads: the open edges' layer
// (models/swe_adi/open_edge_layer.hpp) and Manning friction (swe_adi_friction.cpp), and the
// gauges' point sample of its velocity.
#include <gtest/gtest.h>
#include <omp.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/grid/interpolation.hpp"
#include "models/swe_adi/open_edge_layer.hpp"
#include "models/swe_adi/swe_adi.hpp"

namespace wb {
namespace {

std::uint32_t bits(float x) {
  return std::bit_cast<std::uint32_t>(x);
}

// Open west, east and north sides, the south a wall, and a solid block that reaches into the
// north side's layer (closed faces inside the layer).
Domain openBasin(int nx, int ny) {
  Domain domain(Grid{nx, ny, 1.0}, 9.81, 1.0);
  for (int j = ny - 20; j < ny; ++j)
    for (int i = nx / 2; i < nx / 2 + 12; ++i)
      domain.setWet(i, j, false);
  Edges edges;
  edges.set(Side::West, EdgeKind::Open);
  edges.set(Side::East, EdgeKind::Open);
  edges.set(Side::North, EdgeKind::Open);
  domain.setEdges(edges);
  return domain;
}

// The layer's relaxation as one sweep over its cells in row-major order, each cell's discharge
// changes added to its own rate and its east and north neighbours' at once: the reference the
// two shared passes must reproduce bit for bit.
void sweepLayer(const AbsorbingLayer& layer, const OpenEdgeLayer::Fields& f,
                const OpenEdgeLayer::Goals& goals, double dt, double invDx, std::size_t nx) {
  layer.relaxToward(f.h, goals.eta, dt);
  for (const AbsorbingLayer::Cell& cell : layer.cells()) {
    const std::size_t k = cell.index;
    const double keepX = 1.0 / (1.0 + double(cell.sigmaXEast + cell.sigmaY) * dt);
    const double keepY = 1.0 / (1.0 + double(cell.sigmaX + cell.sigmaYNorth) * dt);
    const double toX = goals.qx && cell.openEast ? goals.qx[k] : 0.0;
    const double toY = goals.qy && cell.openNorth ? goals.qy[k] : 0.0;
    const double dqx = (keepX - 1.0) * (f.qx[k] - toX), dqy = (keepY - 1.0) * (f.qy[k] - toY);
    f.qx[k] = float(f.qx[k] + dqx);
    f.qy[k] = float(f.qy[k] + dqy);
    f.u[k] = faceVelocity(f.qx[k], f.depthX[k]);
    f.v[k] = faceVelocity(f.qy[k], f.depthY[k]);
    f.rate[k] = float(f.rate[k] - (dqx + dqy) * invDx);
    if (dqx != 0.0) f.rate[k + 1] = float(f.rate[k + 1] + dqx * invDx);
    if (dqy != 0.0) f.rate[k + nx] = float(f.rate[k + nx] + dqy * invDx);
  }
}

// Random discharges on the open faces (0 on closed ones and the grid's edge, as in the model),
// toward rest and toward random goals, on two threads: every field as the one sweep leaves it.
TEST(OpenEdgeLayer, SharedPassesGiveTheRowMajorSweepBitForBit) {
  constexpr int nx = 150, ny = 120;
  const Domain domain = openBasin(nx, ny);
  const std::size_t n = std::size_t(nx) * ny;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::array<std::vector<float>, 11> fields;  // h rate qx qy u v depthX depthY; goals
  for (auto& field : fields) {
    field.resize(n);
    for (float& x : field)
      x = uniform(random);
  }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = std::size_t(j) * nx + std::size_t(i);
      const bool east = domain.isWet(i, j) && domain.isWetOrOutside(i + 1, j);
      const bool north = domain.isWet(i, j) && domain.isWetOrOutside(i, j + 1);
      fields[6][k] = east ? 0.5f + 0.5f * std::fabs(fields[6][k]) : 0.0f;
      fields[7][k] = north ? 0.5f + 0.5f * std::fabs(fields[7][k]) : 0.0f;
      if (!east) fields[2][k] = 0.0f;
      if (!north) fields[3][k] = 0.0f;
    }
  const double dt = 0.3, invDx = 1.0;
  const int before = omp_get_max_threads();
  omp_set_num_threads(2);
  for (const bool towardGoals : {false, true}) {
    auto shared = fields, swept = fields;
    const auto view = [](std::array<std::vector<float>, 11>& f) {
      return OpenEdgeLayer::Fields{f[0].data(), f[1].data(), f[2].data(), f[3].data(),
                                   f[4].data(), f[5].data(), f[6].data(), f[7].data()};
    };
    const auto goals = [&](std::array<std::vector<float>, 11>& f) {
      return towardGoals ? OpenEdgeLayer::Goals{f[8].data(), f[9].data(), f[10].data()}
                         : OpenEdgeLayer::Goals{};
    };
    OpenEdgeLayer layer(domain, std::sqrt(9.81));
    ASSERT_GT(layer.layer().cells().size(), 1024u);  // large enough to share among threads
    layer.relax(view(shared), goals(shared), OpenEdgeLayer::Velocities::kFromDischarges, dt, invDx);
    sweepLayer(layer.layer(), view(swept), goals(swept), dt, invDx, std::size_t(nx));
    for (std::size_t f = 0; f < 6; ++f)
      for (std::size_t k = 0; k < n; ++k)
        ASSERT_EQ(bits(shared[f][k]), bits(swept[f][k]))
            << "field " << f << ", cell " << k << (towardGoals ? ", toward goals" : "");
  }
  omp_set_num_threads(before);
}

// Friction, open edges and an incoming wave: the passes after the step split rows and layer
// cells between threads, with each cell's arithmetic and each rate's order of additions the
// same, so 2 and 3 threads (blocks of rows that start anywhere) give the one-thread state bit
// for bit. And the gauges' point sample of the velocity is the fields' bilinear sample.
TEST(SweAdi, FrictionAndOpenEdgesGiveTheOneThreadResultBitForBit) {
  constexpr int nx = 200, ny = 137;
  Domain domain = openBasin(nx, ny);
  Edges edges = domain.edges();
  edges.set(Side::West, EdgeKind::Incoming);
  IncomingWave& wave = edges.incoming[std::size_t(Side::West)];
  wave.form = IncomingWave::Form::Sine;
  wave.amplitude = 0.05, wave.period = 12.0;
  domain.setEdges(edges);
  domain.setManning(0.03);
  Field2D eta0(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      eta0(i, j) = float(0.05 * std::exp(-(std::pow(i - 120.0, 2) + std::pow(j - 40.0, 2)) / 50.0));
  struct State {
    Field2D eta, rate, u, v;
    std::vector<std::array<float, 2>> samples;
  };
  const std::vector<std::array<double, 2>> points = {
      {0.2, 0.3}, {57.31, 88.6}, {199.9, 136.9}, {100.5, 0.5}, {0.5, 70.25}};
  const auto run = [&](int threads) {
    omp_set_num_threads(threads);
    SweAdi model;
    model.reset(domain, eta0);
    for (int k = 0; k < 60; ++k)
      model.step(model.preferredDt());
    State state{model.eta(), model.rate(), model.faceU(), model.faceV(), {}};
    for (const auto& [x, y] : points) {
      const BilinearCell cell = bilinearCell(model.eta(), 1.0, x, y);
      state.samples.push_back(*model.velocityAt(cell));  // before the cell velocities exist
      const Field2D &u = *model.velocityU(), &v = *model.velocityV();
      EXPECT_EQ(bits(state.samples.back()[0]), bits(sampleBilinear(u, cell))) << x << ", " << y;
      EXPECT_EQ(bits(state.samples.back()[1]), bits(sampleBilinear(v, cell))) << x << ", " << y;
    }
    return state;
  };
  const int before = omp_get_max_threads();
  const State one = run(1);
  for (const int threads : {2, 3}) {
    const State many = run(threads);
    const std::array<std::pair<const Field2D*, const Field2D*>, 4> fields = {
        std::pair{&one.eta, &many.eta}, std::pair{&one.rate, &many.rate},
        std::pair{&one.u, &many.u}, std::pair{&one.v, &many.v}};
    for (std::size_t f = 0; f < fields.size(); ++f)
      for (std::size_t k = 0; k < one.eta.size(); ++k)
        ASSERT_EQ(bits(fields[f].first->data()[k]), bits(fields[f].second->data()[k]))
            << threads << " threads, field " << f << ", cell " << k;
    EXPECT_EQ(one.samples, many.samples) << threads << " threads";
  }
  omp_set_num_threads(before);
  EXPECT_GT(one.u.maxAbs(), 1e-3f);  // the water moves: friction and the layer act
}

}  // namespace
}  // namespace wb
