// fft-ocean's open form (`sea` = open): Tessendorf's periodic patch of travelling waves
// (core/ocean/ocean_patch.hpp) on the scenario's grid (docs/fft-ocean.md, "The open sea").
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/forcing/wave_shadow.hpp"
#include "core/ocean/wind_sea_params.hpp"
#include "models/fft_ocean/fft_ocean.hpp"

namespace wb {

// The patch is periodic and not coupled to the edges: any edge kind runs.
bool FftOcean::absorbsAtOpenEdges() const {
  return params().getChoice("sea") == "open";
}

// One depth and the whole rectangle wet: w^2 = g k tanh(k d) on a periodic patch.
void FftOcean::checkOpenDomain(const Domain& domain) const {
  const auto refuse = [](const std::string& why) {
    throw InputError(std::string(kId) + ".sea: open: " + why);
  };
  const int solid = domain.nx() * domain.ny() - domain.wetCount();
  if (solid > 0)
    refuse("the domain has " + std::to_string(solid) +
           " solid cells; the periodic patch needs the whole rectangle wet");
  uniformWaterDepth(domain, std::string(kId) + ".sea: open");
  if (domain.nx() % 2 || domain.ny() % 2)
    refuse("the grid is " + std::to_string(domain.nx()) + " x " + std::to_string(domain.ny()) +
           "; the patch's transforms need even nx and ny");
}

// The scenario's eta0 is a surface at rest at t = 0; the wind sea (eq. 42) adds to it.
void FftOcean::resetOpen(const Domain& domain, const Field2D& eta0) {
  checkOpenDomain(domain);
  nx_ = domain.nx();
  ny_ = domain.ny();
  dx_ = domain.grid().dx;
  g_ = domain.g();
  depth_ = domain.restDepth().data()[0];
  dt_ = params().getOptional("dt").value_or(dx_ / std::sqrt(g_ * depth_));
  a_.clear();
  b_.clear();
  patch_ = std::make_unique<OceanPatch>(PatchGeometry{nx_, ny_, dx_, g_, depth_});
  work_ = Field2D(nx_, ny_);
  patch_->addSurfaceAtRest(eta0, 0.0);
  openSpectrum_ = std::make_unique<OceanSpectrum>(windSeaFrom(params(), g_, depth_));
  if (openSpectrum_->variance() > 0.0)
    patch_->addWindSea(*openSpectrum_, std::uint64_t(params().getInt("seed")));
  runStart_ = runDt_ = 0.0;
  runSteps_ = 0;
  invalidate();
}

// t = start + steps dt over a run of equal steps (the Comparison's), restarted when dt changes:
// one rounding, not one per step.
void FftOcean::advanceTime(double dt) {
  if (dt != runDt_) {
    runStart_ = time();
    runDt_ = dt;
    runSteps_ = 0;
  }
  ++runSteps_;
  invalidate();
}

const Field2D& FftOcean::openEta() const {
  if (!etaFresh_) {
    patch_->evaluate(time(), PatchOutputs{.slopes = false});
    etaFresh_ = true;
  }
  return patch_->height();
}

void FftOcean::computeOpenVelocity() const {
  if (velocityFresh_) return;
  patch_->evaluate(time(), PatchOutputs{.slopes = false, .velocity = true});
  velocityFresh_ = etaFresh_ = true;
}

// The wave shadow as in the basin: eta_t in physical space damped toward its shadow-weighted
// mean, r <- r - s (r - m), s = c dt / (1 + c dt) (dampHeightRate), and the patch re-split so
// that eta stays and eta_t is the damped one. sum(eta_t) stays 0: the volume does not move.
void FftOcean::dampOpenSea(const Field2D& rate, double dt) {
  Field2D& etaT = work_;
  patch_->surfaceRate(time(), etaT);
  dampHeightRate(rate, dt, etaT);
  patch_->setSurfaceRate(etaT, time());
  invalidate();
}

const OceanPatch* FftOcean::openSeaFields(const PatchOutputs& outputs) const {
  if (form_ != Form::Open) return nullptr;
  patch_->evaluate(time(), outputs);
  etaFresh_ = true;
  velocityFresh_ = outputs.velocity;
  return patch_.get();
}

FftOcean::SeaState FftOcean::seaState() const {
  if (form_ != Form::Open) return {};
  return {.hsRealised = 4.0 * std::sqrt(patch_->heightVariance(time())),
          .hsLattice = 4.0 * std::sqrt(patch_->latticeVariance()),
          .hsSpectrum = openSpectrum_->significantWaveHeight(),
          .peakPeriod = openSpectrum_->peakPeriod()};
}

}  // namespace wb
