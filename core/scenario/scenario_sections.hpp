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

// excitation_keys.cpp: drops ({x, y, radius, amplitude}, with `time` and `type` when timed) and
// the "excitations" list.
SurfaceEvent readDrop(const nlohmann::json& value, const std::string& where, const Grid& grid,
                      bool timed);
nlohmann::json dropJson(const SurfaceEvent& drop, bool timed);
void readExcitations(const nlohmann::json& list, const KeyContext& context, ExcitationSpecs& out);
nlohmann::json excitationsJson(const ExcitationSpecs& excitations);  // null when none

// body_keys.cpp: "bodies", an array of buoyant bodies or the tracers' object.
void readBodies(const nlohmann::json& value, const KeyContext& context, Scenario& s);
nlohmann::json bodiesJson(const Scenario& s);  // null when none

// scenario_sections.cpp.
// A side may be {"incoming": {...}} (core/scenario/incoming_keys.hpp), whose record file
// `resolve` finds as every file of the scenario.
Edges readEdges(const nlohmann::json& value, const std::string& where, const Grid& grid,
                const ScenarioFileResolver& resolve);
nlohmann::json edgesJson(const Edges& edges);
std::vector<GaugeSpec> readGauges(const nlohmann::json& list, const std::string& where,
                                  const Grid& grid, const ScenarioFiles& files);
nlohmann::json gaugesJson(const std::vector<GaugeSpec>& gauges);
std::vector<TransectSpec> readTransects(const nlohmann::json& list, const std::string& where,
                                        const Grid& grid);
nlohmann::json transectsJson(const std::vector<TransectSpec>& transects);
ReferenceSpec readReference(const nlohmann::json& value, const std::string& where,
                            const Grid& grid);
nlohmann::json referenceJson(const ReferenceSpec& reference);
// "ocean": the wind sea's keys as written, and its "window" (read after the bodies it follows).
void readOcean(const nlohmann::json& value, const KeyContext& context, Scenario& s);

}  // namespace wb
