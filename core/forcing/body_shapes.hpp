// The shapes of buoyant rigid bodies (core/forcing/rigid_bodies.hpp): a closed triangle mesh
// in the body's frame, its mass properties, and its tessellation into the small surface patches
// on which Jensen & Golias (2001, "Buoyant rigid objects") sample the water.
//
// Frame: the body's centre of mass at the origin, x forward (a hull's bow), y to port, z up.
// Triangles are counter-clockwise seen from outside, so (b - a) x (c - a) is the outward normal.
#pragma once

#include <array>
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
