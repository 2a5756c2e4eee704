// Helpers shared by the unit tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <thread>

#include "core/errors.hpp"
#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

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

// A field of uniform values in [-1, 1] on the domain's wet cells (0 on solid ones), seeded.
inline Field2D randomWetField(const Domain& domain, unsigned seed) {
  Field2D f(domain.nx(), domain.ny());
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t k = 0; k < f.size(); ++k)
    f.data()[k] = domain.wetMask()[k] ? u(random) : 0.0f;
  return f;
}

// Waits until `file` exists and holds more than `bytes` (a run writing it has got that far);
// false after a generous hang guard of a minute, never a timing.
inline bool waitForFile(const std::filesystem::path& file, std::uintmax_t bytes) {
  const auto guard = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < guard) {
    std::error_code ec;  // file_size gives -1 with ec set while the file is missing
    if (std::filesystem::exists(file, ec) && std::filesystem::file_size(file, ec) > bytes && !ec)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace wb
