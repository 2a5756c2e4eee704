// ParaView-readable output, written with VTK's XML writers:
// - one image (.vti) per frame and model: eta, the rest depth and the wet mask as point scalars
//   and, where the model has one, its depth-averaged velocity as a 3-component point vector
//   (u, v, 0), so that ParaView's glyphs and stream tracers work on it;
// - one poly data (.vtp) per frame and model with the floating bodies as points (position,
//   velocity, id) and a vertex cell each;
// - one poly data (.vtp) per frame and model with the buoyant rigid bodies as their surface
//   meshes placed in the world, each triangle carrying its body's id, orientation (a unit
//   quaternion), velocity and displaced volume;
// - a .pvd collection per series whose timesteps are simulated seconds.
// Every file is written to a temporary beside it and renamed into place: a reader never sees a
// partial file and a failure leaves nothing behind.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "core/forcing/body_shapes.hpp"
#include "core/forcing/floating_bodies.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/measure/max_map.hpp"

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

// Writes a model's maximum maps (core/measure/max_map.hpp) as point arrays eta_max, depth_max
// and arrival_time (NaN where never wet or nothing arrived), with rest_depth and wet as in a
// frame, on the frame's points. Throws InputError.
void writeVtiMaxMap(const std::filesystem::path& file, const MaxMap& map, const Domain& domain);

// Writes the bodies (centre x, y at the surface height z) to `file`. Throws InputError.
void writeVtpBodies(const std::filesystem::path& file, const std::vector<FloatingBody>& bodies,
                    double boxSize);

// A shape in its body's frame (m, the body's centre at the origin): vertices and triangles,
// counter-clockwise seen from outside.
struct BodyMesh {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 3>> triangles;
};
// A box of these edges, centred.
BodyMesh boxMesh(double lx, double ly, double lz);
// A buoyant body's shape (core/forcing/body_shapes.hpp) as a mesh.
BodyMesh meshOf(const BodyGeometry& geometry);

// One rigid body at one time.
struct RigidBodyFrame {
  const BodyMesh* mesh = nullptr;
  int id = 0;
  std::array<double, 3> centre{};                   // m
  std::array<double, 4> orientation{1.0, 0, 0, 0};  // unit quaternion (w, x, y, z)
  std::array<double, 3> velocity{};                 // m/s, of the centre
  double displacedVolume = 0.0;                     // m^3
};
// The rotation of the unit quaternion q (w, x, y, z) applied to v.
std::array<double, 3> rotate(const std::array<double, 4>& q, const std::array<double, 3>& v);

// Writes the bodies' meshes, moved to their poses, to `file`. Throws InputError.
void writeVtpRigidBodies(const std::filesystem::path& file,
                         const std::vector<RigidBodyFrame>& bodies);

struct PvdEntry {
  double time;       // simulated seconds
  std::string file;  // relative to the .pvd
};
// The pieces of a .pvd collection, written entry by entry (ParaViewSeries).
std::string pvdHeader();
std::string pvdEntry(const PvdEntry& entry);
std::string pvdTrailer();

}  // namespace wb
