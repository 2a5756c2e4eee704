// The declared parameters of swe-semi-lagrangian (the GUI panel, JSON and --set come from
// these) and their typed form, settled once per reset.
#include "models/swe_semi_lagrangian/swe_semi_lagrangian.hpp"

namespace wb {

std::vector<ParamSpec> SweSemiLagrangian::parameterSpecs() {
  return {
      dtParamSpec(
          "Time step. Auto: 4 times the explicit limit dx / sqrt(g d_max), kept at half the "
          "shear bound. A dt whose product with the velocity shear (estimated from the "
          "initial surface) exceeds 1 (section 4.2) is refused unless force is set.",
          1e-6, 1e3),
      {.name = "cg_tolerance",
       .kind = ParamKind::Real,
       .defaultValue = 1e-3,
       .min = 1e-10,
       .max = 1e-1,
       .unit = "",
       .doc = "The solvers of the Helmholtz equation (eq. 25), solved for the step's change "
              "A (h - h^n) = b - A h^n, stop when its residual is at most this times "
              "||b - A h^n||: relative to the change, not to the surface.",
       .choices = {},
       .autoDerived = false},
      {.name = "helmholtz_solver",
       .kind = ParamKind::Choice,
       .defaultValue = 0,
       .min = 0,
       .max = 0,
       .unit = "",
       .doc = "Solver of eq. 25, all from h^n: cg (float conjugate gradients; the true residual "
              "cannot go below about 8 g d dt^2 / dx^2 times 6e-8), reduced-cg (the same on the "
              "red-black reduced system: half the cells, about half the iterations), multigrid "
              "(float multigrid V-cycles; cg_max_iterations caps the cycles) or auto, by the "
              "coupling g d_max dt^2 / dx^2 ((dt / explicit limit)^2): multigrid above 200, "
              "reduced-cg above 4 on grids of 200 x 200 cells or more, else cg.",
       .choices = {"auto", "cg", "multigrid", "reduced-cg"},
       .autoDerived = false},
      {.name = "cg_max_iterations",
       .kind = ParamKind::Integer,
       .defaultValue = 200,
       .min = 1,
       .max = 100000,
       .unit = "",
       .doc = "Largest number of conjugate-gradient iterations per step.",
       .choices = {},
       .autoDerived = false},
      {.name = "film_depth",
       .kind = ParamKind::Real,
       .defaultValue = 1e-4,
       .min = 0.0,
       .max = 1.0,
       .unit = "m",
       .doc = "Water thinner than this is a film: its velocity is set to 0 after each step "
              "and a face between a film and a wet cell takes the wet side's depth. Depth is "
              "never clamped: the continuity fluxes keep it non-negative (docs/wet-dry.md).",
       .choices = {},
       .autoDerived = false},
      forceParamSpec("shear bound"),
  };
}

SweSemiLagrangian::Settings SweSemiLagrangian::settle(const ParamValues& values) {
  return {.userDt = values.getOptional("dt"),
          .cgTolerance = values.get("cg_tolerance"),
          .solverChoice = values.getInt("helmholtz_solver"),
          .cgMaxIterations = values.getInt("cg_max_iterations"),
          .filmDepth = float(values.get("film_depth")),
          .force = values.get("force") != 0};
}

}  // namespace wb
