#include "core/forcing/body_shapes.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "core/errors.hpp"

namespace wb {
namespace {

using Eigen::Vector3d;

// Splits the triangle (a, b, c) into n^2 similar triangles (n parts along each edge).
void subdivide(const Vector3d& a, const Vector3d& b, const Vector3d& c, int n,
               std::vector<BodyPatch>& out) {
  const Vector3d cross = (b - a).cross(c - a);
  if (!(cross.norm() > 0.0)) return;  // a degenerate triangle of a mesh: no surface
  const Vector3d normal = cross.normalized();
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

// The tokens of one OBJ line, split at blanks.
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t k = 0;
  while (k < line.size()) {
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r'))
      ++k;
    const std::size_t start = k;
    while (k < line.size() && line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
      ++k;
    if (k > start) out.push_back(line.substr(start, k - start));
  }
  return out;
}

// 'token', built by appending (GCC 12 warns falsely of an overlapping copy in "'" + string),
// with control bytes written as \xNN: a NUL in a file would end the message where it is
// printed as a C string, and a carriage return would overwrite it on a terminal.
std::string quoted(std::string_view token) {
  std::string out(1, '\'');
  for (const char c : token) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
      out.push_back(c);
      continue;
    }
    char escape[8];
    std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(c));
    out += escape;
  }
  out.push_back('\'');
  return out;
}

// A body is one closed surface: the triangles, joined across their edges, form one piece.
// Two shells (two hulls not joined, or a hull with a separate cabin) would pass checkClosed,
// and overlapping ones count the water they share twice.
void checkOneShell(const std::vector<std::array<int, 3>>& triangles, std::size_t vertexCount,
                   const std::string& where) {
  std::vector<int> parent(vertexCount);
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& t : triangles)
    for (int e = 1; e < 3; ++e)
      parent[root(t[e])] = root(t[0]);
  std::set<int> shells;
  for (const auto& t : triangles)
    shells.insert(root(t[0]));
  if (shells.size() > 1)
    throw InputError(where + ": " + std::to_string(shells.size()) +
                     " separate closed surfaces; a body is one (join them into one shell)");
}

// Each directed edge of a closed, consistently wound surface is used by exactly one triangle
// and its reverse by exactly one other.
void checkClosed(const std::vector<std::array<int, 3>>& triangles, const std::string& where) {
  std::map<std::pair<int, int>, int> uses;
  for (const auto& t : triangles)
    for (int e = 0; e < 3; ++e)
      ++uses[{t[e], t[(e + 1) % 3]}];
  for (const auto& [edge, count] : uses) {
    const auto reverse = uses.find({edge.second, edge.first});
    const bool hole = count == 1 && reverse == uses.end();
    if (hole || count != 1 || reverse == uses.end() || reverse->second != 1)
      throw InputError(where + ": not a closed surface wound one way: the edge between vertices " +
                       std::to_string(edge.first + 1) + " and " + std::to_string(edge.second + 1) +
                       (hole ? " belongs to one face only (a hole)"
                             : " is shared wrongly (faces wound opposite ways, or more than two "
                               "faces on it)"));
  }
}

}  // namespace

Eigen::Vector3d TriangleMesh::extent() const {
  Vector3d lo = Vector3d::Constant(HUGE_VAL), hi = -lo;
  for (const auto& v : vertices)
    lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  return vertices.empty() ? Vector3d::Zero() : Vector3d(hi - lo);
}

double TriangleMesh::longestEdge() const {
  double longest = 0.0;
  for (const auto& t : triangles)
    for (int e = 0; e < 3; ++e)
      longest = std::max(longest, (vertices[t[e]] - vertices[t[(e + 1) % 3]]).norm());
  return longest;
}

