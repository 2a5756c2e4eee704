// swe-adi's bottom friction (core/model/manning_friction.hpp), an operator split after the
// ADI step and its discharge correction, on the face discharges where the velocities live.
#include <cmath>

#include "core/grid/parallel.hpp"
#include "models/swe_adi/swe_adi.hpp"

namespace wb {

// Manning friction on each face that passes water, q = D_f u_f with the face depth D_f of the
// step held (the linearisation) and the speed |u| of the face: its own normal velocity and the
// mean of the four faces of the other direction around it (GeoClaw's and ANUGA's |u| is the
// speed, not the normal component):
//   q <- q / (1 + dt g n^2 |u| / D_f^{4/3})
// A face no deeper than dry_threshold stops (Kass & Miller's dry depth; nothing divides by a
// vanishing depth). The rate hdot = -div(q) moves with the discharges, as dampUnderBodies and
// the open edges' layer move it: the discharges' disagreement with the rate, which
// DischargeSync measures, is what it was, and each face's change leaves one cell and enters
// the other, so volume is kept. The surface feels the friction from the next step on, through
// hdot. Energy: each |q| shrinks, so the discharges' kinetic energy 1/2 sum D_f u_f^2 dA falls
// by exactly what friction_energy adds (docs/swe-adi.md, "Bottom friction"); the energy check
// of EnergyProjection concerns the ADI iterate only and runs before this.
void SweAdi::applyFriction(double dt) {
  if (!friction_.active()) return;
  faceVelocities(u_);  // the speeds of the step's end, read while the discharges change
  const int nx = h_.nx(), ny = h_.ny();
  const FrictionInputs in{u_.data(),
                          v_.data(),
                          faceDepthX_.data(),
                          faceDepthY_.data(),
                          float(friction_.gn2 * dt),
                          float(friction_.floor)};
  // The discharges' changes, in the step's scratch (free after the discharge correction):
  // the rates follow them in a second pass, since each face's change reaches two rows.
  float *changeX = work_.data(), *changeY = delta_.data();
  const float invDx = float(1.0 / domain_->grid().dx);
  double dissipated = 0.0;
#pragma omp parallel if (worthThreads(h_.size()))
  {
#pragma omp for schedule(static) reduction(+ : dissipated)
    for (int j = 0; j < ny; ++j)
      dissipated += frictionRow(in, fluxX_.data(), fluxY_.data(), changeX, changeY, h_.index(0, j),
                                std::size_t(nx), j > 0, j + 1 < ny);
      // With the rates, the face velocities of the slowed discharges while the row is in cache:
      // no later pass over the grid computes them again (the gauges read them every step).
#pragma omp for schedule(static)
    for (int j = 0; j < ny; ++j) {
      followDischargeChangeRow(changeX, changeY, rate_.data(), invDx, h_.index(0, j),
                               std::size_t(nx), j > 0);
      faceVelocityRow(fluxX_.data(), fluxY_.data(), faceDepthX_.data(), faceDepthY_.data(),
                      u_.data(), v_.data(), h_.index(0, j), std::size_t(nx), j + 1 < ny);
    }
  }
  frictionEnergy_ += dissipated * domain_->grid().cellArea();
  faceVelocitiesStale_ = false;
  cellVelocitiesStale_ = true;
}

}  // namespace wb
