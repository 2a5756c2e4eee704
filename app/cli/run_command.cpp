// wavebench-cli run: a comparison of models on one scenario, written as series.csv and
// optional field dumps (eta as CSV, and the ParaView series of app/export/paraview_series.hpp).
#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "app/cli/bodies_log.hpp"
#include "app/cli/gauges_log.hpp"
#include "app/cli/interrupt.hpp"
#include "app/cli/max_map_files.hpp"
#include "app/cli/options.hpp"
#include "app/cli/run_output.hpp"
#include "app/export/output_file.hpp"
#include "app/export/paraview_series.hpp"
#include "core/errors.hpp"
#include "core/run/comparison.hpp"
#include "core/run/load_following_team.hpp"
#include "core/run/threads.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/gauge_record_keys.hpp"
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

// Every K-th frame: eta as CSV, and the ParaView series (eta, velocity, bodies).
class Dumper {
 public:
  Dumper(RunOutput& output, int every, const Comparison& comparison)
      : output_(output), every_(every) {
    if (every_ > 0) paraview_.emplace(output_.dir(), comparison);
  }
  void frame(const Comparison& comparison) {
    if (every_ <= 0 || comparison.frame() % every_ != 0) return;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      if (comparison.failure(k)) continue;
      const Model& model = comparison.model(k);
      const fs::path file = output_.dir() / model.id() / (frameName(comparison.frame()) + ".csv");
      std::ostringstream text;
      writeCsvField(text, comparison.surface(k));
      writeWholeFile(file, text.str());
      output_.noteFile(file);
    }
    paraview_->frame(comparison);
  }
  void finish() {
    if (paraview_) paraview_->finish();
  }
  void noteFiles() {
    if (paraview_)
      for (const auto& file : paraview_->files())
        output_.noteFile(file);
  }

 private:
  RunOutput& output_;
  int every_;
  std::optional<ParaViewSeries> paraview_;
};

// The files of a run with --out: series.csv, the dumps and the bodies' logs, written a whole
// frame at a time. Any failure to write is a WriteError.
class RunFiles {
 public:
  RunFiles(RunOutput& output, int dumpEvery, bool maxMaps, Comparison& comparison)
      : output_(output),
        series_(output.dir() / "series.csv"),
        dumper_(output, dumpEvery, comparison),
        bodies_(output.dir(), comparison),
        gauges_(output.dir(), comparison) {
    std::ostringstream header;
    writeSeriesHeader(header);
    series_.append(header.str());
    if (maxMaps) maxMaps_.emplace(output.dir());
  }

  // Writes the current frame to every file. On a failure the frame is cut off again where it
  // can be (series.csv, bodies.csv: whole frames only) and the WriteError goes on.
  void frame(Comparison& comparison, const std::vector<FrameRecord>& records) {
    series_.beginFrame();
    try {
      std::ostringstream rows;
      for (const FrameRecord& r : records)
        writeSeriesRow(rows, r);
      series_.append(rows.str());
      asWriteError([&] { dumper_.frame(comparison); });
      bodies_.frame(comparison);
      gauges_.frame(comparison);
    } catch (const WriteError&) {
      series_.dropFrame();
      bodies_.dropFrame();
      gauges_.dropFrame();
      throw;
    }
    lastFrame_ = comparison.frame();
  }
  int lastFrame() const { return lastFrame_; }

  // Puts every file in place, and writes the maximum maps. Throws WriteError.
  void finish(const Comparison& comparison) {
    series_.commit();
    bodies_.finish();
    gauges_.finish();
    asWriteError([&] { dumper_.finish(); });
    writeMaxMaps(comparison);
  }
  // After a WriteError: puts in place what can be; a second failure is not reported over the
  // first.
  void keepWhatWasWritten(const Comparison& comparison) {
    for (auto step : {&RunFiles::commitSeries, &RunFiles::finishBodies, &RunFiles::finishGauges,
                      &RunFiles::finishDumps}) {
      try {
        (this->*step)();
      } catch (const InputError&) {
      }
    }
    try {
      writeMaxMaps(comparison);
    } catch (const InputError&) {
    }
  }
  // After bad input: removes every file and folder this run made.
  void discard() {
    dumper_.noteFiles();
    if (maxMaps_)
      for (const auto& file : maxMaps_->files())
        output_.noteFile(file);
    output_.discard();
  }

 private:
  template <class Write>
  static void asWriteError(const Write& write) {
    try {
      write();
    } catch (const WriteError&) {
      throw;
    } catch (const InputError& e) {  // VTK's writers: any failure here is one to write
      throw WriteError(e.what());
    }
  }
  void commitSeries() { series_.commit(); }
  void finishBodies() { bodies_.finish(); }
  void finishGauges() { gauges_.finish(); }
  void finishDumps() { dumper_.finish(); }
  void writeMaxMaps(const Comparison& comparison) {
    if (maxMaps_) maxMaps_->write(comparison);
  }

