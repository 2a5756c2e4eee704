#include "core/wave_energy.hpp"

namespace wb {

namespace {
// The potential only feeds a diagnostic: 1e-5 keeps the energy to ~1e-5 relative.
constexpr double kPotentialTolerance = 1e-5;
constexpr int kPotentialMaxIterations = 2000;
}  // namespace

double WaveKineticEnergy::compute(const WetStencil& stencil, const Domain& domain, bool singular,
                                  double c, const Field2D& h, const Field2D& hOld, double dt) {
  if (!potential_.sameShape(h)) {
    potential_ = Field2D(h.nx(), h.ny());
    rhs_ = Field2D(h.nx(), h.ny());
  }
  const auto& wet = domain.wetMask();
  const double dx = domain.grid().dx, depth = c * c / domain.g();
  // -L phi = dx^2 / (d dt) (h^n - h^{n-1})
  const float scale = float(dx * dx / (depth * dt));
  for (std::size_t k = 0; k < wet.size(); ++k)
    rhs_.data()[k] = wet[k] ? scale * (h.data()[k] - hOld.data()[k]) : 0.0f;
  const auto negativeLaplacian = [&](const Field2D& in, Field2D& out) {
    stencil.apply(in, out);
    for (std::size_t k = 0; k < out.size(); ++k)
      out.data()[k] = wet[k] ? -out.data()[k] : 0.0f;
  };
  lastSolve_ = solver_.solve(negativeLaplacian, rhs_, potential_, wet, kPotentialTolerance,
                             kPotentialMaxIterations, singular);
  double flow = 0.0, mixed = 0.0;
  for (std::size_t k = 0; k < wet.size(); ++k) {
    if (!wet[k]) continue;
    const double change = double(h.data()[k]) - hOld.data()[k];
    flow += double(potential_.data()[k]) * change;
    mixed += double(h.data()[k]) * change;
  }
  return 0.5 * dx * dx / dt * flow - 0.5 * domain.g() * mixed * domain.grid().cellArea();
}

}  // namespace wb
