// The declared parameters of advected-wave (the GUI panel, JSON and --set come from these).
#include "models/advected_wave/advected_wave.hpp"

namespace wb {

std::vector<ParamSpec> AdvectedWave::parameterSpecs() {
  return {
      waveSpeedParamSpec("Ripple speed of eq. 10 with speed = mean. Auto: sqrt(g d) with d the "
                         "mean rest depth of the water."),
      waveSpeedModeParamSpec(),
      {.name = "nu",
       .kind = ParamKind::Real,
       .defaultValue = 0.2,
       .min = 0.0,
       .max = 1e4,
       .unit = "1/s",
       .doc =
           "Viscosity of the wave update (eq. 9): z_tt + nu z_t = c^2 lap(z). Any value is stable.",
       .choices = {},
       .autoDerived = false},
      {.name = "kappa",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 1e-9,
       .max = 1e12,
       .unit = "1/(m s)",
       .doc = "Coupling of eq. 7, kappa dz = -div u. Auto: 1 / (d dt), the linearised continuity "
              "equation dz = -d div(u) dt.",
       .choices = {},
       .autoDerived = true},
      {.name = "diffusion",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 1e3,
       .unit = "m^2/s",
       .doc = "Kinematic viscosity of Stam's diffusion step; 0 drops the step as the paper does.",
       .choices = {},
       .autoDerived = false},
      {.name = "cg_tolerance",
       .kind = ParamKind::Real,
       .defaultValue = 1e-4,
       .min = 1e-9,
       .max = 0.1,
       .unit = "",
       .doc =
           "Relative residual ||b - A p|| / ||b|| at which the pressure solve (float multigrid "
           "V-cycles from the last step's pressure) stops. The default is more accurate than the "
           "20 Gauss-Seidel sweeps of Stam and Kim & Yoo, from zero (0.25-0.3 on a windy pool) or "
           "from the same warm start (1-2e-4). On large grids a float pressure cannot reach it "
           "(2.5e-4 on a windy 512^2 pool); the solve then stops at that rounding floor.",
       .choices = {},
       .autoDerived = false},
      {.name = "cg_max_iterations",
       .kind = ParamKind::Integer,
       .defaultValue = 2000,
       .min = 1,
       .max = 1e6,
       .unit = "",
       .doc = "Cap on the pressure solve's V-cycles; reaching it is reported in solver_residual.",
       .choices = {},
       .autoDerived = false},
      dtParamSpec(
          "Fixed time step. Auto: 0.9 of the stability bound c dt / dx <= 1/sqrt(2) (with open "
          "edges also the absorbing layer's, lower for thin layers). A dt beyond the bound is "
          "refused unless force is set.",
          1e-7, 10.0),
      forceParamSpec(),
  };
}

}  // namespace wb
