// Terrain from elevation files read with GDAL (docs/scenario.md, "Terrain from elevation
// files"): the Monai Valley bathymetry as distributed (header line, y running fastest), files in
// every format written here by GDAL with a plane z = a + b x + c y that bilinear sampling must
// reproduce on any grid, and every bad file refused in one line naming it, by the library and
// by wavebench-cli (exit 2, nothing written).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <cpl_conv.h>
#include <cpl_vsi.h>
#include <gdal_priv.h>
#include <netcdf.h>

#include "core/scenario/scenario.hpp"
#include "core/scenario/terrain_file_keys.hpp"
#include "core/terrain/elevation_file.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

const fs::path kMonaiGz =
    fs::path(WAVEBENCH_SOURCE_DIR) / "resources/scenarios/MonaiValley_Bathymetry.txt.gz";

// The plane every written file holds: z = a + b x + c y, in the file's coordinates.
constexpr double kA = 2.0, kB = 0.03, kC = -0.02;
double plane(double x, double y) {
  return kA + kB * x + kC * y;
}

class TerrainFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wavebench_terrain_file_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    GDALAllRegister();
    CPLSetConfigOption("CPL_VSIL_GZIP_WRITE_PROPERTIES", "NO");  // nothing beside the .gz
  }
  void TearDown() override { fs::remove_all(dir_); }

  void writeText(const fs::path& file, const std::string& text) const {
    std::ofstream(dir_ / file, std::ios::binary) << text;
  }
  // A file of nx x ny samples of the plane (or `hole` at sample (holeC, holeR) from the north-
  // west, GDAL's order), north-up, written by GDAL's driver.
  fs::path writeRaster(const std::string& driver, const std::string& name, int nx, int ny,
                       double west, double north, double spacing,
                       std::optional<double> nodata = std::nullopt, double hole = 0.0,
                       int holeC = -1, int holeR = -1) const {
    GDALDriver* mem = GetGDALDriverManager()->GetDriverByName("MEM");
    GDALDataset* data = mem->Create("", nx, ny, 1, GDT_Float64, nullptr);
    double transform[6] = {west, spacing, 0.0, north, 0.0, -spacing};
    data->SetGeoTransform(transform);
    std::vector<double> values(std::size_t(nx) * ny);
    for (int r = 0; r < ny; ++r)
      for (int c = 0; c < nx; ++c)
        values[std::size_t(r) * nx + c] =
            c == holeC && r == holeR
                ? hole
                : plane(west + (c + 0.5) * spacing, north - (r + 0.5) * spacing);
    EXPECT_EQ(data->GetRasterBand(1)->RasterIO(GF_Write, 0, 0, nx, ny, values.data(), nx, ny,
                                               GDT_Float64, 0, 0, nullptr),
              CE_None);
    if (nodata) data->GetRasterBand(1)->SetNoDataValue(*nodata);
    const fs::path file = dir_ / name;
    GDALDataset* out = GetGDALDriverManager()
                           ->GetDriverByName(driver.c_str())
                           ->CreateCopy(file.c_str(), data, FALSE, nullptr, nullptr, nullptr);
    EXPECT_NE(out, nullptr) << driver;
    GDALClose(out);
    GDALClose(data);
    return file;
  }
  // A GMT grid as GMT 4 and later write it (`grdmath ... = file.grd`): COARDS/CF netCDF with
  // x and y coordinate variables at the nodes and z's rows from the south, written with
  // netCDF's C API as GMT does. (GMT 3's classic x_range/spacing grids need GDAL's GMT driver,
  // which Debian's GDAL does not build.)
  fs::path writeGmt(const std::string& name, int nx, int ny, double xFirst, double yFirst,
                    double spacing) const {
    const fs::path file = dir_ / name;
    int id = 0, xDim = 0, yDim = 0, x = 0, y = 0, z = 0;
    EXPECT_EQ(nc_create(file.c_str(), NC_CLOBBER, &id), NC_NOERR);
    nc_def_dim(id, "x", std::size_t(nx), &xDim);
    nc_def_dim(id, "y", std::size_t(ny), &yDim);
    nc_def_var(id, "x", NC_DOUBLE, 1, &xDim, &x);
    nc_def_var(id, "y", NC_DOUBLE, 1, &yDim, &y);
    const int dims[2] = {yDim, xDim};
    nc_def_var(id, "z", NC_DOUBLE, 2, dims, &z);
    const auto text = [&](int var, const char* key, const std::string& value) {
      nc_put_att_text(id, var, key, value.size(), value.c_str());
    };
    text(NC_GLOBAL, "Conventions", "COARDS, CF-1.5");
    text(NC_GLOBAL, "GMT_version", "4.5.18");  // GDAL takes x and y as coordinates by it
    text(x, "long_name", "x");
    text(y, "long_name", "y");
    text(z, "long_name", "z");
    EXPECT_EQ(nc_enddef(id), NC_NOERR);
    std::vector<double> xs, ys, values;
    for (int c = 0; c < nx; ++c)
      xs.push_back(xFirst + c * spacing);
    for (int r = 0; r < ny; ++r)
      ys.push_back(yFirst + r * spacing);
    for (int r = 0; r < ny; ++r)
      for (int c = 0; c < nx; ++c)
        values.push_back(plane(xs[c], ys[r]));
    nc_put_var_double(id, x, xs.data());
    nc_put_var_double(id, y, ys.data());
    nc_put_var_double(id, z, values.data());
    EXPECT_EQ(nc_close(id), NC_NOERR);
    return file;
  }
  // The message the library gives for reading `file` onto a 20 x 10 grid of 0.5 m at origin.
  std::string resampleError(const fs::path& file, double originX = 0.0, double originY = 0.0) {
    return errorOf([&] {
      const ElevationGrid grid = readElevationFile(file);
      sampleElevation(grid, Grid{20, 10, 0.5}, originX, originY);
    });
  }
  // wavebench-cli run on a scenario of `terrain` keys: its exit code and stderr.
  std::pair<int, std::string> runCli(const std::string& terrain) {
    writeText("s.json", R"({"grid": {"nx": 20, "ny": 10, "dx": 0.5}, "terrain": )" + terrain +
                            R"(, "duration": 0.05, "frame_dt": 0.05})");
    const std::string command = "cd '" + dir_.string() +
                                "' && '" WAVEBENCH_CLI
                                "' run --scenario s.json --models swe-adi --out o 2> err.txt";
    const int status = std::system(command.c_str());
    std::ifstream in(dir_ / "err.txt");
    std::stringstream err;
    err << in.rdbuf();
    fs::remove(dir_ / "err.txt");
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, err.str()};
  }

  fs::path dir_;
};

