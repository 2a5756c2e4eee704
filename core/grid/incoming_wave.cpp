#include "core/grid/incoming_wave.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/edges.hpp"

namespace wb {

namespace {

// sech^2 = 1e-3 at k c |t - crest| = acosh(sqrt(1000)): where the default crest time puts t = 0.
constexpr double kSolitaryStart = 4.1459;

double solitaryRate(const IncomingWave& wave, double g, double depth) {
  const double a = wave.amplitude, d = std::max(depth, 1e-6);
  return std::sqrt(3.0 * std::abs(a) / (4.0 * d * d * d)) * std::sqrt(g * (d + a));
}

}  // namespace

double IncomingWave::elevation(double t, double g, double depth) const {
  // Binary search for the segment: the walk below then takes no step.
  auto segment = std::uint32_t(std::upper_bound(times.begin(), times.end(), t) - times.begin());
  return elevation(t, g, depth, segment);
}

// The series between times[k - 1] <= t < times[k] (the segment std::upper_bound finds), k
// walked to from the caller's last one.
double IncomingWave::elevation(double t, double g, double depth, std::uint32_t& segment) const {
  switch (form) {
    case Form::Sine:
      return amplitude * std::sin(2.0 * std::numbers::pi * t / period);
    case Form::Solitary: {
      const double rate = solitaryRate(*this, g, depth);
      const double crest = crestTime >= 0.0 ? crestTime : kSolitaryStart / rate;
      const double s = 1.0 / std::cosh(rate * (t - crest));
      return amplitude * s * s;
    }
    case Form::Series:
      break;
  }
  if (times.empty() || t > times.back()) return 0.0;  // the record has ended: the side is open
  if (t <= times.front()) return etas.front();
  std::size_t k = std::clamp<std::size_t>(segment, 1, times.size() - 1);
  while (k > 1 && times[k - 1] > t)
    --k;
  while (k + 1 < times.size() && times[k] <= t)
    ++k;
  segment = std::uint32_t(k);
  const double w = (t - times[k - 1]) / (times[k] - times[k - 1]);
  return etas[k - 1] + w * (etas[k] - etas[k - 1]);
}

double IncomingWave::endTime() const {
  if (form == Form::Series && !times.empty()) return times.back();
  return std::numeric_limits<double>::infinity();
}

void checkIncomingCoversRun(const Edges& edges, double runEnd, const std::string& where) {
  for (Side side : kSides) {
    if (edges.kind(side) != EdgeKind::Incoming) continue;
    const IncomingWave& wave = edges.incoming[std::size_t(side)];
    if (wave.thenOpen || wave.endTime() >= runEnd - 1e-9) continue;
    std::ostringstream why;
    why << where << "." << sideName(side) << ".incoming.series: the record ends at "
        << wave.endTime() << " s, before the run's end at " << runEnd
        << " s (shorten the run, or add \"then\": \"open\" to open the side after it)";
    throw InputError(why.str());
  }
}

void checkIncomingSidesWet(const Domain& domain, const std::string& where) {
  const Edges& edges = domain.edges();
  for (Side side : kSides) {
    if (edges.kind(side) != EdgeKind::Incoming) continue;
    const bool alongY = side == Side::West || side == Side::East;
    const int n = alongY ? domain.ny() : domain.nx();
    const int edge = side == Side::West || side == Side::South ? 0
                     : alongY                                  ? domain.nx() - 1
                                                               : domain.ny() - 1;
    bool wet = false;
    for (int m = 0; m < n && !wet; ++m)
      wet = alongY ? domain.isWet(edge, m) : domain.isWet(m, edge);
    if (!wet)
      throw InputError(where + "." + sideName(side) +
                       ": incoming edge on a side whose cells are all walls in the mask");
  }
}

IncomingWaves::IncomingWaves(const Domain& domain, double waveSpeed) : g_(domain.g()) {
  const Edges& edges = domain.edges();
  const int nx = domain.nx(), ny = domain.ny(), width = edges.layerCells;
  const double dx = domain.grid().dx;
  const Field2D& depth = domain.restDepth();
  // The cells of a side at one delay share a reading (the same time, bit for bit).
  std::map<std::pair<std::uint8_t, double>, std::uint32_t> readingAt;
  const auto readingOf = [&](std::uint8_t side, double delay) {
    const auto [at, added] = readingAt.try_emplace({side, delay}, std::uint32_t(readings_.size()));
    if (added) readings_.push_back({side, delay});
    return at->second;
  };
  for (Side side : kSides) {
    if (edges.kind(side) != EdgeKind::Incoming) continue;
    const auto s = std::size_t(side);
    waves_[s] = edges.incoming[s];
    const bool alongX = side == Side::West || side == Side::East;
    const bool low = side == Side::West || side == Side::South;
    const int across = alongX ? nx : ny, along = alongX ? ny : nx;
    double sum = 0.0;
    int count = 0;
    const std::size_t begin = cells_.size();
    for (int m = 0; m < along; ++m)
      for (int n = 0; n < std::min(width, across); ++n) {
        // n cells in from the side: the cell's centre is (n + 0.5) dx from the grid's edge.
        const int i = alongX ? (low ? n : nx - 1 - n) : m;
        const int j = alongX ? m : (low ? n : ny - 1 - n);
        if (!domain.isWetAtRest(i, j)) continue;
        const double d0 = depth(i, j);
        if (n == 0) sum += d0, ++count;
        Cell cell{};
        cell.index = std::uint32_t(std::size_t(j) * std::size_t(nx) + std::size_t(i));
        cell.side = std::uint8_t(s);
        cell.alongX = alongX;
        cell.sign = low ? 1.0f : -1.0f;
        cell.distance = float((n + 0.5) * dx);
        // The east (north) face is one half cell further from a low side, nearer a high one.
        cell.faceDistance = float((low ? n + 1.0 : n) * dx);
        cell.speed = float(waveSpeed > 0.0 ? waveSpeed : std::sqrt(domain.g() * d0));
        cell.depth = float(d0);
        cell.centreReading = readingOf(cell.side, double(cell.distance) / double(cell.speed));
        cell.faceReading = readingOf(cell.side, double(cell.faceDistance) / double(cell.speed));
        cells_.push_back(cell);
      }
    sideDepth_[s] = count > 0 ? sum / count : domain.meanWetDepth();
    sideCells_[s] = {begin, cells_.size()};
  }
  if (cells_.empty()) return;
  readValues_.assign(readings_.size(), 0.0);
  const std::size_t size = std::size_t(nx) * std::size_t(ny);
  for (auto* field : {&eta_, &velX_, &velY_, &flowX_, &flowY_})
    field->assign(size, 0.0f);
  std::vector<std::uint8_t> seen(size, 0);
  for (const Cell& cell : cells_)
    sidesMeet_ = sidesMeet_ || seen[cell.index]++ > 0;
}

// Where two incoming sides' layers meet their waves add (the linear long waves superpose).
// A cell lies once in its side's run of cells_ (two sides' layers may share a corner cell),
// so each side's loop writes every cell once and may be shared among threads; the sides run one
// after the other, each adding to the fields it zeroed first. Where no cell is in two sides'
// layers, one pass over all of them sets each cell's values (0 + the wave's, the same float as
// the sum), and the fields across each side's direction keep their 0 from the start. The series
// is read once per delay first (a side of one depth has one per distance from it: a few dozen),
// each reading walking on from its last segment; a reading costs tens of times a pass over a
// field's cell, hence threads from kParallelEvaluations on.
void IncomingWaves::evaluate(double t) {
#pragma omp parallel for schedule(static) if (readings_.size() >= kParallelEvaluations)
  for (std::size_t r = 0; r < readings_.size(); ++r) {
    Reading& reading = readings_[r];
    readValues_[r] = waves_[reading.side].elevation(t - reading.delay, g_, sideDepth_[reading.side],
                                                    reading.segment);
  }
  if (!sidesMeet_) {
    setCells(0, cells_.size(), false);
    return;
  }
  for (const auto& side : sideCells_) {
    const std::size_t begin = side.first, end = side.second;
#pragma omp parallel for schedule(static) if (end - begin >= kParallelEvaluations)
    for (std::size_t c = begin; c < end; ++c) {
      const std::size_t k = cells_[c].index;
      eta_[k] = velX_[k] = velY_[k] = flowX_[k] = flowY_[k] = 0.0f;
    }
  }
  for (const auto& side : sideCells_)
    setCells(side.first, side.second, true);
}

void IncomingWaves::setCells(std::size_t begin, std::size_t end, bool add) {
#pragma omp parallel for schedule(static) if (end - begin >= kParallelEvaluations)
  for (std::size_t c = begin; c < end; ++c) {
    const Cell& cell = cells_[c];
    const double speed = cell.speed;
    const double eta = readValues_[cell.centreReading];
    const double etaFace = readValues_[cell.faceReading];
    const std::size_t k = cell.index;
    float* velocity = cell.alongX ? velX_.data() : velY_.data();
    float* flow = cell.alongX ? flowX_.data() : flowY_.data();
    eta_[k] = (add ? eta_[k] : 0.0f) + float(eta);
    velocity[k] = (add ? velocity[k] : 0.0f) + float(cell.sign * speed * eta / cell.depth);
    flow[k] = (add ? flow[k] : 0.0f) + float(cell.sign * speed * etaFace);
  }
}

}  // namespace wb
