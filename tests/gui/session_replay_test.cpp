// Replayable sessions and exports, in the real window under Xvfb:
// - a scripted session (drops clicked, a stir, the boat steered by the mouse, rain and wind
//   switched on and off, a crate thrown in and one dropped while the models step and play, a
//   wall painted while paused, which restarts the run with the session so far, then walls and
//   water painted while the models play, which they take without restarting) is saved,
//   replayed headless
//   by wavebench-cli, and the CLI's series.csv equals the session's plot data row by row
//   (every column but the wall-clock step_ms) and its bodies.csv the bodies the window shows
//   at the last frame;
// - the frame export writes an MP4 through ffmpeg that ffprobe reads back with the asked size
//   and frame count, ParaView series timed in simulated seconds, and a cancelled export
//   leaves no video behind.
#include <QApplication>
#include <QDir>
#include <QProcess>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "app/gui/editors/controls_dock.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/export/export_actions.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"
#include "tests/gui/gui_test_support.hpp"

namespace {
using wb::gui::csvColumns;
using wb::gui::kTimeoutMs;
using wb::gui::stepTo;
constexpr int kSessionFrames = 60;
constexpr int kStepMsColumn = 9;  // frame,time,model,volume,...,energy_total,step_ms

// Two models with a velocity (they feel wind and stirs) and one without, a boat to steer.
constexpr const char* kScenario = R"({
  "name": "session",
  "grid": {"nx": 40, "ny": 32, "dx": 0.25},
  "water": {"depth": 0.5},
  "excitations": [{"type": "boat", "x": 2, "y": 2, "target": [8, 6], "max_speed": 1.5}],
  "models": {"damped-wave": {}, "advected-wave": {}, "swe-semi-lagrangian": {}},
  "duration": 1.0
})";

// The columns of volume_displaced and volume_masked in seriesRows' rows (step_ms removed):
// before the four columns of the reference's errors, the two of the ocean's energies and
// volume_window.
constexpr std::size_t kDisplacedFromEnd = 9, kMaskedFromEnd = 8;

// Rows by "frame,model", each the row's columns without step_ms.
std::map<std::string, std::vector<std::string>> seriesRows(const QString& file) {
  std::ifstream in(file.toStdString());
  std::map<std::string, std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> columns = csvColumns(line);
    if (columns.size() <= kStepMsColumn) continue;
    const std::string key = columns[0] + "," + columns[2];
    columns.erase(columns.begin() + kStepMsColumn);
    rows[key] = columns;
  }
  return rows;
}

// A wall painted mid-session: cells [4, 6] x [26, 29] (x 1 to 1.75 m, y 6.5 to 7.5 m).
constexpr int kWallColumns[2] = {4, 6};
constexpr int kWallRows[2] = {26, 29};
// A wall stroke painted while the models play, across the middle of the pool (cells (20, 8)
// to (20, 20), brush radius 1), and a water dab that opens the paused wall's cell (5, 27).
constexpr int kLiveWallColumn = 20;
constexpr int kLiveWallRows[2] = {8, 20};
constexpr int kLiveWaterCell[2] = {5, 27};

// bodies.csv's columns time, id, x, y, z and vx, vy, vz, as the CLI prints them.
std::string bodyRow(double time, int id, const double* xyz, const double* v) {
  std::ostringstream row;
  row.precision(9);
  row << time << ',' << id << ',' << xyz[0] << ',' << xyz[1] << ',' << xyz[2] << ',' << v[0] << ','
      << v[1] << ',' << v[2];
  return row.str();
}
std::string bodyRow(double time, const wb::RigidBodyFrame& body) {
  return bodyRow(time, body.id, body.centre.data(), body.velocity.data());
}

// The rows of bodies.csv at its last time, in those columns.
std::vector<std::string> lastBodyRows(const QString& file) {
  std::ifstream in(file.toStdString());
  std::vector<std::string> rows;
  std::string line, lastTime;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const std::vector<std::string> c = csvColumns(line);
    if (c.size() < 12) continue;
    if (c[0] != lastTime) rows.clear(), lastTime = c[0];
    rows.push_back(c[0] + ',' + c[1] + ',' + c[2] + ',' + c[3] + ',' + c[4] + ',' + c[8] + ',' +
                   c[9] + ',' + c[10]);
  }
  return rows;
}

