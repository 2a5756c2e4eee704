// swe-adi's discharge correction (docs/swe-adi.md, "Velocity and kinetic energy"): where the
// discharges' mid surfaces are not split by direction, the discharges q drift from the rate,
// M = -div(q) - hdot != 0; a Poisson solve takes M out by a gradient, so that the discharges
// stay the irrotational flow whose divergence is the rate.
#pragma once

#include <vector>

#include "core/grid/domain.hpp"
#include "core/solvers/multigrid.hpp"
#include "models/swe_adi/swe_adi_kernels.hpp"

namespace wb {

class DischargeSync {
 public:
  // The discharges are corrected when max |M| exceeds this fraction of max |hdot|.
  static constexpr float kTolerance = 0.01f;
  // On a rectangle over a flat bed the split mid surfaces keep the discharges to the rate up to
  // this multiple of the explicit limit; the depth follows the surface, so beyond it the
  // commutator of its variation grows with (q |L|)^2 and the step takes this correction's path
  // as the other domains do (docs/swe-adi.md, "Results").
  static constexpr double kSplitSurfaceLimit = 4.0;
  // The correction's Poisson solve: relative residual and V-cycles at most.
  static constexpr double kSolveTolerance = 1e-3;
  static constexpr int kSolveCycles = 10;

  // The fields the correction reads and changes; work and solution are the step's scratch.
  struct Fields {
    Field2D& fluxX;
    Field2D& fluxY;
    const Field2D& rate;
    const Field2D& depthX;
    const Field2D& depthY;
    Field2D& work;
    Field2D& solution;
  };

  // At reset: the per-row measures; the next step measures.
  void reset(int ny);
  // At reset and after a mask change: the Poisson solve's multigrid levels (they allocate), now
  // where the discharges may need them (needed), else lazily in the first step that does.
  void prepare(const Domain& domain, double maxRestDepth, bool needed);
  // The coming step's path: corrected (the one mid surface h~) where the energy check runs or
  // dt exceeds kSplitSurfaceLimit times the explicit limit, else the split mid surfaces.
  void begin(double dt, bool corrected);
  bool active() const { return active_; }
  // Whether this step measures M (with the surface update, which has the rows in cache): every
  // step that may need the correction, less often while M is far below the tolerance.
  bool measures(bool projected) const { return active_ && (measureIn_ <= 0 || projected); }
  void measureRow(const Field2D& fluxX, const Field2D& fluxY, const Field2D& rate, float invDx,
                  int j);
  // After the step's parallel region: on the corrected path, M taken out where it exceeds the
  // tolerance; nothing on the split path.
  void correct(const Fields& f, double dx, bool projected);
  // The discharges or the rates moved outside the step: measure in the next step.
  void measureNextStep() { measureIn_ = 0; }
  void forgetCorrection() { synced_ = false; }
  // Whether the last step corrected the discharges.
  bool corrected() const { return synced_; }

 private:
  const Domain* domain_ = nullptr;
  double maxRestDepth_ = 0.0;
  bool active_ = false;
  // Per row, the discharges' disagreement with the rate after the step.
  std::vector<Mismatch> mismatch_;
  bool synced_ = false;
  int measureIn_ = 0;  // steps until the mismatch is measured again
  double lastDt_ = 0.0;
  Multigrid poisson_;  // K psi = M
  Field2D poissonShift_;
  CgResult solve_;
};

}  // namespace wb
