// ParaView-readable output: one VTK XML image (.vti) per dumped frame with eta, the wet mask
// and the rest depth as point data, and a .pvd collection that indexes the series by time.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"

namespace wb {

// Writes eta on the domain's grid (cell centres as VTK points) to `file`, atomically.
void writeVtiFrame(const std::filesystem::path& file, const Field2D& eta, const Domain& domain);

struct PvdEntry {
  double time;
  std::string file;  // relative to the .pvd
};
void writePvdIndex(const std::filesystem::path& file, const std::vector<PvdEntry>& entries);

}  // namespace wb
