#include "models/swe_adi/open_edge_layer.hpp"

#include <algorithm>
#include <map>

#include "core/grid/domain.hpp"
#include "models/swe_adi/swe_adi_kernels.hpp"

namespace wb {

namespace {

// Blocks of layer cells the surface's change is summed in: a fixed count, so that the order of
// the additions is the same for any number of threads.
constexpr std::size_t kBlocks = 16;
// From this many layer cells on the passes are shared among threads: a layer cell costs tens
// of times a cell of a plain pass over a field (core/grid/parallel.hpp).
constexpr std::size_t kParallelLayerCells = 1024;

}  // namespace

OpenEdgeLayer::OpenEdgeLayer(const Domain& domain, double waveSpeed) : layer_(domain, waveSpeed) {
  const std::size_t nx = std::size_t(domain.nx()), ny = std::size_t(domain.ny());
  // The east face of a cell in the last column and the north face of one in the last row lie
  // on the grid's edge: closed, their discharges 0, they reach no other cell.
  std::map<std::uint32_t, RateCell> reached;
  const auto at = [&](std::size_t k) -> RateCell& {
    return reached.try_emplace(std::uint32_t(k), RateCell{std::uint32_t(k), -1, -1, -1})
        .first->second;
  };
  const std::vector<AbsorbingLayer::Cell>& cells = layer_.cells();
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::size_t k = cells[c].index;
    at(k).own = std::int32_t(c);
    if (k % nx + 1 < nx) at(k + 1).west = std::int32_t(c);
    if (k / nx + 1 < ny) at(k + nx).south = std::int32_t(c);
  }
  rateCells_.reserve(reached.size());
  for (const auto& [index, cell] : reached)
    rateCells_.push_back(cell);
  change_.assign(cells.size(), {0.0, 0.0});
}

void OpenEdgeLayer::prepareKeep(double dt) {
  const std::vector<AbsorbingLayer::Cell>& cells = layer_.cells();
  if (keepDt_ == dt && keep_.size() == cells.size()) return;
  keep_.resize(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c)
    keep_[c] = {1.0 / (1.0 + double(cells[c].sigmaXEast + cells[c].sigmaY) * dt),
                1.0 / (1.0 + double(cells[c].sigmaX + cells[c].sigmaYNorth) * dt)};
  keepDt_ = dt;
}

// Both passes over cells shared among threads: the first relaxes each cell's surface and its
// two discharges (no other cell's), the second moves every reached rate by the changes.
double OpenEdgeLayer::relax(const Fields& fields, const Goals& goals, Velocities velocities,
                            double dt, double invDx) {
  if (empty()) return 0.0;
  prepareKeep(dt);
  const std::size_t cells = layer_.cells().size(), rates = rateCells_.size();
  std::array<double, kBlocks> surfaceChange{};
#pragma omp parallel if (cells >= kParallelLayerCells)
  {
#pragma omp for schedule(static)
    for (std::size_t b = 0; b < kBlocks; ++b)
      surfaceChange[b] =
          relaxCells(fields, goals, velocities, cells * b / kBlocks, cells * (b + 1) / kBlocks, dt);
#pragma omp for schedule(static)
    for (std::size_t b = 0; b < kBlocks; ++b)
      followChanges(fields.rate, invDx, rates * b / kBlocks, rates * (b + 1) / kBlocks);
  }
  double total = 0.0;
  for (const double change : surfaceChange)
    total += change;
  return total;
}

double OpenEdgeLayer::relaxCells(const Fields& fields, const Goals& goals, Velocities velocities,
                                 std::size_t begin, std::size_t end, double dt) {
  const double surfaceChange = layer_.relaxToward(fields.h, goals.eta, dt, begin, end);
  const std::vector<AbsorbingLayer::Cell>& cells = layer_.cells();
  float *qx = fields.qx, *qy = fields.qy, *u = fields.u, *v = fields.v;
  for (std::size_t c = begin; c < end; ++c) {
    const AbsorbingLayer::Cell& cell = cells[c];
    const std::size_t k = cell.index;
    const auto [keepX, keepY] = keep_[c];
    // A closed face carries no discharge: its goal is 0 like its discharge.
    const double toX = goals.qx && cell.openEast ? goals.qx[k] : 0.0;
    const double toY = goals.qy && cell.openNorth ? goals.qy[k] : 0.0;
    const double dqx = (keepX - 1.0) * (qx[k] - toX), dqy = (keepY - 1.0) * (qy[k] - toY);
    qx[k] = float(qx[k] + dqx);
    qy[k] = float(qy[k] + dqy);
    if (velocities == Velocities::kRelax) {
      u[k] = float(keepX * u[k]);
      v[k] = float(keepY * v[k]);
    } else if (velocities == Velocities::kFromDischarges) {
      u[k] = faceVelocity(qx[k], fields.depthX[k]);
      v[k] = faceVelocity(qy[k], fields.depthY[k]);
    }
    change_[c] = {dqx, dqy};
  }
  return surfaceChange;
}

// hdot -= div(q_new - q_old) / dx: the east face's change leaves its cell and enters the one
// east of it, the north face's the one north. Each addition is rounded to float in the order of
// a row-major sweep over the layer cells (the south cell's, the west one's, the cell's own), so
// the rates are the same for any number of threads.
void OpenEdgeLayer::followChanges(float* rate, double invDx, std::size_t begin,
                                  std::size_t end) const {
  for (std::size_t r = begin; r < end; ++r) {
    const RateCell& cell = rateCells_[r];
    float value = rate[cell.index];
    if (cell.south >= 0 && change_[std::size_t(cell.south)][1] != 0.0)
      value = float(value + change_[std::size_t(cell.south)][1] * invDx);
    if (cell.west >= 0 && change_[std::size_t(cell.west)][0] != 0.0)
      value = float(value + change_[std::size_t(cell.west)][0] * invDx);
    if (cell.own >= 0) {
      const auto [dqx, dqy] = change_[std::size_t(cell.own)];
      value = float(value - (dqx + dqy) * invDx);
    }
    rate[cell.index] = value;
  }
}

}  // namespace wb
