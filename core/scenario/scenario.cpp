#include "core/scenario/scenario.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/ocean/ocean_layer.hpp"
#include "core/scenario/builtin_resources.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario_keys.hpp"

namespace wb {
namespace fs = std::filesystem;
using nlohmann::json;

std::string FileRef::read() const {
  if (!builtin) return readFileBytes(path);
  if (auto bytes = builtinResource(path.generic_string())) return std::string(*bytes);
  throw InputError(describe() + ": no such builtin resource");
}

void checkGridSize(const Grid& grid, const std::string& where) {
  if (double(grid.nx) * grid.ny > double(kMaxGridCells))
    throw InputError(where + ": " + std::to_string(grid.nx) + " x " + std::to_string(grid.ny) +
                     " cells is too large (at most 4096 x 4096)");
}

int Scenario::frameCount() const {
  return int(std::llround(duration / frameDt));
}

int Scenario::ticksPerFrame() const {
  const double ticks = frameDt / tick;
  const double whole = std::round(ticks);
  if (!(whole >= 1.0) || std::fabs(ticks - whole) > 1e-6 * whole) {
    std::ostringstream why;
    why << source << ": frame_dt: " << frameDt << " s is not a whole number of ticks of " << tick
        << " s; use a multiple of the tick or set \"tick\" (docs/scenario.md)";
    throw InputError(why.str());
  }
  return int(whole);
}

namespace {

// Refuses a key given twice in one object, which nlohmann's parser takes silently (the last
// wins): the first value a user wrote would be dropped without a word. Follows the parse to
// name the key's path ("s.json: bodies[1].density: given twice").
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(std::string source) : source_(std::move(source)) {}
  bool operator()(int, json::parse_event_t event, json& parsed) {
    using Event = json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        frames_.push_back({event == Event::array_start, {}, 0, {}});
        break;
      case Event::key:
        frames_.back().key = parsed.get<std::string>();
        if (!frames_.back().keys.insert(frames_.back().key).second)
          throw InputError(source_ + ": " + path() + ": given twice");
        break;
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        [[fallthrough]];
      case Event::value:
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool array = false;
    std::string key;
    int index = 0;
    std::set<std::string> keys;
  };
  std::string path() const {
    std::string out;
    // Appended piece by piece: GCC 12 warns falsely of an overlapping copy in "[" + string.
    for (const Frame& frame : frames_) {
      if (frame.array) {
        out.push_back('[');
        out.append(std::to_string(frame.index));
        out.push_back(']');
        continue;
      }
      if (!out.empty()) out.push_back('.');
      out.append(frame.key);
    }
    return out;
  }
  std::string source_;
  std::vector<Frame> frames_;
};

}  // namespace

// The key table in its order (core/scenario/scenario_keys.cpp); each key may use what the keys
// before it set.
Scenario parseScenario(const json& root, const std::string& source, const fs::path& baseDir,
                       bool builtin) {
  const ScenarioFiles files{source, baseDir, builtin};
  Scenario s;
  s.source = source;
  ObjectReader top(root, source, source);
  // The one look ahead: a travelling window (ocean.window) lets the boats read before the ocean
  // sail anywhere on the open sea.
  const bool travels =
      top.has("ocean") && top.raw("ocean").is_object() && top.raw("ocean").contains("window");
  readKeys(top, scenarioKeys(), s,
           KeyContext{.where = source, .grid = &s.grid, .files = &files, .travels = travels});
  top.finish();
  s.ticksPerFrame();  // refuses a frame_dt that is not a whole number of ticks
  return s;
}

Scenario parseScenarioText(const std::string& text, const std::string& source,
                           const fs::path& baseDir, bool builtin) {
  json root;
  try {
    root = json::parse(text, DuplicateKeyCheck(source));
  } catch (const json::exception& e) {
    // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep where and why.
    std::string why = e.what();
    if (auto tag = why.find("] "); why.starts_with("[json.") && tag != std::string::npos)
      why = why.substr(tag + 2);
    throw InputError(source + ": malformed JSON: " + why);
  }
  return parseScenario(root, source, baseDir, builtin);
}

Scenario loadScenarioFile(const fs::path& file) {
  return parseScenarioText(readFileBytes(file), file.string(), fs::absolute(file).parent_path());
}

Scenario loadScenario(const std::string& fileOrBuiltin) {
  const std::string prefix = "builtin:";
  if (fileOrBuiltin.rfind(prefix, 0) == 0) {
    const std::string name = fileOrBuiltin.substr(prefix.size());
    auto text = builtinResource(name + ".json");
    if (!text) {
      std::string known;
      for (const auto& n : builtinScenarioNames())
        known += (known.empty() ? "" : ", ") + n;
      throw InputError(fileOrBuiltin + ": no such builtin scenario (known: " + known + ")");
    }
    return parseScenarioText(std::string(*text), fileOrBuiltin, {}, true);
  }
  return loadScenarioFile(fileOrBuiltin);
}

std::vector<std::string> builtinScenarioNames() {
  std::vector<std::string> names;
  for (const auto& file : builtinResourceNames())
    if (file.size() > 5 && file.ends_with(".json"))
      names.push_back(file.substr(0, file.size() - 5));
  return names;
}

ParamValues oceanParams(const Scenario& s) {
  ParamValues values(oceanParameterSpecs());
  if (!s.ocean) return values;
  json sea = *s.ocean;
  sea.erase("window");  // not the sea's: Scenario::oceanWindow
  applyParamJson(values, sea, s.source + ": ocean");
  return values;
}

void applyParamJson(ParamValues& params, const json& values, const std::string& where) {
  for (const auto& [name, value] : values.items()) {
    const std::string at = where + "." + name;
    if (!params.has(name)) throw InputError(at + ": unknown parameter");
    if (value.is_string())
      params.setFromText(name, value.get<std::string>(), at);
    else if (value.is_boolean())
      params.set(name, value.get<bool>() ? 1 : 0, at);
    else if (value.is_number() && params.spec(name).kind == ParamKind::Choice)
      params.setFromText(name, value.dump(), at);
    else if (value.is_number())
      params.set(name, value.get<double>(), at);
    else
      throw InputError(at + ": must be a number or a string");
  }
}

}  // namespace wb
