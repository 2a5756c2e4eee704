// Many gauges in the real window under Xvfb (docs/gauges.md): loading 3,000 gauges builds a
// bounded number of chart lines (the Gauges chart draws at most GaugesDock::kChartedGauges
// gauges, the ones selected in the list), so the work of a load grows with the gauges and not
// with their square, while every gauge is still recorded for export; every 3-D view draws all
// the gauges as one actor of about kGaugeTriangleBudget triangles (drawn at every frame). The
// workbench runs the models a scenario names, as wavebench-cli does.
#include <QChart>
#include <QLineSeries>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkMapper.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>
#include <nlohmann/json.hpp>

#include "app/gui/document/scenario_document.hpp"
#include "app/gui/views/gauge_actors.hpp"
#include "app/gui/views/gauges_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"
#include "models/registry.hpp"

namespace {
constexpr int kTimeoutMs = 300000;  // a hang guard, not a budget
constexpr int kGauges = 3000;

// kGauges gauges spread over a 32 x 16 pool of 0.1 m cells; no "models": the default set runs.
std::string manyGauges() {
  nlohmann::json gauges = nlohmann::json::array();
  for (int k = 0; k < kGauges; ++k) {
    std::string name = "g";
    name += std::to_string(k);  // (GCC 12 warns, wrongly, of overlap in "g" + to_string)
    gauges.push_back(
        {{"name", name}, {"x", 0.05 + (k % 97) * 0.032}, {"y", 0.05 + (k / 97) * 0.045}});
  }
  nlohmann::json scenario = {
      {"grid", {{"nx", 32}, {"ny", 16}, {"dx", 0.1}}},
      {"initial", {{"drops", {{{"x", 1.6}, {"y", 0.8}, {"radius", 0.3}, {"amplitude", 0.02}}}}}},
      {"gauges", gauges},
      {"duration", 1.0}};
  return scenario.dump();
}

// Triangles a renderer draws for this polydata: its polygons (the balls' facets are
// triangles) and n - 2 for each strip of n points (the tubes).
std::size_t triangles(vtkPolyData* data) {
  std::size_t count = std::size_t(data->GetNumberOfPolys());
  vtkCellArray* strips = data->GetStrips();
  for (vtkIdType c = 0; c < strips->GetNumberOfCells(); ++c)
    count += std::size_t(strips->GetCellSize(c) - 2);
  return count;
}

std::size_t lineSeriesPoints(QChart* chart, int index) {
  return std::size_t(qobject_cast<QLineSeries*>(chart->series().at(index))->count());
}
}  // namespace

class GaugeLoadTest : public QObject {
  Q_OBJECT

 private slots:
  void thousandsOfGaugesBuildABoundedChart() {
    QTemporaryDir dir;
    const QString file = dir.filePath("many.json");
    std::ofstream(file.toStdString()) << manyGauges();
    wb::gui::MainWindow window(false);
    window.show();
    // The list is filled in one insertion of every row, not row by row.
    QSignalSpy inserted(window.gaugesDock()->list()->model(), &QAbstractItemModel::rowsInserted);
    QVERIFY(window.openScenario(file));
    window.worker().setFrameLimit(3);
    window.playAction()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot() && window.shownSnapshot()->frame >= 3,
                             kTimeoutMs);
    wb::gui::GaugesDock* dock = window.gaugesDock();
    const std::size_t models = window.shownSnapshot()->models.size();
    QCOMPARE(window.shownSnapshot()->gauges.size(), std::size_t(kGauges));
    QCOMPARE(dock->list()->count(), kGauges);
    QVERIFY(!inserted.isEmpty());
    for (const QList<QVariant>& rows : inserted)
      QCOMPARE(rows.at(2).toInt() - rows.at(1).toInt() + 1, kGauges);
    // The chart holds lines for the first kChartedGauges gauges only, one per model each.
    const std::size_t charted = wb::gui::GaugesDock::kChartedGauges;
    QCOMPARE(dock->chartedGauges().size(), charted);
    QCOMPARE(dock->chartedGauges().front(), std::size_t(0));
    QCOMPARE(std::size_t(dock->gaugeChart()->series().size()), charted * models);
    // Every gauge is recorded (the export holds them all), the last one too.
    QTRY_VERIFY_WITH_TIMEOUT(!dock->samples().empty() && !dock->samples()[0].empty(), kTimeoutMs);
    bool lastRecorded = false;
    for (const wb::GaugeSample& s : dock->samples()[0])
      lastRecorded = lastRecorded || s.gauge == kGauges - 1;
    QVERIFY(lastRecorded);
    // Selecting a gauge in the list charts it, drawn from the samples taken so far.
    dock->list()->item(kGauges - 1)->setSelected(true);
    QCOMPARE(dock->chartedGauges(), std::vector<std::size_t>{std::size_t(kGauges - 1)});
    QCOMPARE(std::size_t(dock->gaugeChart()->series().size()), models);
    QVERIFY(lineSeriesPoints(dock->gaugeChart(), 0) > 0);
    dock->list()->clearSelection();
    QCOMPARE(dock->chartedGauges().size(), charted);
    // Every view draws the gauges as one actor whose triangles stay within the budget, and
    // whose markers reach every gauge.
    QVERIFY(!window.views().empty());
    for (wb::gui::SurfaceView* view : window.views()) {
      vtkActor* markers = view->scene().gauges().gaugeActor();
      QVERIFY(markers->GetVisibility());
      auto* data = vtkPolyData::SafeDownCast(markers->GetMapper()->GetInput());
      QVERIFY(data);
      QVERIFY(triangles(data) > 0);
      QVERIFY2(triangles(data) <= wb::gui::kGaugeTriangleBudget,
               std::to_string(triangles(data)).c_str());
      double bounds[6];
      data->GetBounds(bounds);
      for (const wb::GaugeSpec& g : window.shownSnapshot()->gauges)
        QVERIFY(g.x >= bounds[0] && g.x <= bounds[1] && g.y >= bounds[2] && g.y <= bounds[3]);
    }
    window.document().setModified(false);
  }

  // A few gauges keep the full markers (16 x 12 balls, 10-sided posts); the facets shrink with
  // many, and past the coarsest tubes the posts are lines.
  void markerDetailFollowsTheGauges() {
    const wb::gui::GaugeMarkerDetail few = wb::gui::gaugeMarkerDetail(5);
    QCOMPARE(few.theta, 16);
    QCOMPARE(few.phi, 12);
    QCOMPARE(few.sides, 10);
    const wb::gui::GaugeMarkerDetail many = wb::gui::gaugeMarkerDetail(kGauges);
    QVERIFY(many.theta < few.theta && many.sides > 0);
    QCOMPARE(wb::gui::gaugeMarkerDetail(10000).sides, 0);
  }

  // builtin:stoker names the two shallow-water models: a dam break, which the wave models
  // cannot carry. The workbench runs those two, as wavebench-cli run does.
  void theScenariosModelListIsFollowed() {
    wb::gui::ScenarioDocument document;
    document.load("builtin:stoker");
    QCOMPARE(document.modelIds(), (std::vector<std::string>{"swe-semi-lagrangian", "swe-adi"}));
    document.load("builtin:pi-pool");  // names none: the default set
    QCOMPARE(document.modelIds(), wb::defaultModelIds());
  }
};

QTEST_MAIN(GaugeLoadTest)
#include "gauge_load_test.moc"
