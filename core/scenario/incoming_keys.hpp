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
#include "core/scenario/scenario_keys.hpp"

namespace wb {

// The keys of "incoming", and of its "sine" and "solitary" forms, declared once: read, written
// and tabled in docs/scenario.md ("Incoming edges") from here.
const std::vector<Key<IncomingWave>>& incomingKeys();
const std::vector<Key<IncomingWave>>& incomingSineKeys();
const std::vector<Key<IncomingWave>>& incomingSolitaryKeys();

// domain.edges.<side> in its object form {"incoming": {...}}; the context's `where` names the
// side's key, its files resolve a record's file. Throws InputError naming the key, file and
// line of what is wrong.
IncomingWave readIncomingEdge(const nlohmann::json& value, const KeyContext& context);
// A record of two whitespace-separated columns (time s, eta m), one sample a line; blank lines
// and lines starting with '#' are skipped. `where` names the file for the messages.
IncomingWave parseIncomingRecord(const std::string& text, const std::string& where);
// The side's object form as written back (the file as resolved, so it reads from any folder).
nlohmann::json incomingEdgeJson(const IncomingWave& wave);

}  // namespace wb