// ---- the Monai Valley bathymetry -----------------------------------------------------------

// The values at known points of the file (its lines 2, 246, 48902, 78900 and the last); (1, 0)
// comes 244 lines after (0, 0): y runs fastest.
void expectMonaiSamples(const ElevationGrid& monai) {
  EXPECT_EQ(monai.nx, 393);
  EXPECT_EQ(monai.ny, 244);
  EXPECT_NEAR(monai.dx, 0.014, 1e-12);
  EXPECT_NEAR(monai.dy, 0.014, 1e-12);
  EXPECT_NEAR(monai.x0, 0.0, 1e-12);
  EXPECT_NEAR(monai.y0, 0.0, 1e-12);
  EXPECT_NEAR(monai.west(), -0.007, 1e-12);  // the cell-centred origin GDAL gives
  // GDAL's XYZ driver holds values of five significant digits as float.
  EXPECT_FLOAT_EQ(float(monai.at(0, 0)), 0.13535f);
  EXPECT_FLOAT_EQ(float(monai.at(1, 0)), 0.13465f);        // x 0.014, y 0
  EXPECT_FLOAT_EQ(float(monai.at(200, 100)), 0.0523725f);  // x 2.8, y 1.4
  EXPECT_FLOAT_EQ(float(monai.at(323, 86)), 0.01145f);     // x 4.522, y 1.204
  EXPECT_FLOAT_EQ(float(monai.at(392, 243)), -0.125f);     // x 5.488, y 3.402: the valley, dry
}

