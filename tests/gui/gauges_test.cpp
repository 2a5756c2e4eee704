// Gauges and transects in the real window under Xvfb (docs/gauges.md): placed through the
// entry points the tools use (a refused one leaves the scenario alone), recorded every model
// step while the models run, drawn in every 3-D view, exported as PNG / SVG / PDF and as the
// CLI's CSV columns, undone; the saved scenario replayed by `wavebench-cli run` gives the same
// gauges.csv samples as the window recorded, to the printed precision.
#include <QChart>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLineSeries>
#include <QListWidget>
#include <QProcess>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <fstream>
#include <map>
#include <sstream>

#include <vtkActor.h>

#include "app/gui/editors/gauge_tools.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/views/gauges_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"
#include "core/measure/gauge_metrics.hpp"
#include "tests/gui/gui_test_support.hpp"

namespace {
using wb::gui::csvColumns;
using wb::gui::kTimeoutMs;
using wb::gui::stepTo;
constexpr int kFrames = 20;

// The Π pool (walls inside), a drop to make waves; one model with a velocity, one without.
constexpr const char* kScenario = R"({
  "name": "gauges",
  "grid": {"nx": 48, "ny": 48, "dx": 0.1},
  "water": {"depth": 0.5},
  "domain": {"mask": "pi"},
  "initial": {"drops": [{"x": 1.0, "y": 3.8, "radius": 0.3, "amplitude": 0.05}]},
  "models": {"damped-wave": {}, "swe-semi-lagrangian": {}},
  "duration": 1.0
})";

struct Csv {
  std::string header;
  std::vector<std::vector<std::string>> rows;
};
Csv readCsv(const QString& file) {
  Csv csv;
  std::ifstream in(file.toStdString());
  std::getline(in, csv.header);
  for (std::string line; std::getline(in, line);)
    csv.rows.push_back(csvColumns(line));
  return csv;
}

// gauges.csv rows by "time,gauge,model": eta, depth, u, v as printed.
std::map<std::string, std::string> gaugeSamples(const QString& file) {
  std::map<std::string, std::string> samples;
  for (const auto& c : readCsv(file).rows)
    if (c.size() >= 7)
      samples[c[0] + ',' + c[1] + ',' + c[2]] = c[3] + ',' + c[4] + ',' + c[5] + ',' + c[6];
  return samples;
}

// The centre of a wall cell of the shown domain.
QPointF wallPoint(const wb::Domain& domain) {
  for (int j = 0; j < domain.ny(); ++j)
    for (int i = 0; i < domain.nx(); ++i)
      if (!domain.isWet(i, j)) return {domain.grid().x(i), domain.grid().y(j)};
  return {-1, -1};
}
}  // namespace

class GaugesTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(dir_.isValid());
    // GAUGES_TEST_KEEP=1 keeps the exports for a look (the folder is printed).
    if (qEnvironmentVariableIsSet("GAUGES_TEST_KEEP")) {
      dir_.setAutoRemove(false);
      qInfo("files in %s", qPrintable(dir_.path()));
    }
  }
  void cleanup() {
    if (window_) window_->document().setModified(false);
    window_.reset();
  }

  void placedGaugesRecordExportUndoAndReplayInTheCli() {
    const QString file = dir_.filePath("gauges.json");
    std::ofstream(file.toStdString()) << kScenario;
    open(file, {});
    auto& window = *window_;
    auto& document = window.document();
    const int commands = document.undoStack()->count();

    // Refused: in a wall, outside the pool; the scenario keeps no gauge, the status bar says why.
    window.placeGaugeAt(wallPoint(*window.shownSnapshot()->domain));
    QVERIFY(window.statusBar()->currentMessage().contains("in a wall"));
    window.placeGaugeAt(QPointF(-0.5, 1.0));
    QVERIFY(window.statusBar()->currentMessage().contains("outside the pool"));
    window.placeTransect(QPointF(1.0, 1.0), QPointF(1.02, 1.0));
    QVERIFY(window.statusBar()->currentMessage().contains("Transect not placed"));
    QCOMPARE(document.undoStack()->count(), commands);
    QVERIFY(document.scenario().gauges.empty());

    const std::uint64_t generation = window.shownSnapshot()->generation;
    window.placeGaugeAt(QPointF(1.0, 3.5));
    window.placeGaugeAt(QPointF(3.9, 1.0));
    window.placeTransect(QPointF(0.3, 4.0), QPointF(4.5, 4.0));
    QCOMPARE(document.undoStack()->count(), commands + 3);
    QCOMPARE(document.scenario().gauges.size(), std::size_t(2));
    QCOMPARE(document.scenario().gauges[1].name, std::string("g2"));
    QCOMPARE(document.scenario().transects.at(0).name, std::string("t1"));
    QCOMPARE(document.scenario().transects.at(0).samples, 100);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->generation != generation &&
                                 window.shownSnapshot()->gauges.size() == 2,
                             kTimeoutMs);
    auto* dock = window.gaugesDock();
    QCOMPARE(dock->list()->count(), 3);
    // The Domain canvas draws them: the gauges' yellow among its pixels.
    window.findChild<QDockWidget*>("domainDock")->raise();
    QTRY_VERIFY_WITH_TIMEOUT(window.maskEditor()->isVisible(), kTimeoutMs);
    const QImage canvas = window.maskEditor()->grab().toImage();
    canvas.save(dir_.filePath("domain.png"));
    bool yellow = false;
    for (int y = 0; y < canvas.height() && !yellow; ++y)
      for (int x = 0; x < canvas.width() && !yellow; ++x)
        yellow = canvas.pixelColor(x, y) == QColor(255, 209, 26);
    QVERIFY(yellow);
    for (auto* view : window.views()) {
      QVERIFY(view->scene().gauges().gaugeActor()->GetVisibility());
      QVERIFY(view->scene().gauges().transectActor()->GetVisibility());
    }

    stepTo(window, kFrames);
    const double end = window.worker().latest()->time;
    QTRY_VERIFY_WITH_TIMEOUT(!dock->samples().at(0).empty() &&
                                 dock->samples()[0].back().time >= end - 1e-9 &&
                                 dock->samples()[1].back().time >= end - 1e-9,
                             kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->frame == kFrames, kTimeoutMs);
    // A chart refresh took the shown frame's profiles (transects.csv's rows).
    QTRY_VERIFY_WITH_TIMEOUT(dock->profiles() && dock->profiles()->frame == kFrames, kTimeoutMs);
    dock->refresh();

    for (const char* suffix : {"png", "svg", "pdf"}) {
      const QString image = dir_.filePath(QString("gauges.") + suffix);
      dock->exportPlots(image);
      QVERIFY2(QFileInfo(image).size() > 1000, qPrintable(image));
    }
    const QString guiGauges = dir_.filePath("gui-gauges.csv");
    const QString guiTransects = dir_.filePath("gui-transects.csv");
    dock->exportGaugesCsv(guiGauges);
    dock->exportTransectsCsv(guiTransects);
    const Csv gauges = readCsv(guiGauges);
    QCOMPARE(gauges.header, std::string("time,gauge,model,eta,depth,u,v,ref_eta,ref_depth"));
    const std::size_t models = window.shownSnapshot()->models.size();
    std::size_t samples = 0;
    for (const auto& perModel : dock->samples())
      samples += perModel.size();
    QCOMPARE(gauges.rows.size(), samples);
    QVERIFY(samples >= 2 * models * (kFrames + 1));  // every step, at least every frame
    for (const auto& row : gauges.rows)
      QCOMPARE(row.size(), std::size_t(9));
    const Csv transects = readCsv(guiTransects);
    QCOMPARE(transects.header, std::string("time,transect,s,x,y,model,eta,depth,ref_eta"));
    QCOMPARE(transects.rows.size(), 100 * models);
    QCOMPARE(transects.rows.back().at(1), std::string("t1"));

    // Saved and replayed headless: the same samples, to the printed precision.
    QVERIFY(window.saveScenarioAs(dir_.filePath("saved.json")));
    QProcess cli;
    cli.start(WAVEBENCH_CLI, {"run", "--scenario", dir_.filePath("saved.json"), "--frames",
                              QString::number(kFrames), "--out", dir_.filePath("cli")});
    QVERIFY(cli.waitForFinished(kTimeoutMs));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const auto fromCli = gaugeSamples(dir_.filePath("cli/gauges.csv"));
    const auto fromGui = gaugeSamples(guiGauges);
    QCOMPARE(fromGui.size(), fromCli.size());
    QVERIFY(fromGui == fromCli);

    // The tools in a 3-D view: with Gauge in hand a click places a gauge, with Transect a drag
    // a transect (the signals the view sends for a click and a drag).
    auto* view = window.views().front();
    window.gaugeToolbar()->gaugeAction()->trigger();
    emit view->surfaceClicked(QPointF(2.0, 3.0));
    QCOMPARE(document.scenario().gauges.size(), std::size_t(3));
    QCOMPARE(document.scenario().gauges[2].name, std::string("g3"));
    window.gaugeToolbar()->transectAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->gauges.size() == 3, kTimeoutMs);
    emit view->bodyPlaced(QPointF(0.5, 0.5), QPointF(9.0, 0.5));  // clamped onto the pool
    QCOMPARE(document.scenario().transects.size(), std::size_t(2));
    QCOMPARE(document.scenario().transects[1].x1, 4.8);
    window.gaugeToolbar()->transectAction()->trigger();  // put down
    QVERIFY(window.gaugeToolbar()->tool() == wb::gui::MarkerTool::None);

    // Undone: no gauge or transect in the scenario, the list and the views.
    for (int k = 0; k < 5; ++k)
      document.undoStack()->undo();
    QVERIFY(document.scenario().gauges.empty());
    QVERIFY(document.scenario().transects.empty());
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->gauges.empty() && dock->list()->count() == 0,
                             kTimeoutMs);
    for (auto* view : window.views())
      QVERIFY(!view->scene().gauges().gaugeActor()->GetVisibility());
    document.undoStack()->redo();
    QCOMPARE(document.scenario().gauges.size(), std::size_t(1));
  }

  // A scenario with an exact reference: its eta beside the models' in both exports.
  void referenceIsExportedBesideTheModels() {
    open("builtin:standing-wave", {"damped-wave"});
    auto& window = *window_;
    const std::uint64_t generation = window.shownSnapshot()->generation;
    window.placeGaugeAt(QPointF(2.0, 2.0));
    window.placeTransect(QPointF(0.5, 4.0), QPointF(15.5, 4.0));
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->generation != generation &&
                                 window.shownSnapshot()->transects.size() == 1,
                             kTimeoutMs);
    stepTo(window, 5);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot()->frame == 5, kTimeoutMs);
    auto* dock = window.gaugesDock();
    QTRY_VERIFY_WITH_TIMEOUT(dock->profiles() && dock->profiles()->frame == 5, kTimeoutMs);
    dock->refresh();
    dock->exportGaugesCsv(dir_.filePath("ref-gauges.csv"));
    dock->exportTransectsCsv(dir_.filePath("ref-transects.csv"));
    const Csv gauges = readCsv(dir_.filePath("ref-gauges.csv"));
    QVERIFY(!gauges.rows.empty());
    for (const auto& row : gauges.rows) {
      QVERIFY(!row.at(7).empty());
      // At a gauge the model follows the standing mode closely over a few frames.
      QVERIFY(std::abs(std::stod(row[3]) - std::stod(row[7])) < 2e-3);
    }
    const Csv transects = readCsv(dir_.filePath("ref-transects.csv"));
    QCOMPARE(transects.rows.size(), std::size_t(100));
    for (const auto& row : transects.rows)
      QVERIFY(!row.at(8).empty());
  }

  // A gauge with a measured record: the record dashed beside the models (at the samples'
  // times), and the summary table of every model against it, as gauge_summary.csv measures,
  // updated as the run goes.
  void recordIsDrawnDashedWithItsSummary() {
    {
      std::ofstream tank(dir_.filePath("tank.txt").toStdString());
      tank << "time(s) eta(cm)\n";
      for (int k = 0; k <= 40; ++k)
        tank << 0.05 * k << " " << 0.5 * std::sin(4.0 * 0.05 * k) << "\n";
      std::ofstream(dir_.filePath("record.json").toStdString()) << R"({
        "grid": {"nx": 32, "ny": 32, "dx": 0.1}, "water": {"depth": 0.5},
        "initial": {"drops": [{"x": 1.6, "y": 1.6, "radius": 0.3, "amplitude": 0.02}]},
        "gauges": [{"name": "tank", "x": 2.0, "y": 1.6,
                    "record": {"file": "tank.txt", "units": "cm", "window": [0.1, 2]}},
                   {"name": "plain", "x": 0.5, "y": 0.5}],
        "models": {"damped-wave": {}, "swe-adi": {}}, "frame_dt": 0.05, "duration": 2})";
    }
    open(dir_.filePath("record.json"), {});
    auto& window = *window_;
    auto* dock = window.gaugesDock();
    QTRY_VERIFY_WITH_TIMEOUT(dock->list()->count() == 2, kTimeoutMs);
    // Held: the shown snapshot is replaced as the frames below run.
    const auto heldRecord = window.shownSnapshot()->gauges.at(0).record;
    const wb::GaugeRecord& record = *heldRecord;
    QVERIFY(dock->summaryTable()->isVisible());
    for (int frame : {6, 12}) {
      stepTo(window, frame);
      QTRY_VERIFY_WITH_TIMEOUT(!dock->samples().at(1).empty() &&
                                   dock->samples().at(1).back().time >= frame * 0.05 - 1e-9,
                               kTimeoutMs);
      dock->refresh();
      // The record's line: dashed, named for the gauge, on the record at the samples' times.
      QLineSeries* line = nullptr;
      for (QAbstractSeries* series : dock->gaugeChart()->series())
        if (series->name() == "tank record") line = qobject_cast<QLineSeries*>(series);
      QVERIFY(line);
      QCOMPARE(line->pen().style(), Qt::DashLine);
      QVERIFY(line->count() > frame);
      for (const QPointF& p : line->points())
        QVERIFY(std::abs(p.y() - record.at(p.x())) < 1e-12);
      // The table: one row per model at the gauge with a record; its RMS error is the summary's.
      QTableWidget* table = dock->summaryTable();
      QCOMPARE(table->rowCount(), 2);
      double end = 0.0;
      for (const auto& samples : dock->samples())
        for (const wb::GaugeSample& s : samples)
          end = std::max(end, s.time);
      for (int m = 0; m < 2; ++m) {
        QCOMPARE(table->item(m, 0)->text(), QString("tank"));
        wb::Series series;
        for (const wb::GaugeSample& s : dock->samples()[std::size_t(m)])
          if (s.gauge == 0) series.t.push_back(s.time), series.v.push_back(s.value.eta);
        const wb::GaugeComparison c = wb::compareWithRecord(series, record, end);
        QVERIFY(c.rmsError);
        QCOMPARE(table->item(m, 2)->text(), QString::number(*c.rmsError, 'g', 4));
        QCOMPARE(table->item(m, 8)->text(), QString::number(*c.bestShift, 'g', 4));
      }
    }
  }

 private:
  // The window with the scenario loaded before it is shown (as a user's start does).
  void open(const QString& scenario, const std::vector<std::string>& models) {
    window_ = std::make_unique<wb::gui::MainWindow>(false);
    window_->resize(1400, 900);
    QVERIFY(window_->openScenario(scenario, models));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QTRY_VERIFY_WITH_TIMEOUT(window_->shownSnapshot() && !window_->views().empty(), kTimeoutMs);
  }

  QTemporaryDir dir_;
  std::unique_ptr<wb::gui::MainWindow> window_;
};

QTEST_MAIN(GaugesTest)
#include "gauges_test.moc"
