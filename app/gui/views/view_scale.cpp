#include "app/gui/views/view_scale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/ocean/ocean_spectrum.hpp"
#include "core/ocean/wind_sea_params.hpp"

namespace wb::gui {

namespace {
constexpr double kMinColourRange = 0.005;  // m
// Waves spread and fall well below the drops that made them: colour half their height.
constexpr double kColourShareOfDrops = 0.5;
// A boat's wake is a small dent per boat step; its waves add up to this many dents.
constexpr double kWakeBuildUp = 10.0;

// A buoyant body's splash: the water it displaces afloat, pushed into the surface over its
// footprint's circle widened by two cells (docs/bodies.md, "Displacement"), as a mean height;
// the highest of `bodies`.
double bodySplash(const std::vector<BodySpec>& bodies, double waterDensity, double dx) {
  double height = 0.0;
  for (const auto& b : bodies) {
    const double afloat = std::min(1.0, b.density / waterDensity) * b.size.prod();
    const double radius = 0.5 * std::hypot(b.size.x(), b.size.y()) + 2.0 * dx;
    height = std::max(height, afloat / (M_PI * radius * radius));
  }
  return height;
}

// The scenario's bodies and those thrown in later.
std::vector<BodySpec> allBodies(const Scenario& s) {
  std::vector<BodySpec> bodies = s.rigidBodies;
  for (const auto& thrown : s.excitations.bodies)
    bodies.push_back(thrown.spec);
  return bodies;
}

double waveHeightFor(const Scenario& s) {
  double amplitude = 0.0;
  for (const auto& d : s.initialDrops)
    amplitude = std::max(amplitude, std::abs(d.amplitude));
  for (const auto& d : s.excitations.drops)
    amplitude = std::max(amplitude, std::abs(d.amplitude));
  for (const auto& r : s.excitations.rain)
    amplitude = std::max(amplitude, std::abs(r.amplitude));
  for (const auto& b : s.excitations.boats)
    amplitude = std::max(amplitude, kWakeBuildUp * std::abs(b.wakeAmplitude));
  amplitude = std::max(amplitude, bodySplash(allBodies(s), s.waterDensity, s.grid.dx));
  // A reference's surface keeps its height: a standing mode's amplitude, a dam's step.
  double reference = 0.0;
  if (s.reference && s.reference->kind == ReferenceSpec::Kind::StandingMode)
    reference = std::abs(s.reference->amplitude);
  if (s.reference && s.reference->kind == ReferenceSpec::Kind::DamBreak)
    reference = std::abs(s.reference->hLeft - s.reference->hRight);
  // The open sea's: half its significant wave height and half the swell's, the height of a
  // typical crest (docs/scenario.md#ocean); a sea the models would refuse shows nothing here.
  double sea = 0.0;
  if (s.ocean) try {
      const ParamValues values = oceanParams(s);
      const OceanSpectrum spectrum(windSeaFrom(values, s.g, s.depth));
      sea = 0.5 * spectrum.significantWaveHeight() + 0.5 * values.get("swell_height");
    } catch (const InputError&) {
    }
  return std::max({kMinColourRange, kColourShareOfDrops * amplitude, reference, sea});
}

// A buoyant body is drawn true to size on water drawn verticalScale times its height: a wave
// of the colour range's height rises (verticalScale - 1) times that against the body. It
// stays below the lowest freeboard of the bodies, h (1 - rho_b / rho_w) for a box.
double maxVerticalScaleFor(const std::vector<BodySpec>& bodies, double waterDensity,
                           double colourRange) {
  double scale = std::numeric_limits<double>::infinity();
  for (const auto& b : bodies) {
    const double freeboard = b.size.z() * (1.0 - std::min(1.0, b.density / waterDensity));
    scale = std::min(scale, 1.0 + freeboard / colourRange);
  }
  return scale;
}
}  // namespace

ViewGrid::Look lookFor(const Scenario& scenario) {
  const double waveHeight = waveHeightFor(scenario);
  return {.waveHeight = waveHeight,
          .maxVerticalScale =
              maxVerticalScaleFor(allBodies(scenario), scenario.waterDensity, waveHeight)};
}

bool admitThrownBody(ViewGrid::Look& look, const Scenario& scenario, const BodySpec& thrown) {
  const double range =
      std::max(look.waveHeight,
               kColourShareOfDrops * bodySplash({thrown}, scenario.waterDensity, scenario.grid.dx));
  const double cap =
      std::min(maxVerticalScaleFor(scenario.rigidBodies, scenario.waterDensity, range),
               maxVerticalScaleFor({thrown}, scenario.waterDensity, range));
  if (range == look.waveHeight && !(cap < look.maxVerticalScale)) return false;
  look.waveHeight = range;
  look.maxVerticalScale = std::min(look.maxVerticalScale, cap);
  return true;
}

}  // namespace wb::gui
