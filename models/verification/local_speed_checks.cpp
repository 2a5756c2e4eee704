#include "models/verification/local_speed_checks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/forcing/excitations.hpp"
#include "core/grid/domain.hpp"
#include "core/measure/diagnostics.hpp"
#include "core/scenario/scenario.hpp"
#include "models/registry.hpp"

namespace wb {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kG = 9.81;

// A channel of nx x 3 cells with mirror walls (a plane wave along x: both stencils reduce to
// the 1-D three-point operator), rest depth depth(x).
Domain channel(int nx, double dx, const std::function<double(double)>& depth) {
  Domain domain(Grid{nx, 3, dx}, kG, 1.0);
  Field2D d(nx, 3);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < nx; ++i)
      d(i, j) = float(depth(domain.grid().x(i)));
  domain.setRestDepth(d);
  return domain;
}

// A surface at rest holding a raised cosine of height 2 and length `wavelength` centred on x0:
// it splits into two pulses of height 1 running east and west.
Field2D raisedCosine(const Domain& domain, double x0, double wavelength) {
  Field2D eta(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      const double s = (domain.grid().x(i) - x0) / wavelength;
      if (std::fabs(s) < 0.5) eta(i, j) = float(1.0 + std::cos(2.0 * kPi * s));
    }
  return eta;
}

std::unique_ptr<Model> waveModel(const std::string& modelId, const std::string& speed) {
  auto model = createModel(modelId, "verify");
  model->params().setFromText("speed", speed, "verify");
  // No damping: the heights compared are the theory's for a lossless wave.
  model->params().set(modelId == "advected-wave" ? "nu" : "k", 0.0, "verify");
  return model;
}

// Runs the model until `until` (s), calling sample(eta) after each step.
void run(Model& model, double until, const std::function<void(const Field2D&)>& sample) {
  const double dt = model.preferredDt();
  for (double t = 0.0; t < until; t += dt) {
    model.step(dt);
    sample(model.eta());
  }
}

}  // namespace

double DepthStepWaves::transmissionError() const {
  return std::fabs(transmitted / (incident * expectedTransmission) - 1.0);
}
double DepthStepWaves::reflectionError() const {
  return std::fabs(reflected / (incident * expectedReflection) - 1.0);
}

// The pulse starts 3 deep wavelengths from the west wall and 3 from the step; gauge A stands
// 1.5 deep wavelengths before the step (the incident pulse has passed it long before the
// reflected one returns, and the west wall's echo of the westward half comes later still),
// gauge B one shallow wavelength beyond it (the transmitted pulse has left the step whole).
// The shallow water runs 6 shallow wavelengths to the east wall, whose echo returns after the
// measurement.
DepthStepWaves measureDepthStep(const std::string& modelId, const std::string& speed) {
  const double d1 = 1.0, d2 = 0.25, dx = 0.1;
  const int shallowCells = 20, deepCells = 2 * shallowCells;  // per wavelength
  const double deepWave = deepCells * dx, shallowWave = shallowCells * dx;
  const double x0 = 3.0 * deepWave, step = 6.0 * deepWave;
  const int nx = int(std::lround((step + 6.0 * shallowWave) / dx));
  const Domain domain = channel(nx, dx, [&](double x) { return x < step ? d1 : d2; });
  auto model = waveModel(modelId, speed);
  model->reset(domain, raisedCosine(domain, x0, deepWave));
  const int gaugeA = int((step - 1.5 * deepWave) / dx), gaugeB = int((step + shallowWave) / dx);
  const double c1 = std::sqrt(kG * d1), c2 = std::sqrt(kG * d2);
  // The incident pulse has passed gauge A when its tail has (plus half a wavelength's time).
  const double incidentGone = (step - 1.5 * deepWave - x0 + deepWave) / c1;
  DepthStepWaves waves;
  double time = 0.0;
  const double dt = model->preferredDt();
  run(*model, (step - x0 + 1.5 * deepWave + deepWave) / c1, [&](const Field2D& eta) {
    time += dt;
    const double a = eta(gaugeA, 1);
    if (time < incidentGone)
      waves.incident = std::max(waves.incident, a);
    else
      waves.reflected = std::max(waves.reflected, a);
    waves.transmitted = std::max(waves.transmitted, double(eta(gaugeB, 1)));
  });
  waves.expectedTransmission = 2.0 * c1 / (c1 + c2);
  waves.expectedReflection = (c1 - c2) / (c1 + c2);
  return waves;
}

