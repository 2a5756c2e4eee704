// What a mask change during a run leaves for a three-level scheme to settle (Model::changeMask).
#pragma once

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

// A three-level scheme h^{n+1} = h^n + R (h^n - h^{n-1}) + mu L(h^n) with mirror walls carries
// its volume as V^{n+1} - V^n = R (V^n - V^{n-1}) (sum L h = 0 over each body of water): the
// volume rate sum(h^n - h^{n-1}) of a body that walls close is 0, nothing flowing through
// them. Cells cut out of the water mid-run take their share of that sum with them, and the
// rest would go on rising or falling at the rate they held. The schemes keep the increment
// v = h^n - h^{n-1} (core/grid/wave_levels.hpp); this shifts h^{n-1} (so v) uniformly over
// each body of water (4-connected wet cells: the mirror rule couples no cells across a corner),
// a shift of h_t in L's null space that leaves the waves alone: a closed body's rate becomes 0;
// the bodies that reach an open edge's layer, whose rate is the layer's outflow, together keep
// `openRate`, the rate that all the water held before the change.
void balanceHeightRate(const Domain& domain, Field2D& increment, double openRate);
// sum(v) over the domain's wet cells.
double heightRate(const Domain& domain, const Field2D& increment);

// A cell k that a stroke changed, in a shallow-water model that keeps the surface h over the
// ground b = -rest depth: a cell turned wet holds water up to the rest level, or none on ground
// above it (h = max(0, b), d = 0); one turned solid holds none (h = 0). Sets ground[k] and h[k];
// returns the water depth added (m, negative for water taken away).
double refillChangedCell(const Domain& domain, std::size_t k, Field2D& surface, Field2D& ground);

}  // namespace wb
