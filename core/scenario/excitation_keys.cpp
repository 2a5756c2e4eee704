// The "excitations" list and the drops of "initial" (docs/scenario.md, excitations): each entry
// an object with a "type", read in the list's order (a body towed_by names a boat before it).
#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "core/scenario/scenario_sections.hpp"

namespace wb {
using nlohmann::json;

namespace {

// A mask stroke: {"type": "mask", "time": t, "solid": true | false, "dabs": [{x, y, radius}]}.
MaskStroke readStroke(ObjectReader& r, const std::string& where, const Grid& grid) {
  MaskStroke stroke;
  stroke.time = r.number("time", 0, 0, kHuge);
  if (r.has("solid")) {
    const json& solid = r.raw("solid");
    if (!solid.is_boolean()) ObjectReader::fail(r.at("solid"), "must be true or false");
    stroke.solid = solid.get<bool>();
  }
  const json& dabs = r.raw("dabs");
  if (!dabs.is_array() || dabs.empty())
    ObjectReader::fail(r.at("dabs"), "must be [{\"x\", \"y\", \"radius\"}, ...]");
  for (std::size_t k = 0; k < dabs.size(); ++k) {
    ObjectReader d(dabs[k], where + ".dabs[" + std::to_string(k) + "]");
    stroke.dabs.push_back({d.requiredNumber("x", 0, grid.width()),
                           d.requiredNumber("y", 0, grid.height()),
                           d.number("radius", 0, 0, std::max(grid.width(), grid.height()))});
    d.finish();
  }
  return stroke;
}

// A boat's recorded steering: [{"time": t, "target": [x, y]}, ...] in time order.
std::vector<BoatSteer> readSteering(const json& list, const std::string& where, const Grid& grid) {
  if (!list.is_array()) ObjectReader::fail(where, "must be [{\"time\", \"target\": [x, y]}, ...]");
  std::vector<BoatSteer> steering;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ObjectReader r(list[k], where + "[" + std::to_string(k) + "]");
    BoatSteer steer;
    steer.time = r.requiredNumber("time", 0, kHuge);
    if (!steering.empty() && steer.time < steering.back().time)
      ObjectReader::fail(r.at("time"), "must not be earlier than the entry before it");
    const json& target = r.raw("target");
    if (!target.is_array() || target.size() != 2)
      ObjectReader::fail(r.at("target"), "must be [x, y]");
    steer.x = ObjectReader::checkedNumber(target[0], r.at("target"), 0, grid.width());
    steer.y = ObjectReader::checkedNumber(target[1], r.at("target"), 0, grid.height());
    r.finish();
    steering.push_back(steer);
  }
  return steering;
}

// With a travelling window (`worldPaths`) a boat's path may run anywhere on the open sea.
void readExcitation(const json& value, const std::string& where, const Grid& grid,
                    ExcitationSpecs& out, bool worldPaths) {
  if (!value.is_object() || !value.contains("type") || !value["type"].is_string())
    ObjectReader::fail(where, "needs a \"type\": drop, rain, boat, wind, stir, body or mask");
  const std::string type = value["type"].get<std::string>();
  if (type == "drop") {
    out.drops.push_back(readDrop(value, where, grid, true));
    return;
  }
  if (type == "body") {  // a body that enters the water at `time` (a recorded throw)
    json keys = value;
    keys.erase("type");
    TimedBody body;
    if (keys.contains("time"))
      body.time = ObjectReader::checkedNumber(keys["time"], where + ".time", 0, kHuge);
    keys.erase("time");
    body.spec = parseBody(keys, where, grid, out.boats.size());
    if (body.spec.shape == BodyShape::Mesh)
      ObjectReader::fail(where + ".shape", "a body thrown in during the run is a box or a hull");
    out.bodies.push_back(body);
    return;
  }
  ObjectReader r(value, where);
  r.text("type", "");
  if (type == "rain") {
    RainSpec rain;
    rain.rate = r.number("rate", rain.rate, 0, 1e6);
    rain.count = r.integer("count", 0, 0, 10000000);
    rain.radius = r.number("radius", 2 * grid.dx, 1e-6, kHuge);
    rain.amplitude = r.number("amplitude", rain.amplitude, -kHuge, kHuge);
    rain.start = r.number("start", 0, 0, kHuge);
    rain.end = r.number("end", 1e300, 0, 1e300);
    if (rain.end < rain.start) ObjectReader::fail(r.at("end"), "is before \"start\"");
    if (rain.count > 0 && rain.end >= 1e300)
      ObjectReader::fail(where + ".end", "rain with a count needs an end time");
    out.rain.push_back(rain);
  } else if (type == "boat") {
    BoatSpec boat;
    if (r.has("target")) {
      const json& t = r.raw("target");
      if (!t.is_array() || t.size() != 2) ObjectReader::fail(r.at("target"), "must be [x, y]");
      boat.waypoints.push_back(
          {ObjectReader::checkedNumber(t[0], r.at("target"), 0, grid.width()),
           ObjectReader::checkedNumber(t[1], r.at("target"), 0, grid.height())});
    }
    if (r.has("path")) {
      const json& path = r.raw("path");
      if (!path.is_array() || path.empty())
        ObjectReader::fail(r.at("path"), "must be [[x, y], ...]");
      for (std::size_t k = 0; k < path.size(); ++k) {
        const std::string at = r.at("path") + "[" + std::to_string(k) + "]";
        if (!path[k].is_array() || path[k].size() != 2) ObjectReader::fail(at, "must be [x, y]");
        const double lo = worldPaths ? -kWorld : 0.0, far = worldPaths ? kWorld : 0.0;
        boat.waypoints.push_back(
            {ObjectReader::checkedNumber(path[k][0], at, lo, far + grid.width()),
             ObjectReader::checkedNumber(path[k][1], at, lo, far + grid.height())});
      }
    }
    if (boat.waypoints.empty())
      ObjectReader::fail(where, "a boat needs a \"target\" or a \"path\"");
    if (r.has("steer")) boat.steering = readSteering(r.raw("steer"), r.at("steer"), grid);
    boat.startX = r.number("x", grid.width() / 2, 0, grid.width());
    boat.startY = r.number("y", grid.height() / 2, 0, grid.height());
    boat.acceleration = r.number("acceleration", boat.acceleration, 0, kHuge);
    boat.maxSpeed = r.number("max_speed", boat.maxSpeed, 0, kHuge);
    boat.wakeRadius = r.number("wake_radius", 2 * grid.dx, 1e-6, kHuge);
    boat.wakeAmplitude = r.number("wake_amplitude", boat.wakeAmplitude, -kHuge, kHuge);
    boat.tiltGain = r.number("tilt_gain", boat.tiltGain, -kHuge, kHuge);
    boat.arriveRadius = r.number("arrive_radius", 4 * grid.dx, 0, kHuge);
    boat.step = r.number("step", boat.step, 1e-5, 10);
    out.boats.push_back(boat);
  } else if (type == "stir") {
    StirImpulse stir;
    stir.start = r.number("time", 0, 0, kHuge);
    stir.x = r.requiredNumber("x", 0, grid.width());
    stir.y = r.requiredNumber("y", 0, grid.height());
    stir.radius = r.number("radius", 2 * grid.dx, 1e-6, kHuge);
    // The range of a wind's strength: both are accelerations of the water.
    stir.ax = r.number("ax", 0, -1e4, 1e4);
    stir.ay = r.number("ay", 0, -1e4, 1e4);
    stir.duration = r.number("duration", stir.duration, 0, kHuge);
    out.stirs.push_back(stir);
  } else if (type == "mask") {
    MaskStroke stroke = readStroke(r, where, grid);
    recordStroke(out, stroke.time, std::move(stroke));
  } else if (type == "wind") {
    WindSpec wind;
    wind.direction = r.number("direction", wind.direction, -360, 360);
    wind.strength = r.number("strength", wind.strength, 0, 1e4);
    wind.start = r.number("start", 0, 0, kHuge);
    wind.end = r.number("end", 1e300, 0, 1e300);
    if (wind.end < wind.start) ObjectReader::fail(r.at("end"), "is before \"start\"");
    if (r.has("region")) {
      ObjectReader region(r.raw("region"), r.at("region"));
      wind.hasRegion = true;
      wind.x0 = region.requiredNumber("x0", -kHuge, kHuge);
      wind.y0 = region.requiredNumber("y0", -kHuge, kHuge);
      wind.x1 = region.requiredNumber("x1", -kHuge, kHuge);
      wind.y1 = region.requiredNumber("y1", -kHuge, kHuge);
      if (wind.x1 < wind.x0) ObjectReader::fail(region.at("x1"), "is less than x0");
      if (wind.y1 < wind.y0) ObjectReader::fail(region.at("y1"), "is less than y0");
      region.finish();
    }
    out.wind.push_back(wind);
  } else {
    ObjectReader::fail(
        where + ".type",
        "unknown excitation '" + type + "' (expected drop, rain, boat, wind, stir, body or mask)");
  }
  r.finish();
}

}  // namespace

