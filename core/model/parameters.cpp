#include "core/model/parameters.hpp"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"

namespace wb {

ParamValues::ParamValues(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {}

const ParamSpec& ParamValues::spec(const std::string& name) const {
  for (const auto& s : specs_)
    if (s.name == name) return s;
  throw std::logic_error("unknown parameter " + name);
}

bool ParamValues::has(const std::string& name) const {
  for (const auto& s : specs_)
    if (s.name == name) return true;
  return false;
}

double ParamValues::get(const std::string& name) const {
  const auto& s = spec(name);
  if (auto it = values_.find(name); it != values_.end()) return it->second;
  if (s.autoDerived) throw std::logic_error("parameter " + name + " is auto");
  return s.defaultValue;
}

std::optional<double> ParamValues::getOptional(const std::string& name) const {
  const auto& s = spec(name);
  if (auto it = values_.find(name); it != values_.end()) return it->second;
  if (s.autoDerived) return std::nullopt;
  return s.defaultValue;
}

const std::string& ParamValues::getChoice(const std::string& name) const {
  const auto& s = spec(name);
  return s.choices.at(static_cast<std::size_t>(get(name)));
}

static std::string formatNumber(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

void ParamValues::set(const std::string& name, double value, const std::string& where) {
  if (!has(name)) throw InputError(where + ": unknown parameter '" + name + "'");
  const auto& s = spec(name);
  if (!std::isfinite(value)) throw InputError(where + ": value must be a finite number");
  switch (s.kind) {
    case ParamKind::Integer:
      if (value != std::floor(value)) throw InputError(where + ": must be an integer");
      [[fallthrough]];
    case ParamKind::Real:
      if (value < s.min || value > s.max)
        throw InputError(where + ": " + formatNumber(value) + " is outside [" +
                         formatNumber(s.min) + ", " + formatNumber(s.max) + "]" +
                         (s.unit.empty() ? "" : " " + s.unit));
      break;
    case ParamKind::Choice:
      if (value < 0 || value >= double(s.choices.size()) || value != std::floor(value))
        throw InputError(where + ": invalid choice index");
      break;
    case ParamKind::Flag:
      if (value != 0 && value != 1) throw InputError(where + ": must be true or false");
      break;
  }
  values_[name] = value;
}

void ParamValues::setFromText(const std::string& name, const std::string& text,
                              const std::string& where) {
  if (!has(name)) throw InputError(where + ": unknown parameter '" + name + "'");
  const auto& s = spec(name);
  if (s.autoDerived && text == "auto") {
    unset(name);
    return;
  }
  if (s.kind == ParamKind::Choice) {
    for (std::size_t k = 0; k < s.choices.size(); ++k)
      if (s.choices[k] == text) return set(name, double(k), where);
    std::string options;
    for (const auto& c : s.choices)
      options += (options.empty() ? "" : ", ") + c;
    throw InputError(where + ": '" + text + "' is not one of " + options);
  }
  if (s.kind == ParamKind::Flag) {
    if (text == "true" || text == "1") return set(name, 1, where);
    if (text == "false" || text == "0") return set(name, 0, where);
    throw InputError(where + ": '" + text + "' is not true or false");
  }
  double value = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end != last || text.empty())
    throw InputError(where + ": '" + text + "' is not a number");
  set(name, value, where);
}

void ParamValues::unset(const std::string& name) {
  values_.erase(name);
}

std::string ParamValues::text(const std::string& name) const {
  const auto& s = spec(name);
  const auto value = getOptional(name);
  if (!value) return "auto";
  if (s.kind == ParamKind::Choice) return s.choices.at(std::size_t(*value));
  if (s.kind == ParamKind::Flag) return *value != 0 ? "true" : "false";
  return formatNumber(*value);
}

ParamSpec waveSpeedParamSpec(const std::string& doc) {
  return {.name = "c",
          .kind = ParamKind::Real,
          .defaultValue = 0.0,
          .min = 1e-6,
          .max = 1e4,
          .unit = "m/s",
          .doc = doc,
          .choices = {},
          .autoDerived = true};
}

ParamSpec waveSpeedModeParamSpec() {
  return {.name = "speed",
          .kind = ParamKind::Choice,
          .defaultValue = 0,
          .min = 0,
          .max = 0,
          .unit = "",
          .doc =
              "Wave speed over the pool: mean (the paper's one c, sqrt(g d) with d the mean rest "
              "depth, or c as given) or local (c^2 = g d on each stencil link: waves slow in the "
              "shallows, refract, shoal and reflect from steps; c must be auto; the step's "
              "bound uses the deepest water).",
          .choices = {"mean", "local"},
          .autoDerived = false};
}

ParamSpec dtParamSpec(const std::string& doc, double min, double max) {
  return {.name = "dt",
          .kind = ParamKind::Real,
          .defaultValue = 0.0,
          .min = min,
          .max = max,
          .unit = "s",
          .doc = doc,
          .choices = {},
          .autoDerived = true};
}

ParamSpec forceParamSpec(const std::string& boundName) {
  return {"force",
          ParamKind::Flag,
          0,
          0,
          1,
          "",
          "Accept a dt beyond the " + boundName + "; a blow-up is then detected and reported.",
          {},
          false};
}

double chooseFixedStep(const ParamValues& params, const std::string& modelId, double limit,
                       double autoFraction, const std::string& boundWhy) {
  const auto userDt = params.getOptional("dt");
  if (!userDt) return autoFraction * limit;
  if (*userDt > limit && params.get("force") == 0) {
    std::ostringstream message;
    message << modelId << ".dt: " << *userDt << " s exceeds the stability bound " << limit << " s ("
            << boundWhy << "); set " << modelId << ".force=true to run it anyway";
    throw InputError(message.str());
  }
  return *userDt;
}

}  // namespace wb
