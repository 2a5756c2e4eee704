#include "app/gui/editors/gauge_tools.hpp"

#include <QAction>
#include <QActionGroup>
#include <QMouseEvent>
#include <QPainter>

#include "app/gui/editors/mask_editor.hpp"

namespace wb::gui {

namespace {
const QColor kGaugeColour(255, 209, 26), kTransectColour(255, 89, 191);
constexpr double kGaugeRadius = 5.0;  // pixels
}  // namespace

GaugeToolbar::GaugeToolbar(QWidget* parent) : QToolBar(tr("Gauges"), parent) {
  setObjectName("gaugeToolbar");
  auto* group = new QActionGroup(this);
  group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
  gauge_ = addAction(tr("Gauge"));
  gauge_->setObjectName("gaugeTool");
  gauge_->setToolTip(tr("Click the water to place a gauge (or Alt + click at any time)"));
  transect_ = addAction(tr("Transect"));
  transect_->setObjectName("transectTool");
  transect_->setToolTip(tr("Drag across the water to place a transect"));
  for (QAction* action : {gauge_, transect_}) {
    action->setCheckable(true);
    group->addAction(action);
  }
  connect(group, &QActionGroup::triggered, this, [this] {
    emit toolChanged(tool());
    if (tool() == MarkerTool::Gauge) emit hint(tr("Click the water to place a gauge"));
    if (tool() == MarkerTool::Transect) emit hint(tr("Drag across the water to place a transect"));
  });
}

MarkerTool GaugeToolbar::tool() const {
  if (gauge_->isChecked()) return MarkerTool::Gauge;
  if (transect_->isChecked()) return MarkerTool::Transect;
  return MarkerTool::None;
}

GaugeCanvasOverlay::GaugeCanvasOverlay(MaskCanvas* canvas,
                                       std::function<const Scenario&()> scenario,
                                       std::function<MarkerTool()> tool)
    : QWidget(canvas), canvas_(canvas), scenario_(std::move(scenario)), tool_(std::move(tool)) {
  setObjectName("gaugeCanvasOverlay");
  setAttribute(Qt::WA_TransparentForMouseEvents);
  canvas->installEventFilter(this);
  resize(canvas->size());
}

QPointF GaugeCanvasOverlay::toPool(QPointF position) const {
  const QRectF r = canvas_->imageRect();
  const Grid& grid = scenario_().grid;
  return {(position.x() - r.left()) / r.width() * grid.width(),
          (r.bottom() - position.y()) / r.height() * grid.height()};
}

QPointF GaugeCanvasOverlay::toCanvas(double x, double y) const {
  const QRectF r = canvas_->imageRect();
  const Grid& grid = scenario_().grid;
  return {r.left() + x / grid.width() * r.width(), r.bottom() - y / grid.height() * r.height()};
}

bool GaugeCanvasOverlay::eventFilter(QObject* watched, QEvent* event) {
  if (watched != canvas_) return false;
  switch (event->type()) {
    case QEvent::Resize:
      resize(canvas_->size());
      return false;
    case QEvent::MouseButtonPress: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      const MarkerTool tool = tool_();
      const bool alt = mouse->modifiers() & Qt::AltModifier;
      if (mouse->button() != Qt::LeftButton || canvas_->imageRect().isEmpty() ||
          (!alt && tool == MarkerTool::None))
        return false;
      placing_ = true;
      const QPointF point = toPool(mouse->position());
      if (alt || tool == MarkerTool::Gauge) {
        emit gaugePlaced(point);
      } else {
        dragFrom_ = dragTo_ = point;
      }
      return true;
    }
    case QEvent::MouseMove:
      if (!placing_) return false;
      if (dragFrom_) {
        dragTo_ = toPool(static_cast<QMouseEvent*>(event)->position());
        update();
      }
      return true;
    case QEvent::MouseButtonRelease:
      if (!placing_) return false;
      placing_ = false;
      if (dragFrom_) {
        const QPointF from = *dragFrom_;
        dragFrom_.reset();
        update();
        emit transectDrawn(from, toPool(static_cast<QMouseEvent*>(event)->position()));
      }
      return true;
    default:
      return false;
  }
}

void GaugeCanvasOverlay::paintEvent(QPaintEvent*) {
  if (canvas_->imageRect().isEmpty()) return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const Scenario& s = scenario_();
  const auto label = [&](QPointF at, const std::string& name) {
    painter.setPen(Qt::black);
    painter.drawText(at + QPointF(kGaugeRadius + 2, -kGaugeRadius), QString::fromStdString(name));
  };
  for (const TransectSpec& t : s.transects) {
    painter.setPen(QPen(kTransectColour, 2.5));
    const QPointF a = toCanvas(t.x0, t.y0), b = toCanvas(t.x1, t.y1);
    painter.drawLine(a, b);
    label(b, t.name);
  }
  if (dragFrom_ && dragTo_) {
    painter.setPen(QPen(kTransectColour, 2, Qt::DashLine));
    painter.drawLine(toCanvas(dragFrom_->x(), dragFrom_->y()),
                     toCanvas(dragTo_->x(), dragTo_->y()));
  }
  for (const GaugeSpec& g : s.gauges) {
    const QPointF at = toCanvas(g.x, g.y);
    painter.setPen(QPen(Qt::black, 1.2));
    painter.setBrush(kGaugeColour);
    painter.drawEllipse(at, kGaugeRadius, kGaugeRadius);
    label(at, g.name);
  }
}

}  // namespace wb::gui
