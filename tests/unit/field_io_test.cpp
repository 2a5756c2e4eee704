#include <gtest/gtest.h>

#include "tests/unit/test_support.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

namespace wb {
namespace {

TEST(FieldIo, CsvRoundTripKeepsValues) {
  Field2D field(3, 2);
  field(0, 0) = 1.5f;
  field(2, 1) = -0.25f;
  std::ostringstream out;
  writeCsvField(out, field);
  const Field2D back = parseCsvField(out.str(), "mem.csv");
  ASSERT_EQ(back.nx(), 3);
  ASSERT_EQ(back.ny(), 2);
  EXPECT_FLOAT_EQ(back(0, 0), 1.5f);
  EXPECT_FLOAT_EQ(back(2, 1), -0.25f);
}

TEST(FieldIo, CsvErrorsNameRowAndColumn) {
  EXPECT_EQ(errorOf([] { parseCsvField("1,2\n3,x\n", "f.csv"); }),
            "f.csv: row 2, column 2: not a number: 'x'");
  EXPECT_EQ(errorOf([] { parseCsvField("1,2\n3\n", "f.csv"); }),
            "f.csv: row 2 has 1 columns, expected 2");
  EXPECT_EQ(errorOf([] { parseCsvField("1,nan\n", "f.csv"); }),
            "f.csv: row 1, column 2: value is not finite");
  EXPECT_EQ(errorOf([] { parseCsvField("1,2\n", "f.csv", 3, 1); }),
            "f.csv: field is 2 x 1 (columns x rows), grid needs 3 x 1");
  EXPECT_EQ(errorOf([] { parseCsvField("", "f.csv"); }), "f.csv: empty CSV field");
}

TEST(FieldIo, PngRoundTripAndResample) {
  const auto dir = std::filesystem::temp_directory_path() / "wavebench_field_io";
  std::filesystem::create_directories(dir);
  Field2D field(8, 4);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 8; ++i)
      field(i, j) = float(i) / 7.0f;
  writePngField(dir / "ramp.png", field, 0.0f, 1.0f);
  const Field2D back = readPngField(dir / "ramp.png");
  ASSERT_EQ(back.nx(), 8);
  ASSERT_EQ(back.ny(), 4);
  for (int i = 0; i < 8; ++i)
    EXPECT_NEAR(back(i, 2), float(i) / 7.0f, 1.0f / 255.0f);
  const Field2D resampled = readPngField(dir / "ramp.png", 16, 8);
  EXPECT_EQ(resampled.nx(), 16);
  EXPECT_NEAR(resampled(15, 0), 1.0f, 0.01f);
  EXPECT_NE(errorOf([] { decodePngField("not a png", "x.png"); }).find("x.png: not a readable PNG"),
            std::string::npos);
}

TEST(FieldIo, AtomicWriteLeavesNothingOnFailure) {
  const auto dir = std::filesystem::temp_directory_path() / "wavebench_atomic";
  std::filesystem::create_directories(dir);
  const auto file = dir / "out.csv";
  std::filesystem::remove(file);
  EXPECT_THROW(writeFileAtomically(file, [](std::ostream&) { throw InputError("boom"); }),
               InputError);
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.csv.tmp"));
}

}  // namespace
}  // namespace wb
