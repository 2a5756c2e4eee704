#include "core/scenario/friction_keys.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace wb {

Friction readFriction(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object()) throw InputError(where + ": must be an object");
  Friction friction;
  for (const auto& [key, item] : value.items()) {
    const std::string at = where + "." + key;
    if (key != "manning") throw InputError(at + ": unknown key");
    if (!item.is_number()) throw InputError(at + ": must be a number");
    const double n = item.get<double>();
    if (!std::isfinite(n)) throw InputError(at + ": must be finite");
    if (!(n >= 0.0 && n <= kMaxManning)) {
      std::ostringstream why;
      why << at << ": " << n << " is outside [0, " << kMaxManning << "] s m^-1/3";
      throw InputError(why.str());
    }
    friction.manning = n;
  }
  return friction;
}

nlohmann::json frictionJson(const Friction& friction) {
  if (friction.manning == 0.0) return nullptr;
  return {{"manning", friction.manning}};
}

}  // namespace wb
