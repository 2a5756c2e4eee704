#include "core/ocean/wind_sea_params.hpp"

#include <algorithm>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "core/grid/domain.hpp"

namespace wb {

std::vector<ParamSpec> windSeaParameterSpecs() {
  return {
      {.name = "spectrum",
       .kind = ParamKind::Choice,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 0.0,
       .unit = "",
       .doc = "Wind-sea spectrum of the open form: phillips (Tessendorf eq. 40-41) or jonswap "
              "(Hasselmann et al. 1973, cos^2 spreading downwind). The basin uses Phillips.",
       .choices = {"phillips", "jonswap"},
       .autoDerived = false},
      {.name = "calibration",
       .kind = ParamKind::Choice,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 0.0,
       .unit = "",
       .doc = "Open form: pierson-moskowitz scales the spectrum so that the unbounded sea has "
              "Hs = 0.21 U19.5^2 / g (U19.5 = 1.026 wind_speed); none keeps amplitude "
              "(Phillips) or the fetch law's alpha (JONSWAP).",
       .choices = {"pierson-moskowitz", "none"},
       .autoDerived = false},
      {.name = "wind_speed",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 100.0,
       .unit = "m/s",
       .doc = "Wind speed at 10 m (U10) of the spectrum (Phillips: V of Tessendorf eq. 40): the "
              "initial sea. 0 = calm: only the scenario's initial surface, as the other models "
              "start.",
       .choices = {},
       .autoDerived = false},
      {.name = "wind_direction",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = -360.0,
       .max = 360.0,
       .unit = "deg",
       .doc = "Direction the wind blows towards, from +x towards +y. Waves across it get no "
              "energy (the |k.w|^2 factor of eq. 40; JONSWAP's cos^2 spreading, none upwind).",
       .choices = {},
       .autoDerived = false},
      {.name = "amplitude",
       .kind = ParamKind::Real,
       .defaultValue = 1e-3,
       .min = 0.0,
       .max = 1.0,
       .unit = "",
       .doc = "Phillips constant A (eq. 40). An unbounded sea's surface variance is about "
              "pi A L^2 / 2 with L = V^2 / g.",
       .choices = {},
       .autoDerived = false},
      {.name = "small_wave_cutoff",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 1e4,
       .unit = "m",
       .doc = "Length l below which waves are suppressed by exp(-k^2 l^2) (eq. 41). Auto: one "
              "cell, dx, in the basin; none in the open form (its lattice ends at pi / dx).",
       .choices = {},
       .autoDerived = true},
      {.name = "fetch",
       .kind = ParamKind::Real,
       .defaultValue = 100e3,
       .min = 1.0,
       .max = 1e7,
       .unit = "m",
       .doc = "JONSWAP fetch F: the peak frequency 22 (g^2 / (U10 F))^(1/3), not below the "
              "fully developed Pierson-Moskowitz peak.",
       .choices = {},
       .autoDerived = false},
      {.name = "gamma",
       .kind = ParamKind::Real,
       .defaultValue = 3.3,
       .min = 1.0,
       .max = 10.0,
       .unit = "",
       .doc = "JONSWAP peak enhancement (1: Pierson-Moskowitz's shape).",
       .choices = {},
       .autoDerived = false},
      {.name = "seed",
       .kind = ParamKind::Integer,
       .defaultValue = 1.0,
       .min = 0.0,
       .max = 2147483647.0,
       .unit = "",
       .doc = "Seed of the random sea's Gaussian amplitudes.",
       .choices = {},
       .autoDerived = false},
  };
}

WindSea windSeaFrom(const ParamValues& p, double g, double depth) {
  WindSea sea;
  sea.kind = p.getChoice("spectrum") == "jonswap" ? SpectrumKind::Jonswap : SpectrumKind::Phillips;
  sea.windSpeed = p.get("wind_speed");
  sea.windDirection = p.get("wind_direction") * std::numbers::pi / 180.0;
  sea.fetch = p.get("fetch");
  sea.gamma = p.get("gamma");
  sea.phillipsAmplitude = p.get("amplitude");
  // Auto: none; the lattice already ends at the grid's Nyquist wavenumber pi / dx (l = dx would
  // take 1 to 60 % of the variance off below it; docs/fft-ocean.md, "Calibration").
  sea.smallWaveCutoff = p.getOptional("small_wave_cutoff").value_or(0.0);
  sea.calibrateToPiersonMoskowitz = p.getChoice("calibration") == "pierson-moskowitz";
  sea.g = g;
  sea.depth = depth;
  return sea;
}

double uniformWaterDepth(const Domain& domain, const std::string& where) {
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
        << " m; w^2 = g k tanh(k d) needs one depth";
    throw InputError(why.str());
  }
  return hi;
}

}  // namespace wb
