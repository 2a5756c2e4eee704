// The declared parameters of fft-ocean (the GUI panel, JSON and --set come from these).
#include "core/ocean/wind_sea_params.hpp"
#include "models/fft_ocean/fft_ocean.hpp"

namespace wb {

std::vector<ParamSpec> FftOcean::parameterSpecs() {
  std::vector<ParamSpec> specs{
      {.name = "sea",
       .kind = ParamKind::Choice,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 0.0,
       .unit = "",
       .doc = "basin: the walled basin's standing modes cos(kx x) cos(ky y). open: Tessendorf's "
              "periodic patch of travelling waves (eq. 43), not coupled to the edges (any edge "
              "kind runs).",
       .choices = {"basin", "open"},
       .autoDerived = false},
      {.name = "choppiness",
       .kind = ParamKind::Real,
       .defaultValue = 0.0,
       .min = 0.0,
       .max = 10.0,
       .unit = "",
       .doc = "Open form, views only: c = -lambda of Tessendorf's eq. 44; the views draw the "
              "surface at x - c D, D = sum -i k/|k| h e^{i k.x}, which sharpens the crests. The "
              "height eta that measurements use is unchanged.",
       .choices = {},
       .autoDerived = false},
      dtParamSpec("Time step. Every mode is advanced exactly for any dt; the step only sets when "
                  "drops and bodies act. Auto: dx / sqrt(g d), the other models' steps.",
                  1e-9, 1e4),
  };
  // The wind sea's keys (shared with the scenario's "ocean" section) after `sea`.
  const std::vector<ParamSpec> sea = windSeaParameterSpecs();
  specs.insert(specs.begin() + 1, sea.begin(), sea.end());
  return specs;
}

}  // namespace wb
