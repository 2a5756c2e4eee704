#include "core/grid/edges.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/errors.hpp"
#include "core/grid/domain.hpp"

namespace wb {

bool Edges::anyOpen() const {
  return std::any_of(kinds.begin(), kinds.end(), [](EdgeKind k) { return k != EdgeKind::Wall; });
}

bool Edges::anyIncoming() const {
  return std::any_of(kinds.begin(), kinds.end(),
                     [](EdgeKind k) { return k == EdgeKind::Incoming; });
}

Edges Edges::all(EdgeKind kind) {
  Edges edges;
  edges.kinds.fill(kind);
  return edges;
}

const char* sideName(Side side) {
  switch (side) {
    case Side::West:
      return "west";
    case Side::East:
      return "east";
    case Side::South:
      return "south";
    case Side::North:
      return "north";
  }
  return "?";
}

const char* edgeKindName(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::Open:
      return "open";
    case EdgeKind::Incoming:
      return "incoming";
    case EdgeKind::Wall:
      break;
  }
  return "wall";
}

EdgeKind parseEdgeKind(const std::string& name, const std::string& where) {
  if (name == "wall") return EdgeKind::Wall;
  if (name == "open") return EdgeKind::Open;
  throw InputError(where + ": unknown edge kind '" + name + "' (expected \"wall\" or \"open\")");
}

double longestWave(const Grid& grid) {
  return 2.0 * std::max(grid.width(), grid.height());
}

double layerFractionOfLongestWave(const Edges& edges, const Grid& grid) {
  return edges.layerCells * grid.dx / longestWave(grid);
}

void checkEdgesFit(const Edges& edges, const Grid& grid, const std::string& where) {
  const auto check = [&](Side low, Side high, int cells, const char* axis) {
    const int layers = int(edges.isOpen(low)) + int(edges.isOpen(high));
    if (layers == 0) return;
    const int needed = (layers + 1) * edges.layerCells;
    if (cells < needed)
      throw InputError(where + ": open " + (edges.isOpen(low) ? sideName(low) : sideName(high)) +
                       " edge needs at least " + std::to_string(needed) + " cells in " + axis +
                       " (" + std::to_string(layers) + " absorbing layer(s) of " +
                       std::to_string(edges.layerCells) + " and as much water), the grid has " +
                       std::to_string(cells));
  };
  check(Side::West, Side::East, grid.nx, "x");
  check(Side::South, Side::North, grid.ny, "y");
}

AbsorbingLayer::AbsorbingLayer(const Domain& domain, double waveSpeed) {
  const Edges& edges = domain.edges();
  if (!edges.anyOpen()) return;
  const int width = edges.layerCells, nx = domain.nx(), ny = domain.ny();
  sigmaMax_ = (kProfilePower + 1) * waveSpeed * std::log(1.0 / kLayerEcho) /
              (2.0 * width * domain.grid().dx);
  // The rate at `position` cells from the grid's low side along an axis of n cells (cell
  // centres at i + 0.5, faces at whole numbers): depth xi into the layer of each open side.
  const auto rate = [&](Side low, Side high, int n, double position) {
    const double intoLow = (width - position) / width, intoHigh = (position - (n - width)) / width;
    double sigma = 0.0;
    if (edges.isOpen(low) && intoLow > 0) sigma += sigmaMax_ * std::pow(intoLow, kProfilePower);
    if (edges.isOpen(high) && intoHigh > 0) sigma += sigmaMax_ * std::pow(intoHigh, kProfilePower);
    return float(sigma);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float sx = rate(Side::West, Side::East, nx, i + 0.5);
      const float sy = rate(Side::South, Side::North, ny, j + 0.5);
      if ((sx <= 0 && sy <= 0) || !domain.isWet(i, j)) continue;
      Cell cell{};
      cell.index = std::uint32_t(std::size_t(j) * std::size_t(nx) + std::size_t(i));
      cell.sigmaX = sx, cell.sigmaY = sy;
      cell.openEast = domain.isWetOrOutside(i + 1, j);
      cell.openNorth = domain.isWetOrOutside(i, j + 1);
      cell.sigmaXEast = cell.openEast ? rate(Side::West, Side::East, nx, i + 1.0) : 0.0f;
      cell.sigmaYNorth = cell.openNorth ? rate(Side::South, Side::North, ny, j + 1.0) : 0.0f;
      cells_.push_back(cell);
    }
}

