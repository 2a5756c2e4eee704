// swe-adi's bottom friction (core/model/manning_friction.hpp), an operator split after the
// ADI step and its discharge correction, on the face discharges where the velocities live.
#include <omp.h>

#include <algorithm>
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
//
// One pass over the rows: each thread sweeps its block of rows (schedule(static): one block per
// thread, in order) keeping the changes of the row and of the one before in its staging
// buffer, so the rates of a row follow while it is in cache. The first row of a block but the
// grid's first needs the north faces' changes of the row below it, which another thread
// computes: that row's rates wait for the barrier, its changes kept aside. The face velocities
// are left stale: only observers read them (the next step's discharges compute them anew), and
// faceVelocities and velocityAt compute them from the discharges where read.
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
  const float invDx = float(1.0 / domain_->grid().dx);
  const std::size_t width = std::size_t(nx);
  const int threads = std::min(omp_get_max_threads(), int(stages_.size()));
  double dissipated = 0.0;
#pragma omp parallel num_threads(threads) if (worthThreads(h_.size()))
  {
    float* stage = stages_[std::size_t(omp_get_thread_num())].data();
    float *changeX = stage, *changeY = stage + width, *changeSouth = stage + 2 * width;
    float *firstX = stage + 3 * width, *firstY = stage + 4 * width;
    int first = -1, last = -2;
#pragma omp for schedule(static) reduction(+ : dissipated)
    for (int j = 0; j < ny; ++j) {
      dissipated += frictionRow(in, fluxX_.data(), fluxY_.data(), changeX, changeY, h_.index(0, j),
                                width, j > 0, j + 1 < ny);
      if (j == 0 || last == j - 1) {
        followDischargeChangeRow(changeX, changeY, j > 0 ? changeSouth : nullptr, rate_.data(),
                                 invDx, h_.index(0, j), width);
      } else {
        std::copy(changeX, changeX + width, firstX);
        std::copy(changeY, changeY + width, firstY);
        first = j;
      }
      std::swap(changeY, changeSouth);
      blockEnd_[std::size_t(j)] = changeSouth;  // read only for a block's last row
      last = j;
    }
    if (first >= 0)
      followDischargeChangeRow(firstX, firstY, blockEnd_[std::size_t(first - 1)], rate_.data(),
                               invDx, h_.index(0, first), width);
  }
  frictionEnergy_ += dissipated * domain_->grid().cellArea();
  faceVelocitiesStale_ = cellVelocitiesStale_ = true;
}

}  // namespace wb