TEST_F(TerrainFile, MonaiBathymetryReadsAsDistributedHeaderAndAll) {
  // The text file itself, as NOAA distributes it (inflated from the project's copy by GDAL).
  GByte* bytes = nullptr;
  vsi_l_offset size = 0;
  ASSERT_TRUE(VSIIngestFile(nullptr, ("/vsigzip/" + kMonaiGz.string()).c_str(), &bytes, &size, -1));
  const std::string text(reinterpret_cast<const char*>(bytes), std::size_t(size));
  VSIFree(bytes);
  ASSERT_EQ(text.size(), 3931608u);
  ASSERT_TRUE(text.starts_with("       x(m)        y(m)        z(m)\n"));
  writeText("MonaiValley_Bathymetry.txt", text);
  expectMonaiSamples(readElevationFile(dir_ / "MonaiValley_Bathymetry.txt"));
  // The project's gzip copy and the embedded resource read the same.
  expectMonaiSamples(readElevationFile(kMonaiGz));
}

TEST_F(TerrainFile, MonaiGridFromTheFileIsTheScenarioGrid) {
  const Scenario s =
      parseScenarioText(R"({"terrain": {"file": "builtin:MonaiValley_Bathymetry.txt.gz",
      "values": "depth", "grid": "file", "coast": "ground"}})",
                        "monai.json", dir_);
  EXPECT_EQ(s.grid.nx, 393);
  EXPECT_EQ(s.grid.ny, 244);
  EXPECT_NEAR(s.grid.dx, 0.014, 1e-12);
  const Domain domain = buildDomain(s);
  EXPECT_FLOAT_EQ(domain.restDepth()(0, 0), 0.13535f);
  EXPECT_FLOAT_EQ(domain.restDepth()(1, 0), 0.13465f);
  EXPECT_FLOAT_EQ(domain.restDepth()(200, 100), 0.0523725f);
  EXPECT_FLOAT_EQ(domain.restDepth()(392, 243), -0.125f);  // ground above the still water
  EXPECT_TRUE(domain.isWet(392, 243));                     // "coast": "ground"
  // Written back and read again: the same keys.
  const nlohmann::json written = scenarioToJson(s);
  EXPECT_EQ(written.at("terrain"),
            nlohmann::json::parse(R"({"file": "builtin:MonaiValley_Bathymetry.txt.gz",
                "values": "depth", "sea_level": 0.0, "grid": "file", "coast": "ground"})"));
  const Scenario again = parseScenario(written, "again.json", dir_);
  EXPECT_EQ(again.grid.nx, 393);
  const Field2D reread = buildDomain(again).restDepth();
  EXPECT_TRUE(std::equal(reread.data(), reread.data() + reread.size(), domain.restDepth().data()));
}

TEST_F(TerrainFile, GridGivenBesideGridFromFileMustBeTheFiles) {
  const std::string keys = R"("terrain": {"file": "builtin:MonaiValley_Bathymetry.txt.gz",
      "values": "depth", "grid": "file"}})";
  EXPECT_EQ(errorOf([&] {
              parseScenarioText(R"({"grid": {"nx": 100, "ny": 50, "dx": 0.02}, )" + keys, "m.json",
                                dir_);
            }),
            "m.json: terrain.grid: the grid is 100 x 50 cells of 0.02 m; the file's is 393 x 244 "
            "of 0.014 m: leave \"grid\" out or use \"resample\"");
  EXPECT_EQ(errorOf([&] {
              parseScenarioText(R"({"grid": {"nx": 393, "ny": 244, "dx": 0.014}, )" + keys,
                                "m.json", dir_);
            }),
            "no error");
}

// ---- formats, registration and resampling ------------------------------------------------------

// XYZ text with a header line, tabs and spaces, y running fastest: GDAL's XYZ driver alone
// refuses the header.
TEST_F(TerrainFile, XyzHeaderLinesAreSkippedAndTabsSeparate) {
  std::ostringstream text;
  text << "\nx y z\n\n# comment line\n";
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r)
      text << 10 + 0.5 * c << (r % 2 ? "\t" : "  ") << 20 + 0.5 * r << "\t "
           << plane(10 + 0.5 * c, 20 + 0.5 * r) << "\n";
  writeText("header.xyz", text.str());
  const ElevationGrid grid = readElevationFile(dir_ / "header.xyz");
  EXPECT_EQ(grid.nx, 4);
  EXPECT_EQ(grid.ny, 3);
  EXPECT_DOUBLE_EQ(grid.x0, 10.0);
  EXPECT_DOUBLE_EQ(grid.y0, 20.0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(grid.at(c, r), plane(10 + 0.5 * c, 20 + 0.5 * r), 1e-6) << c << ", " << r;
  // A leading blank line alone: GDAL's XYZ driver reads such a file with its columns shifted.
  writeText("blank.xyz", "\n\n0 0 1\n0 1 2\n1 0 3\n1 1 4\n");
  const ElevationGrid blank = readElevationFile(dir_ / "blank.xyz");
  EXPECT_EQ(blank.at(0, 0), 1.0);
  EXPECT_EQ(blank.at(1, 0), 3.0);
  EXPECT_EQ(blank.at(0, 1), 2.0);
  EXPECT_EQ(blank.at(1, 1), 4.0);
}

