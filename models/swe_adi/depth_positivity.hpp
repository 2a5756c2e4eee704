// swe-adi's drying correction (docs/swe-adi.md, "Flooding and drying, and what the step
// corrects"): a cell the frozen-depth step drew below its ground gets its deficit back from
// the wet cells joined to it, a correction of the step's face fluxes that moves water but
// creates none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/grid/field2d.hpp"
#include "models/swe_adi/swe_adi_kernels.hpp"
#include "models/swe_semi_lagrangian/swe_walls.hpp"

namespace wb {

class DepthPositivity {
 public:
  // The breadth-first search's work space, sized at reset (no allocation inside a step).
  void reset(std::size_t cells);
  // Lifts every wet cell below its ground (in the rows whose counts say they have one) and
  // returns the sum of the deficits (m); the rates follow the corrected surfaces.
  double restore(Field2D& h, Field2D& rate, const Field2D& ground, const SweWalls& walls,
                 const std::vector<RowCounts>& rows, double dt);

 private:
  double refill(std::size_t k, Field2D& h, Field2D& rate, const Field2D& ground,
                const SweWalls& walls, double dt);

  std::vector<std::size_t> reached_;
  std::vector<std::uint32_t> visited_;
  std::uint32_t visitStamp_ = 0;
};

}  // namespace wb
