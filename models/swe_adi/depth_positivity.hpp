// swe-adi's drying correction (docs/swe-adi.md, "Flooding and drying, and what the step
// corrects"): a cell the frozen-depth step drew below its ground gets its deficit back from
// the wet cells joined to it, a correction of the step's face fluxes that moves water but
// creates none; the face discharges carry it, so they keep agreeing with the rates.
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
  // The face discharges q and their velocities u = q / D (SweAdi's staggered fields).
  struct Faces {
    Field2D& qx;
    Field2D& qy;
    Field2D& u;
    Field2D& v;
    const Field2D& depthX;
    const Field2D& depthY;
    double dx;
  };
  // Lifts every wet cell below its ground (in the rows whose counts say they have one) and
  // returns the sum of the deficits (m); the rates follow the corrected surfaces and the face
  // discharges the rates.
  double restore(Field2D& h, Field2D& rate, const Faces& faces, const Field2D& ground,
                 const SweWalls& walls, const std::vector<RowCounts>& rows, double dt);
  // Whether the last restore found a cell whose joined water could not cover its deficit:
  // then it lifted that cell to its ground with water of its own, which no face carried.
  bool ranShort() const { return ranShort_; }

 private:
  double refill(std::size_t k, Field2D& h, Field2D& rate, const Field2D& ground,
                const SweWalls& walls, double dt);
  void carryThroughFaces(const Faces& faces);

  std::vector<std::size_t> reached_;
  // Per reached cell: the reached cell it was reached from, and the change of its rate (m/s).
  std::vector<std::uint32_t> parent_;
  std::vector<double> rateChange_;
  bool ranShort_ = false;
  std::vector<std::uint32_t> visited_;
  std::uint32_t visitStamp_ = 0;
};

}  // namespace wb
