// The shapes of buoyant rigid bodies (core/forcing/rigid_bodies.hpp): a closed triangle mesh
// in the body's frame, its mass properties, and its tessellation into the small surface patches
// on which Jensen & Golias (2001, "Buoyant rigid objects") sample the water.
//
// Frame: the body's centre of mass at the origin, x forward (a hull's bow), y to port, z up.
// Triangles are counter-clockwise seen from outside, so (b - a) x (c - a) is the outward normal.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace wb {

// One patch: a small planar triangle of the body's surface.
struct BodyPatch {
  std::array<Eigen::Vector3d, 3> corners;
  Eigen::Vector3d normal;  // outward, unit
  double area = 0.0;       // m^2
};

struct BodyGeometry {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
  std::vector<BodyPatch> patches;  // every triangle split into subdivision^2 patches
  double volume = 0.0;             // m^3
  // Inertia tensor about the centre of mass for unit density (m^5): times the density it is
  // the body's inertia (kg m^2).
  Eigen::Matrix3d unitInertia = Eigen::Matrix3d::Zero();
  Eigen::Vector3d halfExtent = Eigen::Vector3d::Zero();  // of the axis-aligned box around it
};

// A box of edges lx, ly, lz centred at the origin; its faces split into patches
// `subdivision` times along each triangle edge.
BodyGeometry boxGeometry(const Eigen::Vector3d& size, int subdivision);
// The built-in hull: length lx, beam ly, height lz; vertical sides, a flat bottom and deck, a
// parallel midbody over the aft two thirds and a bow tapering to a point (a punt with a
// pointed bow). Moved so its centre of mass is the origin.
BodyGeometry hullGeometry(const Eigen::Vector3d& size, int subdivision);

// A closed triangle mesh read from a file, in the body frame's axes (metres), wound outward.
struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
  Eigen::Vector3d extent() const;  // of the axis-aligned box around it
  double longestEdge() const;      // of its triangles (m)
};

// The most triangles a body's mesh may have: every triangle is at least one patch sampled in
// each body substep (docs/bodies.md, Cost).
inline constexpr int kMaxMeshTriangles = 20000;

// Reads a Wavefront OBJ: `v x y z` records and `f` records of three or more vertices (`i`,
// `i/t`, `i//n`, `i/t/n`, negative indices counting back), polygons fanned into triangles;
// other records (normals, texture coordinates, groups, materials) are ignored. Vertices at the
// same position are merged, since exporters split them at texture seams. upAxis 'y' reads a
// file whose up is +y (Blender's default OBJ export) by the rotation (x, y, z) -> (x, -z, y).
// Refused, with `where` and the line or edge in the message: no faces, an index out of range,
// more than kMaxMeshTriangles, a surface that is not closed and consistently wound (each edge
// used once in each direction), no enclosed volume. A mesh wound inward is turned outward.
TriangleMesh parseObjMesh(std::string_view text, const std::string& where, char upAxis);

// A mesh scaled along each axis so that its bounding box is `size`, then moved so that its
// centre of mass is the origin; every triangle split into subdivision^2 patches.
BodyGeometry meshGeometry(const TriangleMesh& mesh, const Eigen::Vector3d& size, int subdivision);

// Volume, centre of mass and unit-density inertia of a closed mesh by the divergence theorem
// (signed tetrahedra from the origin; Eberly, "Polyhedral mass properties", 2002).
struct MassProperties {
  double volume = 0.0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  Eigen::Matrix3d unitInertia = Eigen::Matrix3d::Zero();  // about the centre
};
MassProperties massProperties(const std::vector<Eigen::Vector3d>& vertices,
                              const std::vector<std::array<int, 3>>& triangles);

}  // namespace wb
