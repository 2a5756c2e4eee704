// libFuzzer target: the PNG field reader, as read and resampled to a grid. Bad input must end
// in InputError, never a crash or a read out of bounds; a field it accepts holds [0, 1].
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

namespace {

void checkField(const wb::Field2D& field, int nx, int ny) {
  if ((nx > 0 && field.nx() != nx) || (ny > 0 && field.ny() != ny)) std::abort();
  for (std::size_t k = 0; k < field.size(); ++k)
    if (!(field.data()[k] >= 0.0f && field.data()[k] <= 1.0f)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first two bytes choose the grid the image is resampled to (1 to 64 cells a side).
  const int nx = 1 + data[0] % 64, ny = 1 + data[1] % 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 2), size - 2);
  try {
    checkField(wb::decodePngField(bytes, "fuzz.png"), 0, 0);
    checkField(wb::decodePngField(bytes, "fuzz.png", nx, ny), nx, ny);
  } catch (const wb::InputError&) {
  }
  return 0;
}
