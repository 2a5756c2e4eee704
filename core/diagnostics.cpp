#include "core/diagnostics.hpp"

#include <cstdio>

namespace wb {

double wetVolume(const Field2D& eta, const Domain& domain) {
  double total = 0.0;
  const auto& wet = domain.wetMask();
  for (std::size_t k = 0; k < eta.size(); ++k)
    if (wet[k]) total += eta.data()[k];
  return total * domain.grid().cellArea();
}

double potentialEnergy(const Field2D& eta, const Domain& domain) {
  double total = 0.0;
  const auto& wet = domain.wetMask();
  for (std::size_t k = 0; k < eta.size(); ++k)
    if (wet[k]) total += double(eta.data()[k]) * eta.data()[k];
  return 0.5 * domain.g() * total * domain.grid().cellArea();
}

void writeSeriesHeader(std::ostream& out) {
  out << "frame,time,model,volume,volume_sources,volume_drift,energy_potential,energy_kinetic,"
         "energy_total,step_ms,substeps,dt,max_abs_eta";
  for (auto column : kSolverColumns) out << ',' << column;
  out << '\n';
}

void writeSeriesRow(std::ostream& out, const FrameRecord& r) {
  char line[512];
  std::snprintf(line, sizeof line, "%d,%.9g,%s,%.12g,%.12g,%.6g,%.9g,%.9g,%.9g,%.6g,%d,%.9g,%.6g",
                r.frame, r.time, r.model.c_str(), r.volume, r.volumeSources, r.volumeDrift,
                r.energyPotential, r.energyKinetic, r.energyTotal(), r.stepMs, r.substeps, r.dt,
                r.maxAbsEta);
  out << line;
  for (auto column : kSolverColumns) {
    out << ',';
    if (auto it = r.solver.find(std::string(column)); it != r.solver.end()) {
      std::snprintf(line, sizeof line, "%.9g", it->second);
      out << line;
    }
  }
  out << '\n';
}

}  // namespace wb
