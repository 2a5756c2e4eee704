// Reading one JSON object of a scenario: checked types and ranges, and keys nobody asked for
// refused. Every scenario key reader (core/scenario/scenario_keys.hpp) reads through it, so a
// bad value gives the same one line wherever it is: "<file>: <key path>: <reason>".
#pragma once

#include <cassert>
#include <cmath>
#include <exception>
#include <limits>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace wb {

class ObjectReader {
 public:
  using json = nlohmann::json;
  ObjectReader(const json& object, std::string where, std::string source = {})
      : object_(object), where_(std::move(where)), source_(std::move(source)) {
    if (!object_.is_object()) fail(where_, "must be an object");
  }
  // Every reader is finished once its object is read; a reader left by an exception is not.
  ~ObjectReader() { assert(finished_ || std::uncaught_exceptions() > 0); }
  ObjectReader(const ObjectReader&) = delete;
  ObjectReader& operator=(const ObjectReader&) = delete;
  // Refuses the keys nobody asked for. Not done by the destructor: a destructor that throws
  // while its function returns leaks the value being returned (CWG 2176; GCC and Clang).
  void finish() {
    finished_ = true;
    for (const auto& [key, value] : object_.items())
      if (!used_.count(key)) fail(at(key), "unknown key");
  }
  [[noreturn]] static void fail(const std::string& where, const std::string& why) {
    throw InputError(where + ": " + why);
  }
  // "file.json: grid.nx": the file is set off from the key path by a colon.
  std::string at(const std::string& key) const {
    return where_ + (where_ == source_ ? ": " : ".") + key;
  }
  bool has(const std::string& key) {
    used_.insert(key);
    return object_.contains(key);
  }
  const json& raw(const std::string& key) {
    used_.insert(key);
    if (!object_.contains(key)) fail(at(key), "missing");
    return object_.at(key);
  }
  double number(const std::string& key, double fallback, double lo, double hi) {
    if (!has(key)) return fallback;
    return checkedNumber(object_.at(key), at(key), lo, hi);
  }
  double requiredNumber(const std::string& key, double lo, double hi) {
    return checkedNumber(raw(key), at(key), lo, hi);
  }
  int integer(const std::string& key, int fallback, int lo, int hi) {
    if (!has(key)) return fallback;
    return requiredInteger(key, lo, hi);
  }
  int requiredInteger(const std::string& key, int lo, int hi) {
    return int(checkedInteger(raw(key), at(key), lo, hi));
  }
  std::string text(const std::string& key, const std::string& fallback) {
    if (!has(key)) return fallback;
    return checkedText(object_.at(key), at(key));
  }
  static double checkedNumber(const json& v, const std::string& where, double lo, double hi) {
    if (!v.is_number()) fail(where, "must be a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(where, "must be finite");
    if (x < lo || x > hi) {
      std::ostringstream out;
      out << x << " is outside [" << lo << ", " << hi << "]";
      fail(where, out.str());
    }
    return x;
  }
  // An integer: a fraction is refused as such before its range is looked at (0.5 for the only
  // body is "must be an integer", not "outside [0, 0]").
  static double checkedInteger(const json& v, const std::string& where, double lo, double hi) {
    const double x = checkedNumber(v, where, -kAnyNumber, kAnyNumber);
    if (x != std::floor(x)) fail(where, "must be an integer");
    return checkedNumber(v, where, lo, hi);
  }
  static std::string checkedText(const json& v, const std::string& where) {
    if (!v.is_string()) fail(where, "must be a string");
    return v.get<std::string>();
  }

 private:
  static constexpr double kAnyNumber = std::numeric_limits<double>::max();
  const json& object_;
  std::string where_;
  std::string source_;  // set for the top-level object only
  std::set<std::string> used_;
  bool finished_ = false;
};

// Ranges of the scenario's keys that are not the physics' own.
constexpr double kHuge = 1e12;
constexpr double kWorld = 1e6;  // m: how far a boat may sail with a travelling window

}  // namespace wb
