// Terrain from real elevation files, read with GDAL (https://gdal.org): XYZ grids (GDAL's XYZ
// driver; leading header lines such as the Monai Valley file's `x(m) y(m) z(m)` are skipped,
// spaces and tabs both separate), ESRI ASCII grids (.asc), GeoTIFF and NetCDF (GMT and CF), any
// of them gzip-compressed (GDAL's /vsigzip/). One grid of values with its georeferencing,
// sampled bilinearly at the centres of a scenario's cells or taken as the grid itself
// (docs/scenario.md, "Terrain from elevation files").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

// What a file's values are: ground elevation above its vertical datum (positive up, the GDAL
// formats' usual meaning and GeoClaw's topography), or water depth below it (positive down, as
// the Monai Valley bathymetry is given).
enum class ElevationValues { Elevation, Depth };

// A regular raster as the file holds it, south-up: sample (c, r) stands for the point
// x = x0 + c dx, y = y0 + r dy of the file's coordinates. GDAL describes every format by pixel
// areas, so a node-registered file (an XYZ grid's points, ESRI's xllcenter, GMT's gridline
// registration) is read with its nodes as the pixels' centres: x0, y0 is the first node.
struct ElevationGrid {
  std::string name;    // the file, for messages
  std::string driver;  // GDAL's driver: XYZ, AAIGrid, GTiff, netCDF
  int nx = 0, ny = 0;
  double x0 = 0.0, y0 = 0.0;   // the sample of the lowest x and y (m)
  double dx = 0.0, dy = 0.0;   // spacing (m), > 0
  std::vector<double> values;  // row-major from the lowest y; nodata and NaN kept as read
  std::optional<double> nodata;

  double at(int c, int r) const {
    return values[std::size_t(r) * std::size_t(nx) + std::size_t(c)];
  }
  // The corner of the samples' areas, west and south: a grid taken from the file starts there.
  double west() const { return x0 - 0.5 * dx; }
  double south() const { return y0 - 0.5 * dy; }
};

// Reads a file (a path on disk) or its bytes (`name` says what it is in messages and, by its
// extension, helps GDAL tell the format). Throws InputError, one line naming the file, when it
// cannot be read, is no raster GDAL knows, is rotated, has more than kMaxGridCells samples
// or is not a regular grid.
ElevationGrid readElevationFile(const std::filesystem::path& file);
ElevationGrid readElevationBytes(std::string_view bytes, const std::string& name);

// The scenario grid whose cells are the file's samples (nx, ny, dx); the file's samples must
// be square (to 1e-6). Throws InputError naming the file otherwise.
Grid gridOfElevation(const ElevationGrid& file);

// The file's values at the centres of `grid`'s cells, bilinear between the four samples around
// each (a plane is reproduced to round-off), the grid's corner (0, 0) at file coordinates
// (originX, originY). Throws InputError naming the file when a cell centre lies outside its
// samples, or a sample it weighs is nodata or not finite.
Field2D sampleElevation(const ElevationGrid& file, const Grid& grid, double originX,
                        double originY);

}  // namespace wb