// The pulse (2 m long at the top, 20 cells per wavelength at the foot) starts 2 wavelengths
// from the west wall, whose echo of its westward half follows 4 wavelengths behind; the slope
// runs from 3 wavelengths to 3 + 37.5 m, the foot's flat water 10 m beyond.
double measureGreensLaw(const std::string& modelId, const std::string& speed) {
  const double d1 = 1.0, d2 = 0.25, slope = 1.0 / 50.0, dx = 0.05;
  const double wavelength = 40 * dx;
  const double top = 3.0 * wavelength, foot = top + (d1 - d2) / slope;
  const int nx = int(std::lround((foot + 10.0) / dx));
  const Domain domain = channel(nx, dx, [&](double x) {
    return x < top ? d1 : x > foot ? d2 : d1 - slope * (x - top);
  });
  auto model = waveModel(modelId, speed);
  model->reset(domain, raisedCosine(domain, 2.0 * wavelength, wavelength));
  const int gaugeTop = int(top / dx), gaugeFoot = int(foot / dx);
  // Travel time to the foot with the local speed, and the pulse's own time to pass it; the
  // west wall's echo is 4 wavelengths (at least 4 s at the foot's speed) behind.
  const double c1 = std::sqrt(kG * d1), c2 = std::sqrt(kG * d2);
  const double travel = (top - 2.0 * wavelength) / c1 + 2.0 * (foot - top) / (c1 + c2);
  double atTop = 0.0, atFoot = 0.0;
  run(*model, travel + 1.5 * wavelength / c2, [&](const Field2D& eta) {
    atTop = std::max(atTop, double(eta(gaugeTop, 1)));
    atFoot = std::max(atFoot, double(eta(gaugeFoot, 1)));
  });
  return atFoot / atTop / std::pow(d2 / d1, -0.25);
}

HarbourRun measureHarbour(const std::string& modelId, const std::string& speed, int steps) {
  const Scenario scenario = loadScenario("builtin:harbour");
  Domain domain = buildDomain(scenario);
  domain.setEdges(Edges{});  // walls: the energy and volume of a closed basin
  HarbourRun result;
  {
    auto model = waveModel(modelId, speed);
    model->reset(domain, Field2D(domain.nx(), domain.ny()));
    run(*model, steps * model->preferredDt(), [&](const Field2D& eta) {
      result.restMax = std::max(result.restMax, double(eta.maxAbs()));
    });
  }
  // A drop on the shelf, where the depth varies most.
  Field2D eta0(domain.nx(), domain.ny());
  stampGaussian(eta0, domain.withLandAsWalls(),
                SurfaceEvent{0, 14.0, 4.0, 0.8, 0.1, EventSource::Drop});
  double absVolume = 0.0;
  for (std::size_t k = 0; k < eta0.size(); ++k)
    absVolume += std::fabs(eta0.data()[k]);
  absVolume *= domain.grid().cellArea();
  auto model = waveModel(modelId, speed);
  model->reset(domain, eta0);
  const Domain walled = domain.withLandAsWalls();
  const double volume0 = wetVolume(model->eta(), walled);
  const auto energy = [&] {
    double potential = 0.0;
    const Field2D& eta = model->eta();
    for (std::size_t k = 0; k < eta.size(); ++k)
      if (walled.wetMask()[k]) potential += double(eta.data()[k]) * eta.data()[k];
    return 0.5 * kG * potential * domain.grid().cellArea() + model->kineticEnergy();
  };
  const double dt = model->preferredDt();
  model->step(dt);
  const double energy1 = energy();
  double previous = volume0, current = wetVolume(model->eta(), walled);
  for (int s = 1; s < steps; ++s) {
    model->step(dt);
    const double next = wetVolume(model->eta(), walled);
    result.volumeStep =
        std::max(result.volumeStep, std::fabs((next - current) - (current - previous)));
    result.volumeDrift = std::max(result.volumeDrift, std::fabs(next - volume0));
    previous = current, current = next;
    if (s % 50 == 0)
      result.energyChange = std::max(result.energyChange, std::fabs(energy() / energy1 - 1.0));
  }
  result.volumeDrift /= absVolume;
  result.volumeStep /= absVolume;
  return result;
}

}  // namespace wb

