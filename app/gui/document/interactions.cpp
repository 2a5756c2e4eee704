#include "app/gui/document/interactions.hpp"

#include <algorithm>
#include <cmath>

namespace wb::gui {

// An interaction enters the comparison at the next frame: while the models do not play
// (paused, or stopped at a frame limit) that frame is stepped at once, so it shows.
void Interactions::stepIfPaused() {
  if (!worker_.playing()) worker_.stepOnce();
}

// A point picked on the rest plane just beyond the pool's edge, moved onto its outermost cell
// centres: the recorded session (and its autosave) holds only what its scenario accepts.
QPointF Interactions::ontoPool(QPointF point) const {
  const Grid& grid = document_.scenario().grid;
  const double half = 0.5 * grid.dx;
  return {std::clamp(point.x(), half, grid.width() - half),
          std::clamp(point.y(), half, grid.height() - half)};
}

void Interactions::drop(QPointF clicked, double radius, double amplitude) {
  const QPointF point = ontoPool(clicked);
  const SurfaceEvent drop{0.0, point.x(), point.y(), radius, amplitude, EventSource::User};
  recorder_.drop(drop);
  stepIfPaused();
}

// A Shift + drag stirs the water of the models that have a velocity: a Gaussian force at the
// start point for kStirSeconds, strong enough to give the water there about the drag's length
// per second of speed in the drag's direction (a = drag / (1 s * kStirSeconds)).
void Interactions::stir(QPointF clicked, QPointF to, double dropRadius) {
  constexpr double kStirSeconds = 0.2;
  const QPointF from = ontoPool(clicked);
  StirImpulse stir;
  stir.x = from.x();
  stir.y = from.y();
  stir.radius = 2.0 * dropRadius;
  stir.ax = (to.x() - from.x()) / kStirSeconds;
  stir.ay = (to.y() - from.y()) / kStirSeconds;
  stir.duration = kStirSeconds;
  recorder_.stir(stir);
  stepIfPaused();
}

// Ctrl + click drops a crate at the point, its bottom kBodyDropHeight (throwBody) above the
// highest of the models' water there; Ctrl + drag throws it, horizontally at kThrowRate times
// the drag (at most kMaxThrowSpeed).
BodySpec Interactions::crate(QPointF from, QPointF to) {
  constexpr double kBodyEdge = 0.6;       // m
  constexpr double kBodyDensity = 500.0;  // kg/m^3: floats half immersed
  constexpr double kThrowRate = 2.0;      // 1/s: speed per metre of drag
  constexpr double kMaxThrowSpeed = 4.0;  // m/s
  BodySpec spec;
  spec.size = Eigen::Vector3d::Constant(kBodyEdge);
  spec.density = kBodyDensity;
  spec.x = from.x();
  spec.y = from.y();
  Eigen::Vector3d throwVelocity(kThrowRate * (to.x() - from.x()), kThrowRate * (to.y() - from.y()),
                                0.0);
  if (throwVelocity.norm() > kMaxThrowSpeed) throwVelocity *= kMaxThrowSpeed / throwVelocity.norm();
  spec.velocity = throwVelocity;
  return spec;
}

// A recorded session entry (a timed "body" excitation) that enters every model's water at the
// next frame.
void Interactions::throwBody(const BodySpec& body) {
  constexpr double kBodyDropHeight = 0.5;  // m
  recorder_.throwBody(body, kBodyDropHeight);
  stepIfPaused();
}

void Interactions::steerBoat(QPointF point) {
  if (!boatFollow_) return;
  recorder_.steerBoat(point.x(), point.y());
}

void Interactions::setBoatFollow(bool on) {
  boatFollow_ = on;
  if (on) document_.addBoatIfNone();
}

void Interactions::setRain(bool on, double rate, double dropRadius, double dropAmplitude) {
  std::optional<RainSpec> rain;
  if (on) {
    rain.emplace();
    rain->rate = rate;
    rain->radius = dropRadius;
    rain->amplitude = -0.5 * std::abs(dropAmplitude);
  }
  recorder_.rain(rain);
}

void Interactions::setWind(bool on, double direction, double strength) {
  recorder_.wind(on ? std::optional(WindSpec{direction, strength}) : std::nullopt);
}

bool Interactions::maskDab(const MaskDab& dab, bool water) {
  if (!worker_.playing()) return false;
  recorder_.maskDab(dab, !water);
  return true;
}

}  // namespace wb::gui
