// swe-adi's energy check (docs/swe-adi.md, "Stability"): where the row and column operators
// L_x and L_y do not commute, the ADI iterate may add energy; the step then takes its
// Galerkin projection onto span{delta, c} instead, which keeps the trapezoidal rule's energy.
#pragma once

#include <vector>

#include "core/grid/domain.hpp"
#include "models/swe_adi/swe_adi_kernels.hpp"

namespace wb {

class EnergyProjection {
 public:
  // The step's fields the projection reads and changes: its right side r, the iterate delta
  // and the last ADI correction c (delta itself with one iteration), with the couplings
  // c_f = couple D_f of the face depths.
  struct Step {
    const float* rhs;
    float* delta;
    float* correction;
    const float* depthX;
    const float* depthY;
    float couple;
    int nx, ny;
    int iterations;
  };

  // Whether L_x and L_y commute (a rectangle of wet cells over a flat bed): decided at reset
  // and after a mask change, as is the per-row work space.
  void reset(const Domain& domain);
  void followMask(const Domain& domain) { commuting_ = operatorsCommute(domain); }
  // Whether the coming step is checked: where the operators do not commute, or where dry
  // cells cut the rows and columns (their faces pass no water) in this step.
  void begin(int dryCells) { active_ = !commuting_ || dryCells > 0; }
  bool active() const { return active_; }
  bool commuting() const { return commuting_; }
  // Inside the step's parallel region, after the ADI iterations (orphaned work-sharing loops);
  // nothing where the step is not checked.
  void project(const Step& s);
  // The weights of the last projection, delta <- a delta + b c (1 and 0: the plain step).
  double weightDelta() const { return weightDelta_; }
  double weightCorrection() const { return weightCorrection_; }
  bool changedStep() const { return weightDelta_ != 1.0 || weightCorrection_ != 0.0; }

  static bool operatorsCommute(const Domain& domain);

 private:
  bool commuting_ = true, active_ = false;
  std::vector<Gram> gram_;          // per row, the projection's inner products
  std::vector<double> energyLoss_;  // per row, delta^T res
  double weightDelta_ = 1.0, weightCorrection_ = 0.0;
};

}  // namespace wb
