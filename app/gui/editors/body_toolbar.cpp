#include "app/gui/editors/body_toolbar.hpp"

#include <algorithm>

#include <QAction>
#include <QActionGroup>
#include <QDoubleSpinBox>
#include <QLabel>

namespace wb::gui {

namespace {
constexpr double kDefaultSize = 0.6;       // m: a box's edge, a hull's length
constexpr double kDefaultDensity = 500.0;  // kg/m^3: floats half immersed

const BodyKey& declaredKey(const char* name) {
  return *std::find_if(bodyKeys().begin(), bodyKeys().end(),
                       [name](const BodyKey& key) { return key.name == name; });
}
}  // namespace

BodyToolbar::BodyToolbar(QWidget* parent) : QToolBar(tr("Bodies"), parent) {
  setObjectName("bodiesToolbar");
  tools_ = new QActionGroup(this);
  tools_->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
  addBox_ = new QAction(tr("Add box"), tools_);
  addBox_->setToolTip(tr("Click on the water to add a box of this size and density"));
  addHull_ = new QAction(tr("Add hull"), tools_);
  addHull_->setToolTip(
      tr("Click on the water to add a hull this long (beam 1/3, height 1/6 of it)"));
  for (QAction* tool : {addBox_, addHull_}) {
    tool->setCheckable(true);
    connect(tool, &QAction::toggled, this, [this, tool](bool on) {
      if (on) emit hint(tr("Click on the water to place the %1").arg(tool->text().mid(4)));
    });
  }
  // Their ranges are the scenario's (bodyKeys()): whatever the toolbar makes parses.
  const BodyKey& size = declaredKey("size");
  const BodyKey& density = declaredKey("density");
  size_ = new QDoubleSpinBox;
  size_->setObjectName("bodySize");
  size_->setDecimals(3);
  size_->setRange(size.lo, size.hi);
  size_->setValue(kDefaultSize);
  size_->setSuffix(" m");
  size_->setToolTip(tr("A box's edge, or a hull's length"));
  density_ = new QDoubleSpinBox;
  density_->setObjectName("bodyDensity");
  density_->setDecimals(0);
  density_->setRange(density.lo, density.hi);
  density_->setValue(kDefaultDensity);
  density_->setSuffix(" kg/m³");
  density_->setToolTip(QString::fromStdString(density.doc));
  addAction(addBox_);
  addAction(addHull_);
  addWidget(new QLabel(tr(" size ")));
  addWidget(size_);
  addWidget(new QLabel(tr(" density ")));
  addWidget(density_);
}

bool BodyToolbar::placing() const {
  return tools_->checkedAction() != nullptr;
}

std::optional<BodySpec> BodyToolbar::takeBodyAt(QPointF point) {
  QAction* tool = tools_->checkedAction();
  if (!tool) return std::nullopt;
  BodySpec body;
  const double size = size_->value();
  body.shape = tool == addHull_ ? BodyShape::Hull : BodyShape::Box;
  body.size = tool == addHull_ ? Eigen::Vector3d(size, size / 3.0, size / 6.0)
                               : Eigen::Vector3d::Constant(size);
  body.density = density_->value();
  body.x = point.x();
  body.y = point.y();
  tool->setChecked(false);
  return body;
}

}  // namespace wb::gui
