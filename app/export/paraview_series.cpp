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
    writeVtiFrame(folder / eta, comparison.surface(k), comparison.domain(),
                  {model.velocityU(), model.velocityV()});
    index(model.id(), "eta.pvd", {comparison.time(), eta});
    if (const RigidBodies* rigid = comparison.rigidBodies(k)) {
      const std::string name = frameName("bodies", comparison.frame()) + ".vtp";
      writeVtpRigidBodies(folder / name, rigidBodyFrames(*rigid));
      index(model.id(), "bodies.pvd", {comparison.time(), name});
    }
    if (const FloatingBodies* bodies = comparison.bodies(k)) {
      const std::string name = frameName("bodies", comparison.frame()) + ".vtp";
      writeVtpBodies(folder / name, bodies->bodies(), bodies->boxSize());
      index(model.id(), "bodies.pvd", {comparison.time(), name});
    }
  }
}

void ParaViewSeries::index(const std::string& model, const char* name, const PvdEntry& entry) {
  files_.push_back(dir_ / model / entry.file);
  auto& file = indexes_[dir_ / model / name];
  if (!file) {
    file = std::make_unique<OutputFile>(dir_ / model / name);
    file->append(pvdHeader());
    file->setTrailer(pvdTrailer());
  }
  file->append(pvdEntry(entry));
}

void ParaViewSeries::finish() {
  for (auto& [path, file] : indexes_) {
    file->commit();
    files_.push_back(path);
  }
  indexes_.clear();
}

std::vector<fs::path> ParaViewSeries::files() const {
  return files_;
}

}  // namespace wb
