// swe-adi's bottom friction (core/model/manning_friction.hpp), an operator split after the
// ADI step and its discharge correction, on the face discharges where the velocities live.
#include <cmath>

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
  const std::size_t row = std::size_t(nx);
  const double invDx = 1.0 / domain_->grid().dx;
  const float *u = u_.data(), *v = v_.data();
  float *qx = fluxX_.data(), *qy = fluxY_.data(), *hdot = rate_.data();
  double dissipated = 0.0;
  // The mean of the four faces of the other direction around a face. The grid's edge faces
  // (the last column's east faces, the last row's north faces) are closed and hold velocity 0;
  // those below the first row are left out, as closed.
  const auto meanV = [&](int i, int j) {  // around the east face of (i, j)
    double sum = v[h_.index(i, j)] + v[h_.index(i + 1, j)];
    if (j > 0) sum += v[h_.index(i, j - 1)] + v[h_.index(i + 1, j - 1)];
    return 0.25 * sum;
  };
  const auto meanU = [&](int i, int j) {  // around the north face of (i, j)
    double sum = u[h_.index(i, j)] + u[h_.index(i, j + 1)];
    if (i > 0) sum += u[h_.index(i - 1, j)] + u[h_.index(i - 1, j + 1)];
    return 0.25 * sum;
  };
  // The face from cell k to cell `across` with discharge q, depth D, normal velocity un and
  // tangential velocity ut.
  const auto rub = [&](float& q, std::size_t k, std::size_t across, double depth, double un,
                       double ut) {
    if (q == 0.0f) return;
    const double keep = friction_.keep(std::hypot(un, ut), depth, dt);
    const double change = (keep - 1.0) * q;
    dissipated += 0.5 * depth * un * un * (1.0 - keep * keep);
    q = float(keep * q);
    hdot[k] = float(hdot[k] - change * invDx);
    hdot[across] = float(hdot[across] + change * invDx);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = h_.index(i, j);
      if (i + 1 < nx) rub(qx[k], k, k + 1, faceDepthX_.data()[k], u[k], meanV(i, j));
      if (j + 1 < ny) rub(qy[k], k, k + row, faceDepthY_.data()[k], v[k], meanU(i, j));
    }
  frictionEnergy_ += dissipated * domain_->grid().cellArea();
  faceVelocitiesStale_ = cellVelocitiesStale_ = true;
}

}  // namespace wb
