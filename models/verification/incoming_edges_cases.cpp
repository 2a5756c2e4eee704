// Incoming-wave edges of every model that has them (core/grid/incoming_wave.hpp,
// docs/open-edges.md "Incoming waves").
//
// Arrival: a KdV solitary wave (a = 2 mm on d = 1 m, crest at the grid's edge at 25 s) enters a
// flat channel of 300 m through its west side; the east side is open, south and north walls. At
// gauges x = 30, 60, 90, 120 m the surface must be eta_in(t - x / c), c the model's long-wave
// speed (sqrt(g d); the nonlinear crest runs faster by 1.5 a / d = 0.3 %, which moves it 0.4 m
// over 120 m: 1 % of a). The error is the largest |eta - eta_in(t - x / c)| over the gauges at
// the run's end, over a. The east edge is 300 m away: nothing it sends back reaches the gauges
// in 60 s.
//
// Reflection: a plane Gaussian pulse (1 mm, width 3 m) at rest in the middle of a 192 m channel
// with the west side incoming (a sine of 1 mm, period 20 s) and the east side open. The same
// run without the pulse is subtracted: what is left after the pulse's halves have been through
// the edges is what the incoming edge (and the open one) sent back; its potential energy over the
// pulse's initial potential energy is the figure.
//
// Budget: in the arrival run volume(t) - volume(0) - sink(t) is the model's drift, with the sink
// counting what entered (positive) and left.
#include <cmath>
#include <map>
#include <sstream>

#include "core/measure/diagnostics.hpp"
#include "models/registry.hpp"
#include "models/verification/verification.hpp"

