#include "core/measure/max_map.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace wb {

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ",value", or "," alone for NaN: an empty CSV field, as series.csv leaves what is not there.
void appendValue(std::string& line, float value) {
  char text[32];
  std::snprintf(text, sizeof text, ",%.9g", double(value));
  line += std::isnan(value) ? std::string(",") : std::string(text);
}
}  // namespace

MaxMap::MaxMap(const Domain& domain, MaxMapSettings settings, bool floodsLand)
    : settings_(settings),
      floodsLand_(floodsLand),
      etaMax_(domain.nx(), domain.ny(), kNaN),
      depthMax_(domain.nx(), domain.ny(), 0.0f),
      arrival_(domain.nx(), domain.ny(), kNaN),
      everWet_(domain.nx(), domain.ny(), 0.0f) {}

// One pass over the grid: a cell is a sample of (eta, h = eta + d0) where it is open and, for a
// model that takes land as a wall, under water at rest.
void MaxMap::update(const Field2D& eta, const Domain& domain, double time) {
  const auto& open = domain.wetMask();
  const float* d0 = domain.restDepth().data();
  const float* surface = eta.data();
  const float wet = float(settings_.wetDepth), tolerance = float(settings_.arrivalTolerance);
  const float now = float(time);
  float* etaMax = etaMax_.data();
  float* depthMax = depthMax_.data();
  float* arrival = arrival_.data();
  float* everWet = everWet_.data();
  const bool land = floodsLand_;
  for (std::size_t k = 0; k < eta.size(); ++k) {
    if (!open[k] || (!land && d0[k] <= 0.0f)) continue;
    const float h = surface[k] + d0[k];
    if (!(h > wet)) continue;
    everWet[k] = 1.0f;
    // NaN compares false: the first wet sample sets eta_max.
    if (!(etaMax[k] >= surface[k])) etaMax[k] = surface[k];
    if (h > depthMax[k]) depthMax[k] = h;
    if (std::isnan(arrival[k]) && std::fabs(surface[k]) > tolerance) arrival[k] = now;
  }
}

std::optional<RunUp> MaxMap::runUp(const Domain& domain) const {
  if (!floodsLand_ || empty()) return std::nullopt;
  std::optional<RunUp> highest;
  const Field2D& d0 = domain.restDepth();
  const double dx = domain.grid().dx;
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      if (!domain.isWet(i, j) || d0(i, j) > 0.0f || !everWet(i, j)) continue;
      const double ground = -double(d0(i, j));
      if (!highest || ground > highest->height)
        highest = RunUp{ground, (i + 0.5) * dx, (j + 0.5) * dx};
    }
  return highest;
}

void writeMaxMapCsv(std::ostream& out, const MaxMap& map, const Domain& domain) {
  out << "i,j,x,y,eta_max,depth_max,arrival_time\n";
  const double dx = domain.grid().dx;
  std::string line;
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      if (!domain.isWet(i, j)) continue;
      char cell[96];
      std::snprintf(cell, sizeof cell, "%d,%d,%.9g,%.9g", i, j, (i + 0.5) * dx, (j + 0.5) * dx);
      line = cell;
      appendValue(line, map.etaMax()(i, j));
      appendValue(line, map.depthMax()(i, j));
      appendValue(line, map.arrival()(i, j));
      out << line << '\n';
    }
}

}  // namespace wb
