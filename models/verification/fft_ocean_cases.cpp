#include "models/verification/verification.hpp"
namespace wb {
std::vector<VerifyCase> fftOceanCases() {
  return {};
}
}  // namespace wb
