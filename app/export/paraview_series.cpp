#include "app/export/paraview_series.hpp"

#include <cstdio>

#include "core/scenario/field_io.hpp"

namespace wb {
namespace fs = std::filesystem;

ParaViewSeries::ParaViewSeries(const fs::path& dir, const Comparison& comparison) : dir_(dir) {
  for (std::size_t k = 0; k < comparison.modelCount(); ++k)
    ensureWritableDirectory(dir_ / comparison.model(k).id());
}

std::string ParaViewSeries::frameName(const char* prefix, int frame) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%05d", prefix, frame);
  return name;
}

void ParaViewSeries::frame(const Comparison& comparison) {
  for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
    if (comparison.failure(k)) continue;
    const Model& model = comparison.model(k);
    const fs::path folder = dir_ / model.id();
    const std::string eta = frameName("eta", comparison.frame()) + ".vti";
    writeVtiFrame(folder / eta, model.eta(), comparison.domain(),
                  {model.velocityU(), model.velocityV()});
    eta_[model.id()].push_back({comparison.time(), eta});
    if (const FloatingBodies* bodies = comparison.bodies(k)) {
      const std::string name = frameName("bodies", comparison.frame()) + ".vtp";
      writeVtpBodies(folder / name, bodies->bodies(), bodies->boxSize());
      bodies_[model.id()].push_back({comparison.time(), name});
    }
  }
}

void ParaViewSeries::finish() const {
  for (const auto& [id, entries] : eta_)
    writePvdIndex(dir_ / id / "eta.pvd", entries);
  for (const auto& [id, entries] : bodies_)
    writePvdIndex(dir_ / id / "bodies.pvd", entries);
}

}  // namespace wb
