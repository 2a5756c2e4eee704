#include "core/terrain/elevation_file.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <mutex>
#include <sstream>

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_vsi.h>
#include <gdal_priv.h>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"

namespace wb {

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& why) {
  throw InputError(name + ": " + why);
}

// GDAL's last error as one line (its messages may hold line breaks).
std::string gdalReason(const char* fallback) {
  std::string why = CPLGetLastErrorMsg();
  if (why.empty()) why = fallback;
  std::replace_if(
      why.begin(), why.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return why;
}

// GDAL reports through a handler that prints to stderr; here its errors become the one line of
// an InputError, so it stays quiet while a file is read (the handler stack is per thread).
class QuietGdal {
 public:
  QuietGdal() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      GDALAllRegister();
      // /vsigzip/ would otherwise leave a ".properties" file beside every gzip file it reads.
      CPLSetConfigOption("CPL_VSIL_GZIP_WRITE_PROPERTIES", "NO");
    });
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
  }
  ~QuietGdal() { CPLPopErrorHandler(); }
  QuietGdal(const QuietGdal&) = delete;
  QuietGdal& operator=(const QuietGdal&) = delete;
};

// Bytes GDAL sees as a file under /vsimem/ (without a copy), named like the original so that
// the drivers that look at the extension (XYZ, AAIGrid) recognise it; removed when done.
class MemFile {
 public:
  MemFile(std::string_view bytes, const std::string& name) {
    static std::atomic<unsigned long> counter{0};
    path_ = "/vsimem/wavebench/" + std::to_string(counter++) + "/" +
            std::filesystem::path(name).filename().string();
    VSIFCloseL(VSIFileFromMemBuffer(path_.c_str(),
                                    reinterpret_cast<GByte*>(const_cast<char*>(bytes.data())),
                                    vsi_l_offset(bytes.size()), FALSE));
  }
  ~MemFile() { VSIUnlink(path_.c_str()); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct DatasetCloser {
  void operator()(GDALDataset* dataset) const { GDALClose(dataset); }
};
using Dataset = std::unique_ptr<GDALDataset, DatasetCloser>;

// The formats the scenario documents, and no others: what a file is never depends on which
// of GDAL's other drivers happen to claim it.
Dataset openRaster(const std::string& path) {
  const char* const drivers[] = {"XYZ", "AAIGrid", "GTiff", "netCDF", "GMT", nullptr};
  return Dataset(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, drivers));
}

bool isNumberStart(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
}

// An XYZ file's header: the leading lines that hold no number (`x(m) y(m) z(m)`, column names)
// and blank lines, which GDAL 3.6's XYZ driver refuses, or reads wrongly (a leading blank line
// shifts its columns). Returns the bytes after them, or an empty view when there are none (or
// no numbers follow).
std::string_view afterHeaderLines(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t first = text.find_first_not_of(" \t\r", at);
    if (first == std::string_view::npos) return {};
    if (isNumberStart(text[first])) return at == 0 ? std::string_view{} : text.substr(at);
    const std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) return {};
    at = end + 1;
  }
  return {};
}

// Text (no NUL byte near the start: GeoTIFF and NetCDF have them in their first bytes) that is
// not an ESRI ASCII grid, whose header lines (ncols, nrows, xllcorner, ...) are its own.
bool mayHaveXyzHeader(std::string_view bytes) {
  if (bytes.substr(0, 4096).find('\0') != std::string_view::npos) return false;
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  std::string word(bytes.substr(first, std::min<std::size_t>(16, bytes.size() - first)));
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* key : {"ncols", "nrows", "xllcorner", "yllcorner", "xllcenter", "yllcenter",
                          "cellsize", "dx", "dy", "nodata_value"})
    if (word.starts_with(key)) return false;
  return true;
}

bool isGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// The bytes of a gzip file, inflated by GDAL's /vsigzip/.
std::string gunzip(std::string_view bytes, const std::string& name) {
  MemFile packed(bytes, name);
  GByte* data = nullptr;
  vsi_l_offset size = 0;
  const std::string path = "/vsigzip/" + packed.path();
  const vsi_l_offset limit = 1ULL << 32;  // 4 GiB: far beyond any grid the program takes
  if (!VSIIngestFile(nullptr, path.c_str(), &data, &size, GIntBig(limit)))
    fail(name, "cannot inflate it as gzip: " + gdalReason("corrupt or truncated"));
  std::string out(reinterpret_cast<const char*>(data), std::size_t(size));
  VSIFree(data);
  return out;
}

