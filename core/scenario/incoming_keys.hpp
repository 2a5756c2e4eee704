// The scenario keys of an incoming-wave edge (docs/open-edges.md, "Incoming waves"):
//   "domain": {"edges": {"west": {"incoming": {"series": "wave.txt", "then": "open"}}, ...}}
// with the wave one of "series" (a file of two whitespace columns, time s and eta m, or inline
// [[t, eta], ...]), "sine": {"amplitude", "period"} or "solitary": {"amplitude", "crest_time"}.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/grid/incoming_wave.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {

// Turns a file name of the scenario into a FileRef, as every file of the scenario.
using ScenarioFileResolver = std::function<FileRef(const nlohmann::json&, const std::string&)>;

// domain.edges.<side> in its object form {"incoming": {...}}; `where` names the side's key.
// Throws InputError naming the key, file and line of what is wrong.
IncomingWave readIncomingEdge(const nlohmann::json& value, const std::string& where,
                              const ScenarioFileResolver& resolve);
// A record of two whitespace-separated columns (time s, eta m), one sample a line; blank lines
// and lines starting with '#' are skipped. `where` names the file for the messages.
IncomingWave parseIncomingRecord(const std::string& text, const std::string& where);
// The side's object form as written back (the file as resolved, so it reads from any folder).
nlohmann::json incomingEdgeJson(const IncomingWave& wave);

}  // namespace wb