TriangleMesh parseObjMesh(std::string_view text, const std::string& where, char upAxis) {
  TriangleMesh mesh;
  std::vector<int> merged;  // file vertex -> merged vertex
  std::map<std::array<double, 3>, int> byPosition;
  int lineNumber = 0;
  const auto fail = [&](const std::string& why) {
    throw InputError(where + ":" + std::to_string(lineNumber) + ": " + why);
  };
  const auto number = [&](std::string_view token) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
      fail(quoted(token) + " is not a finite number");
    return value;
  };
  while (!text.empty()) {
    ++lineNumber;
    const std::size_t end = std::min(text.find('\n'), text.size());
    const auto line = tokens(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
    if (line.empty()) continue;
    if (line[0] == "v") {
      if (line.size() < 4) fail("a vertex needs x y z");
      Vector3d p(number(line[1]), number(line[2]), number(line[3]));
      if (upAxis == 'y') p = Vector3d(p.x(), -p.z(), p.y());
      const auto [at, added] =
          byPosition.try_emplace({p.x(), p.y(), p.z()}, int(mesh.vertices.size()));
      if (added) mesh.vertices.push_back(p);
      merged.push_back(at->second);
    } else if (line[0] == "f") {
      if (line.size() < 4) fail("a face needs at least three vertices");
      std::vector<int> face;
      for (std::size_t k = 1; k < line.size(); ++k) {
        const std::string_view index = line[k].substr(0, line[k].find('/'));
        long value = 0;
        const auto [stop, error] =
            std::from_chars(index.data(), index.data() + index.size(), value);
        if (error != std::errc() || stop != index.data() + index.size() || value == 0)
          fail(quoted(line[k]) + " is not a vertex index");
        const long count = long(merged.size());
        const long zeroBased = value > 0 ? value - 1 : count + value;
        if (zeroBased < 0 || zeroBased >= count)
          fail("vertex " + std::to_string(value) + " is not defined above this face");
        face.push_back(merged[std::size_t(zeroBased)]);
      }
      for (std::size_t k = 1; k + 1 < face.size(); ++k) {
        if (face[0] == face[k] || face[k] == face[k + 1] || face[0] == face[k + 1])
          fail("a face uses the same vertex twice");
        mesh.triangles.push_back({face[0], face[k], face[k + 1]});
      }
      if (mesh.triangles.size() > std::size_t(kMaxMeshTriangles))
        fail("more than " + std::to_string(kMaxMeshTriangles) + " triangles");
    }
  }
  const auto failMesh = [&](const std::string& why) { throw InputError(where + ": " + why); };
  if (mesh.triangles.size() < 4) failMesh("needs a closed surface of at least 4 triangles");
  checkClosed(mesh.triangles, where);
  checkOneShell(mesh.triangles, mesh.vertices.size(), where);
  const double volume = massProperties(mesh.vertices, mesh.triangles).volume;
  const Vector3d extent = mesh.extent();
  if (!(std::abs(volume) > 1e-9 * extent.prod()) || !(extent.minCoeff() > 0.0))
    failMesh("encloses no volume");
  if (volume < 0.0)  // wound inward: turn every face
    for (auto& t : mesh.triangles)
      std::swap(t[1], t[2]);
  // A surface that passes through itself can still be closed and enclose a net volume, but its
  // signed integrals are no solid's: the second moments C = int r r^T dV about the centre must
  // be positive definite (equivalently, the principal moments of inertia I = tr(C) 1 - C obey
  // I_a < I_b + I_c). Without it the body's rotation has a negative inertia and its dynamics
  // run away. C's definiteness survives the anisotropic scaling to `size` (C' = det S S C S^T),
  // so it is judged on the mesh scaled into the unit cube, where a far vertex (a spike 1e12 m
  // long) does not swamp the other axes' moments in the round-off.
  std::vector<Vector3d> unitCube;
  unitCube.reserve(mesh.vertices.size());
  Vector3d lowest = mesh.vertices.front();  // at least 4 triangles: not empty
  for (const Vector3d& v : mesh.vertices)
    lowest = lowest.cwiseMin(v);
  for (const Vector3d& v : mesh.vertices)
    unitCube.push_back((v - lowest).cwiseQuotient(extent));
  const Eigen::Matrix3d inertia = massProperties(unitCube, mesh.triangles).unitInertia;
  const Eigen::Matrix3d second = 0.5 * inertia.trace() * Eigen::Matrix3d::Identity() - inertia;
  const Vector3d moments = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(second).eigenvalues();
  if (!(moments.minCoeff() > 1e-9 * moments.cwiseAbs().maxCoeff()))
    failMesh("its surface passes through itself (the volume's second moments are not a solid's)");
  return mesh;
}

BodyGeometry meshGeometry(const TriangleMesh& mesh, const Vector3d& size, int subdivision) {
  const Vector3d scale = size.cwiseQuotient(mesh.extent());
  std::vector<Vector3d> vertices;
  vertices.reserve(mesh.vertices.size());
  for (const auto& v : mesh.vertices)
    vertices.push_back(v.cwiseProduct(scale));
  return finish(std::move(vertices), mesh.triangles, subdivision);
}

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
