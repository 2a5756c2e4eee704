#include "core/ocean/ocean_layer.hpp"

#include <algorithm>
#include <sstream>

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
  float lo = 0.0f, hi = 0.0f;
  bool any = false;
  const float* depth = domain.restDepth().data();
  for (std::size_t k = 0; k < domain.wetMask().size(); ++k) {
    if (!domain.wetMask()[k]) continue;
    lo = any ? std::min(lo, depth[k]) : depth[k];
    hi = any ? std::max(hi, depth[k]) : depth[k];
    any = true;
  }
  if (!any || lo <= 0.0f || hi - lo > 1e-6f * hi) {
    std::ostringstream why;
    why << where << ": the rest depth of the water ranges from " << lo << " to " << hi
        << " m; the ocean's waves (w^2 = g k tanh(k d)) need one depth";
    throw InputError(why.str());
  }
  return hi;
}

}  // namespace

OceanLayer::OceanLayer(const ParamValues& sea, const Domain& domain, const std::string& where)
    : spectrum_(windSeaFrom(sea, domain.g(), checkedDepth(domain, where))),
      patch_(PatchGeometry{domain.nx(), domain.ny(), domain.grid().dx, domain.g(),
                           spectrum_.sea().depth}),
      halfCell_(0.5 * domain.grid().dx) {
  if (spectrum_.variance() > 0.0) patch_.addWindSea(spectrum_, std::uint64_t(sea.getInt("seed")));
}

void OceanLayer::evaluate(double t) {
  patch_.evaluate(t, PatchOutputs{.slopes = false});
}

void OceanLayer::mix(const Field2D& local, const Domain& domain, Field2D& surface) const {
  if (surface.nx() != local.nx() || surface.ny() != local.ny())
    surface = Field2D(local.nx(), local.ny());
  const float* ocean = height().data();
  const auto& wet = domain.wetMask();
  for (std::size_t k = 0; k < local.size(); ++k)
    surface.data()[k] = wet[k] ? local.data()[k] + ocean[k] : 0.0f;
}

double OceanLayer::heightAt(double x, double y, double t) const {
  return patch_.heightAt(x - halfCell_, y - halfCell_, t);
}

double OceanLayer::patchArea() const {
  const PatchGeometry& g = patch_.geometry();
  return double(g.nx) * g.ny * g.dx * g.dx;
}

// sum_x eta^2 = nx ny sum_k |h(k, t)|^2 (Parseval), so 1/2 g sum eta^2 dA = 1/2 g A sum |h|^2.
double OceanLayer::potentialEnergy(double t) const {
  return 0.5 * patch_.geometry().g * patchArea() * patch_.modeSums(t).potential;
}

double OceanLayer::kineticEnergy(double t) const {
  return 0.5 * patch_.geometry().g * patchArea() * patch_.modeSums(t).kinetic;
}

}  // namespace wb
