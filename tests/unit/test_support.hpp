// Helpers shared by the unit tests.
#pragma once

#include <functional>
#include <string>

#include "core/errors.hpp"

namespace wb {

// The message of the InputError that f throws, or "no error".
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace wb