// The file's first band as a south-up grid.
ElevationGrid readBand(GDALDataset& dataset, const std::string& name) {
  ElevationGrid grid;
  grid.name = name;
  grid.driver = dataset.GetDriver() ? dataset.GetDriver()->GetDescription() : "";
  if (dataset.GetRasterCount() < 1)
    fail(name,
         "holds no raster band (a NetCDF file of several variables: name one with "
         "GDAL's NETCDF:\"file\":variable form, or keep the elevation alone in the file)");
  const int width = dataset.GetRasterXSize(), height = dataset.GetRasterYSize();
  if (width < 2 || height < 2) {
    std::ostringstream why;
    why << "is " << width << " x " << height << " samples; bilinear sampling needs at least 2 x 2";
    fail(name, why.str());
  }
  if (double(width) * height > double(kMaxGridCells)) {
    std::ostringstream why;
    why << "is " << width << " x " << height
        << " samples, more than the largest grid (4096 x 4096)";
    fail(name, why.str());
  }
  double t[6];
  if (dataset.GetGeoTransform(t) != CE_None)
    fail(name, "has no georeferencing (origin and spacing); GDAL knows none for it");
  if (t[2] != 0.0 || t[4] != 0.0) fail(name, "is a rotated grid; only north-up grids are read");
  if (!(std::isfinite(t[0]) && std::isfinite(t[3]) && t[1] != 0.0 && t[5] != 0.0 &&
        std::isfinite(t[1]) && std::isfinite(t[5])))
    fail(name, "has a degenerate spacing in its georeferencing");
  std::vector<double> rows(std::size_t(width) * std::size_t(height));
  GDALRasterBand* band = dataset.GetRasterBand(1);
  CPLErrorReset();
  if (band->RasterIO(GF_Read, 0, 0, width, height, rows.data(), width, height, GDT_Float64, 0, 0,
                     nullptr) != CE_None)
    fail(name, "cannot read its values: " + gdalReason("read error (truncated?)"));
  int hasNodata = 0;
  const double nodata = band->GetNoDataValue(&hasNodata);
  if (hasNodata) grid.nodata = nodata;
  // GDAL's rows run from t[3] by t[5] (usually down, north-up), columns from t[0] by t[1].
  grid.nx = width, grid.ny = height;
  grid.dx = std::fabs(t[1]), grid.dy = std::fabs(t[5]);
  const bool flipX = t[1] < 0.0, flipY = t[5] < 0.0;
  grid.x0 = flipX ? t[0] + (width - 0.5) * t[1] : t[0] + 0.5 * t[1];
  grid.y0 = flipY ? t[3] + (height - 0.5) * t[5] : t[3] + 0.5 * t[5];
  grid.values.resize(rows.size());
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) {
      const int gc = flipX ? width - 1 - c : c, gr = flipY ? height - 1 - r : r;
      grid.values[std::size_t(r) * width + c] = rows[std::size_t(gr) * width + gc];
    }
  return grid;
}

std::optional<ElevationGrid> tryRead(std::string_view bytes, const std::string& name,
                                     const std::string& memName) {
  MemFile file(bytes, memName);
  Dataset dataset = openRaster(file.path());
  if (!dataset) return std::nullopt;
  return readBand(*dataset, name);
}

}  // namespace

ElevationGrid readElevationBytes(std::string_view bytes, const std::string& name) {
  QuietGdal quiet;
  if (bytes.empty()) fail(name, "is empty");
  std::string memName = name;
  std::string inflated;
  if (isGzip(bytes)) {
    inflated = gunzip(bytes, name);
    bytes = inflated;
    if (memName.ends_with(".gz")) memName.resize(memName.size() - 3);
  }
  std::size_t headerLines = 0;
  if (mayHaveXyzHeader(bytes))
    if (const std::string_view data = afterHeaderLines(bytes); !data.empty()) {
      headerLines = std::size_t(std::count(bytes.begin(), bytes.end() - data.size(), '\n'));
      bytes = data;
    }
  if (auto grid = tryRead(bytes, name, memName)) return std::move(*grid);
  std::string reason = gdalReason("");
  // GDAL counts the lines it was given: those after the header.
  if (headerLines && reason.find("At line ") != std::string::npos)
    reason += " (lines counted after the " + std::to_string(headerLines) + " header line" +
              (headerLines > 1 ? "s)" : ")");
  if (reason.empty())
    reason =
        "no elevation grid GDAL can read (XYZ, ESRI ASCII, GeoTIFF, NetCDF), or a "
        "truncated one";
  fail(name, reason);
}

