// libFuzzer target: the CSV field reader. Bad input must end in InputError, never a crash,
// and a field it accepts is whole and finite.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const wb::Field2D field = wb::parseCsvField(text, "fuzz.csv");
    if (field.nx() < 1 || field.ny() < 1 || !field.allFinite()) std::abort();
    // The same text against a grid of a fixed shape: accepted only when the shapes agree.
    const wb::Field2D shaped = wb::parseCsvField(text, "fuzz.csv", 4, 4);
    if (shaped.nx() != 4 || shaped.ny() != 4) std::abort();
  } catch (const wb::InputError&) {
  }
  return 0;
}