namespace wb {

namespace {

// The beam's geometry in shallow wavelengths L (docs in local_speed_checks.hpp): the ray from
// the pulse's centre P0 meets the step at (xs, yh) after `toStep` along it; the crest is read
// `past` beyond the step, on the rows within `band` of the centre's row there. Every margin
// keeps the walls' echoes and the beam's ends out of that band until the reading.
struct BeamLayout {
  double x0 = 0.0, y0 = 0.0, xs = 0.0, yh = 0.0, toStep = 0.0;
  double width = 0.0, length = 0.0;  // the domain (m)
};
constexpr double kFlat = 14.0, kTaper = 1.0, kPast = 2.0, kBand = 1.5;  // in L

BeamLayout beamLayout(double theta1, double wavelength) {
  const double L = wavelength, reach = (kFlat / 2.0 + kTaper) * L;  // the beam's half width
  const double s = std::sin(theta1), c = std::cos(theta1);
  BeamLayout b;
  // The pulse (2 L long in the deep water) clear of the step by L / 2 at its nearest corner.
  b.toStep = reach * s / c + L + 0.5 * L / c;
  // West: the pulse's far corner inside the pool, and the echo of its westward half off the
  // west wall still west of the step when the reading is taken (it runs kPast L / c2 = 2 kPast L
  // / c1 behind the transmitted crest).
  b.x0 = L * c + reach * s + 2.0 * kPast * L * c + L;
  b.xs = b.x0 + b.toStep * c;
  b.y0 = reach * c + L * s + L;
  b.yh = b.y0 + b.toStep * s;
  b.length = b.xs + 6.0 * L;
  // North: the beam's upper end, carried the whole run's distance along the incident ray.
  b.width = b.y0 + reach * c + L * s + (b.toStep + 2.0 * kPast * L) * s + L;
  return b;
}

// The beam's surface at rest: height 2 (it splits into two halves of 1 running either way).
Field2D beam(const Domain& domain, const BeamLayout& b, double theta1, double wavelength) {
  const double deepWave = 2.0 * wavelength, halfFlat = kFlat / 2.0 * wavelength;
  Field2D eta(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i) {
      const double dx = domain.grid().x(i) - b.x0, dy = domain.grid().y(j) - b.y0;
      const double along = (dx * std::cos(theta1) + dy * std::sin(theta1)) / deepWave;
      const double across = std::fabs(-dx * std::sin(theta1) + dy * std::cos(theta1));
      if (std::fabs(along) >= 0.5 || across >= halfFlat + kTaper * wavelength) continue;
      const double taper =
          across <= halfFlat ? 1.0 : 0.5 * (1.0 + std::cos(kPi * (across - halfFlat) / wavelength));
      eta(i, j) = float((1.0 + std::cos(2.0 * kPi * along)) * taper);
    }
  return eta;
}

// The crest's x on row j east of x = from: the highest cell, refined by the parabola through
// it and its neighbours.
double crestOnRow(const Field2D& eta, int j, int from) {
  int best = from;
  for (int i = from; i < eta.nx() - 1; ++i)
    if (eta(i, j) > eta(best, j)) best = i;
  best = std::clamp(best, 1, eta.nx() - 2);
  const double a = eta(best - 1, j), m = eta(best, j), c = eta(best + 1, j);
  const double curvature = a - 2.0 * m + c;
  return best + (curvature < 0.0 ? 0.5 * (a - c) / curvature : 0.0);
}

}  // namespace

Refraction measureRefraction(const std::string& modelId, const std::string& speed,
                             double incidentDeg, int cellsPerWavelength) {
  const double d1 = 1.0, d2 = 0.25, L = 2.0, dx = L / cellsPerWavelength;
  const double c1 = std::sqrt(kG * d1), c2 = std::sqrt(kG * d2);
  const double theta1 = incidentDeg * kPi / 180.0;
  const double theta2 = std::asin(c2 / c1 * std::sin(theta1));
  const BeamLayout b = beamLayout(theta1, L);
  Domain domain(Grid{int(std::ceil(b.length / dx)), int(std::ceil(b.width / dx)), dx}, kG, d1);
  Field2D depth(domain.nx(), domain.ny());
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      depth(i, j) = float(domain.grid().x(i) < b.xs ? d1 : d2);
  domain.setRestDepth(depth);
  auto model = waveModel(modelId, speed);
  model->reset(domain, beam(domain, b, theta1, L));
  run(*model, b.toStep / c1 + kPast * L / c2, [](const Field2D&) {});
  // The band of rows around the centre's crossing of the reading line, the crest searched
  // east of half a shallow wavelength past the step (the reflected wave stays west of it).
  const double yCentre = b.yh + kPast * L * std::sin(theta2);
  const int j0 = int(std::lround((yCentre - kBand * L) / dx));
  const int j1 = int(std::lround((yCentre + kBand * L) / dx));
  const int from = int(std::lround((b.xs + 0.5 * L) / dx));
  // x(y) along the crest, a straight line by least squares: its slope dx/dy is -tan(theta2).
  double sy = 0.0, sx = 0.0, syy = 0.0, sxy = 0.0;
  const int n = j1 - j0 + 1;
  for (int j = j0; j <= j1; ++j) {
    const double x = crestOnRow(model->eta(), j, from), y = j;
    sy += y, sx += x, syy += y * y, sxy += x * y;
  }
  const double slope = (n * sxy - sx * sy) / (n * syy - sy * sy);
  return {incidentDeg, theta2 * 180.0 / kPi, std::atan(-slope) * 180.0 / kPi};
}

}  // namespace wb
