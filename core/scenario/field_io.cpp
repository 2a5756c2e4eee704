#include "core/scenario/field_io.hpp"

#include <png.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "core/errors.hpp"

namespace wb {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> splitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ','))
    cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

float parseCell(std::string cell, const std::string& file, int row, int column) {
  auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!cell.empty() && isSpace(cell.back()))
    cell.pop_back();
  std::size_t start = 0;
  while (start < cell.size() && isSpace(cell[start]))
    ++start;
  const char* first = cell.data() + start;
  const char* last = cell.data() + cell.size();
  double value = 0.0;
  auto [end, ec] = std::from_chars(first, last, value);
  const std::string where =
      file + ": row " + std::to_string(row) + ", column " + std::to_string(column);
  if (ec != std::errc() || end != last || first == last)
    throw InputError(where + ": not a number: '" + cell + "'");
  if (!std::isfinite(value)) throw InputError(where + ": value is not finite");
  if (!std::isfinite(static_cast<float>(value)))
    throw InputError(where + ": " + cell.substr(start) + " is too large for a 32-bit float");
  return static_cast<float>(value);
}

}  // namespace

std::string readFileBytes(const fs::path& file) {
  // A folder, a FIFO or a device (/dev/zero) would read as nonsense or never end.
  std::error_code ec;
  if (fs::is_directory(file, ec)) throw InputError(file.string() + ": is a folder, not a file");
  if (fs::exists(file, ec) && !fs::is_regular_file(file, ec))
    throw InputError(file.string() + ": is not a regular file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open for reading");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InputError(file.string() + ": read error");
  return std::move(content).str();
}

Field2D parseCsvField(std::string_view text, const std::string& name, int expectNx, int expectNy) {
  std::vector<std::vector<float>> rows;
  std::string line;
  std::istringstream in{std::string(text)};
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line == "\r") continue;
    const auto cells = splitCells(line);
    std::vector<float> values;
    values.reserve(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c)
      values.push_back(parseCell(cells[c], name, lineNo, int(c) + 1));
    if (!rows.empty() && values.size() != rows.front().size())
      throw InputError(name + ": row " + std::to_string(lineNo) + " has " +
                       std::to_string(values.size()) + " columns, expected " +
                       std::to_string(rows.front().size()));
    rows.push_back(std::move(values));
  }
  if (rows.empty()) throw InputError(name + ": empty CSV field");
  const int nx = int(rows.front().size());
  const int ny = int(rows.size());
  if ((expectNx > 0 && nx != expectNx) || (expectNy > 0 && ny != expectNy))
    throw InputError(name + ": field is " + std::to_string(nx) + " x " + std::to_string(ny) +
                     " (columns x rows), grid needs " + std::to_string(expectNx) + " x " +
                     std::to_string(expectNy));
  Field2D field(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      field(i, j) = rows[j][i];
  return field;
}

Field2D readCsvField(const fs::path& file, int expectNx, int expectNy) {
  return parseCsvField(readFileBytes(file), file.string(), expectNx, expectNy);
}

namespace {

Field2D resampleBilinear(const Field2D& src, int nx, int ny) {
  Field2D out(nx, ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double sx = std::clamp((i + 0.5) * src.nx() / nx - 0.5, 0.0, src.nx() - 1.0);
      const double sy = std::clamp((j + 0.5) * src.ny() / ny - 0.5, 0.0, src.ny() - 1.0);
      const int i0 = std::min(int(sx), src.nx() - 1), j0 = std::min(int(sy), src.ny() - 1);
      const int i1 = std::min(i0 + 1, src.nx() - 1), j1 = std::min(j0 + 1, src.ny() - 1);
      const double fx = sx - i0, fy = sy - j0;
      out(i, j) = float((1 - fy) * ((1 - fx) * src(i0, j0) + fx * src(i1, j0)) +
                        fy * ((1 - fx) * src(i0, j1) + fx * src(i1, j1)));
    }
  return out;
}

}  // namespace

Field2D decodePngField(std::string_view bytes, const std::string& name, int nx, int ny) {
  constexpr png_uint_32 kMaxSide = 16384;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (bytes.empty()) throw InputError(name + ": empty file, not a PNG image");
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    throw InputError(name + ": not a readable PNG image (" + image.message + ")");
  if (image.width == 0 || image.height == 0 || image.width > kMaxSide || image.height > kMaxSide) {
    png_image_free(&image);
    throw InputError(name + ": PNG is " + std::to_string(image.width) + " x " +
                     std::to_string(image.height) + ", sides must be 1 to 16384 pixels");
  }
  image.format = PNG_FORMAT_GRAY;
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr))
    throw InputError(name + ": corrupt PNG (" + image.message + ")");
  const int width = int(image.width), height = int(image.height);
  Field2D field(width, height);
  // Image row 0 is the top of the picture, i.e. the largest y.
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i)
      field(i, j) = pixels[std::size_t(height - 1 - j) * width + i] / 255.0f;
  if ((nx > 0 && nx != width) || (ny > 0 && ny != height))
    return resampleBilinear(field, nx > 0 ? nx : width, ny > 0 ? ny : height);
  return field;
}

Field2D readPngField(const fs::path& file, int nx, int ny) {
  return decodePngField(readFileBytes(file), file.string(), nx, ny);
}

void writeCsvField(std::ostream& out, const Field2D& field) {
  char buffer[32];
  for (int j = 0; j < field.ny(); ++j) {
    for (int i = 0; i < field.nx(); ++i) {
      auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, field(i, j));
      if (i) out.put(',');
      out.write(buffer, end - buffer);
    }
    out.put('\n');
  }
}

void writePngField(const fs::path& file, const Field2D& field, float lo, float hi) {
  const float span = hi > lo ? hi - lo : 1.0f;
  std::vector<png_byte> pixels(field.size());
  for (int j = 0; j < field.ny(); ++j)
    for (int i = 0; i < field.nx(); ++i) {
      const float t = std::clamp((field(i, j) - lo) / span, 0.0f, 1.0f);
      pixels[std::size_t(field.ny() - 1 - j) * field.nx() + i] = png_byte(std::lround(t * 255));
    }
  writeFileAtomically(file, [&](std::ostream& out) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = png_uint_32(field.nx());
    image.height = png_uint_32(field.ny());
    image.format = PNG_FORMAT_GRAY;
    png_alloc_size_t size = 0;
    png_image_write_get_memory_size(image, size, 0, pixels.data(), 0, nullptr);
    std::vector<char> buffer(size);
    if (!png_image_write_to_memory(&image, buffer.data(), &size, 0, pixels.data(), 0, nullptr))
      throw InputError(file.string() + ": PNG encoding failed");
    out.write(buffer.data(), std::streamsize(size));
  });
}

void writeFileAtomically(const fs::path& file, const std::function<void(std::ostream&)>& write) {
  fs::path temp = file;
  temp += ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(file.string() + ": cannot open for writing");
    try {
      write(out);
      out.flush();
    } catch (...) {
      out.close();
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw;
    }
    if (!out) {
      out.close();
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw InputError(file.string() + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(temp, file, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw InputError(file.string() + ": cannot rename into place: " + ec.message());
  }
}

void ensureWritableDirectory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw InputError(dir.string() + ": cannot create output folder" +
                     (ec ? ": " + ec.message() : std::string()));
  const fs::path probe = dir / ".wavebench-write-test";
  {
    std::ofstream out(probe);
    if (!out) throw InputError(dir.string() + ": output folder is not writable");
  }
  fs::remove(probe, ec);
}

}  // namespace wb
