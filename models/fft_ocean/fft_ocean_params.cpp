// The declared parameters of fft-ocean (the GUI panel, JSON and --set come from these).
#include "models/fft_ocean/fft_ocean.hpp"

namespace wb {

std::vector<ParamSpec> FftOcean::parameterSpecs() {
  return {
      {.name = "wind_speed",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 100.0,
       .unit = "m/s",
       .doc = "Wind speed V of the Phillips spectrum (Tessendorf eq. 40): the initial sea. 0 = "
              "calm: only the scenario's initial surface, as the other models start.",
       .choices = {},
       .autoDerived = false},
      {.name = "wind_direction",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = -360.0,
       .max = 360.0,
       .unit = "deg",
       .doc = "Direction the wind blows towards, from +x towards +y. Waves across it get no "
              "energy (the |k.w|^2 factor of eq. 40).",
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
              "cell, dx.",
       .choices = {},
       .autoDerived = true},
      {.name = "seed",
       .kind = ParamKind::Integer,
       .defaultValue = 1.0,
       .min = 0.0,
       .max = 2147483647.0,
       .unit = "",
       .doc = "Seed of the random sea's Gaussian amplitudes.",
       .choices = {},
       .autoDerived = false},
      {.name = "dt",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 1e-9,
       .max = 1e4,
       .unit = "s",
       .doc = "Time step. Every mode is advanced exactly for any dt; the step only sets when "
              "drops and bodies act. Auto: dx / sqrt(g d), the other models' steps.",
       .choices = {},
       .autoDerived = true},
  };
}

}  // namespace wb
