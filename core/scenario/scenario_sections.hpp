// The readers and writers of the scenario's keys that are lists or have a grammar of their own
// (excitations, bodies, gauges, transects, reference, the ocean's window, the domain's edges),
// called from the key table (core/scenario/scenario_keys.cpp). Each reader throws InputError
// naming the key ("s.json: gauges[0].x: 5 is outside [0, 4]").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/scenario/incoming_keys.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/scenario_keys.hpp"

namespace wb {

// Builtin resources by name ("builtin:coast.png"), files by the path they were read from:
// either resolves from the folder the scenario is saved to.
nlohmann::json fileJson(const FileRef& file);
nlohmann::json fieldJson(const FieldSource& field);

// excitation_keys.cpp: the keys of a drop ({x, y, radius, amplitude}; timed, with `time`) and
// of each type of excitation, and the "excitations" list read with them.
const std::vector<Key<SurfaceEvent>>& dropKeys();
const std::vector<Key<SurfaceEvent>>& timedDropKeys();
const std::vector<Key<RainSpec>>& rainKeys();
const std::vector<Key<BoatSpec>>& boatKeys();
const std::vector<Key<BoatSteer>>& steerKeys();  // a boat's "steer" entries
const std::vector<Key<WindSpec>>& windKeys();
const std::vector<Key<WindSpec>>& windRegionKeys();  // a wind's "region"
const std::vector<Key<StirImpulse>>& stirKeys();
const std::vector<Key<MaskStroke>>& strokeKeys();
const std::vector<Key<MaskDab>>& dabKeys();  // a mask stroke's "dabs"
void readExcitations(const nlohmann::json& list, const KeyContext& context, ExcitationSpecs& out);
nlohmann::json excitationsJson(const ExcitationSpecs& excitations);  // null when none

// body_keys.cpp: "bodies", an array of buoyant bodies or the tracers' object.
void readBodies(const nlohmann::json& value, const KeyContext& context, Scenario& s);
nlohmann::json bodiesJson(const Scenario& s);  // null when none

// scenario_sections.cpp.
// A side may be {"incoming": {...}} (core/scenario/incoming_keys.hpp), whose record file
// resolves as every file of the scenario.
Edges readEdges(const nlohmann::json& value, const KeyContext& context);
nlohmann::json edgesJson(const Edges& edges);
// A gauge's and a transect's keys (docs/scenario.md, gauges and transects), and their lists.
const std::vector<Key<GaugeSpec>>& gaugeKeys();
const std::vector<Key<TransectSpec>>& transectKeys();
std::vector<GaugeSpec> readGauges(const nlohmann::json& list, const KeyContext& context);
std::vector<TransectSpec> readTransects(const nlohmann::json& list, const KeyContext& context);
// "reference": its keys for each kind.
const std::vector<Key<ReferenceSpec>>& referenceKeys();
ReferenceSpec readReference(const nlohmann::json& value, const KeyContext& context);
// "ocean": the wind sea's keys as written, and its "window" (read after the bodies it follows).
void readOcean(const nlohmann::json& value, const KeyContext& context, Scenario& s);

}  // namespace wb
