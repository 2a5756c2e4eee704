// DIR/<model>/bodies.csv: the bodies on each model's water, one row per body per recorded
// frame: for buoyant bodies time,id,x,y,z,roll,pitch,yaw,vx,vy,vz,displaced_volume (m, degrees,
// m/s, m^3; z of the centre of mass above the rest level), for passive tracers time,id,x,y.
// Streamed to bodies.csv.tmp and renamed into place by finish(), so a
// reader never sees a partial file; an unfinished log removes its temporaries.
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/field_io.hpp"

namespace wb::cli {

class BodiesLog {
 public:
  BodiesLog(const std::filesystem::path& out, const Comparison& comparison) {
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      // Bodies thrown in later (the "body" excitation) make a buoyant log from the start.
      const bool rigid =
          comparison.rigidBodies(k) != nullptr || !comparison.scenario().excitations.bodies.empty();
      if (!rigid && !comparison.bodies(k)) continue;
      const auto dir = out / comparison.model(k).id();
      ensureWritableDirectory(dir);
      auto file = std::make_unique<File>(File{k, rigid, dir / "bodies.csv", {}});
      file->stream.open(temporary(file->path), std::ios::trunc);
      if (!file->stream) throw InputError(file->path.string() + ": cannot open for writing");
      file->stream.precision(9);
      file->stream << (rigid ? "time,id,x,y,z,roll,pitch,yaw,vx,vy,vz,displaced_volume\n"
                             : "time,id,x,y\n");
      files_.push_back(std::move(file));
    }
  }
  BodiesLog(const BodiesLog&) = delete;
  BodiesLog& operator=(const BodiesLog&) = delete;
  ~BodiesLog() {
    for (auto& file : files_) {
      file->stream.close();
      std::error_code ignored;
      std::filesystem::remove(temporary(file->path), ignored);
    }
  }

  void frame(const Comparison& comparison) {
    for (auto& file : files_) {
      if (comparison.failure(file->model)) continue;
      if (file->rigid) {
        writeRigid(*file, comparison);
        continue;
      }
      const auto& bodies = comparison.bodies(file->model)->bodies();
      for (std::size_t id = 0; id < bodies.size(); ++id)
        file->stream << comparison.time() << ',' << id << ',' << bodies[id].x << ',' << bodies[id].y
                     << '\n';
    }
  }

  void finish() {
    for (auto& file : files_) {
      file->stream.close();
      if (!file->stream) throw InputError(file->path.string() + ": write failed");
      std::error_code ec;
      std::filesystem::rename(temporary(file->path), file->path, ec);
      if (ec) throw InputError(file->path.string() + ": cannot rename into place: " + ec.message());
    }
    files_.clear();
  }

 private:
  struct File {
    std::size_t model;
    bool rigid;
    std::filesystem::path path;
    std::ofstream stream;
  };
  static void writeRigid(File& file, const Comparison& comparison) {
    constexpr double kDegree = 180.0 / 3.14159265358979323846;
    if (!comparison.rigidBodies(file.model)) return;
    for (const RigidBody& body : comparison.rigidBodies(file.model)->bodies()) {
      const Eigen::Vector3d angles = body.rollPitchYaw() * kDegree;
      file.stream << comparison.time() << ',' << body.id << ',' << body.position.x() << ','
                  << body.position.y() << ',' << body.position.z() << ',' << angles.x() << ','
                  << angles.y() << ',' << angles.z() << ',' << body.velocity.x() << ','
                  << body.velocity.y() << ',' << body.velocity.z() << ',' << body.displacedVolume
                  << '\n';
    }
  }
  static std::filesystem::path temporary(std::filesystem::path path) { return path += ".tmp"; }
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace wb::cli
