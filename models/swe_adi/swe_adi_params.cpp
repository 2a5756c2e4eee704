// The declared parameters of swe-adi (the GUI panel, JSON and --set come from these).
#include "models/swe_adi/swe_adi.hpp"

namespace wb {

std::vector<ParamSpec> SweAdi::parameterSpecs() {
  return {
      dtParamSpec("Time step; any dt is stable. Auto: the explicit limit dx / sqrt(g d_max), "
                  "where the trapezoidal rule lengthens the period of a wave resolved by 20 "
                  "cells by 0.8 % ((omega dt)^2 / 12).",
                  1e-9, 1e4),
      {.name = "iterations",
       .kind = ParamKind::Integer,
       .defaultValue = 2,
       .min = 1,
       .max = 100,
       .unit = "",
       .doc = "ADI iterations per step (Layton section 4.4: two suffice). Each is one sweep of "
              "tridiagonal systems along the rows and one along the columns; more iterations "
              "take the step closer to the unsplit implicit solution.",
       .choices = {},
       .autoDerived = false},
      {.name = "theta",
       .kind = ParamKind::Real,
       .defaultValue = 0.5,
       .min = 0.5,
       .max = 1.0,
       .unit = "",
       .doc = "Time weight of the implicit step, h~ = h^n + theta (h^{n+1} - h^n). 0.5: the "
              "trapezoidal rule, second order, which damps no wave. Above 0.5 the step damps a "
              "wave of frequency omega by sqrt((1 + (1 - theta)^2 (omega dt)^2) / (1 + theta^2 "
              "(omega dt)^2)) a step: the short waves a steep front sheds, little of the long "
              "ones (first order in time).",
       .choices = {},
       .autoDerived = false},
      {.name = "damping",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 0.99,
       .unit = "",
       .doc = "Kass & Miller's damping tau: the face velocities are multiplied by 1 - tau "
              "every step (0: none).",
       .choices = {},
       .autoDerived = false},
      {.name = "dry_threshold",
       .kind = ParamKind::Real,
       .defaultValue = 1e-4,
       .min = 0.0,
       .max = 1.0,
       .unit = "m",
       .doc = "A cell whose depth d = h - b is at most this is dry: a face whose higher side "
              "is dry passes no water (Kass & Miller's flooding rule).",
       .choices = {},
       .autoDerived = false},
  };
}

}  // namespace wb
