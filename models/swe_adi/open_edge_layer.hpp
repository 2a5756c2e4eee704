// swe-adi's open edges (docs/open-edges.md): the absorbing layer's relaxation of the surface
// and of the staggered face discharges, toward rest or toward the incoming long wave, with the
// rates following the discharges' change. Its cells are independent but for the rates, which a
// discharge's change reaches in two cells: the relaxation runs in two passes, each shared among
// threads, that add to every rate in the order a cell-by-cell sweep in row-major order would.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/grid/edges.hpp"

namespace wb {

class OpenEdgeLayer {
 public:
  OpenEdgeLayer() = default;  // no open edge: nothing to relax
  OpenEdgeLayer(const Domain& domain, double waveSpeed);

  bool empty() const { return layer_.empty(); }
  const AbsorbingLayer& layer() const { return layer_; }

  // SweAdi's fields the relaxation changes: the surface, its rate, the face discharges of the
  // east and north faces and their velocities, with the faces' depths.
  struct Fields {
    float* h;
    float* rate;
    float* qx;
    float* qy;
    float* u;
    float* v;
    const float* depthX;
    const float* depthY;
  };
  // The goals at the step's end: the incoming wave's surface and face discharges; all null
  // toward rest.
  struct Goals {
    const float* eta = nullptr;
    const float* qx = nullptr;
    const float* qy = nullptr;
  };
  // What becomes of the relaxed faces' velocities: relaxed with their discharges, q / D of
  // the relaxed discharges, or left (stale, computed anew when read).
  enum class Velocities { kRelax, kFromDischarges, kLeave };

  // h <- h* + (h - h*) / (1 + sigma dt) and each discharge q <- q* + (q - q*) / (1 + sigma_f dt)
  // at its own face's rate (Kass & Miller's staggered grid), hdot -= div(q_new - q_old).
  // Returns the change of sum(h) (m; times the cell area, the volume that left or entered).
  double relax(const Fields& fields, const Goals& goals, Velocities velocities, double dt,
               double invDx);

 private:
  // A cell whose rate the layer's discharges change: its own layer cell (the east and north
  // faces leave it) and the layer cells west and south of it (their faces enter it); -1 for
  // none.
  struct RateCell {
    std::uint32_t index;
    std::int32_t own, west, south;
  };
  void prepareKeep(double dt);
  double relaxCells(const Fields& fields, const Goals& goals, Velocities velocities,
                    std::size_t begin, std::size_t end, double dt);
  void followChanges(float* rate, double invDx, std::size_t begin, std::size_t end) const;

  AbsorbingLayer layer_;
  std::vector<RateCell> rateCells_;
  // Per layer cell, the keep factors 1 / (1 + sigma dt) of its east and north discharges at
  // keepDt_ (dt rarely changes, the divisions would every step), and the step's discharge
  // changes.
  std::vector<std::array<double, 2>> keep_;
  double keepDt_ = -1.0;
  std::vector<std::array<double, 2>> change_;
};

}  // namespace wb
