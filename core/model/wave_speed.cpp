#include "core/model/wave_speed.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace wb {

WaveSpeed chooseWaveSpeed(const ParamValues& params, const std::string& modelId,
                          const Domain& domain) {
  const auto given = params.getOptional("c");
  if (params.getChoice("speed") == "mean")
    return {LinkDepth::Uniform, given.value_or(std::sqrt(domain.g() * domain.meanWetDepth()))};
  if (given)
    throw InputError(modelId + ".c: " + params.text("c") +
                     " m/s is set, but speed = local takes c^2 = g d from the ground; leave c "
                     "auto or set speed = mean");
  return {LinkDepth::Local, std::sqrt(domain.g() * domain.maxWetDepth())};
}

}  // namespace wb
