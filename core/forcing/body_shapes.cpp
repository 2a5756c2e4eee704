#include "core/forcing/body_shapes.hpp"

#include <Eigen/Geometry>

namespace wb {
namespace {

using Eigen::Vector3d;

// Splits the triangle (a, b, c) into n^2 similar triangles (n parts along each edge).
void subdivide(const Vector3d& a, const Vector3d& b, const Vector3d& c, int n,
               std::vector<BodyPatch>& out) {
  const Vector3d normal = (b - a).cross(c - a).normalized();
  const auto at = [&](int i, int j) {  // barycentric lattice point i/n along ab, j/n along ac
    return Vector3d(a + (b - a) * (double(i) / n) + (c - a) * (double(j) / n));
  };
  const auto add = [&](const Vector3d& p, const Vector3d& q, const Vector3d& r) {
    out.push_back({{p, q, r}, normal, 0.5 * (q - p).cross(r - p).norm()});
  };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i + j < n; ++i) {
      add(at(i, j), at(i + 1, j), at(i, j + 1));
      if (i + j + 1 < n) add(at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
    }
}

// Fills patches, volume, inertia and extent of a mesh whose centre of mass is at the origin.
BodyGeometry finish(std::vector<Vector3d> vertices, std::vector<std::array<int, 3>> triangles,
                    int subdivision) {
  const MassProperties mass = massProperties(vertices, triangles);
  for (auto& v : vertices)
    v -= mass.centre;
  BodyGeometry g;
  g.volume = mass.volume;
  g.unitInertia = mass.unitInertia;
  for (const auto& v : vertices)
    g.halfExtent = g.halfExtent.cwiseMax(v.cwiseAbs());
  for (const auto& t : triangles)
    subdivide(vertices[t[0]], vertices[t[1]], vertices[t[2]], subdivision, g.patches);
  g.vertices = std::move(vertices);
  g.triangles = std::move(triangles);
  return g;
}

// A prism over the convex plan outline (counter-clockwise seen from above) from z0 to z1,
// its caps fanned from the outline's first point.
void prism(const std::vector<Eigen::Vector2d>& outline, double z0, double z1,
           std::vector<Vector3d>& vertices, std::vector<std::array<int, 3>>& triangles) {
  const int n = int(outline.size());
  for (const auto& p : outline)
    vertices.emplace_back(p.x(), p.y(), z0);
  for (const auto& p : outline)
    vertices.emplace_back(p.x(), p.y(), z1);
  for (int k = 1; k + 1 < n; ++k) {
    triangles.push_back({0, k + 1, k});          // bottom, facing down
    triangles.push_back({n, n + k, n + k + 1});  // top, facing up
  }
  for (int k = 0; k < n; ++k) {
    const int next = (k + 1) % n;
    triangles.push_back({k, next, n + next});
    triangles.push_back({k, n + next, n + k});
  }
}

}  // namespace

MassProperties massProperties(const std::vector<Vector3d>& vertices,
                              const std::vector<std::array<int, 3>>& triangles) {
  // Each triangle and the origin span a signed tetrahedron; its second moment about the origin
  // is det/120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c (Eberly 2002, eq. for C).
  MassProperties m;
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  Vector3d first = Vector3d::Zero();
  for (const auto& t : triangles) {
    const Vector3d &a = vertices[t[0]], &b = vertices[t[1]], &c = vertices[t[2]];
    const double det = a.dot(b.cross(c));
    const Vector3d s = a + b + c;
    m.volume += det / 6.0;
    first += det / 24.0 * s;
    second += det / 120.0 *
              (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  m.centre = first / m.volume;
  const Eigen::Matrix3d aboutCentre = second - m.volume * m.centre * m.centre.transpose();
  m.unitInertia = aboutCentre.trace() * Eigen::Matrix3d::Identity() - aboutCentre;
  return m;
}

BodyGeometry boxGeometry(const Vector3d& size, int subdivision) {
  const Vector3d h = size / 2;
  const std::vector<Eigen::Vector2d> outline{
      {-h.x(), -h.y()}, {h.x(), -h.y()}, {h.x(), h.y()}, {-h.x(), h.y()}};
  std::vector<Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
  prism(outline, -h.z(), h.z(), vertices, triangles);
  return finish(std::move(vertices), std::move(triangles), subdivision);
}

BodyGeometry hullGeometry(const Vector3d& size, int subdivision) {
  const double stern = -size.x() / 2, shoulder = size.x() / 6, bow = size.x() / 2;
  const double half = size.y() / 2;
  const std::vector<Eigen::Vector2d> outline{
      {stern, -half}, {shoulder, -half}, {bow, 0.0}, {shoulder, half}, {stern, half}};
  std::vector<Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
  prism(outline, -size.z() / 2, size.z() / 2, vertices, triangles);
  return finish(std::move(vertices), std::move(triangles), subdivision);
}

}  // namespace wb
