// The cost of buoyant bodies (core/forcing/rigid_bodies.hpp): one step of each model on an
// N x N pool of 0.25 m cells, 1 m deep, after a drop, alone (0 boxes) and followed by the
// two-way coupling (core/run/body_coupling.hpp) with 200 boxes of 0.5 m (two cells; Kim &
// Yoo's 200 floating boxes) at half density resting on a 20 x 10 lattice over the pool. Both
// rows step the same water, so their ratio in one run is the bodies' overhead.
#include <benchmark/benchmark.h>

#include "core/forcing/excitations.hpp"
#include "core/run/body_coupling.hpp"
#include "models/registry.hpp"

namespace wb {
namespace {

void BM_StepWithBodies(benchmark::State& state, const std::string& id) {
  const int boxes = int(state.range(0)), n = int(state.range(1));
  const Domain domain(Grid{n, n, 0.25}, 9.81, 1.0);
  Field2D eta0(n, n);
  stampGaussian(eta0, domain,
                {0.0, 0.3 * domain.grid().width(), 0.5 * domain.grid().height(), 2.0, 0.05,
                 EventSource::Drop});
  auto model = createModel(id);
  model->reset(domain, eta0);
  RigidBodies bodies(domain, 1000.0);
  for (int k = 0; k < boxes; ++k) {
    BodySpec box;
    box.size = {0.5, 0.5, 0.5};
    box.density = 500.0;
    box.x = (0.5 + k % 20) * domain.grid().width() / 20;
    box.y = (0.5 + k / 20) * domain.grid().height() / 10;
    bodies.add(box, k, model->eta());
  }
  Field2D scratch(n, n), shadow(n, n);
  const double dt = model->preferredDt();
  for (auto _ : state) {
    model->step(dt);
    if (boxes > 0) coupleBodies(bodies, *model, dt, scratch, shadow);
  }
  state.counters["cells/s"] =
      benchmark::Counter(double(n) * n * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(id + ", " + std::to_string(boxes) + " boxes");
}

const bool registered = [] {
  for (const std::string id : {"damped-wave", "advected-wave", "swe-semi-lagrangian", "swe-adi"})
    benchmark::RegisterBenchmark(("BM_StepWithBodies/" + id).c_str(), BM_StepWithBodies, id)
        ->ArgsProduct({{0, 200}, {32, 256}})
        ->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
}  // namespace wb
