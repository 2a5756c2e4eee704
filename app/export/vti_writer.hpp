// ParaView-readable output, written with VTK's XML writers:
// - one image (.vti) per frame and model: eta, the rest depth and the wet mask as point scalars
//   and, where the model has one, its depth-averaged velocity as a 3-component point vector
//   (u, v, 0), so that ParaView's glyphs and stream tracers work on it;
// - one poly data (.vtp) per frame and model with the floating bodies as points (position,
//   velocity, id) and a vertex cell each;
// - a .pvd collection per series whose timesteps are simulated seconds.
// Every file is written to a temporary beside it and renamed into place: a reader never sees a
// partial file and a failure leaves nothing behind.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/forcing/floating_bodies.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

// The model's velocity at the cell centres, when it has one (Model::velocityU/V).
struct VelocityFields {
  const Field2D* u = nullptr;
  const Field2D* v = nullptr;
  bool present() const { return u && v; }
};

// Writes eta on the domain's grid (cell centres as VTK points) to `file`. Throws InputError.
void writeVtiFrame(const std::filesystem::path& file, const Field2D& eta, const Domain& domain,
                   VelocityFields velocity = {});

// Writes the bodies (centre x, y at the surface height z) to `file`. Throws InputError.
void writeVtpBodies(const std::filesystem::path& file, const std::vector<FloatingBody>& bodies,
                    double boxSize);

struct PvdEntry {
  double time;       // simulated seconds
  std::string file;  // relative to the .pvd
};
void writePvdIndex(const std::filesystem::path& file, const std::vector<PvdEntry>& entries);

}  // namespace wb
