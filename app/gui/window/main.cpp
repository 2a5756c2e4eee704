// wavebench: the Qt 6 workbench. Automation for tests and docs:
//   wavebench --scenario FILE|builtin:NAME [--models a,b] --frames N --screenshot FILE.png
//             --stats-json FILE.json --quit
// runs N frames, saves a screenshot of the whole window, prints the presented frame rate and
// the time per stage (and writes them as JSON), and exits.
#include <malloc.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QMessageBox>
#include <QTimer>

#include "app/gui/editors/bodies_panel.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_grid.hpp"
#include "app/gui/views/view_settings_menu.hpp"
#include "app/gui/window/main_window.hpp"
#include "app/gui/window/verification_window.hpp"
#include "core/errors.hpp"
#include "core/run/threads.hpp"
#include "core/scenario/field_io.hpp"
#include "core/scenario/scenario.hpp"

namespace {
// glibc maps blocks above this size (the default 128 KiB, rising with what is freed) freshly.
constexpr int kSnapshotBlockBytes = 64 << 20;
constexpr int kDefaultWidth = 1600, kDefaultHeight = 1000;
constexpr int kMinSide = 200;    // pixels, for --size
constexpr int kSettleTicks = 5;  // GUI ticks after the last frame before the screenshot
constexpr int kPollMs = 20;
constexpr int kMinGridCells = 4;       // per side, as a scenario's grid.nx and grid.ny
constexpr int kMaxGridSide = 1 << 16;  // per side, as a scenario's grid.nx and grid.ny

// The colour modes' --colour names, "surface, error, difference:MODEL, local" and the last
// after `last`.
std::string colourModeNames(const std::string& last, bool withWhat = false) {
  std::string out;
  for (int m = 0; m < wb::gui::kColourModeCount; ++m) {
    const wb::gui::ColourModeSpec& spec = wb::gui::kColourModes[std::size_t(m)];
    const std::string name = std::string(spec.key) + (spec.takesModel ? ":MODEL" : "");
    out += m == 0 ? "" : m + 1 == wb::gui::kColourModeCount ? last : ", ";
    out += withWhat ? "'" + name + "' (" + spec.option + ")" : name;
  }
  return out;
}

std::string colourOptionHelp() {
  return "Colour the water by " + colourModeNames(" or ", true) + ".";
}

// --colour, --colour-range, --vertical-scale: the View menu's settings for this run (a scripted
// run neither reads nor saves the user's). Prints the reason and returns false on bad values.
bool applyViewOptions(const QCommandLineParser& parser, const QCommandLineOption& colour,
                      const QCommandLineOption& colourRange,
                      const QCommandLineOption& verticalScale, wb::gui::MainWindow& window) {
  using wb::gui::ColourMode;
  wb::gui::ViewSettings s = window.viewSettingsMenu()->settings();
  if (parser.isSet(colour)) {
    const QString mode = parser.value(colour);
    const wb::gui::ColourModeSpec* named = nullptr;
    for (const wb::gui::ColourModeSpec& spec : wb::gui::kColourModes)
      if (spec.takesModel ? mode.section(':', 0, 0) == spec.key : mode == spec.key) named = &spec;
    if (!named) {
      std::fprintf(stderr, "wavebench: --colour: '%s' is not %s\n", qPrintable(mode),
                   colourModeNames(" or ").c_str());
      return false;
    }
    s.mode = named->mode;
    if (named->takesModel) s.subtractedModel = mode.section(':', 1).toStdString();
  }
  if (parser.isSet(colourRange) && parser.value(colourRange) != "auto") {
    bool ok = false;
    const double range = parser.value(colourRange).toDouble(&ok);
    if (!ok || !(range > 0.0) || !std::isfinite(range)) {
      std::fprintf(stderr, "wavebench: --colour-range: '%s' is not 'auto' nor metres > 0\n",
                   qPrintable(parser.value(colourRange)));
      return false;
    }
    s.range(s.mode) = {false, range};
  }
  if (parser.isSet(verticalScale) && parser.value(verticalScale) != "auto") {
    bool ok = false;
    const double scale = parser.value(verticalScale).toDouble(&ok);
    if (!ok || !(scale > 0.0) || !std::isfinite(scale)) {
      std::fprintf(stderr, "wavebench: --vertical-scale: '%s' is not 'auto' nor a factor > 0\n",
                   qPrintable(parser.value(verticalScale)));
      return false;
    }
    s.exaggeration = scale;
  }
  window.viewSettingsMenu()->setSettings(s);
  return true;
}

// An integer option in [lo, hi], refused as wavebench-cli refuses its flags (app/cli/options.cpp):
// InputError "--frames: 'abc' is not a number", "... -1 is outside [0, 100000000]", "... must
// be an integer"; a second --frames would silently win, so it is refused too.
int integerOption(const QCommandLineParser& parser, const QCommandLineOption& option, int lo,
                  int hi) {
  const std::string flag = "--" + option.names().front().toStdString();
  const QStringList given = parser.values(option);
  if (given.size() > 1) throw wb::InputError(flag + ": given more than once");
  const std::string text = given.front().trimmed().toStdString();
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw wb::InputError(flag + ": '" + text + "' is not a number");
  if (v < lo || v > hi)
    throw wb::InputError(flag + ": " + given.front().trimmed().toStdString() + " is outside [" +
                         std::to_string(lo) + ", " + std::to_string(hi) + "]");
  if (v != std::floor(v)) throw wb::InputError(flag + ": must be an integer");
  return int(v);
}

// --grid N: N cells across, the pool keeping its size and shape; refused as a scenario's grid
// is (core/scenario/scenario.hpp, checkGridSize) before anything is allocated for it.
wb::Grid gridWithCellsAcross(const wb::Grid& old, int cells) {
  wb::Grid g = old;
  g.ny = int(std::lround(double(old.ny) * cells / old.nx));
  g.nx = cells;
  g.dx = old.width() / cells;
  if (g.ny < kMinGridCells)
    throw wb::InputError("--grid: " + std::to_string(cells) + " cells across make the pool " +
                         std::to_string(g.nx) + " x " + std::to_string(g.ny) +
                         " cells; each side needs at least " + std::to_string(kMinGridCells));
  wb::checkGridSize(g, "--grid");
  return g;
}

// --help needs no display: it is answered by a QCoreApplication, which opens none.
bool asksForHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const char* flag : {"-h", "--help", "-?", "--help-all"})
      if (std::strcmp(argv[i], flag) == 0) return true;
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  // The models' OpenMP threads share the cores with the GUI and the software renderer, whose
  // threads the load-following team counts as its own: idle threads sleep at once (a short
  // spin made the worker's frames 1.4 to 1.8 times as long, docs/gui-performance.md), and a run
  // takes the cores this process may use.
  wb::ensureWaitPolicy(argv, "wavebench", false);
  wb::applyDefaultThreadCount();
  // Every published snapshot copies each model's tracers (4 MB per 100000): blocks that size
  // come from the heap and are reused, neither mapped afresh and page-faulted in at 60 Hz nor
  // handed back to the system (a TLB flush on every core each time).
  mallopt(M_MMAP_THRESHOLD, kSnapshotBlockBytes);
  mallopt(M_TRIM_THRESHOLD, 4 * kSnapshotBlockBytes);
  std::unique_ptr<QCoreApplication> app;
  if (asksForHelp(argc, argv)) {
    app = std::make_unique<QCoreApplication>(argc, argv);
  } else {
    wb::gui::SurfaceView::setDefaultSurfaceFormat();
    app = std::make_unique<QApplication>(argc, argv);
  }
  QApplication::setOrganizationName("Wavebench");
  QApplication::setApplicationName("Wavebench");

  QCommandLineParser parser;
  parser.setApplicationDescription("Water-wave models side by side on one editable domain.");
  parser.addHelpOption();
  const QCommandLineOption scenario("scenario", "Scenario file or builtin:NAME.", "scenario",
                                    "builtin:pi-pool");
  const QCommandLineOption models(
      "models",
      "Comma-separated model ids (default: the models the scenario names, else the default "
      "set).",
      "ids");
  const QCommandLineOption frames("frames", "Run this many frames, then pause.", "N");
  const QCommandLineOption screenshot("screenshot", "Save the window as PNG after the frames.",
                                      "file");
  const QCommandLineOption quit("quit", "Exit after the frames (and screenshot).");
  const QCommandLineOption grid("grid", "Cells per side (the pool keeps its size).", "N");
  const QCommandLineOption show("show",
                                "Also show 'domain' (the mask editor tab), 'bodies' (the bodies "
                                "tab, first body selected) and/or 'difference' (the A - B "
                                "view), comma-separated, e.g. for screenshots.",
                                "parts");
  const QCommandLineOption statsJson(
      "stats-json",
      "After the frames, write the presented frame rate, frame times, stage timings, grid, "
      "window size and OpenGL renderer as JSON.",
      "file");
  const QCommandLineOption fullMesh("full-mesh",
                                    "Render every cell corner even on a software renderer.");
  const QCommandLineOption size("size", "Window size for automation (default 1600x1000).",
                                "WIDTHxHEIGHT");
  const QCommandLineOption colour("colour", QString::fromStdString(colourOptionHelp()), "mode");
  const QCommandLineOption colourRange("colour-range",
                                       "The colour bar's half-width: 'auto' or metres.", "range");
  const QCommandLineOption verticalScale(
      "vertical-scale", "The water's height drawn this many times larger: 'auto' or a factor.",
      "scale");
  const QCommandLineOption verify(
      "verify",
      "Open Tools > Verification and run MODEL's cases ('all' for every case); a "
      "--screenshot waits for them and saves the window as FILE-verification.png.",
      "model");
  parser.addOptions({scenario, models, frames, screenshot, quit, grid, show, statsJson, fullMesh,
                     size, colour, colourRange, verticalScale, verify});
  parser.process(*app);

  if (parser.isSet(statsJson) && !parser.isSet(frames)) {
    std::fprintf(stderr, "wavebench: --stats-json: needs --frames N (the frames to measure)\n");
    return 2;
  }
  // The image format comes from the name's suffix: without .png, Qt cannot tell what to write.
  if (parser.isSet(screenshot) && !parser.value(screenshot).endsWith(".png", Qt::CaseInsensitive)) {
    std::fprintf(stderr, "wavebench: --screenshot: '%s' must end in .png (a PNG image)\n",
                 qPrintable(parser.value(screenshot)));
    return 2;
  }
  int frameCount = -1, gridCells = 0;  // -1: no frame limit; 0: the scenario's grid
  try {
    if (parser.isSet(frames)) frameCount = integerOption(parser, frames, 0, wb::kMaxFrames);
    if (parser.isSet(grid)) gridCells = integerOption(parser, grid, kMinGridCells, kMaxGridSide);
  } catch (const wb::InputError& error) {
    std::fprintf(stderr, "wavebench: %s\n", error.what());
    return 2;
  }
  int width = kDefaultWidth, height = kDefaultHeight;
  if (parser.isSet(size)) {
    const QStringList parts = parser.value(size).split('x');
    bool okWidth = false, okHeight = false;
    if (parts.size() == 2) {
      width = parts[0].toInt(&okWidth);
      height = parts[1].toInt(&okHeight);
    }
    if (!okWidth || !okHeight || width < kMinSide || height < kMinSide) {
      std::fprintf(stderr, "wavebench: --size: '%s' is not WIDTHxHEIGHT (each >= %d)\n",
                   qPrintable(parser.value(size)), kMinSide);
      return 2;
    }
  }
  const bool automated = parser.isSet(quit) || parser.isSet(screenshot);
  wb::gui::MainWindow window(!automated);
  window.setScripted(automated || parser.isSet(frames));
  if (automated || parser.isSet(size)) window.resize(width, height);
  // A scripted run (--frames) of a scenario its models cannot run stops with exit code 2 once
  // the window has printed the reason, instead of waiting for frames that never come. The
  // worker builds in its own thread, so connect before the scenario is opened.
  if (parser.isSet(frames))
    QObject::connect(&window.worker(), &wb::gui::SimulationWorker::buildFailed, &window,
                     [] { QApplication::exit(2); });
  std::vector<std::string> ids;
  for (const QString& id : parser.value(models).split(',', Qt::SkipEmptyParts))
    ids.push_back(id.trimmed().toStdString());
  // An autosave left by a session that did not exit cleanly: offer it before anything else.
  const bool restore =
      !automated && window.autosave().exists() &&
      QMessageBox::question(&window, QObject::tr("Restore unsaved work"),
                            QObject::tr("Wavebench did not exit cleanly last time. Restore the "
                                        "scenario you were editing?")) == QMessageBox::Yes;
  const bool restored = restore && window.openScenario(window.autosave().file(), ids);
  if (restored) {
    window.document().detachFromFile();
  } else {
    // openScenario has said why; what could not be restored is kept, not overwritten.
    if (restore) {
      const QString kept = window.autosave().keepAside();
      if (kept.isEmpty()) window.keepAutosave();
      QMessageBox::warning(&window, QObject::tr("Restore unsaved work"),
                           kept.isEmpty()
                               ? QObject::tr("The autosave could not be restored, nor moved "
                                             "aside; it stays at %1, and this session does "
                                             "not autosave.")
                                     .arg(window.autosave().file())
                               : QObject::tr("The autosave could not be restored. It is kept "
                                             "at %1.")
                                     .arg(kept));
    }
    if (!window.openScenario(parser.value(scenario), ids)) return 2;
  }
  if (gridCells > 0) {
    try {
      window.document().setGrid(gridWithCellsAcross(window.document().scenario().grid, gridCells));
    } catch (const wb::InputError& error) {
      std::fprintf(stderr, "wavebench: %s\n", error.what());
      return 2;
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "wavebench: %s\n",
                   wb::outOfMemoryMessage("--grid " + std::to_string(gridCells),
                                          "resizing the scenario's layers")
                       .c_str());
      return 2;
    }
    window.document().setModified(false);
  }
  window.setFullResolutionMesh(parser.isSet(fullMesh));
  window.show();
  for (const QString& part : parser.value(show).split(',', Qt::SkipEmptyParts)) {
    if (part == "domain") {
      for (QWidget* w = window.maskEditor(); w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) dock->raise();
    } else if (part == "bodies") {
      for (QWidget* w = window.bodiesPanel(); w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) dock->raise();
    } else if (part == "difference") {
      window.differenceAction()->setChecked(true);
    } else {
      std::fprintf(stderr, "wavebench: --show: unknown part '%s' (domain, bodies, difference)\n",
                   qPrintable(part));
      return 2;
    }
  }

  if (!applyViewOptions(parser, colour, colourRange, verticalScale, window)) return 2;
  wb::gui::VerificationWindow* verification = nullptr;
  if (parser.isSet(verify)) {
    verification = window.showVerificationWindow();
    verification->setModelFilter(parser.value(verify) == "all" ? QString() : parser.value(verify));
    verification->run();
  }

  window.worker().setFrameLimit(frameCount);
  window.playAction()->setChecked(true);
  if (frameCount < 0) return app->exec();

  int settled = 0;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    const auto shown = window.shownSnapshot();
    if (!shown || shown->frame < frameCount) return;
    if (verification && verification->running()) return;
    if (++settled < kSettleTicks) return;
    poll.stop();
    std::printf("wavebench: %d frames simulated; %s\n", shown->frame,
                qPrintable(window.statsLine()));
    if (parser.isSet(statsJson)) {
      const std::string file = parser.value(statsJson).toStdString();
      try {
        wb::writeFileAtomically(
            file, [&](std::ostream& out) { out << window.statsJson().dump(2) << '\n'; });
      } catch (const std::exception& error) {
        std::fprintf(stderr, "wavebench: --stats-json: %s\n", error.what());
        QApplication::exit(1);
        return;
      }
    }
    if (parser.isSet(screenshot)) {
      const QString file = parser.value(screenshot);
      if (!window.grab().save(file)) {
        std::fprintf(stderr,
                     "wavebench: %s: cannot write screenshot (does its folder exist, and is it "
                     "writable?)\n",
                     qPrintable(file));
        QApplication::exit(1);
        return;
      }
      if (verification) {
        QString second = file;
        second.insert(file.endsWith(".png") ? file.size() - 4 : file.size(), "-verification");
        if (!verification->grab().save(second)) {
          std::fprintf(stderr, "wavebench: %s: cannot write screenshot\n", qPrintable(second));
          QApplication::exit(1);
          return;
        }
      }
    }
    if (parser.isSet(quit)) {
      window.document().setModified(false);
      window.close();
      QApplication::quit();
    }
  });
  poll.start(kPollMs);
  return app->exec();
}
