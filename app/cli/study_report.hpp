// report.html: a study's results in one self-contained page (docs/studies.md). It is made from
// the text of study.csv and eoc.csv as written, so that the three always agree: the
// work-precision diagrams (error against CPU time, log-log, one line per model and parameter
// values) and the convergence plots (error against grid, one line per eoc.csv group, its
// fitted order in the key) drawn by gnuplot as SVG and inlined, the two tables, the study file
// and the machines. No script, style sheet, font or image is fetched: it opens offline.
#pragma once

#include <filesystem>
#include <string>

#include "core/study/study_plan.hpp"

namespace wb::cli {

// The page. `studyText` is the study file as read; `workDir` holds gnuplot's temporary files
// (removed). Without gnuplot the plots are replaced by a line saying so, and `plotProblem`
// names why (the caller reports it); the tables are there either way.
std::string studyReportHtml(const StudyPlan& plan, const std::string& studyCsv,
                            const std::string& eocCsv, const std::string& studyText,
                            const std::filesystem::path& workDir, std::string& plotProblem);

}  // namespace wb::cli
