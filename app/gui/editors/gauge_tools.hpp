// Placing gauges and transects (docs/gauges.md). The Gauges toolbar holds two tools: with
// Gauge checked a click on the water (any 3-D view or the Domain canvas) places a gauge, as
// Alt + click always does; with Transect checked a drag places a transect from the press to
// the release. GaugeCanvasOverlay draws the markers on the Domain canvas and turns its mouse
// input into placements while a tool is in hand (the brush then stays still).
#pragma once

#include <functional>
#include <optional>

#include <QPointF>
#include <QToolBar>
#include <QWidget>

#include "core/scenario/scenario.hpp"

class QAction;

namespace wb::gui {

class MaskCanvas;

enum class MarkerTool { None, Gauge, Transect };

class GaugeToolbar : public QToolBar {
  Q_OBJECT

 public:
  explicit GaugeToolbar(QWidget* parent = nullptr);
  MarkerTool tool() const;
  QAction* gaugeAction() const { return gauge_; }
  QAction* transectAction() const { return transect_; }

 signals:
  void toolChanged(MarkerTool tool);
  void hint(const QString& text);

 private:
  QAction *gauge_ = nullptr, *transect_ = nullptr;
};

class GaugeCanvasOverlay : public QWidget {
  Q_OBJECT

 public:
  // Reads the markers from `scenario` and the tool in hand from `tool` when it paints or a
  // press arrives.
  GaugeCanvasOverlay(MaskCanvas* canvas, std::function<const Scenario&()> scenario,
                     std::function<MarkerTool()> tool);

 signals:
  void gaugePlaced(QPointF point);
  void transectDrawn(QPointF from, QPointF to);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;

 private:
  // Pool coordinates (m, y up) of a canvas position, and back.
  QPointF toPool(QPointF position) const;
  QPointF toCanvas(double x, double y) const;

  MaskCanvas* canvas_;
  std::function<const Scenario&()> scenario_;
  std::function<MarkerTool()> tool_;
  std::optional<QPointF> dragFrom_, dragTo_;  // a transect being drawn (m)
  bool placing_ = false;                      // the press was a placement: eat its events
};

}  // namespace wb::gui
