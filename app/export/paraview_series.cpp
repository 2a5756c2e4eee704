#include "app/export/paraview_series.hpp"

#include <cstdio>

#include "core/scenario/field_io.hpp"

namespace wb {
namespace fs = std::filesystem;

std::vector<RigidBodyFrame> ParaViewSeries::rigidBodyFrames(const RigidBodies& bodies) {
  meshes_.clear();
  meshes_.reserve(bodies.size());
  std::vector<RigidBodyFrame> frames;
  for (const RigidBody& body : bodies.bodies()) {
    meshes_.push_back(meshOf(*body.geometry));
    const auto& q = body.orientation;
    frames.push_back({&meshes_.back(),
                      body.id,
                      {body.position.x(), body.position.y(), body.position.z()},
                      {q.w(), q.x(), q.y(), q.z()},
                      {body.velocity.x(), body.velocity.y(), body.velocity.z()},
                      body.displacedVolume});
  }
  return frames;
}

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
    if (const RigidBodies* rigid = comparison.rigidBodies(k)) {
      const std::string name = frameName("bodies", comparison.frame()) + ".vtp";
      writeVtpRigidBodies(folder / name, rigidBodyFrames(*rigid));
      bodies_[model.id()].push_back({comparison.time(), name});
    }
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

std::vector<fs::path> ParaViewSeries::files() const {
  std::vector<fs::path> files;
  for (const auto* series : {&eta_, &bodies_})
    for (const auto& [id, entries] : *series) {
      files.push_back(dir_ / id / (series == &eta_ ? "eta.pvd" : "bodies.pvd"));
      for (const auto& entry : entries)
        files.push_back(dir_ / id / entry.file);
    }
  return files;
}

}  // namespace wb