namespace wb {

namespace {

constexpr double kG = 9.81, kDepth = 1.0;
constexpr double kChannel = 300.0, kWidth = 4.0;  // m
constexpr double kSolitary = 2e-3, kCrestTime = 25.0;
constexpr std::array<double, 4> kGauges = {30.0, 60.0, 90.0, 120.0};

IncomingWave solitaryWave() {
  IncomingWave wave;
  wave.form = IncomingWave::Form::Solitary;
  wave.amplitude = kSolitary;
  wave.crestTime = kCrestTime;
  return wave;
}

std::unique_ptr<Model> modelOn(const std::string& modelId, const Domain& domain,
                               const Field2D& eta0,
                               const std::map<std::string, std::string>& params) {
  auto model = createModel(modelId, "incoming edges");
  for (const auto& [name, value] : params)
    model->params().setFromText(name, value, "incoming edges");
  model->reset(domain, eta0);
  return model;
}

// Steps of at most the model's preferred dt, equal, to reach `duration`.
void runFor(Model& model, double duration) {
  const int steps = int(std::ceil(duration / model.preferredDt()));
  for (int k = 0; k < steps; ++k)
    model.step(duration / steps);
}

// The surface at x (m) along the channel's middle row, linear between cell centres.
double surfaceAt(const Field2D& eta, double x, double dx) {
  const double position = x / dx - 0.5;
  const int i = int(std::floor(position));
  const double w = position - i;
  const int j = eta.ny() / 2;
  return (1.0 - w) * eta(i, j) + w * eta(i + 1, j);
}

double modelSpeed(const Model& model) {
  const double c = std::sqrt(kG * kDepth);
  return model.params().has("c") ? model.params().getOptional("c").value_or(c) : c;
}

}  // namespace

std::map<std::string, std::string> incomingCheckParams(const std::string& modelId) {
  if (modelId == "advected-wave") return {{"nu", "0"}};
  if (modelId == "swe-semi-lagrangian") return {{"dt", "0.1"}};
  return {};
}

IncomingArrival measureIncomingArrival(const std::string& modelId, double dx, double time,
                                       const std::map<std::string, std::string>& params) {
  Domain domain(Grid{int(std::lround(kChannel / dx)), int(std::lround(kWidth / dx)), dx}, kG,
                kDepth);
  Edges edges;
  edges.set(Side::West, EdgeKind::Incoming);
  edges.incoming[std::size_t(Side::West)] = solitaryWave();
  edges.set(Side::East, EdgeKind::Open);
  domain.setEdges(edges);
  const Field2D eta0(domain.nx(), domain.ny());
  auto model = modelOn(modelId, domain, eta0, params);
  runFor(*model, time);
  const double c = modelSpeed(*model);
  IncomingArrival r;
  for (double x : kGauges) {
    const double expected = solitaryWave().elevation(time - x / c, kG, kDepth);
    const double error = std::abs(surfaceAt(model->eta(), x, dx) - expected) / kSolitary;
    r.error = std::max(r.error, error);
  }
  r.volume = summarizeSurface(model->eta(), domain).volume;
  r.sink = model->volumeSink();
  return r;
}

double measureIncomingReflection(const std::string& modelId,
                                 const std::map<std::string, std::string>& params) {
  constexpr int kNx = 192, kNy = 8;
  constexpr double kPulseWidth = 3.0, kAmplitude = 1e-3;
  Domain domain(Grid{kNx, kNy, 1.0}, kG, kDepth);
  Edges edges;
  edges.set(Side::West, EdgeKind::Incoming);
  IncomingWave sine;
  sine.form = IncomingWave::Form::Sine;
  sine.amplitude = kAmplitude;
  sine.period = 20.0;
  edges.incoming[std::size_t(Side::West)] = sine;
  edges.set(Side::East, EdgeKind::Open);
  domain.setEdges(edges);
  Field2D pulse(kNx, kNy), rest(kNx, kNy);
  double pulseEnergy = 0.0;
  for (int j = 0; j < kNy; ++j)
    for (int i = 0; i < kNx; ++i) {
      const double s = domain.grid().x(i) - 0.5 * domain.grid().width();
      pulse(i, j) = float(kAmplitude * std::exp(-s * s / (2 * kPulseWidth * kPulseWidth)));
      pulseEnergy += double(pulse(i, j)) * pulse(i, j);
    }
  // Both halves through a layer and back (as the open edges' pulse, docs/open-edges.md).
  const double duration = (kNx + edges.layerCells) / std::sqrt(kG * kDepth);
  auto withPulse = modelOn(modelId, domain, pulse, params);
  auto without = modelOn(modelId, domain, rest, params);
  runFor(*withPulse, duration);
  runFor(*without, duration);
  double left = 0.0;
  for (int j = 0; j < kNy; ++j)
    for (int i = 0; i < kNx; ++i) {
      const double d = double(withPulse->eta()(i, j)) - without->eta()(i, j);
      left += d * d;
    }
  return left / pulseEnergy;  // the same 0.5 g dA in both
}

std::vector<VerifyCase> incomingEdgesCases() {
  struct Row {
    std::string model;
    std::map<std::string, std::string> params;
    double arrival, reflection;  // tolerances: relative to a, and potential energy ratio
  };
  std::vector<Row> rows;
  for (const char* model : {"damped-wave", "advected-wave", "swe-semi-lagrangian", "swe-adi"})
    rows.push_back({model, incomingCheckParams(model),
                    std::string(model) == "swe-semi-lagrangian" ? kIncomingArrivalErrorImplicit
                                                                : kIncomingArrivalError,
                    kIncomingReflection});
  std::vector<VerifyCase> cases;
  for (const Row& row : rows) {
    std::ostringstream suffix;
    for (const auto& [key, value] : row.params)
      suffix << " (" << key << " = " << value << ")";
    const std::string arrival = "incoming solitary wave at gauges" + suffix.str();
    const std::string reflection = "incoming edge: pulse sent back" + suffix.str();
    cases.push_back({row.model, arrival, [row, arrival] {
                       const IncomingArrival r =
                           measureIncomingArrival(row.model, 1.0, 60.0, row.params);
                       std::ostringstream detail;
                       detail << "max |eta - eta_in(t - x/c)| / a at x = 30..120 m, t = 60 s, dx "
                                 "= 1 m; entered "
                              << r.sink << " m^3, drift " << r.drift() << " m^3";
                       return VerifyResult{row.model,   arrival, r.error,
                                           row.arrival, "rel",   r.error <= row.arrival,
                                           detail.str()};
                     }});
    cases.push_back({row.model, reflection, [row, reflection] {
                       const double left = measureIncomingReflection(row.model, row.params);
                       return VerifyResult{row.model,
                                           reflection,
                                           left,
                                           row.reflection,
                                           "ratio",
                                           left <= row.reflection,
                                           "potential energy of (pulse + incoming sine) - "
                                           "(incoming sine) after 69 s over the pulse's"};
                     }});
  }
  return cases;
}

}  // namespace wb