ElevationGrid readElevationFile(const std::filesystem::path& file) {
  return readElevationBytes(readFileBytes(file), file.string());
}

Grid gridOfElevation(const ElevationGrid& file) {
  if (std::fabs(file.dx - file.dy) > 1e-6 * file.dx) {
    std::ostringstream why;
    why << "its samples are " << file.dx << " x " << file.dy
        << " m, not square; a grid of equal spacing can only resample it";
    fail(file.name, why.str());
  }
  Grid grid;
  grid.nx = file.nx, grid.ny = file.ny, grid.dx = file.dx;
  return grid;
}

Field2D sampleElevation(const ElevationGrid& file, const Grid& grid, double originX,
                        double originY) {
  // Position of a cell centre in samples; snapped to a sample within round-off, so that a grid
  // on the file's own samples reads its values as they are.
  const auto samplePosition = [](double world, double first, double spacing) {
    const double u = (world - first) / spacing;
    const double nearest = std::round(u);
    return std::fabs(u - nearest) < 1e-9 ? nearest : u;
  };
  const double uLo = samplePosition(originX + grid.x(0), file.x0, file.dx);
  const double uHi = samplePosition(originX + grid.x(grid.nx - 1), file.x0, file.dx);
  const double vLo = samplePosition(originY + grid.y(0), file.y0, file.dy);
  const double vHi = samplePosition(originY + grid.y(grid.ny - 1), file.y0, file.dy);
  if (uLo < 0.0 || vLo < 0.0 || uHi > file.nx - 1.0 || vHi > file.ny - 1.0) {
    std::ostringstream why;
    why << "does not cover the grid: its samples span x " << file.x0 << " to "
        << file.x0 + (file.nx - 1) * file.dx << ", y " << file.y0 << " to "
        << file.y0 + (file.ny - 1) * file.dy << " m; the grid's cell centres span x "
        << originX + grid.x(0) << " to " << originX + grid.x(grid.nx - 1) << ", y "
        << originY + grid.y(0) << " to " << originY + grid.y(grid.ny - 1)
        << " m (terrain.origin moves the grid in the file)";
    fail(file.name, why.str());
  }
  const auto checked = [&](int c, int r) {
    const double value = file.at(c, r);
    const char* what =
        file.nodata && (value == *file.nodata || (std::isnan(value) && std::isnan(*file.nodata)))
            ? "nodata"
        : !std::isfinite(value) ? "a non-finite value"
                                : nullptr;
    if (what) {
      std::ostringstream why;
      why << "holds " << what << " at x " << file.x0 + c * file.dx << ", y "
          << file.y0 + r * file.dy << " m (column " << c << ", row " << r
          << " from the south-west), inside the grid";
      fail(file.name, why.str());
    }
    return value;
  };
  Field2D out(grid.nx, grid.ny);
  for (int j = 0; j < grid.ny; ++j) {
    const double v = samplePosition(originY + grid.y(j), file.y0, file.dy);
    const int r = std::min(int(std::floor(v)), file.ny - 2);
    const double b = v - r;
    for (int i = 0; i < grid.nx; ++i) {
      const double u = samplePosition(originX + grid.x(i), file.x0, file.dx);
      const int c = std::min(int(std::floor(u)), file.nx - 2);
      const double a = u - c;
      // Bilinear between the four samples around the centre; a sample of weight 0 is not read,
      // so a grid on the file's samples never looks past its own.
      double value = 0.0;
      const double weights[4] = {(1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b};
      for (int k = 0; k < 4; ++k)
        if (weights[k] != 0.0) value += weights[k] * checked(c + (k & 1), r + (k >> 1));
      out(i, j) = float(value);
    }
  }
  return out;
}

}  // namespace wb
