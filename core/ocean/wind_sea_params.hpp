// The wind sea's parameters, declared once for every sea built from a spectrum: fft-ocean's
// own (its open form) and the scenario's "ocean" section under every model
// (core/ocean/ocean_layer.hpp). The GUI panels, JSON and --set come from these declarations.
#pragma once

#include <string>
#include <vector>

#include "core/model/parameters.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {

class Domain;

// spectrum, calibration, wind_speed, wind_direction, amplitude, small_wave_cutoff, fetch, gamma,
// seed (docs/fft-ocean.md, "The open sea").
std::vector<ParamSpec> windSeaParameterSpecs();
// The sea those values describe at gravity g and depth d (infinity: deep); small_wave_cutoff
// auto is none (the lattice ends at pi / dx).
WindSea windSeaFrom(const ParamValues& params, double g, double depth);

// The one rest depth of the domain's water, which the dispersion relation w^2 = g k tanh(k d)
// of every sea built from these needs (the scenario's ocean; fft-ocean's basin and open forms
// refuse their solid cells before asking). Throws InputError "<where>: the rest depth of the
// water ranges from <lo> to <hi> m; ..." when the wet cells' depths differ by more than 1e-6 of
// the deepest, or there is no water.
double uniformWaterDepth(const Domain& domain, const std::string& where);

}  // namespace wb
