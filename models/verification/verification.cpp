#include "models/verification/verification.hpp"

namespace wb {

std::vector<VerifyCase> verificationCases() {
  std::vector<VerifyCase> all;
  for (auto&& list :
       {dampedWaveCases(), advectedWaveCases(), sweSemiLagrangianCases(), sweWetDryCases(),
        sweAdiCases(), fftOceanCases(), openEdgesCases(), incomingEdgesCases(), bodyCases(),
        landCases(), manningFrictionCases(), localSpeedCases()})
    all.insert(all.end(), list.begin(), list.end());
  return all;
}

}  // namespace wb
