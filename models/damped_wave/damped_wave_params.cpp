// The declared parameters of damped-wave (the GUI panel, JSON and --set come from these).
#include "models/damped_wave/damped_wave.hpp"

namespace wb {

std::vector<ParamSpec> DampedWave::parameterSpecs() {
  return {
      waveSpeedParamSpec("Wave speed with speed = mean. Auto: sqrt(g d) with d the mean rest depth "
                         "of the water."),
      waveSpeedModeParamSpec(),
      {.name = "k",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 1e4,
       .unit = "1/s",
       .doc = "Damping constant of h_tt + k h_t = c^2 lap(h); R = 1 - k dt (the paper's R).",
       .choices = {},
       .autoDerived = false},
      {.name = "neighbours",
       .kind = ParamKind::Choice,
       .defaultValue = 1,
       .min = 0,
       .max = 0,
       .unit = "",
       .doc = "Stencil: 4 neighbours (eq. 5) or 8 neighbours (eq. 6, normalised).",
       .choices = {"4", "8"},
       .autoDerived = false},
      {.name = "boundary",
       .kind = ParamKind::Choice,
       .defaultValue = 0,
       .min = 0,
       .max = 0,
       .unit = "",
       .doc = "Walls: mirror (the paper's symmetry condition, conserves volume) or zero (Bressler: "
              "values outside are 0).",
       .choices = {"mirror", "zero"},
       .autoDerived = false},
      dtParamSpec(
          "Fixed time step (Bressler 4.1). Auto: 0.9 of the stability bound (with open edges "
          "also the absorbing layer's, lower for thin layers). A dt beyond the bound is "
          "refused unless force is set.",
          1e-7, 10.0),
      forceParamSpec(),
  };
}

}  // namespace wb
