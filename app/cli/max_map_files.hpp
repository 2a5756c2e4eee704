// The maximum maps of `wavebench-cli run --max-maps --out DIR` (docs/exports.md, "Maximum
// maps"): DIR/MODEL/max_map.csv and DIR/MODEL/max_map.vti per model, and DIR/max_maps.csv, one
// row per model with its largest values and its run-up. Written once, at the end of the run
// (also an interrupted one: then they hold what was reached), each file through a temporary and
// a rename. A model that was stopped (blew up, refused an edit) has none: its last steps may
// hold the blow-up.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "app/export/output_file.hpp"
#include "app/export/vti_writer.hpp"
#include "core/measure/max_map.hpp"
#include "core/run/comparison.hpp"

namespace wb::cli {

// What the run-up of model k is, for the run's summary: "0.0251 m at (2.5, 1.1) m", or why
// there is none.
inline std::string runUpText(const Comparison& comparison, std::size_t k) {
  const MaxMap* map = comparison.maxMap(k);
  if (!map) return "";
  if (!map->floodsLand()) return "none: no wet/dry physics (land is a wall)";
  const auto runUp = map->runUp(comparison.domain());
  if (!runUp) return "none: no land above the still water was wetted";
  char text[96];
  std::snprintf(text, sizeof text, "%.4g m at (%.4g, %.4g) m", runUp->height, runUp->x, runUp->y);
  return text;
}

class MaxMapFiles {
 public:
  explicit MaxMapFiles(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Writes every file; throws WriteError.
  void write(const Comparison& comparison) {
    const Domain& domain = comparison.domain();
    std::ostringstream summary;
    summary << "model,time,eta_max,depth_max,run_up,run_up_x,run_up_y,run_up_note\n";
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      const MaxMap* map = comparison.maxMap(k);
      if (!map || comparison.failure(k)) continue;
      const std::filesystem::path folder = dir_ / comparison.model(k).id();
      std::error_code ec;  // noted by the run before it started (RunOutput::noteSubfolders)
      std::filesystem::create_directories(folder, ec);
      if (ec) throw WriteError(folder.string() + ": cannot create the folder: " + ec.message());
      std::ostringstream csv;
      writeMaxMapCsv(csv, *map, domain);
      put(folder / "max_map.csv", [&](const auto& file) { writeWholeFile(file, csv.str()); });
      put(folder / "max_map.vti", [&](const auto& file) { writeVtiMaxMap(file, *map, domain); });
      summary << summaryRow(comparison, k, *map);
    }
    put(dir_ / "max_maps.csv", [&](const auto& file) { writeWholeFile(file, summary.str()); });
  }
  const std::vector<std::filesystem::path>& files() const { return files_; }

 private:
  template <class Write>
  void put(const std::filesystem::path& file, const Write& write) {
    try {
      write(file);
    } catch (const WriteError&) {
      throw;
    } catch (const InputError& e) {  // VTK's writer: any failure here is one to write
      throw WriteError(e.what());
    }
    files_.push_back(file);
  }

  // model,time,eta_max,depth_max,run_up,run_up_x,run_up_y,run_up_note: the largest eta_max and
  // depth_max over the wet cells; run_up_note is `measured`, `no_land_wetted` or `no_wet_dry`
  // (a model that takes land as a wall), the run-up columns empty but for the first.
  static std::string summaryRow(const Comparison& comparison, std::size_t k, const MaxMap& map) {
    float etaMax = NAN, depthMax = 0.0f;
    for (std::size_t c = 0; c < map.etaMax().size(); ++c) {
      const float value = map.etaMax().data()[c];  // NaN: never wet
      if (!std::isnan(value) && !(value <= etaMax)) etaMax = value;
      depthMax = std::max(depthMax, map.depthMax().data()[c]);
    }
    char text[256];
    std::snprintf(text, sizeof text, "%s,%.9g,%.9g,%.9g", comparison.model(k).id().c_str(),
                  comparison.time(), double(etaMax), double(depthMax));
    std::string row = text;
    const auto runUp = map.runUp(comparison.domain());
    if (runUp) {
      std::snprintf(text, sizeof text, ",%.9g,%.9g,%.9g,", runUp->height, runUp->x, runUp->y);
      row += text;
    } else {
      row += ",,,,";
    }
    return row + runUpNote(map, comparison.domain()) + "\n";
  }

  std::filesystem::path dir_;
  std::vector<std::filesystem::path> files_;
};

}  // namespace wb::cli