  RunOutput& output_;
  OutputFile series_;
  Dumper dumper_;
  BodiesLog bodies_;
  GaugesLog gauges_;
  std::optional<MaxMapFiles> maxMaps_;
  int lastFrame_ = -1;
};

// Runs make(), turning memory running out into bad input naming the file and what was being
// made: an input too large for this machine (a grid, a body's mesh) is not a bug.
template <class Make>
auto orTooLarge(const std::string& file, const std::string& doing, const Make& make) {
  try {
    return make();
  } catch (const std::bad_alloc&) {
    throw InputError(outOfMemoryMessage(file, doing));
  } catch (const std::length_error&) {
    throw InputError(file + ": too large for memory " + doing + " (try a smaller grid or body)");
  }
}

std::string atFrame(const Comparison& comparison) {
  char text[64];
  std::snprintf(text, sizeof text, "at t = %.9g s (frame %d)", comparison.time(),
                comparison.frame());
  return text;
}

// --set id.param=value for a model that is not in the run would silently do nothing.
void checkOverridesAreInRun(const FlagReader& flags, const Comparison& comparison) {
  for (const auto& text : flags.values("--set")) {
    const std::string id = text.substr(0, text.find('.'));
    std::string running;
    bool found = false;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      found = found || comparison.model(k).id() == id;
      running += (k ? ", " : "") + comparison.model(k).id();
    }
    if (!found)
      throw InputError("--set " + text + ": model '" + id +
                       "' is not in this run (running: " + running + ")");
  }
}

std::string framesText(int last) {
  return last < 0 ? std::string("no frame") : "frames 0 to " + std::to_string(last);
}

}  // namespace

