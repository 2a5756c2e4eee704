// The water a body pushes aside (core/forcing/rigid_bodies.hpp, "Water from the body"):
// Jensen & Golias feed "the change in depth of the floating object between the last and
// current frame ... back to the water surface as direct displacement". Per cell under a body
// the immersion is the part of the vertical line through the cell's centre that lies inside
// the body and below the water; its change c since the last stamp is spread over the cell and
// its neighbours within kSpreadCells (weights (1 - r^2/R^2)^2 on wet cells, normalised), so
// water rises where the body arrives and falls where it leaves: a falling box's splash ring
// and a moving hull's bow wave and stern trough. The grid's sum of c differs from the body's
// exact change of displaced volume by the footprint's quadrature error; that remainder goes
// into a smooth bump over the footprint, so the water's volume rises by exactly the change.
#include <algorithm>
#include <cmath>

#include "core/forcing/rigid_bodies.hpp"

namespace wb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

constexpr double kSpreadCells = 2.5;

struct CellRange {
  int i0, i1, j0, j1;
};
CellRange cellsAround(const Grid& grid, const Vector3d& centre, double reach) {
  return {std::max(0, int(std::floor((centre.x() - reach) / grid.dx))),
          std::min(grid.nx - 1, int(std::floor((centre.x() + reach) / grid.dx))),
          std::max(0, int(std::floor((centre.y() - reach) / grid.dx))),
          std::min(grid.ny - 1, int(std::floor((centre.y() + reach) / grid.dx)))};
}

// The lowest and highest z where the vertical line through (x, y) meets the body's triangles
// (world corners); false when it misses the body.
bool verticalSpan(const std::vector<std::array<Vector3d, 3>>& triangles, double x, double y,
                  double& low, double& high) {
  bool hit = false;
  for (const auto& t : triangles) {
    const double ax = t[1].x() - t[0].x(), ay = t[1].y() - t[0].y();
    const double bx = t[2].x() - t[0].x(), by = t[2].y() - t[0].y();
    const double det = ax * by - ay * bx;
    if (std::fabs(det) < 1e-14) continue;  // seen edge-on from above
    const double px = x - t[0].x(), py = y - t[0].y();
    const double u = (px * by - py * bx) / det, v = (ax * py - ay * px) / det;
    if (u < 0.0 || v < 0.0 || u + v > 1.0) continue;
    const double z = t[0].z() + u * (t[1].z() - t[0].z()) + v * (t[2].z() - t[0].z());
    low = hit ? std::min(low, z) : z;
    high = hit ? std::max(high, z) : z;
    hit = true;
  }
  return hit;
}

}  // namespace

RigidBodies::Immersion RigidBodies::immersionOf(const RigidBody& body, const Field2D& eta) const {
  const Grid& grid = domain_->grid();
  const Matrix3d rotation = body.orientation.toRotationMatrix();
  std::vector<std::array<Vector3d, 3>> triangles;
  for (const auto& t : body.geometry->triangles)
    triangles.push_back({rotation * body.geometry->vertices[t[0]] + body.position,
                         rotation * body.geometry->vertices[t[1]] + body.position,
                         rotation * body.geometry->vertices[t[2]] + body.position});
  Immersion out;
  const CellRange r = cellsAround(grid, body.position, body.geometry->halfExtent.norm());
  for (int j = r.j0; j <= r.j1; ++j)
    for (int i = r.i0; i <= r.i1; ++i) {
      double low = 0.0, high = 0.0;
      if (!domain_->isWet(i, j) || !verticalSpan(triangles, grid.x(i), grid.y(j), low, high))
        continue;
      const double depth = std::min(double(eta(i, j)), high) - low;
      if (depth > 0.0) out.push_back({eta.index(i, j), float(depth)});
    }
  return out;
}

// Adds `volume` (m^3) to `delta` as the bump (1 - r^2/R^2)^2 over the wet cells within R of
// `centre`, normalised; false when no wet cell is there.
bool RigidBodies::addBump(Field2D& delta, const Vector3d& centre, double radius,
                          double volume) const {
  const Grid& grid = domain_->grid();
  const CellRange r = cellsAround(grid, centre, radius);
  const auto weight = [&](int i, int j) {
    if (!domain_->isWet(i, j)) return 0.0;
    const double r2 = (std::pow(grid.x(i) - centre.x(), 2) + std::pow(grid.y(j) - centre.y(), 2)) /
                      (radius * radius);
    return r2 < 1.0 ? (1.0 - r2) * (1.0 - r2) : 0.0;
  };
  double total = 0.0;
  for (int j = r.j0; j <= r.j1; ++j)
    for (int i = r.i0; i <= r.i1; ++i)
      total += weight(i, j);
  if (total <= 0.0) return false;
  const double scale = volume / (total * grid.cellArea());
  for (int j = r.j0; j <= r.j1; ++j)
    for (int i = r.i0; i <= r.i1; ++i)
      if (const double w = weight(i, j); w > 0.0) delta(i, j) += float(scale * w);
  return true;
}

void RigidBodies::stampDisplacement(Field2D& delta, const Field2D& eta) {
  const Grid& grid = domain_->grid();
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const RigidBody& body = bodies_[k];
    const double change = body.displacedVolume - stampedVolume_[k];
    Immersion now = immersionOf(body, eta);
    const double spreadRadius =
        std::max(kSpreadCells * grid.dx,
                 0.5 * std::min(body.geometry->halfExtent.x(), body.geometry->halfExtent.y()));
    // c = now - before over the union of both (each sorted by cell index); its mean over the
    // union (the body's heave) goes into the bump below with the rest of the change, only the
    // zero-sum part (the footprint moving or tilting) is spread where it happened.
    std::vector<std::pair<std::size_t, double>> changes;
    const Immersion& before = immersion_[k];
    std::size_t a = 0, b = 0;
    while (a < now.size() || b < before.size()) {
      if (b == before.size() || (a < now.size() && now[a].cell < before[b].cell)) {
        changes.push_back({now[a].cell, now[a].depth}), ++a;
      } else if (a == now.size() || before[b].cell < now[a].cell) {
        changes.push_back({before[b].cell, -double(before[b].depth)}), ++b;
      } else {
        changes.push_back({now[a].cell, double(now[a].depth) - before[b].depth}), ++a, ++b;
      }
    }
    double mean = 0.0;
    for (const auto& [cell, c] : changes)
      mean += c;
    if (!changes.empty()) mean /= double(changes.size());
    double spread = 0.0;
    for (const auto& [cell, c] : changes) {
      const int ci = int(cell % std::size_t(grid.nx)), cj = int(cell / std::size_t(grid.nx));
      const Vector3d centre(grid.x(ci), grid.y(cj), 0.0);
      if (c != mean && addBump(delta, centre, spreadRadius, (c - mean) * grid.cellArea()))
        spread += (c - mean) * grid.cellArea();
    }
    const double radius =
        std::hypot(body.geometry->halfExtent.x(), body.geometry->halfExtent.y()) + 2.0 * grid.dx;
    if (!addBump(delta, body.position, radius, change - spread)) continue;
    stampedVolume_[k] = body.displacedVolume;
    immersion_[k] = std::move(now);
  }
}

}  // namespace wb
