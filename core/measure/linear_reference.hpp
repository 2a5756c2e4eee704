// The exact linear solution on a flat walled rectangle (the scenario reference "linear",
// docs/scenario.md): the field fft-ocean's basin computes (models/fft_ocean, docs/fft-ocean.md),
// in double precision, for any initial surface and the drops (scheduled and rain) at their
// times. With walls on every side the modes that carry no flow through them are
//   eta(x, y, t) = sum_mn a_mn(t) cos(kx x) cos(ky y),  kx = pi m / Lx,  ky = pi n / Ly,
// on the cell-centred grid the 2-D DCT-II / DCT-III pair (FFTW REDFT10 forward, REDFT01
// inverse). A surface delta added at rest at time te adds to each mode
//   delta_mn cos(omega (t - te)) = delta_mn (cos(omega te) cos(omega t) + sin(omega te) sin(omega
//   t)),
// so the state is the pair (A, B) of a = A cos(omega t) + B sin(omega t): every phase is omega t
// from the simulated time, exact at any t. The dispersion is linear water waves of depth d,
//   omega^2 = g k tanh(k d)                  (finite-depth, fft-ocean's; default)
//   omega = sqrt(g d) k                      (shallow-water, the limit the wave models solve).
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "core/grid/field2d.hpp"

namespace wb {

class LinearReference {
 public:
  enum class Dispersion { FiniteDepth, ShallowWater };
  // Lx = nx dx, Ly = ny dx; eta0 the surface at t = 0 (cell centres).
  LinearReference(int nx, int ny, double dx, double g, double depth, Dispersion dispersion,
                  const Field2D& eta0);
  ~LinearReference();
  LinearReference(const LinearReference&) = delete;
  LinearReference& operator=(const LinearReference&) = delete;

  // Adds a surface change made at rest at time te (a drop). Changes must come in time order;
  // the surface is answered for any time from the last change before the current frame on.
  void add(const Field2D& delta, double te);
  // Forgets the changes no time before `t` can need (all but the last at or before t).
  void forgetBefore(double t);
  // The surface at the cell centres at time t (computed once per time asked; thread-safe).
  std::shared_ptr<const Field2D> surface(double t) const;
  double omega(int m, int n) const { return omega_[std::size_t(n) * nx_ + m]; }

 private:
  struct State {
    double since = 0.0;  // the time of the last change it holds
    std::vector<double> cosine, sine;
  };
  const State& stateAt(double t) const;
  std::vector<double> transform(const Field2D& field) const;

  int nx_, ny_;
  std::vector<double> omega_;
  std::vector<State> states_;  // in time order; the last is the present
  struct Plans;
  std::unique_ptr<Plans> plans_;
  mutable std::mutex cacheMutex_;
  mutable double cachedTime_ = -1.0;
  mutable std::shared_ptr<const Field2D> cached_;
};

}  // namespace wb
