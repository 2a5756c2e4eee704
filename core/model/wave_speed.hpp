// The wave speed of the wave models (damped-wave, advected-wave) from their `c` and `speed`
// parameters (core/model/parameters.hpp) and the domain they run on.
//
//   speed = mean:  one c for the whole pool, the `c` given or sqrt(g d_mean) (the papers' form);
//   speed = local: c^2 = g d on each stencil link (core/grid/stencil.hpp, LinkDepth::Local); the
//                  c returned is the deepest water's, sqrt(g d_max), which the stability bounds
//                  and the open edges' layer use, and the link factors are relative to d_max.
#pragma once

#include <string>

#include "core/grid/domain.hpp"
#include "core/grid/stencil.hpp"
#include "core/model/parameters.hpp"

namespace wb {

struct WaveSpeed {
  LinkDepth links = LinkDepth::Uniform;
  double c = 1.0;  // m/s
};

// Throws InputError naming `<modelId>.c` when c is set together with speed = local (the ground
// sets the local speed; a fixed c would be silently ignored).
WaveSpeed chooseWaveSpeed(const ParamValues& params, const std::string& modelId,
                          const Domain& domain);

}  // namespace wb
