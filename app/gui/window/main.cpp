// wavebench: the Qt 6 workbench. Automation for tests and docs:
//   wavebench --scenario FILE|builtin:NAME [--models a,b] --frames N --screenshot FILE.png --quit
// runs N frames, saves a screenshot of the whole window, prints the window's frame rate and
// the shares of time simulating and rendering, and exits.
#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QMessageBox>
#include <QTimer>

#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"

namespace {
constexpr int kDefaultWidth = 1600, kDefaultHeight = 1000;
constexpr int kSettleTicks = 5;  // GUI ticks after the last frame before the screenshot
constexpr int kPollMs = 20;

void printStats(const wb::gui::FrameStats& s, int frames) {
  std::printf(
      "wavebench: %d frames simulated in %.2f s wall; window %.1f frames/s (%d view updates); "
      "simulating %.0f %% (%.2f ms/frame), rendering %.0f %% (%.2f ms/update)\n",
      frames, s.wallSeconds, s.viewUpdates / s.wallSeconds, s.viewUpdates,
      100.0 * s.simulateSeconds / s.wallSeconds, 1e3 * s.simulateSeconds / std::max(1, frames),
      100.0 * s.renderSeconds / s.wallSeconds, 1e3 * s.renderSeconds / std::max(1, s.viewUpdates));
}
}  // namespace

int main(int argc, char** argv) {
  // The models' OpenMP threads share the cores with the GUI and the software renderer:
  // idle threads must sleep rather than spin (an explicit setting in the environment wins).
  setenv("OMP_WAIT_POLICY", "passive", 0);
  wb::gui::SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Wavebench");
  QApplication::setApplicationName("Wavebench");

  QCommandLineParser parser;
  parser.setApplicationDescription("Water-wave models side by side on one editable domain.");
  parser.addHelpOption();
  const QCommandLineOption scenario("scenario", "Scenario file or builtin:NAME.", "scenario",
                                    "builtin:pi-pool");
  const QCommandLineOption models("models", "Comma-separated model ids (default: all).", "ids");
  const QCommandLineOption frames("frames", "Run this many frames, then pause.", "N");
  const QCommandLineOption screenshot("screenshot", "Save the window as PNG after the frames.",
                                      "file");
  const QCommandLineOption quit("quit", "Exit after the frames (and screenshot).");
  const QCommandLineOption grid("grid", "Cells per side (the pool keeps its size).", "N");
  const QCommandLineOption show("show",
                                "Also show 'domain' (the mask editor tab) and/or 'difference' "
                                "(the A - B view), comma-separated, e.g. for screenshots.",
                                "parts");
  parser.addOptions({scenario, models, frames, screenshot, quit, grid, show});
  parser.process(app);

  const bool automated = parser.isSet(quit) || parser.isSet(screenshot);
  wb::gui::MainWindow window(!automated);
  if (automated) window.resize(kDefaultWidth, kDefaultHeight);
  std::vector<std::string> ids;
  for (const QString& id : parser.value(models).split(',', Qt::SkipEmptyParts))
    ids.push_back(id.trimmed().toStdString());
  // An autosave left by a session that did not exit cleanly: offer it before anything else.
  const bool restore =
      !automated && window.autosave().exists() &&
      QMessageBox::question(&window, QObject::tr("Restore unsaved work"),
                            QObject::tr("Wavebench did not exit cleanly last time. Restore the "
                                        "scenario you were editing?")) == QMessageBox::Yes;
  if (restore && window.openScenario(window.autosave().file(), ids)) {
    window.document().detachFromFile();
  } else if (!window.openScenario(parser.value(scenario), ids)) {
    return 2;
  }
  if (parser.isSet(grid)) {
    const int cells = parser.value(grid).toInt();
    if (cells < 4) {
      std::fprintf(stderr, "wavebench: --grid: must be an integer >= 4\n");
      return 2;
    }
    wb::Grid g = window.document().scenario().grid;
    const double width = g.width();
    g.ny = int(std::lround(double(g.ny) * cells / g.nx));
    g.nx = cells;
    g.dx = width / cells;
    window.document().setGrid(g);
    window.document().setModified(false);
  }
  window.show();
  for (const QString& part : parser.value(show).split(',', Qt::SkipEmptyParts)) {
    if (part == "domain") {
      for (QWidget* w = window.maskEditor(); w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) dock->raise();
    } else if (part == "difference") {
      window.differenceAction()->setChecked(true);
    } else {
      std::fprintf(stderr, "wavebench: --show: unknown part '%s' (domain, difference)\n",
                   qPrintable(part));
      return 2;
    }
  }

  const int frameCount = parser.isSet(frames) ? parser.value(frames).toInt() : -1;
  window.worker().setFrameLimit(frameCount);
  window.playAction()->setChecked(true);
  if (frameCount < 0) return app.exec();

  int settled = 0;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    const auto shown = window.shownSnapshot();
    if (!shown || shown->frame < frameCount) return;
    if (++settled < kSettleTicks) return;
    poll.stop();
    printStats(window.frameStats(), shown->frame);
    if (parser.isSet(screenshot)) {
      const QString file = parser.value(screenshot);
      if (!window.grab().save(file)) {
        std::fprintf(stderr, "wavebench: %s: cannot write screenshot\n", qPrintable(file));
        QApplication::exit(1);
        return;
      }
    }
    if (parser.isSet(quit)) {
      window.document().setModified(false);
      window.close();
      QApplication::quit();
    }
  });
  poll.start(kPollMs);
  return app.exec();
}
