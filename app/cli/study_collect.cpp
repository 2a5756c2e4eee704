// study collect: the results of a study's folder merged into study.csv and eoc.csv.
#include <sstream>

#include "app/cli/study_command.hpp"
#include "app/export/output_file.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

std::vector<std::optional<RunResult>> collectStudy(const fs::path& dir, const StudyPlan& plan) {
  std::vector<std::optional<RunResult>> results;
  for (const auto& run : plan.runs)
    results.push_back(readResult(dir, plan, run.index));
  std::ostringstream study, eoc;
  writeStudyCsv(study, plan, results);
  writeEocCsv(eoc, plan, results);
  writeWholeFile(dir / "study.csv", study.str());
  writeWholeFile(dir / "eoc.csv", eoc.str());
  return results;
}

}  // namespace wb::cli
