// Built-in analytic verification cases, shared by `wavebench-cli verify` and the test suite.
// Each case runs a model against an analytic solution or a derived bound and states the
// measured value, the tolerance and whether it passed.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace wb {

struct VerifyResult {
  std::string model;
  std::string name;
  double measured = 0.0;
  double tolerance = 0.0;  // pass when |measured| <= tolerance (or as `comparison` says)
  std::string unit;        // of measured and tolerance, e.g. "rel", "m^3", "s"
  bool passed = false;
  std::string detail;  // one line: what was measured against what
};

struct VerifyCase {
  std::string model;
  std::string name;
  std::function<VerifyResult()> run;
};

std::vector<VerifyCase> verificationCases();

// Each model's cases, registered by verificationCases().
std::vector<VerifyCase> dampedWaveCases();
std::vector<VerifyCase> advectedWaveCases();
std::vector<VerifyCase> sweSemiLagrangianCases();
std::vector<VerifyCase> sweAdiCases();

}  // namespace wb
