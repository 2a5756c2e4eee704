#include "core/measure/references.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/grid/interpolation.hpp"

namespace wb {

DamBreak::DamBreak(double g, double hl, double hr, double x0) : g_(g), hl_(hl), hr_(hr), x0_(x0) {
  if (hr_ <= 0.0) return;
  const auto f = [&](double c) {
    return -8.0 * g_ * hr_ * c * c * std::pow(std::sqrt(g_ * hl_) - c, 2) +
           std::pow(c * c - g_ * hr_, 2) * (c * c + g_ * hr_);
  };
  double low = std::sqrt(g_ * hr_), high = std::sqrt(g_ * hl_);
  for (int k = 0; k < 100; ++k) {
    const double middle = 0.5 * (low + high);
    (f(low) < 0.0) == (f(middle) < 0.0) ? low = middle : high = middle;
  }
  cm_ = 0.5 * (low + high);
}

// The bore's speed from the middle state (SWASHES 4.1.1): 2 c_m^2 (c_l - c_m) / (c_m^2 - g hr);
// Ritter's front runs at 2 c_l.
double DamBreak::frontSpeed() const {
  const double cl = std::sqrt(g_ * hl_);
  if (hr_ <= 0.0) return 2.0 * cl;
  return 2.0 * cm_ * cm_ * (cl - cm_) / (cm_ * cm_ - g_ * hr_);
}

double DamBreak::front(double t) const {
  return x0_ + frontSpeed() * t;
}

// In the fan x / t = u - c with u + 2c = 2 c_l: c = (2 c_l - x / t) / 3.
double DamBreak::depth(double x, double t) const {
  const double cl = std::sqrt(g_ * hl_), xi = (x - x0_) / t;
  if (xi <= -cl) return hl_;
  const double fan = 4.0 / (9.0 * g_) * std::pow(cl - 0.5 * xi, 2);
  if (hr_ <= 0.0) return xi <= 2.0 * cl ? fan : 0.0;
  if (xi <= 2.0 * cl - 3.0 * cm_) return fan;
  return xi <= frontSpeed() ? middleDepth() : hr_;
}

// The fan's u = 2 (c_l + x / t) / 3; the middle state's u_m = 2 (c_l - c_m).
double DamBreak::velocity(double x, double t) const {
  const double cl = std::sqrt(g_ * hl_), xi = (x - x0_) / t;
  if (xi <= -cl) return 0.0;
  if (hr_ <= 0.0) return xi <= 2.0 * cl ? 2.0 / 3.0 * (cl + xi) : 0.0;
  if (xi <= 2.0 * cl - 3.0 * cm_) return 2.0 / 3.0 * (cl + xi);
  return xi <= frontSpeed() ? 2.0 * (cl - cm_) : 0.0;
}

double StandingMode::omega() const {
  return std::sqrt(g * depth) * std::numbers::pi * std::hypot(m / lx, n / ly);
}

double StandingMode::period() const {
  return 2.0 * std::numbers::pi / omega();
}

double StandingMode::eta(double x, double y, double t) const {
  const double pi = std::numbers::pi;
  return amplitude * std::cos(m * pi * x / lx) * std::cos(n * pi * y / ly) * std::cos(omega() * t);
}

double ThackerBowl::A() const {
  return (a * a - r0 * r0) / (a * a + r0 * r0);
}

double ThackerBowl::omega() const {
  return std::sqrt(8.0 * g * h0) / a;
}

double ThackerBowl::period() const {
  return 2.0 * std::numbers::pi / omega();
}

double ThackerBowl::restDepth(double x, double y) const {
  const double r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
  return h0 * (1.0 - r2 / (a * a));
}

double ThackerBowl::eta(double x, double y, double t) const {
  const double r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
  const double q = 1.0 - A() * std::cos(omega() * t), oneMinusA2 = 1.0 - A() * A();
  const double surface =
      h0 * (std::sqrt(oneMinusA2) / q - 1.0 - r2 / (a * a) * (oneMinusA2 / (q * q) - 1.0));
  return std::max(surface, -restDepth(x, y));
}

double ThackerBowl::radialVelocity(double x, double y, double t) const {
  if (eta(x, y, t) <= -restDepth(x, y)) return 0.0;
  const double r = std::hypot(x - cx, y - cy), q = 1.0 - A() * std::cos(omega() * t);
  return omega() * r * A() * std::sin(omega() * t) / (2.0 * q);
}

// The shoreline, eta = z, stands at r^2 = a^2 q / sqrt(1 - A^2), largest at q = 1 + |A|.
double ThackerBowl::maxShorelineRadius() const {
  return a * std::sqrt((1.0 + std::fabs(A())) / std::sqrt(1.0 - A() * A()));
}

const char* referenceKindName(ReferenceSpec::Kind kind) {
  switch (kind) {
    case ReferenceSpec::Kind::LakeAtRest:
      return "lake-at-rest";
    case ReferenceSpec::Kind::StandingMode:
      return "standing-mode";
    case ReferenceSpec::Kind::DamBreak:
      return "dam-break";
    case ReferenceSpec::Kind::Thacker:
      return "thacker";
    case ReferenceSpec::Kind::Linear:
      return "linear";
  }
  return "";
}

Reference::Reference(const ReferenceSpec& spec, const Domain& domain, const Field2D* eta0)
    : spec_(spec),
      g_(domain.g()),
      restDepth_(domain.maxWetDepth()),
      width_(domain.grid().width()),
      height_(domain.grid().height()),
      grid_(domain.grid()) {
  // Stoker's middle state is a bisection: solved once, not at every cell of every frame.
  if (spec_.kind == ReferenceSpec::Kind::DamBreak)
    damBreak_.emplace(g_, spec_.hLeft, spec_.hRight, spec_.x0);
  if (spec_.kind == ReferenceSpec::Kind::Linear && eta0)
    linear_ = std::make_shared<LinearReference>(grid_.nx, grid_.ny, grid_.dx, g_, restDepth_,
                                                spec_.dispersion, *eta0);
}

double Reference::eta(double x, double y, double t) const {
  switch (spec_.kind) {
    case ReferenceSpec::Kind::LakeAtRest:
      return 0.0;
    case ReferenceSpec::Kind::StandingMode:
      return StandingMode{g_, restDepth_, width_, height_, spec_.m, spec_.n, spec_.amplitude}.eta(
          x, y, t);
    case ReferenceSpec::Kind::DamBreak: {
      const double water =
          t <= 0.0 ? (x < spec_.x0 ? spec_.hLeft : spec_.hRight) : damBreak_->depth(x, t);
      return water - restDepth_;
    }
    case ReferenceSpec::Kind::Thacker:
      return thacker().eta(x, y, t);
    case ReferenceSpec::Kind::Linear:
      // Bilinear in the cell-centred exact surface, as a model's field is sampled.
      return linear_ ? sampleBilinear(*linear_->surface(t), grid_, x, y) : 0.0;
  }
  return 0.0;
}

ThackerBowl Reference::thacker() const {
  return {g_, spec_.a, spec_.h0, spec_.r0, 0.5 * width_, 0.5 * height_};
}

std::optional<double> Reference::front(double t) const {
  if (spec_.kind != ReferenceSpec::Kind::DamBreak || t <= 0.0) return std::nullopt;
  return damBreak_->front(t);
}

double Reference::frontDepth() const {
  if (!damBreak_ || spec_.hRight <= 0.0) return 1e-3;
  return 0.5 * (damBreak_->middleDepth() + spec_.hRight);
}

std::shared_ptr<const Field2D> referenceSurface(const Reference& reference, const Domain& domain,
                                                double t) {
  const Grid& grid = domain.grid();
  auto surface = std::make_shared<Field2D>(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      if (domain.isWet(i, j)) (*surface)(i, j) = float(reference.eta(grid.x(i), grid.y(j), t));
  return surface;
}

ReferenceErrors referenceErrors(const Reference& reference, const Field2D& eta,
                                const Domain& domain, double t) {
  const Grid& grid = domain.grid();
  const bool hasFront = reference.front(t).has_value();
  const double frontDepth = reference.frontDepth();
  double l1 = 0.0, l2 = 0.0, norm1 = 0.0, norm2 = 0.0;
  ReferenceErrors errors;
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      if (!domain.isWet(i, j)) continue;
      const double x = grid.x(i), y = grid.y(j);
      const double depth = std::max(0.0, double(eta(i, j)) + domain.restDepth()(i, j));
      const double exactEta = reference.eta(x, y, t);
      const double exact = std::max(0.0, exactEta + domain.restDepth()(i, j));
      if (depth <= 0.0 && exact <= 0.0) continue;
      l1 += std::fabs(depth - exact), norm1 += exact;
      l2 += (depth - exact) * (depth - exact), norm2 += exact * exact;
      errors.max = std::max(errors.max, std::fabs(double(eta(i, j)) - exactEta));
      if (hasFront && depth > frontDepth)
        errors.front = std::max(errors.front.value_or(0.0), x + 0.5 * grid.dx);
    }
  errors.l1 = norm1 > 0.0 ? l1 / norm1 : 0.0;
  errors.l2 = norm2 > 0.0 ? std::sqrt(l2 / norm2) : 0.0;
  return errors;
}

}  // namespace wb