// ESRI's xllcenter names the first node; xllcorner the corner of its cell.
TEST_F(TerrainFile, AsciiGridNodeAndCellRegistration) {
  writeText("centre.asc",
            "ncols 3\nnrows 2\nxllcenter 100\nyllcenter 200\ncellsize 2\n1 2 3\n4 5 6\n");
  writeText("corner.asc",
            "ncols 3\nnrows 2\nxllcorner 100\nyllcorner 200\ncellsize 2\n1 2 3\n4 5 6\n");
  const ElevationGrid centre = readElevationFile(dir_ / "centre.asc");
  const ElevationGrid corner = readElevationFile(dir_ / "corner.asc");
  EXPECT_DOUBLE_EQ(centre.x0, 100.0);
  EXPECT_DOUBLE_EQ(centre.y0, 200.0);
  EXPECT_DOUBLE_EQ(corner.x0, 101.0);
  EXPECT_DOUBLE_EQ(corner.y0, 201.0);
  // The first row of an ASCII grid is the northern one.
  EXPECT_EQ(centre.at(0, 0), 4.0);
  EXPECT_EQ(centre.at(2, 1), 3.0);
}

TEST_F(TerrainFile, PlaneIsReproducedOnAnyGridFromEveryFormat) {
  const struct {
    const char* driver;
    const char* name;
  } formats[] = {{"AAIGrid", "plane.asc"},
                 {"GTiff", "plane.tif"},
                 {"netCDF", "plane.nc"},  // CF, as GMT 4 and later write grids too
                 {"GMT", "plane.grd"},    // GMT's netCDF grid, rows from the south
                 {"XYZ", "plane.xyz"}};
  for (const auto& format : formats) {
    SCOPED_TRACE(format.name);
    const fs::path file = std::string(format.driver) == "GMT"
                              ? writeGmt(format.name, 40, 30, 100.25, 200.25, 0.5)
                              : writeRaster(format.driver, format.name, 40, 30, 100.0, 215.0, 0.5);
    const ElevationGrid grid = readElevationFile(file);
    EXPECT_EQ(grid.nx, 40);
    EXPECT_EQ(grid.ny, 30);
    EXPECT_NEAR(grid.west(), 100.0, 1e-9);
    EXPECT_NEAR(grid.south(), 200.0, 1e-9);
    // Grids that share nothing with the file's samples, and its own.
    for (const Grid& target : {Grid{17, 13, 0.37}, Grid{50, 41, 0.31}, Grid{40, 30, 0.5}}) {
      const double ox = 100.3, oy = 201.1;
      const bool own = target.dx == 0.5;
      const Field2D z = sampleElevation(grid, target, own ? 100.0 : ox, own ? 200.0 : oy);
      double worst = 0.0;
      for (int j = 0; j < target.ny; ++j)
        for (int i = 0; i < target.nx; ++i) {
          const double x = (own ? 100.0 : ox) + target.x(i), y = (own ? 200.0 : oy) + target.y(j);
          worst = std::max(worst, std::fabs(z(i, j) - plane(x, y)));
        }
      EXPECT_LT(worst, 4e-6) << target.nx;  // float's round-off on values near 3
    }
  }
}

// Depths are ground below the still water; sea_level is the still water in the file's datum.
TEST_F(TerrainFile, DepthAndElevationGiveTheRestDepth) {
  writeRaster("GTiff", "plane.tif", 40, 30, 0.0, 15.0, 0.5);
  for (const char* values : {"depth", "elevation"}) {
    SCOPED_TRACE(values);
    const Scenario s = parseScenarioText(std::string(R"({"grid": {"nx": 16, "ny": 8, "dx": 1},
        "terrain": {"file": "plane.tif", "values": ")") +
                                             values + R"(", "sea_level": 2.5,
        "origin": [2, 3], "coast": "ground"}})",
                                         "s.json", dir_);
    const Domain domain = buildDomain(s);
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < 16; ++i) {
        const double z = plane(2 + s.grid.x(i), 3 + s.grid.y(j));
        const double expected = std::string(values) == "depth" ? z + 2.5 : 2.5 - z;
        EXPECT_NEAR(domain.restDepth()(i, j), std::max(expected, Domain::kMinDepth), 2e-6);
      }
  }
}