SurfaceEvent readDrop(const json& value, const std::string& where, const Grid& grid, bool timed) {
  ObjectReader r(value, where);
  SurfaceEvent drop;
  drop.x = r.requiredNumber("x", 0, grid.width());
  drop.y = r.requiredNumber("y", 0, grid.height());
  drop.radius = r.number("radius", 2 * grid.dx, 1e-6, kHuge);
  drop.amplitude = r.number("amplitude", -0.1, -kHuge, kHuge);
  if (timed) drop.time = r.number("time", 0, 0, kHuge);
  if (timed) r.text("type", "drop");
  r.finish();
  return drop;
}

json dropJson(const SurfaceEvent& drop, bool timed) {
  json out = {{"x", drop.x}, {"y", drop.y}, {"radius", drop.radius}, {"amplitude", drop.amplitude}};
  if (timed) out["type"] = "drop", out["time"] = drop.time;
  return out;
}

void readExcitations(const json& list, const KeyContext& context, ExcitationSpecs& out) {
  if (!list.is_array()) ObjectReader::fail(context.where, "must be an array");
  for (std::size_t k = 0; k < list.size(); ++k)
    readExcitation(list[k], context.where + "[" + std::to_string(k) + "]", *context.grid, out,
                   context.travels);
}

json excitationsJson(const ExcitationSpecs& e) {
  json excitations = json::array();
  for (const auto& drop : e.drops)
    excitations.push_back(dropJson(drop, true));
  for (const auto& rain : e.rain) {
    json r = {{"type", "rain"},        {"rate", rain.rate},           {"count", rain.count},
              {"radius", rain.radius}, {"amplitude", rain.amplitude}, {"start", rain.start}};
    if (rain.end < 1e300) r["end"] = rain.end;
    excitations.push_back(r);
  }
  for (const auto& boat : e.boats) {
    json b = {{"type", "boat"},
              {"x", boat.startX},
              {"y", boat.startY},
              {"acceleration", boat.acceleration},
              {"max_speed", boat.maxSpeed},
              {"wake_radius", boat.wakeRadius},
              {"wake_amplitude", boat.wakeAmplitude},
              {"tilt_gain", boat.tiltGain},
              {"arrive_radius", boat.arriveRadius},
              {"step", boat.step}};
    for (const auto& [x, y] : boat.waypoints)
      b["path"].push_back({x, y});
    for (const auto& steer : boat.steering)
      b["steer"].push_back({{"time", steer.time}, {"target", {steer.x, steer.y}}});
    excitations.push_back(b);
  }
  for (const auto& wind : e.wind) {
    json w = {{"type", "wind"},
              {"direction", wind.direction},
              {"strength", wind.strength},
              {"start", wind.start}};
    if (wind.end < 1e300) w["end"] = wind.end;
    if (wind.hasRegion)
      w["region"] = {{"x0", wind.x0}, {"y0", wind.y0}, {"x1", wind.x1}, {"y1", wind.y1}};
    excitations.push_back(w);
  }
  for (const auto& stir : e.stirs)
    excitations.push_back({{"type", "stir"},
                           {"time", stir.start},
                           {"x", stir.x},
                           {"y", stir.y},
                           {"radius", stir.radius},
                           {"ax", stir.ax},
                           {"ay", stir.ay},
                           {"duration", stir.duration}});
  for (const auto& body : e.bodies) {
    json b = {{"type", "body"}, {"time", body.time}};
    b.update(bodyJson(body.spec));
    excitations.push_back(b);
  }
  for (const auto& stroke : e.strokes) {
    json dabs = json::array();
    for (const MaskDab& dab : stroke.dabs)
      dabs.push_back({{"x", dab.x}, {"y", dab.y}, {"radius", dab.radius}});
    excitations.push_back(
        {{"type", "mask"}, {"time", stroke.time}, {"solid", stroke.solid}, {"dabs", dabs}});
  }
  return excitations.empty() ? json() : excitations;
}

}  // namespace wb
