// Error types that the command line maps to exit codes (docs/cli.md, exit codes).
#pragma once

#include <stdexcept>
#include <string>

namespace wb {

// Bad input: a file, a field or a value that cannot be used. The message is one line that
// names what and where ("scenario.json: grid.nx: must be an integer in [4, 8192]").
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The one line for memory running out while `doing` something with `what` (a file, an option):
// the input's size, not a bug ("s.json: out of memory building the models on a 4096 x 4096
// grid (try a smaller grid or body)").
inline std::string outOfMemoryMessage(const std::string& what, const std::string& doing) {
  return what + ": out of memory " + doing + " (try a smaller grid or body)";
}

// A model's state became non-finite or grew without bound. Names model, time and why.
class BlowUpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace wb
