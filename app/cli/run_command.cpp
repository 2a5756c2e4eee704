// wavebench-cli run: a comparison of models on one scenario, written as series.csv and
// optional field dumps (eta as CSV, and the ParaView series of app/export/paraview_series.hpp).
#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "app/cli/bodies_log.hpp"
#include "app/cli/options.hpp"
#include "app/export/paraview_series.hpp"
#include "core/errors.hpp"
#include "core/run/comparison.hpp"
#include "core/scenario/field_io.hpp"
#include "models/registry.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

namespace {

struct ModelSummary {
  double maxAbsDrift = 0.0;
  double energy0 = 0.0, energyEnd = 0.0;
  double stepMsTotal = 0.0;
  int frames = 0;
  int substeps = 0;
};

std::string frameName(int frame) {
  return ParaViewSeries::frameName("eta", frame);
}

// Removes a temporary file unless it was renamed into place, so an error mid-run leaves no
// partial output behind.
struct TempFileGuard {
  fs::path path;
  ~TempFileGuard() {
    std::error_code ignored;
    if (!path.empty()) fs::remove(path, ignored);
  }
};

// Every K-th frame: eta as CSV, and the ParaView series (eta, velocity, bodies).
class Dumper {
 public:
  Dumper(const fs::path& out, int every, const Comparison& comparison) : out_(out), every_(every) {
    if (every_ > 0) paraview_.emplace(out_, comparison);
  }
  void frame(const Comparison& comparison) {
    if (every_ <= 0 || comparison.frame() % every_ != 0) return;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      if (comparison.failure(k)) continue;
      const Model& model = comparison.model(k);
      const fs::path file = out_ / model.id() / (frameName(comparison.frame()) + ".csv");
      writeFileAtomically(file, [&](std::ostream& o) { writeCsvField(o, model.eta()); });
    }
    paraview_->frame(comparison);
  }
  void finish() {
    if (paraview_) paraview_->finish();
  }

 private:
  fs::path out_;
  int every_;
  std::optional<ParaViewSeries> paraview_;
};

}  // namespace

int runCommand(const FlagReader& flags) {
  const auto scenarioName = flags.value("--scenario");
  if (!scenarioName) throw InputError("run: --scenario FILE|builtin:NAME is required");
  Scenario scenario = loadCheckedScenario(*scenarioName);
  if (flags.value("--duration") && flags.value("--frames"))
    throw InputError("run: give --duration or --frames, not both");
  scenario.duration = flags.number("--duration", scenario.duration, 0, 1e7);
  if (scenario.duration / scenario.frameDt > kMaxFrames)
    throw InputError("--duration: more than " + std::to_string(kMaxFrames) + " frames of " +
                     std::to_string(scenario.frameDt) + " s");
  int frames = flags.integer("--frames", scenario.frameCount(), 0, kMaxFrames);
  const int dumpEvery = flags.integer("--dump-every", 0, 0, kMaxFrames);
  const int threads = flags.integer("--threads", 0, 0, 1024);
  if (threads > 0) omp_set_num_threads(threads);
  const bool quiet = flags.isSet("--quiet");
  std::vector<std::string> ids;
  if (auto list = flags.value("--models")) ids = splitList(*list);

  Comparison comparison(
      scenario, createScenarioModels(scenario, ids, flags.values("--set"), flags.isSet("--force")));
  comparison.setConcurrent(!flags.isSet("--sequential"));
  if (!quiet)
    for (const std::string& note : comparison.notes())
      std::fprintf(stderr, "wavebench-cli: note: %s\n", note.c_str());
  const auto out = flags.value("--out");
  if (dumpEvery > 0 && !out) throw InputError("--dump-every: needs --out DIR");

  TempFileGuard seriesGuard;  // declared before the stream: the stream closes first
  std::ofstream series;
  fs::path seriesFile, seriesTemp;
  std::optional<Dumper> dumper;
  std::optional<BodiesLog> bodiesLog;
  if (out) {
    ensureWritableDirectory(*out);
    seriesFile = fs::path(*out) / "series.csv";
    seriesTemp = seriesFile;
    seriesTemp += ".tmp";
    seriesGuard.path = seriesTemp;
    series.open(seriesTemp, std::ios::trunc);
    if (!series) throw InputError(seriesFile.string() + ": cannot open for writing");
    writeSeriesHeader(series);
    dumper.emplace(*out, dumpEvery, comparison);
    bodiesLog.emplace(*out, comparison);
  }

  std::vector<ModelSummary> summary(comparison.modelCount());
  auto record = [&] {
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      if (comparison.failure(k)) continue;
      const FrameRecord r = comparison.record(k);
      if (series.is_open()) writeSeriesRow(series, r);
      ModelSummary& s = summary[k];
      if (r.frame == 0) s.energy0 = r.energyTotal();
      s.maxAbsDrift = std::max(s.maxAbsDrift, std::fabs(r.volumeDrift));
      s.energyEnd = r.energyTotal();
      if (r.frame > 0) s.stepMsTotal += r.stepMs, s.frames++, s.substeps = r.substeps;
    }
    if (dumper) dumper->frame(comparison);
    if (bodiesLog) bodiesLog->frame(comparison);
  };

  const bool progress = !quiet && isatty(STDERR_FILENO);
  record();
  for (int f = 0; f < frames; ++f) {
    comparison.advanceFrame();
    record();
    if (progress && (f + 1) % std::max(1, frames / 100) == 0)
      std::fprintf(stderr, "\rrun: frame %d / %d (t = %.2f s)", f + 1, frames, comparison.time());
    bool allFailed = true;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k)
      allFailed = allFailed && comparison.failure(k).has_value();
    if (allFailed) break;
  }
  if (progress) std::fprintf(stderr, "\n");

  if (out) {
    series.close();
    if (!series) throw InputError(seriesFile.string() + ": write failed");
    std::error_code ec;
    fs::rename(seriesTemp, seriesFile, ec);
    if (ec) throw InputError(seriesFile.string() + ": cannot rename into place: " + ec.message());
    seriesGuard.path.clear();
    dumper->finish();
    bodiesLog->finish();
  }

  if (!quiet) {
    std::printf("%-20s %8s %10s %14s %12s %10s %9s  %s\n", "model", "frames", "substeps",
                "max|drift| m3", "E_end/E_0", "ms/step", "steps/s", "status");
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      const ModelSummary& s = summary[k];
      const double msPerStep = s.frames ? s.stepMsTotal / s.frames : 0.0;
      std::printf("%-20s %8d %10d %14.3g %12.6g %10.4f %9.0f  %s\n",
                  comparison.model(k).id().c_str(), s.frames, s.substeps, s.maxAbsDrift,
                  s.energy0 > 0 ? s.energyEnd / s.energy0 : 0.0, msPerStep,
                  msPerStep > 0 ? 1e3 / msPerStep : 0.0,
                  !comparison.failure(k)  ? "ok"
                  : comparison.refused(k) ? "REFUSED"
                                          : "BLEW UP");
    }
    if (out) std::printf("wrote %s\n", seriesFile.string().c_str());
  }
  // A model stopped during the run (it blew up, or refused an edit its method cannot hold)
  // exits with 3; the others' output is written (docs/cli.md).
  int status = 0;
  for (std::size_t k = 0; k < comparison.modelCount(); ++k)
    if (comparison.failure(k)) {
      std::fprintf(stderr, "wavebench-cli: %s\n", comparison.failure(k)->c_str());
      status = 3;
    }
  return status;
}

}  // namespace wb::cli
