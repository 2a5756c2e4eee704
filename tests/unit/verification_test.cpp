// Every built-in verification case (the table `wavebench-cli verify` prints) must pass.
#include <gtest/gtest.h>

#include "models/verification/verification.hpp"

namespace wb {

// Names the case in CTest's list instead of dumping its bytes.
void PrintTo(const VerifyCase& c, std::ostream* os) {
  *os << c.model << ": " << c.name;
}

namespace {

class VerificationCase : public ::testing::TestWithParam<VerifyCase> {};

TEST_P(VerificationCase, Passes) {
  const VerifyResult r = GetParam().run();
  EXPECT_TRUE(r.passed) << r.model << ": " << r.name << ": measured " << r.measured
                        << " > tolerance " << r.tolerance << " " << r.unit << " (" << r.detail
                        << ")";
  RecordProperty("measured", std::to_string(r.measured));
}

std::string caseName(const ::testing::TestParamInfo<VerifyCase>& info) {
  std::string name = info.param.model + "_" + info.param.name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Builtin, VerificationCase, ::testing::ValuesIn(verificationCases()),
                         caseName);

}  // namespace
}  // namespace wb
