// The wind sea's parameters, declared once for every sea built from a spectrum: fft-ocean's
// own (its open form) and the scenario's "ocean" section under every model
// (core/ocean/ocean_layer.hpp). The GUI panels, JSON and --set come from these declarations.
#pragma once

#include <vector>

#include "core/model/parameters.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {

// spectrum, calibration, wind_speed, wind_direction, amplitude, small_wave_cutoff, fetch, gamma,
// seed (docs/fft-ocean.md, "The open sea").
std::vector<ParamSpec> windSeaParameterSpecs();
// The sea those values describe at gravity g and depth d (infinity: deep); small_wave_cutoff
// auto is none (the lattice ends at pi / dx).
WindSea windSeaFrom(const ParamValues& params, double g, double depth);

}  // namespace wb