// ---- bad files and bad keys: one line naming the file
// --------------------------------------------

TEST_F(TerrainFile, BadFilesAreRefusedInOneLineNamingTheFile) {
  const auto expectOneLine = [&](const fs::path& file, const std::string& message, double ox = 0.0,
                                 double oy = 0.0) {
    SCOPED_TRACE(file.filename().string());
    const std::string error = resampleError(file, ox, oy);
    EXPECT_EQ(error, file.string() + ": " + message);
    EXPECT_EQ(error.find('\n'), std::string::npos);
  };
  // A hole of nodata, and a NaN, under the grid.
  expectOneLine(writeRaster("AAIGrid", "hole.asc", 40, 30, 0.0, 15.0, 0.5, -9999.0, -9999.0, 6, 25),
                "holds nodata at x 3.25, y 2.25 m (column 6, row 4 from the south-west), inside "
                "the grid");
  expectOneLine(
      writeRaster("GTiff", "nan.tif", 40, 30, 0.0, 15.0, 0.5, std::nullopt,
                  std::numeric_limits<double>::quiet_NaN(), 3, 28),
      "holds a non-finite value at x 1.75, y 0.75 m (column 3, row 1 from the south-west), inside "
      "the grid");
  // A file smaller than the grid, and a grid moved off the file.
  expectOneLine(writeRaster("GTiff", "small.tif", 12, 30, 0.0, 15.0, 0.5),
                "does not cover the grid: its samples span x 0.25 to 5.75, y 0.25 to 14.75 m; "
                "the grid's cell centres span x 0.25 to 9.75, y 0.25 to 4.75 m (terrain.origin "
                "moves the grid in the file)");
  expectOneLine(dir_ / "small.tif",
                "does not cover the grid: its samples span x 0.25 to 5.75, y 0.25 to 14.75 m; "
                "the grid's cell centres span x -49.75 to -40.25, y 0.25 to 4.75 m "
                "(terrain.origin moves the grid in the file)",
                -50.0);
  // A truncated GeoTIFF, binary garbage, an empty file, text that is no grid.
  {
    const fs::path whole = writeRaster("GTiff", "whole.tif", 40, 30, 0.0, 15.0, 0.5);
    std::ifstream in(whole, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    writeText("truncated.tif", bytes.substr(0, bytes.size() / 2));
    const std::string error = resampleError(dir_ / "truncated.tif");
    EXPECT_TRUE(error.starts_with((dir_ / "truncated.tif").string() + ": ")) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  std::string garbage(4096, '\0');
  for (std::size_t k = 0; k < garbage.size(); ++k)
    garbage[k] = char((k * 2654435761u) >> 13);
  writeText("garbage.nc", garbage);
  expectOneLine(dir_ / "garbage.nc",
                "no elevation grid GDAL can read (XYZ, ESRI ASCII, GeoTIFF, NetCDF), or a "
                "truncated one");
  writeText("empty.xyz", "");
  expectOneLine(dir_ / "empty.xyz", "is empty");
  writeText("words.txt", "x y z\nthis is not a grid\n");
  expectOneLine(dir_ / "words.txt", "Couldn't determine X spacing");  // GDAL's XYZ reason
  expectOneLine(dir_ / "missing.tif", "cannot open for reading");
}

// An XYZ file whose points are not a regular grid, with and without a header; one cut short
// mid-grid (GDAL's own reasons, one line).
TEST_F(TerrainFile, XyzThatIsNotARegularGridIsRefused) {
  writeText("scattered.xyz", "0 0 1\n0 1 1\n1 0 1\n1 1.7 1\n2 0.3 1\n2 1 1\n");
  writeText("scattered_header.xyz", "x(m) y(m) z(m)\n0 0 1\n0 1 1\n1 0 1\n1 1.7 1\n2 0.3 1\n");
  writeText("cut.xyz", "0 0 1\n0 1 1\n0 2 1\n1 0 1\n1 1 1\n1 2 1\n2 0 1\n");
  const std::string spacing =
      "Ungridded dataset: At line 4, Y spacing was 1.700000. Expected 1.000000";
  EXPECT_EQ(resampleError(dir_ / "scattered.xyz"),
            (dir_ / "scattered.xyz").string() + ": " + spacing);
  EXPECT_EQ(resampleError(dir_ / "scattered_header.xyz"),
            (dir_ / "scattered_header.xyz").string() + ": " + spacing +
                " (lines counted after the 1 header line)");
  EXPECT_EQ(resampleError(dir_ / "cut.xyz"),
            (dir_ / "cut.xyz").string() +
                ": The XYZ driver does not support datasets organized by columns with missing "
                "values");
}

TEST_F(TerrainFile, BadKeysAreRefusedNamingTheKey) {
  writeRaster("GTiff", "plane.tif", 40, 30, 0.0, 15.0, 0.5);
  const auto error = [&](const std::string& terrain) {
    return errorOf([&] {
      parseScenarioText(R"({"grid": {"nx": 20, "ny": 10, "dx": 0.5}, "terrain": )" + terrain + "}",
                        "s.json", dir_);
    });
  };
  EXPECT_EQ(error(R"({"file": "plane.tif"})"),
            "s.json: terrain.values: missing: \"depth\" (below the still water) or \"elevation\"");
  EXPECT_EQ(error(R"({"file": "plane.tif", "values": "height"})"),
            "s.json: terrain.values: must be \"elevation\" or \"depth\"");
  EXPECT_EQ(error(R"({"file": "plane.tif", "values": "depth", "grid": "file", "origin": [0, 0]})"),
            "s.json: terrain.origin: only with \"grid\": \"resample\" (a grid from the file is "
            "the file's)");
  EXPECT_EQ(error(R"({"file": "plane.tif", "values": "depth", "png": "x.png"})"),
            "s.json: terrain: give \"png\" (a heightmap) or \"file\" (elevations), not both");
  EXPECT_EQ(error(R"({"file": "plane.tif", "values": "depth", "datum": 1})"),
            "s.json: terrain.datum: unknown key");
  EXPECT_EQ(error(R"({"file": "plane.tif", "values": "depth", "origin": [0, "a"]})"),
            "s.json: terrain.origin: must be a number");
  EXPECT_EQ(error(R"({"file": 3, "values": "depth"})"),
            "s.json: terrain.file: must be a file name");
  EXPECT_EQ(error(R"({"file": "plane.tif", "values": "depth", "coast": "cliffs"})"),
            "s.json: terrain.coast: unknown coast 'cliffs' (expected \"walls\" or \"ground\")");
}

// Through wavebench-cli: exit 2, the one line naming the file, no output folder.
TEST_F(TerrainFile, CliRefusesBadFilesWithExitTwoAndWritesNothing) {
  writeRaster("AAIGrid", "hole.asc", 40, 30, 0.0, 15.0, 0.5, -9999.0, -9999.0, 6, 25);
  writeRaster("GTiff", "nan.tif", 40, 30, 0.0, 15.0, 0.5, std::nullopt,
              std::numeric_limits<double>::quiet_NaN(), 3, 28);
  writeRaster("GTiff", "small.tif", 12, 30, 0.0, 15.0, 0.5);
  writeText("garbage.tif", std::string(3000, '\x07'));
  writeText("scattered.xyz", "x y z\n0 0 1\n0 1 1\n1 0 1\n1 1.7 1\n2 0.3 1\n");
  for (const char* name :
       {"hole.asc", "nan.tif", "small.tif", "garbage.tif", "scattered.xyz", "missing.nc"}) {
    SCOPED_TRACE(name);
    const auto [code, err] =
        runCli(std::string(R"({"file": ")") + name + R"(", "values": "elevation"})");
    EXPECT_EQ(code, 2);
    EXPECT_TRUE(err.starts_with("wavebench-cli: " + (dir_ / name).string() + ": ")) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(fs::exists(dir_ / "o"));
  }
  // And a good one runs.
  writeRaster("GTiff", "plane.tif", 40, 30, 0.0, 15.0, 0.5);
  const auto [code, err] = runCli(R"({"file": "plane.tif", "values": "depth"})");
  EXPECT_EQ(code, 0) << err;
  EXPECT_TRUE(fs::exists(dir_ / "o" / "series.csv"));
}

}  // namespace
}  // namespace wb