double AbsorbingLayer::relax(float* x, double dt) const {
  return relaxToward(x, nullptr, dt, 0, cells_.size());
}

double AbsorbingLayer::relaxToward(float* x, const float* target, double dt) const {
  return relaxToward(x, target, dt, 0, cells_.size());
}

double AbsorbingLayer::relaxToward(float* x, const float* target, double dt, std::size_t begin,
                                   std::size_t end) const {
  double change = 0.0;
  for (std::size_t c = begin; c < end; ++c) {
    const Cell& cell = cells_[c];
    const double before = x[cell.index];
    x[cell.index] =
        target
            ? float(target[cell.index] + (before - target[cell.index]) / (1.0 + cell.sigma() * dt))
            : float(before / (1.0 + cell.sigma() * dt));
    change += double(x[cell.index]) - before;
  }
  return change;
}

WavePml::WavePml(const Domain& domain, double waveSpeed)
    : layer_(domain, waveSpeed),
      nx_(domain.nx()),
      c2_(waveSpeed * waveSpeed),
      inverseDx_(1.0 / domain.grid().dx),
      cellArea_(domain.grid().cellArea()) {
  if (layer_.empty()) return;
  psiX_.assign(domain.wetMask().size(), 0.0f);
  psiY_.assign(domain.wetMask().size(), 0.0f);
}

void WavePml::useLinkDepths(const float* halfDepth) {
  faceX_.clear(), faceY_.clear();
  const std::size_t row = std::size_t(nx_);
  for (const auto& cell : layer_.cells()) {
    const std::size_t k = cell.index;
    faceX_.push_back(cell.openEast ? halfDepth[k] + halfDepth[k + 1] : 0.0f);
    faceY_.push_back(cell.openNorth ? halfDepth[k] + halfDepth[k + row] : 0.0f);
  }
}

void WavePml::followMask(const Domain& domain) {
  if (layer_.empty()) return;
  faceX_.clear(), faceY_.clear();  // of the old cells: the model sets them again
  layer_ = AbsorbingLayer(domain, std::sqrt(c2_));
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      const std::size_t k = std::size_t(j) * std::size_t(nx_) + std::size_t(i);
      if (!domain.isWet(i, j) || !domain.isWetOrOutside(i + 1, j)) psiX_[k] = 0.0f;
      if (!domain.isWet(i, j) || !domain.isWetOrOutside(i, j + 1)) psiY_[k] = 0.0f;
    }
}

void WavePml::shift(int di, int dj) {
  if (layer_.empty()) return;
  const int ny = int(psiX_.size()) / nx_;
  std::vector<std::uint8_t> inLayer(psiX_.size(), 0);
  for (const auto& cell : layer_.cells())
    inLayer[cell.index] = 1;
  for (auto* psi : {&psiX_, &psiY_}) {
    std::vector<float> moved(psi->size(), 0.0f);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx_; ++i) {
        const int from = i + di, fromJ = j + dj;
        const std::size_t k = std::size_t(j) * std::size_t(nx_) + std::size_t(i);
        if (inLayer[k] && from >= 0 && from < nx_ && fromJ >= 0 && fromJ < ny)
          moved[k] = (*psi)[std::size_t(fromJ) * std::size_t(nx_) + std::size_t(from)];
      }
    *psi = std::move(moved);
  }
}

double WavePml::stableCourant(int layerCells) {
  // Layer width (cells) and the largest c dt / dx that ran 600 s of a drop's rings in a pool
  // open on all four sides without growing, the smaller over the 8-neighbour and the 5-point
  // stencils (bisection to 0.005; docs/open-edges.md). Beyond the last width: its value.
  static constexpr std::array<std::pair<int, double>, 10> kMeasured = {{{1, 0.659},
                                                                        {2, 0.614},
                                                                        {3, 0.633},
                                                                        {4, 0.656},
                                                                        {6, 0.691},
                                                                        {8, 0.748},
                                                                        {16, 0.819},
                                                                        {24, 0.857},
                                                                        {32, 0.884},
                                                                        {48, 0.912}}};
  constexpr double kMargin = 0.97;
  if (layerCells <= kMeasured.front().first) return kMargin * kMeasured.front().second;
  for (std::size_t k = 1; k < kMeasured.size(); ++k) {
    const auto [w1, c1] = kMeasured[k];
    if (layerCells > w1) continue;
    const auto [w0, c0] = kMeasured[k - 1];
    return kMargin * (c0 + (c1 - c0) * double(layerCells - w0) / double(w1 - w0));
  }
  return kMargin * kMeasured.back().second;
}

