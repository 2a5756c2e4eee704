#include "core/wave_energy.hpp"

namespace wb {

namespace {
// The energy is taken from the variational form, whose error is quadratic in the potential's:
// a 1e-3 relative residual keeps it to about 1e-6 relative.
constexpr double kPotentialTolerance = 1e-3;
constexpr int kPotentialMaxIterations = 200;
}  // namespace

double WaveKineticEnergy::compute(const WetStencil& stencil, const Domain& domain, bool singular,
                                  double c, const Field2D& h, const Field2D& hOld, double dt) {
  if (!potential_.sameShape(h)) {
    potential_ = Field2D(h.nx(), h.ny());
    rhs_ = Field2D(h.nx(), h.ny());
    product_ = Field2D(h.nx(), h.ny());
  }
  const auto& wet = domain.wetMask();
  const double dx = domain.grid().dx, depth = c * c / domain.g();
  // -L phi = dx^2 / (d dt) (h^n - h^{n-1})
  const float scale = float(dx * dx / (depth * dt));
  for (std::size_t k = 0; k < wet.size(); ++k)
    rhs_.data()[k] = wet[k] ? scale * (h.data()[k] - hOld.data()[k]) : 0.0f;
  prepare(domain, singular);
  const std::size_t cells = wet.size();
  const auto negativeLaplacian = [&](const double* in, double* out) {
    stencil.apply(in, out);
    for (std::size_t k = 0; k < cells; ++k)
      out[k] = wet[k] ? -out[k] : 0.0;
  };
  lastSolve_ = solver_.solve(negativeLaplacian, rhs_, potential_, kPotentialTolerance,
                             kPotentialMaxIterations, singular);
  // 1/2 d phi.b = d max J, J(p) = p.b - 1/2 p.A p: CG's iterate p is off by e in phi, J by
  // only 1/2 e.A e.
  stencil.apply(potential_, product_);
  double variational = 0.0, mixed = 0.0;
  for (std::size_t k = 0; k < wet.size(); ++k) {
    if (!wet[k]) continue;
    const double p = potential_.data()[k];
    variational += p * rhs_.data()[k] + 0.5 * p * product_.data()[k];  // A p = -L p
    mixed += double(h.data()[k]) * (double(h.data()[k]) - hOld.data()[k]);
  }
  return depth * variational - 0.5 * domain.g() * mixed * domain.grid().cellArea();
}

// The preconditioner: -dx^2 lap with the same walls on the 5-point stencil. Zero walls hold a
// missing neighbour at 0, which adds its weight to the diagonal: a shift per cell.
void WaveKineticEnergy::prepare(const Domain& domain, bool singular) {
  if (solver_.multigrid().ready() && preparedSingular_ == singular &&
      preparedMask_ == domain.wetMask())
    return;
  FivePointSystem system =
      FivePointSystem::fromMask(domain.nx(), domain.ny(), domain.wetMask(), 0.0f);
  if (!singular)
    for (int j = 0; j < domain.ny(); ++j)
      for (int i = 0; i < domain.nx(); ++i) {
        if (!domain.isWet(i, j)) continue;
        const int missing = !domain.isWetOrOutside(i - 1, j) + !domain.isWetOrOutside(i + 1, j) +
                            !domain.isWetOrOutside(i, j - 1) + !domain.isWetOrOutside(i, j + 1);
        system.shift(i, j) = float(missing);
      }
  solver_.setup(system);
  preparedMask_ = domain.wetMask();
  preparedSingular_ = singular;
}

}  // namespace wb
