// Errors of a run against the finest run of its group, for a scenario without an exact
// reference (docs/studies.md, errors): the finest surface is sampled at the coarse run's cell
// centres (bilinear, core/grid/interpolation.hpp) and the errors are those of series.csv
// (core/measure/references.hpp) with that surface in the exact one's place.
#pragma once

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/measure/references.hpp"

namespace wb {

// `fine` covers the same rectangle as `domain` (on the finer grid `fineGrid`).
ReferenceErrors errorsAgainstFinerRun(const Field2D& eta, const Domain& domain, const Field2D& fine,
                                      const Grid& fineGrid);

}  // namespace wb