double WavePml::divergence(std::size_t k) const {
  const std::size_t row = std::size_t(nx_);
  const double west = k % row > 0 ? psiX_[k - 1] : 0.0f;
  const double south = k >= row ? psiY_[k - row] : 0.0f;
  return (psiX_[k] - west + psiY_[k] - south) * inverseDx_;
}

double WavePml::addRestAcceleration(const float* h, double damping, float* acceleration) const {
  double sum = 0.0;
  for (const auto& cell : layer_.cells()) {
    const std::size_t k = cell.index;
    const double q =
        double(cell.sigmaX) * cell.sigmaY + damping * (double(cell.sigmaX) + cell.sigmaY);
    acceleration[k] = float(double(acceleration[k]) - q * h[k]);
    sum -= q * h[k];
  }
  return sum;
}

void WavePml::holdPreviousLevel(const float* h, const float* rate, const float* incoming) {
  const auto& cells = layer_.cells();
  previousLevel_.resize(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::size_t k = cells[c].index;
    previousLevel_[c] = h[k] - rate[k] - (incoming ? incoming[k] : 0.0f);
  }
}

void WavePml::apply(float* hNew, float* rate, double dt, const Scheme& scheme,
                    const float* incoming) {
  // The layer's update on e = h - incoming; the incoming wave is added back after.
  const auto in = [incoming](std::size_t k) { return incoming ? double(incoming[k]) : 0.0; };
  const auto& cells = layer_.cells();
  const double dt2 = dt * dt, kappa = scheme.kappa;
  double change = 0.0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto& cell = cells[c];
    const std::size_t k = cell.index;
    const double divPsi = divergence(k);
    const double sum = double(cell.sigmaX) + cell.sigmaY;
    const double s = 0.5 * sum * dt;
    const double q = (double(cell.sigmaX) * cell.sigmaY + scheme.damping * sum) * dt2;
    const double before = hNew[k], departure = before - in(k);
    hNew[k] = float(in(k) +
                    ((1.0 + kappa) * departure + (s - 0.5 * q) * previousLevel_[c] + dt2 * divPsi) /
                        (1.0 + kappa + s + 0.5 * q));
    // v^{n+1} = h^{n+1} - h^n moves with h^{n+1}.
    rate[k] += float(double(hNew[k]) - before);
    change += double(hNew[k]) - before;
  }
  const std::size_t row = std::size_t(nx_);
  const bool local = !faceX_.empty();
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto& cell = cells[c];
    const std::size_t k = cell.index;
    if (cell.openEast) {
      const double half = 0.5 * cell.sigmaXEast * dt;
      const double gradient = (hNew[k + 1] - in(k + 1) - hNew[k] + in(k)) * inverseDx_;
      const double c2 = local ? c2_ * faceX_[c] : c2_;
      psiX_[k] =
          float(((1.0 - half) * psiX_[k] + dt * c2 * (cell.sigmaY - cell.sigmaXEast) * gradient) /
                (1.0 + half));
    }
    if (cell.openNorth) {
      const double half = 0.5 * cell.sigmaYNorth * dt;
      const double gradient = (hNew[k + row] - in(k + row) - hNew[k] + in(k)) * inverseDx_;
      const double c2 = local ? c2_ * faceY_[c] : c2_;
      psiY_[k] =
          float(((1.0 - half) * psiY_[k] + dt * c2 * (cell.sigmaX - cell.sigmaYNorth) * gradient) /
                (1.0 + half));
    }
  }
  // The model's own volume recurrence carries the change on: V^{n+1} - V^n = R (V^n -
  // V^{n-1}) + change, so the sink grows by sinkRate^{n+1} = R sinkRate^n + change.
  sinkRate_ = scheme.volumeRecurrence * sinkRate_ + change * cellArea_;
  sink_ += sinkRate_;
}

}  // namespace wb