int runCommand(const FlagReader& flags) {
  const InterruptWatch interrupts;
  const auto scenarioName = flags.value("--scenario");
  if (!scenarioName) throw InputError("run: --scenario FILE|builtin:NAME is required");
  Scenario scenario = orTooLarge(*scenarioName, "reading the scenario",
                                 [&] { return loadCheckedScenario(*scenarioName); });
  if (flags.value("--duration") && flags.value("--frames"))
    throw InputError("run: give --duration or --frames, not both");
  scenario.duration = flags.number("--duration", scenario.duration, 0, 1e7);
  if (scenario.duration / scenario.frameDt > kMaxFrames)
    throw InputError("--duration: more than " + std::to_string(kMaxFrames) + " frames of " +
                     std::to_string(scenario.frameDt) + " s");
  int frames = flags.integer("--frames", scenario.frameCount(), 0, kMaxFrames);
  requireRecordsCover(scenario, frames * scenario.frameDt);
  checkIncomingCoversRun(scenario.edges, frames * scenario.frameDt,
                         scenario.source + ": domain.edges");
  const int dumpEvery = flags.integer("--dump-every", 0, 0, kMaxFrames);
  const int threads = flags.integer("--threads", 0, 0, 1024);
  if (threads > 0) omp_set_num_threads(threads);
  std::optional<LoadFollowingTeam> team = defaultLoadFollowingTeam(threads);
  const bool quiet = flags.isSet("--quiet");
  const bool maxMaps = flags.isSet("--max-maps");
  if (flags.value("--arrival-tolerance") && !maxMaps)
    throw InputError("--arrival-tolerance: needs --max-maps");
  MaxMapSettings maxMapSettings;
  maxMapSettings.arrivalTolerance =
      flags.number("--arrival-tolerance", maxMapSettings.arrivalTolerance, 0, 1e6);
  std::vector<std::string> ids;
  if (auto list = flags.value("--models")) {
    ids = splitList(*list);
    if (ids.empty()) throw InputError("--models: '" + *list + "' names no model");
  }

  const std::string setup = "building the models on a " + std::to_string(scenario.grid.nx) + " x " +
                            std::to_string(scenario.grid.ny) + " grid";
  Comparison comparison = orTooLarge(*scenarioName, setup, [&] {
    return Comparison(scenario, createScenarioModels(scenario, ids, flags.values("--set"),
                                                     flags.isSet("--force")));
  });
  checkOverridesAreInRun(flags, comparison);
  comparison.setConcurrent(!flags.isSet("--sequential"));
  if (maxMaps) comparison.recordMaxMaps(maxMapSettings);
  if (!quiet)
    for (const std::string& note : comparison.notes())
      std::fprintf(stderr, "wavebench-cli: note: %s\n", note.c_str());
  const auto out = flags.value("--out");
  if (dumpEvery > 0 && !out) throw InputError("--dump-every: needs --out DIR");

  std::optional<RunOutput> output;
  std::optional<RunFiles> files;
  if (out) {
    output.emplace(*out);
    output->clearEarlierRun(modelIds());
    std::vector<std::string> folders;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k)
      folders.push_back(comparison.model(k).id());
    output->noteSubfolders(folders);
    try {
      files.emplace(*output, dumpEvery, maxMaps, comparison);
    } catch (...) {
      output->discard();
      throw;
    }
  }

  std::vector<ModelSummary> summary(comparison.modelCount());
  auto record = [&] {
    std::vector<FrameRecord> records;
    for (std::size_t k = 0; k < comparison.modelCount(); ++k) {
      if (comparison.failure(k)) continue;
      const FrameRecord r = comparison.record(k);
      records.push_back(r);
      ModelSummary& s = summary[k];
      if (r.frame == 0) s.energy0 = r.energyTotal();
      s.maxAbsDrift = std::max(s.maxAbsDrift, std::fabs(r.volumeDrift));
      s.energyEnd = r.energyTotal();
      if (r.frame > 0) s.stepMsTotal += r.stepMs, s.frames++, s.substeps = r.substeps;
    }
    if (files) files->frame(comparison, records);
  };

  const bool progress = !quiet && isatty(STDERR_FILENO);
  try {
    record();
    for (int f = 0; f < frames && !InterruptWatch::pending(); ++f) {
      if (team) team->update();
      orTooLarge(*scenarioName, "advancing to frame " + std::to_string(comparison.frame() + 1),
                 [&] {
                   comparison.advanceFrame();
                   return 0;
                 });
      record();
      if (progress && (f + 1) % std::max(1, frames / 100) == 0)
        std::fprintf(stderr, "\rrun: frame %d / %d (t = %.2f s)", f + 1, frames, comparison.time());
      bool allFailed = true;
      for (std::size_t k = 0; k < comparison.modelCount(); ++k)
        allFailed = allFailed && comparison.failure(k).has_value();
      if (allFailed) break;
    }
    if (progress) std::fprintf(stderr, "\n");
    if (files) files->finish(comparison);
  } catch (const WriteError& e) {
    // A full disk: the frames written so far stay, whole.
    if (progress) std::fprintf(stderr, "\n");
    files->keepWhatWasWritten(comparison);
    throw WriteError(std::string(e.what()) + "; kept " + framesText(files->lastFrame()) + " in " +
                     output->dir().string());
  } catch (...) {
    // Bad input found during the run (a body entering on a wall): no output, as for bad
    // input found before it.
    if (files) files->discard();
    throw;
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
    if (maxMaps) {
      std::printf("run-up (highest ground above the still water ever wetted, to t = %.6g s):\n",
                  comparison.time());
      for (std::size_t k = 0; k < comparison.modelCount(); ++k)
        std::printf("  %-20s %s\n", comparison.model(k).id().c_str(),
                    comparison.failure(k) ? "none: the model was stopped"
                                          : runUpText(comparison, k).c_str());
    }
    // The timings above depend on the team and on how its idle threads waited.
    const std::string teamText =
        team ? "following the load on " + std::to_string(usableCores()) + " cores"
             : std::to_string(omp_get_max_threads());
    std::printf("threads: %s; idle threads wait: %s\n", teamText.c_str(), waitSetting().c_str());
    if (out) std::printf("wrote %s\n", (output->dir() / "series.csv").string().c_str());
    std::fflush(stdout);
  }
  // A model stopped during the run (it blew up, or refused an edit its method cannot hold)
  // exits with 3; the others' output is written (docs/cli.md).
  int status = 0;
  for (std::size_t k = 0; k < comparison.modelCount(); ++k)
    if (comparison.failure(k)) {
      std::fprintf(stderr, "wavebench-cli: %s\n", comparison.failure(k)->c_str());
      status = 3;
    }
  // A signal stops the run between frames; the files hold every frame up to the stop.
  if (const int signal = InterruptWatch::pending()) {
    std::string written = out ? "wrote " + framesText(comparison.frame()) + " to " + *out
                              : "nothing written (no --out)";
    if (out && maxMaps) written += ", the maximum maps of the run so far";
    std::fprintf(stderr, "wavebench-cli: interrupted by %s %s; %s\n",
                 InterruptWatch::name(signal).c_str(), atFrame(comparison).c_str(),
                 written.c_str());
    status = 128 + signal;
  }
  return status;
}

}  // namespace wb::cli
