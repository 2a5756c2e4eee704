// The scenario's "friction" section: bottom friction by Manning's n, one value for every model
// of a comparison (docs/scenario.md, "friction"; its key is declared in the scenario's key
// table, core/scenario/scenario_keys.cpp). The shallow-water models apply it
// (S_f = g n^2 |u| u / d^{4/3}, core/model/manning_friction.hpp); the others have no bed to
// rub on and say so in the run's notes (Model::appliesBottomFriction).
#pragma once

namespace wb {

struct Friction {
  double manning = 0.0;  // Manning's n (s m^-1/3); 0: no bottom friction
};

// Manning's n beyond this is no bed a tank or a coast has: Chow's (1959) tables run from about
// 0.01 (glass, smooth concrete) to 0.15 (flood plains under brush and timber).
constexpr double kMaxManning = 0.2;

}  // namespace wb
