#include "core/grid/domain.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"

namespace wb {

Domain::Domain(const Grid& grid, double g, double depth)
    : grid_(grid),
      g_(g),
      wet_(static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.ny), 1),
      restDepth_(grid.nx, grid.ny, static_cast<float>(depth)) {}

void Domain::setMask(const std::vector<std::uint8_t>& wet) {
  if (wet.size() != wet_.size()) throw std::invalid_argument("Domain::setMask: wrong size");
  wet_ = wet;
  zeroDepthOnSolid();
}

int Domain::wetCount() const {
  return static_cast<int>(std::count_if(wet_.begin(), wet_.end(), [](auto w) { return w != 0; }));
}

void Domain::setRestDepth(const Field2D& depth) {
  if (depth.nx() != grid_.nx || depth.ny() != grid_.ny)
    throw std::invalid_argument("Domain::setRestDepth: wrong size");
  restDepth_ = depth;
  for (std::size_t k = 0; k < wet_.size(); ++k)
    if (wet_[k] && restDepth_.data()[k] >= 0.0f)
      restDepth_.data()[k] = std::max(restDepth_.data()[k], float(kMinDepth));
  zeroDepthOnSolid();
}

void Domain::zeroDepthOnSolid() {
  for (std::size_t k = 0; k < wet_.size(); ++k)
    if (!wet_[k]) restDepth_.data()[k] = 0.0f;
}

bool Domain::hasLandAboveRest() const {
  for (std::size_t k = 0; k < wet_.size(); ++k)
    if (wet_[k] && restDepth_.data()[k] <= 0.0f) return true;
  return false;
}

double Domain::meanWetDepth() const {
  double total = 0.0;
  int count = 0;
  for (std::size_t k = 0; k < wet_.size(); ++k)
    if (wet_[k] && restDepth_.data()[k] > 0.0f) total += restDepth_.data()[k], ++count;
  return count ? total / count : 0.0;
}

double Domain::maxWetDepth() const {
  double deepest = 0.0;
  for (std::size_t k = 0; k < wet_.size(); ++k)
    if (wet_[k]) deepest = std::max(deepest, double(restDepth_.data()[k]));
  return deepest;
}

Domain Domain::withLandAsWalls() const {
  Domain walled = *this;
  for (std::size_t k = 0; k < wet_.size(); ++k)
    if (restDepth_.data()[k] <= 0.0f) walled.wet_[k] = 0;
  walled.zeroDepthOnSolid();
  return walled;
}

void Domain::applyPreset(MaskPreset preset) {
  if (preset == MaskPreset::Pi) {
    const int legEnd = grid_.nx / 3;
    const int legStart = grid_.nx - grid_.nx / 3;
    const int barStart = grid_.ny - (2 * grid_.ny) / 5;
    for (int j = 0; j < barStart; ++j)
      for (int i = legEnd; i < legStart; ++i)
        wet_[index(i, j)] = 0;
  }
  zeroDepthOnSolid();
}

void Domain::applyTerrain(const Field2D& terrainHeight, double seaLevel, Coast coast) {
  if (terrainHeight.nx() != grid_.nx || terrainHeight.ny() != grid_.ny)
    throw std::invalid_argument("Domain::applyTerrain: wrong size");
  for (int j = 0; j < grid_.ny; ++j)
    for (int i = 0; i < grid_.nx; ++i) {
      const double ground = terrainHeight(i, j);
      if (!wet_[index(i, j)]) continue;
      if (ground >= seaLevel && coast == Coast::Walls) {
        wet_[index(i, j)] = 0;
      } else if (ground >= seaLevel) {
        restDepth_(i, j) = float(seaLevel - ground);
      } else {
        restDepth_(i, j) = float(std::max(seaLevel - ground, kMinDepth));
      }
    }
  zeroDepthOnSolid();
}

MaskPreset parseMaskPreset(const std::string& name, const std::string& where) {
  if (name == "rect") return MaskPreset::Rect;
  if (name == "pi") return MaskPreset::Pi;
  throw InputError(where + ": unknown mask preset '" + name + "' (expected \"rect\" or \"pi\")");
}

Domain::Coast parseCoast(const std::string& name, const std::string& where) {
  if (name == "walls") return Domain::Coast::Walls;
  if (name == "ground") return Domain::Coast::Ground;
  throw InputError(where + ": unknown coast '" + name + "' (expected \"walls\" or \"ground\")");
}

}  // namespace wb