QString runCli(const QStringList& arguments) {
  QProcess cli;
  cli.start(WAVEBENCH_CLI, arguments);
  if (!cli.waitForFinished(kTimeoutMs)) return "timed out";
  if (cli.exitCode() != 0) return QString::fromLocal8Bit(cli.readAllStandardError());
  return {};
}
}  // namespace

class SessionReplayTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(dir_.isValid());
    const QString file = dir_.filePath("session.json");
    std::ofstream(file.toStdString()) << kScenario;
    window_ = std::make_unique<wb::gui::MainWindow>(false);
    window_->resize(1280, 800);
    QVERIFY(window_->openScenario(file));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QTRY_VERIFY_WITH_TIMEOUT(window_->worker().latest() && !window_->views().empty(), kTimeoutMs);
  }
  void cleanup() {
    window_->document().setModified(false);
    window_.reset();
  }

  void savedSessionReplaysRowByRowInTheCli() {
    auto& window = *window_;
    auto* view = window.views().front();
    auto* controls = window.controls();
    emit controls->boatFollowChanged(true);
    emit view->surfaceClicked(QPointF(3.0, 4.0));  // a click steps one frame when paused
    stepTo(window, 4);
    emit controls->rainChanged(true, 40.0);
    stepTo(window, 9);
    emit view->bodyPlaced(QPointF(5.0, 3.0), QPointF(5.5, 3.2));  // a crate thrown in
    emit view->surfaceStirred(QPointF(5.0, 4.0), QPointF(6.0, 4.5));
    emit view->surfaceHovered(QPointF(6.0, 7.0));
    emit view->surfaceHovered(QPointF(6.5, 7.0));  // the same frame: the later one wins
    stepTo(window, 14);
    // A wall painted: a scenario edit, so the comparison restarts from t = 0 with the new mask
    // and replays every entry recorded so far; the plots start again with it.
    // The entries so far reach the document (on the GUI thread) before the stroke restarts
    // the run from it.
    const wb::ExcitationSpecs& sofar = window.document().scenario().excitations;
    QTRY_COMPARE_WITH_TIMEOUT(sofar.boats.at(0).steering.size(), std::size_t(1), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(sofar.bodies.size(), std::size_t(1), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(sofar.stirs.size(), std::size_t(1), kTimeoutMs);
    const std::uint64_t generation = window.worker().latest()->generation;
    window.document().beginStroke();
    wb::gui::Mask wet = window.document().mask();
    const std::size_t nx = std::size_t(window.document().scenario().grid.nx);
    for (int j = kWallRows[0]; j <= kWallRows[1]; ++j)
      for (int i = kWallColumns[0]; i <= kWallColumns[1]; ++i)
        wet[std::size_t(j) * nx + std::size_t(i)] = 0;
    window.document().paintMask(wet, "paint wall");
    window.document().endStroke();
    QTRY_VERIFY_WITH_TIMEOUT(window.worker().latest()->generation != generation, kTimeoutMs);
    QCOMPARE(window.worker().latest()->frame, 0);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->generation != generation, kTimeoutMs);
    stepTo(window, 14);
    for (const auto& m : window.worker().latest()->models)
      QCOMPARE(m.rigidBodies.size(), std::size_t(1));  // the throw replayed
    emit controls->windChanged(true, 30.0, 0.8);
    emit view->surfaceClicked(QPointF(7.0, 2.0));
    stepTo(window, 22);
    emit view->surfaceHovered(QPointF(2.0, 6.0));
    emit controls->rainChanged(false, 40.0);
    stepTo(window, 30);
    emit controls->windChanged(false, 30.0, 0.8);
    // The rest while the models play in real time: whichever frame a click lands in, it is
    // recorded with that frame's time.
    window.worker().setFrameLimit(kSessionFrames);
    window.playAction()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.worker().latest()->frame >= 34, kTimeoutMs);
    emit view->surfaceClicked(QPointF(8.0, 5.0));
    emit view->bodyPlaced(QPointF(3.0, 5.0), QPointF(3.0, 5.0));  // a crate dropped in
    emit view->surfaceHovered(QPointF(9.0, 1.0));
    // Walls and water painted while the models play: session entries the running comparison
    // takes at the next frame, no scenario edit (no undo step, no restart).
    const int undoSteps = window.document().undoStack()->count();
    const wb::gui::Mask maskBefore = window.document().mask();
    auto* editor = window.maskEditor();
    editor->setBrushRadius(1);
    editor->beginStroke();
    for (int j = kLiveWallRows[0]; j <= kLiveWallRows[1]; ++j)
      editor->dab(kLiveWallColumn, j, false);
    editor->endStroke();
    QTRY_VERIFY_WITH_TIMEOUT(window.worker().latest()->frame >= 40, kTimeoutMs);
    editor->setBrushRadius(0);
    editor->beginStroke();
    editor->dab(kLiveWaterCell[0], kLiveWaterCell[1], true);
    editor->endStroke();
    QTRY_VERIFY_WITH_TIMEOUT(window.worker().latest()->frame >= kSessionFrames, kTimeoutMs);
    QCOMPARE(window.worker().latest()->generation, window.shownSnapshot()->generation);
    QCOMPARE(window.document().undoStack()->count(), undoSteps);
    QVERIFY(window.document().mask() == maskBefore);
    const std::size_t gridX = std::size_t(window.document().scenario().grid.nx);
    const auto& running = window.worker().latest()->domain->wetMask();
    QCOMPARE(int(running[std::size_t(14) * gridX + kLiveWallColumn]), 0);
    QCOMPARE(int(running[std::size_t(kLiveWaterCell[1]) * gridX + kLiveWaterCell[0]]), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!window.worker().playing(), kTimeoutMs);
    window.playAction()->setChecked(false);
    window.tick();
    // The document takes up the entries on the GUI thread, in the order they were made: the
    // last one is the water dab.
    const wb::ExcitationSpecs& recorded = window.document().scenario().excitations;
    QTRY_VERIFY_WITH_TIMEOUT(!recorded.strokes.empty() && !recorded.strokes.back().solid,
                             kTimeoutMs);
    QCOMPARE(recorded.drops.size(), std::size_t(3));
    QCOMPARE(recorded.stirs.size(), std::size_t(1));
    QCOMPARE(recorded.rain.size(), std::size_t(1));
    QVERIFY(recorded.rain[0].end < 1.0);  // switched off again
    QCOMPARE(recorded.wind.size(), std::size_t(1));
    QCOMPARE(recorded.boats.at(0).steering.size(), std::size_t(3));
    QCOMPARE(recorded.boats[0].steering[0].x, 6.5);
    QCOMPARE(recorded.bodies.size(), std::size_t(2));
    QCOMPARE(recorded.bodies[0].time, 9.0 / 60.0);
    QVERIFY(recorded.bodies[1].time > 33.5 / 60.0);  // recorded during play
    QVERIFY(recorded.bodies[0].spec.velocity.x() > 0.0);
    QVERIFY(recorded.strokes.size() >= 2);  // the wall's dabs (one stroke per frame), the water
    QVERIFY(recorded.strokes.front().solid && recorded.strokes.front().time > 33.5 / 60.0);
    QVERIFY(!recorded.strokes.back().solid);
    std::size_t dabs = 0;
    for (const auto& stroke : recorded.strokes)
      dabs += stroke.dabs.size();
    QCOMPARE(dabs, std::size_t(kLiveWallRows[1] - kLiveWallRows[0] + 2));
    for (const auto& m : window.worker().latest()->models)
      QVERIFY2(!m.failure, m.failure ? m.failure->c_str() : "");

    const QString saved = dir_.filePath("saved.json");
    QVERIFY(window.saveScenarioAs(saved));
    const QString guiSeries = dir_.filePath("gui-series.csv");
    window.plots()->exportCsv(guiSeries);
    const QString out = dir_.filePath("cli");
    const QString error = runCli({"run", "--scenario", saved, "--frames",
                                  QString::number(kSessionFrames), "--out", out, "--quiet"});
    QVERIFY2(error.isEmpty(), qPrintable(error));

    const auto gui = seriesRows(guiSeries), cli = seriesRows(out + "/series.csv");
    QVERIFY(recorded.drops[2].time > 30.5 / 60.0);  // recorded during play
    // The window runs every model of the catalogue; the saved file lists them all.
    QCOMPARE(gui.size(), window.worker().latest()->models.size() * std::size_t(kSessionFrames));
    int compared = 0;
    for (const auto& [key, row] : gui) {
      const auto it = cli.find(key);
      QVERIFY2(it != cli.end(), qPrintable(QString::fromStdString("no CLI row " + key)));
      if (it->second != row) {
        std::string a, b;
        for (const auto& c : row)
          a += c + ",";
        for (const auto& c : it->second)
          b += c + ",";
        QFAIL(qPrintable(QString::fromStdString("row " + key + "\n gui " + a + "\n cli " + b)));
      }
      ++compared;
    }
    qInfo("%d rows equal (every column but step_ms)", compared);
    // The strokes painted during play took water from the models (volume_masked) in the rows
    // compared.
    double masked = 0.0;
    for (const auto& [key, row] : gui)
      masked = std::max(masked, std::fabs(std::stod(row[row.size() - kMaskedFromEnd])));
    QVERIFY(masked > 0.0);
    qInfo("largest |volume_masked| %g m^3", masked);

    // bodies.csv: the CLI's last rows are the bodies the window shows at the last frame.
    const auto last = window.worker().latest();
    QCOMPARE(last->frame, kSessionFrames);
    int bodies = 0;
    for (const auto& m : last->models) {
      const auto rows = lastBodyRows(out + "/" + QString::fromStdString(m.id) + "/bodies.csv");
      QCOMPARE(rows.size(), m.rigidBodies.size());
      for (std::size_t b = 0; b < rows.size(); ++b) {
        QCOMPARE(QString::fromStdString(rows[b]),
                 QString::fromStdString(bodyRow(last->time, m.rigidBodies[b])));
        ++bodies;
      }
    }
    qInfo("%d bodies equal at the last frame (time, id, position, velocity)", bodies);

    // Frames only sample the run: the session replayed at frame_dt 0.1 s (6 ticks) gives the
    // window's rows at every tenth of a second. Kinetic energy (and the total) of the wave
    // models is a solve to about 1e-6 warm-started from the last frame, and substeps, dt and
    // the solver columns describe the frame: the rest is compared to the bit.
    std::string text;
    {
      std::ifstream in(saved.toStdString());
      std::stringstream all;
      all << in.rdbuf();
      text = all.str();
    }
    const auto at = text.find("\"frame_dt\"");
    QVERIFY(at != std::string::npos);
    text.replace(at, text.find_first_of(",}", at) - at, "\"frame_dt\": 0.1");
    const QString coarse = dir_.filePath("coarse.json");
    std::ofstream(coarse.toStdString()) << text;
    const QString coarseOut = dir_.filePath("cli-coarse");
    const QString coarseError =
        runCli({"run", "--scenario", coarse, "--frames", QString::number(kSessionFrames / 6),
                "--out", coarseOut, "--quiet"});
    QVERIFY2(coarseError.isEmpty(), qPrintable(coarseError));
    const auto sampled = seriesRows(coarseOut + "/series.csv");
    QCOMPARE(sampled.size(),
             window.worker().latest()->models.size() * std::size_t(kSessionFrames / 6 + 1));
    // time .. energy_potential, max_abs_eta, volume_sink (step_ms is not in the rows)
    const std::vector<int> sameColumns = {1, 2, 3, 4, 5, 6, 11, 12};
    int sampledRows = 0;
    for (const auto& [key, row] : sampled) {
      const auto comma = key.find(',');
      const int frame = std::stoi(key.substr(0, comma));
      const auto it = gui.find(std::to_string(6 * frame) + key.substr(comma));
      if (frame == 0) continue;  // the window's plot starts at its first step
      QVERIFY2(it != gui.end(), key.c_str());
      for (const int c : sameColumns)
        QVERIFY2(it->second[std::size_t(c)] == row[std::size_t(c)],
                 qPrintable(QString::fromStdString(key + " column " + std::to_string(c) + ": " +
                                                   it->second[std::size_t(c)] + " vs " +
                                                   row[std::size_t(c)])));
      QVERIFY(it->second[it->second.size() - kMaskedFromEnd] == row[row.size() - kMaskedFromEnd]);
      QVERIFY(it->second[it->second.size() - kDisplacedFromEnd] ==
              row[row.size() - kDisplacedFromEnd]);
      const double kinetic = std::stod(row[7]), windowKinetic = std::stod(it->second[7]);
      QVERIFY(std::fabs(kinetic - windowKinetic) <= 1e-5 * std::fabs(windowKinetic));
      ++sampledRows;
    }
    qInfo("%d rows of the replay at frame_dt 0.1 s equal the window's", sampledRows);
  }

  void framesExportToMp4AndParaView() {
    if (wb::gui::ffmpegPath().isEmpty()) QSKIP("ffmpeg is not installed: apt-get install ffmpeg");
    auto& window = *window_;
    stepTo(window, 3);
    wb::gui::FrameExportOptions options;
    options.directory = dir_.filePath("export");
    options.frames = 7;
    options.size = QSize(322, 180);
    options.png = false;
    options.paraview = true;
    options.mp4 = true;
    QCOMPARE(wb::gui::exportFrames(window, options, nullptr), 7);

    QProcess probe;
    probe.start(QStandardPaths::findExecutable("ffprobe"),
                {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                 "stream=width,height,nb_read_frames", "-of", "csv=p=0",
                 options.directory + "/frames.mp4"});
    QVERIFY(probe.waitForFinished(kTimeoutMs));
    QCOMPARE(QString::fromLocal8Bit(probe.readAllStandardOutput()).trimmed(), QString("322,180,7"));
    QVERIFY(!QFile::exists(options.directory + "/frames.mp4.part"));

    // The ParaView series starts at the current frame (3) and is timed in seconds.
    std::ifstream pvd((options.directory + "/advected-wave/eta.pvd").toStdString());
    std::stringstream text;
    text << pvd.rdbuf();
    for (const char* entry : {"timestep=\"0.05\" part=\"0\" file=\"eta_00003.vti\"",
                              "timestep=\"0.15\" part=\"0\" file=\"eta_00009.vti\""})
      QVERIFY2(text.str().find(entry) != std::string::npos, text.str().c_str());
    QVERIFY(QFile::exists(options.directory + "/advected-wave/eta_00009.vti"));
    QVERIFY(QFile::exists(options.directory + "/advected-wave/eta_00003.vti"));
  }

  void cancelledVideoExportLeavesNoVideo() {
    if (wb::gui::ffmpegPath().isEmpty()) QSKIP("ffmpeg is not installed: apt-get install ffmpeg");
    auto& window = *window_;
    wb::gui::FrameExportOptions options;
    options.directory = dir_.filePath("cancelled");
    options.frames = 100000;
    options.size = QSize(160, 120);
    options.png = false;
    options.mp4 = true;
    QProgressDialog progress("export", "Cancel", 0, options.frames);
    // Cancelled once a few frames are written, however long they take.
    constexpr int kFramesBeforeCancel = 3;
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, &progress, [&progress] {
      if (progress.value() >= kFramesBeforeCancel) progress.cancel();
    });
    watch.start(10);
    const int written = wb::gui::exportFrames(window, options, &progress);
    QVERIFY(written >= kFramesBeforeCancel);
    QVERIFY(written < options.frames);
    QVERIFY(!QFile::exists(options.directory + "/frames.mp4"));
    QVERIFY(!QFile::exists(options.directory + "/frames.mp4.part"));
  }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<wb::gui::MainWindow> window_;
};

int main(int argc, char** argv) {
  wb::gui::SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("WavebenchTests");
  SessionReplayTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "session_replay_test.moc"
