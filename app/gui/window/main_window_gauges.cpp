// The main window's gauges and transects (docs/gauges.md): the Gauges toolbar and dock, the
// markers on the Domain canvas and in every 3-D view, and the placements the tools make.
#include <algorithm>

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMessageBox>
#include <QStatusBar>

#include "app/gui/document/gauge_edits.hpp"
#include "app/gui/editors/gauge_tools.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/views/gauges_dock.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"
#include "core/errors.hpp"

namespace wb::gui {

void MainWindow::buildGauges() {
  gaugeToolbar_ = new GaugeToolbar(this);
  addToolBar(gaugeToolbar_);
  connect(gaugeToolbar_, &GaugeToolbar::hint, this, &MainWindow::showMessage);
  gaugesDock_ = new GaugesDock(this);
  addDockWidget(Qt::BottomDockWidgetArea, gaugesDock_);
  tabifyDockWidget(plots_, gaugesDock_);
  plots_->raise();
  connect(gaugesDock_, &GaugesDock::gaugeRemoved, this,
          [this](int index) { removeGauge(document_, index); });
  connect(gaugesDock_, &GaugesDock::transectRemoved, this,
          [this](int index) { removeTransect(document_, index); });
  gaugeOverlay_ = new GaugeCanvasOverlay(
      maskEditor_->canvas(), [this]() -> const Scenario& { return document_.scenario(); },
      [this] { return gaugeToolbar_->tool(); });
  connect(gaugeOverlay_, &GaugeCanvasOverlay::gaugePlaced, this, &MainWindow::placeGaugeAt);
  connect(gaugeOverlay_, &GaugeCanvasOverlay::transectDrawn, this, &MainWindow::placeTransect);
  // A scenario that comes with gauges shows their charts.
  connect(&document_, &ScenarioDocument::loaded, this, [this] {
    const Scenario& s = document_.scenario();
    if (!s.gauges.empty() || !s.transects.empty()) gaugesDock_->raise();
  });
  connect(&document_, &ScenarioDocument::rebuildNeeded, gaugeOverlay_,
          qOverload<>(&QWidget::update));
}

void MainWindow::placeGaugeAt(QPointF point) {
  try {
    addGauge(document_, point);
    gaugesDock_->raise();
  } catch (const InputError& error) {
    showMessage(QString::fromStdString(error.what()));
  }
}

void MainWindow::placeTransect(QPointF from, QPointF to) {
  try {
    addTransect(document_, from, to);
    gaugesDock_->raise();
  } catch (const InputError& error) {
    showMessage(QString::fromStdString(error.what()));
  }
}

bool MainWindow::placesMarker(QPointF clicked) {
  const bool alt = QGuiApplication::queryKeyboardModifiers() & Qt::AltModifier;
  if (!alt && gaugeToolbar_->tool() != MarkerTool::Gauge) return false;
  placeGaugeAt(clicked);
  return true;
}

bool MainWindow::placesTransect(QPointF from, QPointF to) {
  if (gaugeToolbar_->tool() != MarkerTool::Transect) return false;
  placeTransect(from, to);
  return true;
}

void MainWindow::resetGauges(const Snapshot& snapshot) {
  gaugesDock_->reset(snapshot);
}

void MainWindow::updateGauges(const SimulationWorker::RecordBatch& batch,
                              std::shared_ptr<const Snapshot> snapshot, bool refreshDue) {
  if (batch.generation == shownGeneration_) gaugesDock_->append(batch.gaugeSamples);
  if (!shown_) return;
  // Markers in every view, also one made since (a model shown, the difference view); a drag
  // in a view draws a transect while the tool is in hand (else it turns the camera).
  const Grid& grid = shown_->domain->grid();
  for (SurfaceView* view : views()) {
    if (view->scene().gauges().generation() != shownGeneration_)
      view->scene().gauges().set(shown_->gauges, shown_->transects,
                                 std::max(grid.width(), grid.height()), shownGeneration_);
    view->setBodyMode(gaugeToolbar_->tool() == MarkerTool::Transect);
  }
  if (!refreshDue) return;
  if (snapshot->generation == shownGeneration_) gaugesDock_->showProfiles(std::move(snapshot));
  gaugesDock_->refresh();
}

void MainWindow::exportGaugePlotsDialog() {
  const QString file = QFileDialog::getSaveFileName(
      this, tr("Export gauge plots"), "gauges.png",
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
  if (file.isEmpty()) return;
  try {
    gaugesDock_->exportPlots(file);
  } catch (const std::exception& error) {
    QMessageBox::warning(this, tr("Export gauge plots"), error.what());
  }
}

// gauges.csv and transects.csv (the CLI's columns) in the chosen folder.
void MainWindow::exportGaugeDataDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Export gauge data to"));
  if (dir.isEmpty()) return;
  try {
    gaugesDock_->exportGaugesCsv(dir + "/gauges.csv");
    gaugesDock_->exportTransectsCsv(dir + "/transects.csv");
  } catch (const std::exception& error) {
    QMessageBox::warning(this, tr("Export gauge data"), error.what());
  }
}

}  // namespace wb::gui
