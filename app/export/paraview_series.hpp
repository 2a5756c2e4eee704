// A ParaView series of a comparison, the one writer behind `wavebench-cli run --dump-every`
// and the workbench's frame export. Per model, in DIR/<model>/:
//   eta_NNNNN.vti     eta, rest_depth, wet and (where the model has one) velocity (u, v, 0)
//   bodies_NNNNN.vtp  the bodies on that model's water, when the scenario has any: buoyant
//                     bodies as their meshes at their poses, tracers as boxes
//   eta.pvd, bodies.pvd  the collections, timesteps in simulated seconds
// NNNNN is the comparison's frame number. Every file goes through a temporary and a rename, so
// an error leaves no partial file behind. The .pvd files grow in their temporaries, a whole
// document after every frame, and finish() renames them into place: after a failure (a full
// disk) they still list every frame written.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/export/output_file.hpp"
#include "app/export/vti_writer.hpp"
#include "core/run/comparison.hpp"

namespace wb {

class ParaViewSeries {
 public:
  // Creates DIR/<model>/ for every model; throws InputError naming a folder it cannot write.
  ParaViewSeries(const std::filesystem::path& dir, const Comparison& comparison);

  // Writes the comparison's current frame (models that blew up are skipped).
  void frame(const Comparison& comparison);
  // Puts the .pvd collections of everything written so far in place. Throws WriteError.
  void finish();
  // Every file frame() and finish() put in place so far (a run stopped on bad input removes
  // them).
  std::vector<std::filesystem::path> files() const;

  static std::string frameName(const char* prefix, int frame);

 private:
  // The buoyant bodies at their poses (their meshes kept in meshes_ until the next call).
  std::vector<RigidBodyFrame> rigidBodyFrames(const RigidBodies& bodies);

  std::vector<BodyMesh> meshes_;
  // Appends an entry to DIR/<model>/<name>, starting the collection at its first entry.
  void index(const std::string& model, const char* name, const PvdEntry& entry);

  std::filesystem::path dir_;
  std::map<std::filesystem::path, std::unique_ptr<OutputFile>> indexes_;
  std::vector<std::filesystem::path> files_;  // every frame's file written
};

}  // namespace wb
