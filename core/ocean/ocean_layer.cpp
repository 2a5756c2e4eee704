#include "core/ocean/ocean_layer.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <tuple>

#include "core/errors.hpp"
#include "core/ocean/wind_sea_params.hpp"

namespace wb {

namespace {

// The one rest depth of the wet cells; refuses what the patch cannot carry.
double checkedDepth(const Domain& domain, const std::string& where) {
  if (domain.nx() % 2 || domain.ny() % 2) {
    std::ostringstream why;
    why << where << ": the grid is " << domain.nx() << " x " << domain.ny()
        << "; the ocean's transforms need even nx and ny";
    throw InputError(why.str());
  }
  return uniformWaterDepth(domain, where);
}

}  // namespace

std::vector<ParamSpec> oceanParameterSpecs() {
  std::vector<ParamSpec> specs = windSeaParameterSpecs();
  specs.push_back({.name = "swell_height",
                   .kind = ParamKind::Real,
                   .defaultValue = 0.0,
                   .min = 0.0,
                   .max = 100.0,
                   .unit = "m",
                   .doc = "Height H (crest to trough) of a swell, one travelling wave "
                          "(H/2) cos(k.x - w t) on top of the wind sea; 0: none.",
                   .choices = {},
                   .autoDerived = false});
  specs.push_back({.name = "swell_period",
                   .kind = ParamKind::Real,
                   .defaultValue = 8.0,
                   .min = 0.1,
                   .max = 100.0,
                   .unit = "s",
                   .doc = "The swell's period; it runs at the nearest one the periodic patch "
                          "holds (a whole number of wavelengths across it).",
                   .choices = {},
                   .autoDerived = false});
  specs.push_back({.name = "swell_direction",
                   .kind = ParamKind::Real,
                   .defaultValue = 0.0,
                   .min = -360.0,
                   .max = 360.0,
                   .unit = "deg",
                   .doc = "The direction the swell travels towards, from +x towards +y.",
                   .choices = {},
                   .autoDerived = false});
  return specs;
}

OceanLayer::OceanLayer(const ParamValues& sea, const Domain& domain, const std::string& where,
                       int threads)
    : spectrum_(windSeaFrom(sea, domain.g(), checkedDepth(domain, where))),
      patch_(PatchGeometry{domain.nx(), domain.ny(), domain.grid().dx, domain.g(),
                           spectrum_.sea().depth},
             threads),
      halfCell_(0.5 * domain.grid().dx) {
  if (spectrum_.variance() > 0.0) patch_.addWindSea(spectrum_, std::uint64_t(sea.getInt("seed")));
  if (sea.get("swell_height") > 0.0) addSwell(sea, where);
  checkTroughsClearTheBed(where);
}

// The sea is linear and knows no bed: its troughs must stay well above it. The significant
// trough, half the wind sea's Hs (4 sigma of the surface as drawn on the lattice) plus half the
// swell's height, must be shallower than the water; a sea whose significant troughs reach the
// bed leaves cells below the ground at every instant.
void OceanLayer::checkTroughsClearTheBed(const std::string& where) const {
  const double depth = spectrum_.sea().depth;
  const double swellTrough = swell_ ? swell_->amplitude : 0.0;
  // The realised surface's variance (its modes as drawn, the swell's A^2 / 2 among them).
  const double windVariance = patch_.heightVariance(0.0) - 0.5 * swellTrough * swellTrough;
  const double windTrough = 2.0 * std::sqrt(std::max(0.0, windVariance));
  if (!std::isfinite(depth) || windTrough + swellTrough < depth) return;
  std::ostringstream why;
  why << where << (windTrough >= depth ? ".wind_speed: " : ".swell_height: ") << "the sea's "
      << "significant troughs reach " << windTrough + swellTrough << " m below the rest level";
  if (windTrough > 0.0) why << " (wind sea Hs/2 = " << windTrough << " m";
  if (swellTrough > 0.0)
    why << (windTrough > 0.0 ? ", " : " (") << "swell H/2 = " << swellTrough << " m";
  why << "), below the bed at " << depth << " m: the linear sea needs water deeper than its "
      << "troughs";
  throw InputError(why.str());
}

// The lattice point nearest to k (cos a, sin a), k of the period: its own w, direction and
// wavelength are what runs. A swell longer than the patch (the nearest point k = 0) is refused.
void OceanLayer::addSwell(const ParamValues& sea, const std::string& where) {
  const PatchGeometry& g = patch_.geometry();
  const double lx = g.nx * g.dx, ly = g.ny * g.dx;
  const double k =
      dispersionWavenumber(2.0 * std::numbers::pi / sea.get("swell_period"), g.g, g.depth);
  const double angle = sea.get("swell_direction") * std::numbers::pi / 180.0;
  Swell swell;
  swell.m = int(std::lround(k * std::cos(angle) * lx / (2.0 * std::numbers::pi)));
  swell.n = int(std::lround(k * std::sin(angle) * ly / (2.0 * std::numbers::pi)));
  if (std::abs(swell.m) >= g.nx / 2 || std::abs(swell.n) >= g.ny / 2) {
    std::ostringstream why;
    why << where << ".swell_period: " << sea.get("swell_period") << " s is shorter than the grid "
        << "can hold (its wavelength " << 2.0 * std::numbers::pi / k << " m needs cells below "
        << 0.5 * 2.0 * std::numbers::pi / k << " m)";
    throw InputError(why.str());
  }
  if (swell.m == 0 && swell.n == 0) {
    std::ostringstream why;
    why << where << ".swell_period: the swell's wavelength, " << 2.0 * std::numbers::pi / k
        << " m, is longer than twice the domain (" << lx << " x " << ly
        << " m): the periodic patch holds no such wave";
    throw InputError(why.str());
  }
  const double kx = 2.0 * std::numbers::pi * swell.m / lx,
               ky = 2.0 * std::numbers::pi * swell.n / ly;
  swell.amplitude = 0.5 * sea.get("swell_height");
  swell.omega = dispersionOmega(std::hypot(kx, ky), g.g, g.depth);
  swell.direction = std::atan2(ky, kx);
  swell.wavelength = 2.0 * std::numbers::pi / std::hypot(kx, ky);
  patch_.addWave(swell.m, swell.n, swell.amplitude);
  swell_ = swell;
}

void OceanLayer::evaluate(double t, bool velocity) {
  patch_.evaluate(t, PatchOutputs{.slopes = false, .velocity = velocity});
}

void OceanLayer::mix(const Field2D& local, const Domain& domain, Field2D& surface) const {
  if (surface.nx() != local.nx() || surface.ny() != local.ny())
    surface = Field2D(local.nx(), local.ny());
  const float* ocean = height().data();
  const auto& wet = domain.wetMask();
  for (std::size_t k = 0; k < local.size(); ++k)
    surface.data()[k] = wet[k] ? local.data()[k] + ocean[k] : 0.0f;
}

void OceanLayer::mixVelocity(const Field2D* localU, const Field2D* localV, const Domain& domain,
                             Field2D& u, Field2D& v) const {
  const auto& wet = domain.wetMask();
  for (auto [local, sea, out] :
       {std::tuple{localU, &velocityU(), &u}, {localV, &velocityV(), &v}}) {
    if (out->nx() != sea->nx() || out->ny() != sea->ny()) *out = Field2D(sea->nx(), sea->ny());
    for (std::size_t k = 0; k < out->size(); ++k)
      out->data()[k] = wet[k] ? (local ? local->data()[k] : 0.0f) + sea->data()[k] : 0.0f;
  }
}

void OceanLayer::moveTo(int i, int j) {
  patch_.translate(i - originI_, j - originJ_);
  originI_ = i, originJ_ = j;
}

double OceanLayer::heightAt(double x, double y, double t) const {
  return patch_.heightAt(x - halfCell_, y - halfCell_, t);
}

double OceanLayer::patchArea() const {
  const PatchGeometry& g = patch_.geometry();
  return double(g.nx) * g.ny * g.dx * g.dx;
}

// sum_x eta^2 = nx ny sum_k |h(k, t)|^2 (Parseval), so 1/2 g sum eta^2 dA = 1/2 g A sum |h|^2;
// the kinetic energy likewise from the sum of |h_t|^2 / w^2.
OceanLayer::Energies OceanLayer::energies(double t) const {
  const OceanPatch::ModeSums sums = patch_.modeSums(t);
  const double scale = 0.5 * patch_.geometry().g * patchArea();
  return {scale * sums.potential, scale * sums.kinetic};
}

}  // namespace wb
