// Helpers shared by the unit tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

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
