// End to end, under Xvfb: the built-in Π-pool with every registered model runs for some
// frames in the real window; a screenshot of the window must show a water surface in every
// view: a good share of the pixels inside each view's rectangle are water-blue (the grey
// background, the green land and the sand floor are not), and they are not all one shade.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QListWidget>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>

#include "app/gui/editors/controls_dock.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"
#include "models/registry.hpp"
#include "tests/gui/gui_test_support.hpp"

namespace {
using wb::gui::kTimeoutMs;
constexpr int kFrames = 60;
// The Π-pool's water covers about a third of a view; a blank view has none.
constexpr double kMinWaterShare = 0.10;
// Blue exceeds red by this much (0-255) in every water colour of the view's colour map.
constexpr int kBlueExcess = 40;
// Waves shade the water: the blue channel of water pixels varies by more than this.
constexpr double kMinBlueDeviation = 3.0;

struct WaterPixels {
  double share = 0.0;
  double blueDeviation = 0.0;
};

WaterPixels waterPixels(const QImage& image, const QRect& rect) {
  double sum = 0.0, sumSquares = 0.0;
  long water = 0, all = 0;
  for (int y = rect.top(); y <= rect.bottom(); y += 2)
    for (int x = rect.left(); x <= rect.right(); x += 2, ++all) {
      const QRgb p = image.pixel(x, y);
      if (qBlue(p) - qRed(p) < kBlueExcess) continue;
      sum += qBlue(p);
      sumSquares += double(qBlue(p)) * qBlue(p);
      ++water;
    }
  if (water == 0) return {};
  const double mean = sum / water;
  return {double(water) / all, std::sqrt(std::max(0.0, sumSquares / water - mean * mean))};
}
}  // namespace

class EndToEndTest : public QObject {
  Q_OBJECT

 private slots:
  void piPoolShowsASurfaceInEveryView() {
    wb::gui::MainWindow window(false);
    window.resize(1600, 1000);
    QVERIFY(window.openScenario("builtin:pi-pool"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.worker().setFrameLimit(kFrames);
    window.playAction()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot() && window.shownSnapshot()->frame >= kFrames,
                             kTimeoutMs);
    QCOMPARE(window.views().size(), wb::defaultModelIds().size());
    for (const auto& model : window.shownSnapshot()->models)
      QVERIFY(!model.failure);
    // The grab renders every view in place (SurfaceView::renderToImage) once it is on screen.
    QTRY_VERIFY_WITH_TIMEOUT(wb::gui::viewsOnScreen(window), kTimeoutMs);
    const QImage shot = window.grab().toImage();
    const QString file = QDir::temp().filePath("wavebench_e2e.png");
    QVERIFY(shot.save(file));
    for (auto* view : window.views()) {
      const QRect rect(view->mapTo(&window, QPoint(0, 0)), view->size());
      const WaterPixels w = waterPixels(shot, rect);
      qInfo("view at (%d, %d) %dx%d: water %.0f %% of pixels, blue deviation %.1f", rect.x(),
            rect.y(), rect.width(), rect.height(), 100.0 * w.share, w.blueDeviation);
      QVERIFY2(w.share > kMinWaterShare, qPrintable(file + ": a view shows no water"));
      QVERIFY2(w.blueDeviation > kMinBlueDeviation, qPrintable(file + ": the water is flat"));
    }
    window.document().setModified(false);
  }

  // fft-ocean refuses the Π pool's walls: ticking it shows the one-line reason in the status
  // bar (no crash, no modal box) and the models already running go on.
  void tickingFftOceanOnThePiPoolShowsTheRefusal() {
    constexpr int kRefusalTimeoutMs = 120000;
    wb::gui::MainWindow window(false);
    window.resize(1600, 1000);
    QVERIFY(window.openScenario("builtin:pi-pool"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.worker().setFrameLimit(10);
    window.playAction()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot() && window.shownSnapshot()->frame >= 10,
                             kTimeoutMs);
    const auto items = window.controls()->modelList()->findItems("fft-ocean", Qt::MatchExactly);
    QCOMPARE(items.size(), 1);
    QCOMPARE(items.front()->checkState(), Qt::Unchecked);  // not in the default set
    items.front()->setCheckState(Qt::Checked);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.statusBar()->currentMessage().startsWith(
            "Cannot run this scenario: fft-ocean: the domain has 858 solid cells"),
        kRefusalTimeoutMs);
    window.worker().setFrameLimit(20);
    window.playAction()->setChecked(false);
    window.playAction()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot() && window.shownSnapshot()->frame >= 20,
                             kRefusalTimeoutMs);
    QCOMPARE(window.views().size(), wb::defaultModelIds().size());
    window.grab().toImage().save(QDir::temp().filePath("wavebench_pi_fft_ocean.png"));
    window.document().setModified(false);
  }

  // At 1280x800 (and 1600x1000) the window keeps the size asked for (the docks scroll: the
  // Domain and Bodies panels' own heights made it 929 px tall at 1280x800), the figures table
  // shows every model's column and every row without scrolling, and each chart's title fits its
  // chart (the last column and the energy chart's title were cut at 1280x800).
  void windowAndPlotsFitTheScreen_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x800") << QSize(1280, 800);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
  }
  void windowAndPlotsFitTheScreen() {
    QFETCH(QSize, size);
    wb::gui::MainWindow window(false);
    window.resize(size);
    QVERIFY(window.openScenario("builtin:pi-pool"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.minimumSizeHint().height() <= size.height(),
             qPrintable(QString("needs %1 px").arg(window.minimumSizeHint().height())));
    QCOMPARE(window.size(), size);
    constexpr int kFitFrames = 20;
    window.worker().setFrameLimit(kFitFrames);
    window.playAction()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.shownSnapshot() && window.shownSnapshot()->frame >= kFitFrames,
                             kTimeoutMs);
    // A plot refresh took every frame's records into the plots and the table, ...
    wb::gui::PlotsDock* plots = window.plots();
    QTRY_VERIFY_WITH_TIMEOUT(
        plots->history().front().size() == std::size_t(kFitFrames) && !plots->refreshPending(),
        kTimeoutMs);
    QTableWidget* table = plots->costTable();
    QCOMPARE(table->columnCount(), int(wb::defaultModelIds().size()));
    // ... which the table lays out now (the event loop would, a moment later).
    table->doItemsLayout();
    QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
    QCOMPARE(table->verticalScrollBar()->maximum(), 0);
    const int last = table->columnCount() - 1;
    QVERIFY(table->columnViewportPosition(last) + table->columnWidth(last) <=
            table->viewport()->width());
    for (QChartView* view : window.plots()->findChildren<QChartView*>()) {
      const QChart* chart = view->chart();
      const int title = QFontMetrics(chart->titleFont()).horizontalAdvance(chart->title());
      QVERIFY2(title < view->width(), qPrintable(QString("%1: %2 px in a %3 px chart")
                                                     .arg(chart->title())
                                                     .arg(title)
                                                     .arg(view->width())));
    }
    window.document().setModified(false);
  }
};

int main(int argc, char** argv) {
  wb::gui::SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("WavebenchTests");
  EndToEndTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "end_to_end_test.moc"
