// Reading and writing fields: CSV (rows = y, columns = x, plain decimals) and 8/16-bit
// grayscale PNG (row 0 of the image is the top, i.e. the largest y). Every reader throws
// InputError naming the file, and for CSV the row and column, of anything it cannot use.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "core/grid/field2d.hpp"

namespace wb {

// The whole content of a file; throws InputError naming it when it cannot be read.
std::string readFileBytes(const std::filesystem::path& file);

// Parses a CSV field; `name` is used in messages. expectNx/expectNy > 0 require that shape.
Field2D parseCsvField(std::string_view text, const std::string& name, int expectNx = 0,
                      int expectNy = 0);
// Decodes a grayscale (or colour, converted to luminance) PNG as values in [0, 1]. If the
// image is not nx x ny (when given) it is resampled to that size by bilinear interpolation.
Field2D decodePngField(std::string_view bytes, const std::string& name, int nx = 0, int ny = 0);

Field2D readCsvField(const std::filesystem::path& file, int expectNx = 0, int expectNy = 0);
Field2D readPngField(const std::filesystem::path& file, int nx = 0, int ny = 0);

void writeCsvField(std::ostream& out, const Field2D& field);
// Writes an 8-bit grayscale PNG of the values mapped from [lo, hi] to [0, 255].
void writePngField(const std::filesystem::path& file, const Field2D& field, float lo, float hi);

// Writes through a temporary file in the same folder and renames it into place, so a reader
// never sees a partial file and a failure leaves nothing behind. Throws InputError naming the
// file when it cannot be written.
void writeFileAtomically(const std::filesystem::path& file,
                         const std::function<void(std::ostream&)>& write);

// Creates dir (and parents) and checks that a file can be written in it.
void ensureWritableDirectory(const std::filesystem::path& dir);

}  // namespace wb
