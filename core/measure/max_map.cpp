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
      arrival_(domain.nx(), domain.ny(), kNaN) {
  setDomain(domain);
}

void MaxMap::setDomain(const Domain& domain) {
  restDepth_ = domain.restDepth();
  wetThreshold_ = Field2D(domain.nx(), domain.ny());
  const auto& open = domain.wetMask();
  for (std::size_t k = 0; k < open.size(); ++k) {
    const float d0 = restDepth_.data()[k];
    const bool sampled = open[k] && (floodsLand_ || d0 > 0.0f);
    wetThreshold_.data()[k] =
        sampled ? float(settings_.wetDepth) - d0 : std::numeric_limits<float>::infinity();
  }
}

namespace {
// One row-span of the maps: a sample counts where eta > threshold (h = eta + d0 > wetDepth).
// Written as selects so that it vectorises (no-trapping-math: NaN compares are plain selects),
// about as costly as a wave scheme's step; NaN compares false, so the first sample sets eta_max
// and a NaN arrival (x != x) is the only one replaced.
__attribute__((target_clones("avx2", "default"), optimize("no-trapping-math"))) void maxMapSpan(
    float* __restrict etaMax, float* __restrict depthMax, float* __restrict arrival,
    const float* __restrict eta, const float* __restrict d0, const float* __restrict threshold,
    float tolerance, float now, std::size_t n) {
#pragma omp simd
  for (std::size_t k = 0; k < n; ++k) {
    const float e = eta[k], h = e + d0[k];
    const bool counts = e > threshold[k];
    etaMax[k] = counts & !(etaMax[k] >= e) ? e : etaMax[k];
    depthMax[k] = counts & (h > depthMax[k]) ? h : depthMax[k];
    const bool first = counts & (arrival[k] != arrival[k]) & ((e > tolerance) | (-e > tolerance));
    arrival[k] = first ? now : arrival[k];
  }
}
}  // namespace

void MaxMap::update(const Field2D& eta, double time) {
  maxMapSpan(etaMax_.data(), depthMax_.data(), arrival_.data(), eta.data(), restDepth_.data(),
             wetThreshold_.data(), float(settings_.arrivalTolerance), float(time), eta.size());
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

const char* runUpNote(const MaxMap& map, const Domain& domain) {
  if (!map.floodsLand()) return "no_wet_dry";
  return map.runUp(domain) ? "measured" : "no_land_wetted";
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
