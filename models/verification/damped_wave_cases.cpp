#include "models/verification/verification.hpp"
namespace wb {
std::vector<VerifyCase> dampedWaveCases() { return {}; }
}  // namespace wb
