// DIR/<model>/bodies.csv: the bodies on each model's water, one row per body per recorded
// frame: for buoyant bodies time,id,x,y,z,roll,pitch,yaw,vx,vy,vz,displaced_volume (m, degrees,
// m/s, m^3; z of the centre of mass above the rest level), for passive tracers time,id,x,y.
// Streamed to bodies.csv.tmp a whole frame at a time and renamed into place by finish(), so a
// reader never sees a partial file; an unfinished log removes its temporaries.
#pragma once

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/export/output_file.hpp"
#include "core/errors.hpp"
#include "core/run/comparison.hpp"
#include "core/run/tick_steps.hpp"
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
      auto file = std::make_unique<File>(k, rigid, dir / "bodies.csv");
      file->output.append(rigid ? "time,id,x,y,z,roll,pitch,yaw,vx,vy,vz,displaced_volume\n"
                                : "time,id,x,y\n");
      files_.push_back(std::move(file));
    }
  }

  // Appends the current frame's rows; throws WriteError (see dropFrame).
  void frame(const Comparison& comparison) {
    for (auto& file : files_) {
      file->output.beginFrame();
      if (comparison.failure(file->model)) continue;
      std::ostringstream rows;
      rows.precision(9);
      if (file->rigid)
        writeRigid(rows, file->model, comparison);
      else
        writeTracers(rows, file->model, comparison);
      file->output.append(rows.str());
    }
  }
  // Cuts every log back to its last whole frame (after a failed frame()).
  void dropFrame() {
    for (auto& file : files_)
      file->output.dropFrame();
  }

  // Renames the logs into place. Throws WriteError.
  void finish() {
    for (auto& file : files_)
      file->output.commit();
    files_.clear();
  }

 private:
  struct File {
    File(std::size_t model, bool rigid, std::filesystem::path path)
        : model(model), rigid(rigid), output(std::move(path)) {}
    std::size_t model;
    bool rigid;
    OutputFile output;
  };
  static void writeTracers(std::ostream& rows, std::size_t model, const Comparison& comparison) {
    const auto& bodies = comparison.bodies(model)->bodies();
    for (std::size_t id = 0; id < bodies.size(); ++id)
      rows << timeText(comparison.time()) << ',' << id << ',' << bodies[id].x << ',' << bodies[id].y
           << '\n';
  }
  static void writeRigid(std::ostream& rows, std::size_t model, const Comparison& comparison) {
    constexpr double kDegree = 180.0 / 3.14159265358979323846;
    if (!comparison.rigidBodies(model)) return;
    for (const RigidBody& body : comparison.rigidBodies(model)->bodies()) {
      const Eigen::Vector3d angles = body.rollPitchYaw() * kDegree;
      rows << timeText(comparison.time()) << ',' << body.id << ',' << body.position.x() << ','
           << body.position.y() << ',' << body.position.z() << ',' << angles.x() << ','
           << angles.y() << ',' << angles.z() << ',' << body.velocity.x() << ','
           << body.velocity.y() << ',' << body.velocity.z() << ',' << body.displacedVolume << '\n';
    }
  }
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace wb::cli
