#include "core/measure/diagnostics.hpp"

#include "core/run/tick_steps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "core/grid/parallel.hpp"

namespace wb {

namespace {

// Blocks of rows a surface is summed in; a fixed count, so that the order of the additions is
// the same for any number of threads.
constexpr int kSummaryBlocks = 32;

struct RowSums {
  double volume = 0.0, squares = 0.0;
  float maxAbs = 0.0f;
  int nonFinite = 0;
};

RowSums sumRows(const float* __restrict eta, const std::uint8_t* __restrict wet, std::size_t n) {
  double volume = 0.0, squares = 0.0;
  float maxAbs = 0.0f;
  int nonFinite = 0;
#pragma omp simd reduction(+ : volume, squares, nonFinite) reduction(max : maxAbs)
  for (std::size_t k = 0; k < n; ++k) {
    const double e = wet[k] ? double(eta[k]) : 0.0;
    volume += e;
    squares += e * e;
    const float a = std::fabs(eta[k]);
    maxAbs = std::max(maxAbs, a);
    nonFinite += !(a <= std::numeric_limits<float>::max());  // NaN fails every comparison
  }
  return {volume, squares, maxAbs, nonFinite};
}

}  // namespace

SurfaceSummary summarizeSurface(const Field2D& eta, const Domain& domain) {
  std::array<RowSums, kSummaryBlocks> blocks{};
  const int ny = eta.ny();
  const std::size_t nx = std::size_t(eta.nx());
  const std::uint8_t* wet = domain.wetMask().data();
#pragma omp parallel for schedule(static) if (worthThreads(eta.size()))
  for (int b = 0; b < kSummaryBlocks; ++b) {
    const std::size_t first = std::size_t(ny * b / kSummaryBlocks) * nx;
    const std::size_t last = std::size_t(ny * (b + 1) / kSummaryBlocks) * nx;
    blocks[b] = sumRows(eta.data() + first, wet + first, last - first);
  }
  RowSums total;
  for (const RowSums& block : blocks) {
    total.volume += block.volume;
    total.squares += block.squares;
    total.maxAbs = std::max(total.maxAbs, block.maxAbs);
    total.nonFinite += block.nonFinite;
  }
  const double area = domain.grid().cellArea();
  return {total.volume * area, 0.5 * domain.g() * total.squares * area, total.maxAbs,
          total.nonFinite == 0};
}

double wetVolume(const Field2D& eta, const Domain& domain) {
  return summarizeSurface(eta, domain).volume;
}

double medianStepMs(const std::vector<FrameRecord>& history, std::size_t end, std::size_t window) {
  end = std::min(end, history.size());
  const std::size_t begin = end > window ? end - window : 0;
  std::vector<double> costs;
  for (std::size_t k = begin; k < end; ++k)
    costs.push_back(history[k].stepMs);
  if (costs.empty()) return 0.0;
  std::nth_element(costs.begin(), costs.begin() + costs.size() / 2, costs.end());
  return costs[costs.size() / 2];
}

// volume_sink, volume_displaced, volume_masked, the ocean's energies and volume_window come
// after the columns series.csv had before each, so readers that count columns keep finding
// them where they were.
void writeSeriesHeader(std::ostream& out) {
  out << "frame,time,model,volume,volume_sources,volume_drift,energy_potential,energy_kinetic,"
         "energy_total,step_ms,substeps,dt,max_abs_eta,volume_sink";
  for (auto column : kSolverColumns)
    out << ',' << column;
  out << ",volume_displaced,volume_masked,error_l1,error_l2,error_max,front_x,"
         "ocean_energy_potential,ocean_energy_kinetic,volume_window\n";
}

void writeSeriesRow(std::ostream& out, const FrameRecord& r) {
  char line[512];
  std::snprintf(line, sizeof line,
                "%d,%s,%s,%.12g,%.12g,%.6g,%.9g,%.9g,%.9g,%.6g,%d,%.9g,%.6g,%.12g", r.frame,
                timeText(r.time).c_str(), r.model.c_str(), r.volume, r.volumeSources, r.volumeDrift,
                r.energyPotential, r.energyKinetic, r.energyTotal(), r.stepMs, r.substeps, r.dt,
                r.maxAbsEta, r.volumeSink);
  out << line;
  for (auto column : kSolverColumns) {
    out << ',';
    if (auto it = r.solver.find(std::string(column)); it != r.solver.end()) {
      std::snprintf(line, sizeof line, "%.9g", it->second);
      out << line;
    }
  }
  std::snprintf(line, sizeof line, ",%.12g,%.12g", r.volumeDisplaced, r.volumeMasked);
  out << line;
  for (const auto& error :
       {r.errorL1, r.errorL2, r.errorMax, r.frontX, r.oceanPotential, r.oceanKinetic}) {
    out << ',';
    if (!error) continue;
    std::snprintf(line, sizeof line, "%.9g", *error);
    out << line;
  }
  std::snprintf(line, sizeof line, ",%.12g\n", r.volumeWindow);
  out << line;
}

}  // namespace wb
