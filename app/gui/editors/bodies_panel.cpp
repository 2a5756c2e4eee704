#include "app/gui/editors/bodies_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QListWidget>

namespace wb::gui {

namespace {
constexpr double kDefaultDensity = 500.0;                      // kg/m^3: floats half immersed
constexpr std::array<double, 3> kSizeCells = {4.0, 4.0, 2.5};  // a crate a few cells wide
constexpr double kMaxSize = 1000.0;                            // m
constexpr double kMaxDensity = 20000.0;                        // kg/m^3
constexpr int kListRows = 4;
}  // namespace

BodiesPanel::BodiesPanel(QWidget* parent)
    : QGroupBox(tr("Bodies (Ctrl+click drops, Ctrl+drag throws)"), parent) {
  setObjectName("bodiesPanel");
  auto* form = new QFormLayout(this);
  shape_ = new QComboBox;
  shape_->setObjectName("bodyShape");
  shape_->addItems({tr("box"), tr("boat hull")});
  auto* sizes = new QHBoxLayout;
  const char* axes[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(QString("bodySize.%1").arg(axes[k]));
    spin->setDecimals(3);
    spin->setRange(0.001, kMaxSize);
    spin->setToolTip(tr("Edge along %1 (m); a hull: length, beam, height").arg(axes[k]));
    connect(spin, &QDoubleSpinBox::editingFinished, this, [this] { sizeEdited_ = true; });
    size_[std::size_t(k)] = spin;
    sizes->addWidget(spin);
  }
  density_ = new QDoubleSpinBox;
  density_->setObjectName("bodyDensity");
  density_->setRange(1.0, kMaxDensity);
  density_->setDecimals(0);
  density_->setValue(kDefaultDensity);
  density_->setSuffix(tr(" kg/m³"));
  density_->setToolTip(tr("Below the water's density it floats, immersed by the ratio"));
  list_ = new QListWidget;
  list_->setObjectName("bodyList");
  list_->setMaximumHeight(list_->fontMetrics().height() * (kListRows + 1));
  form->addRow(tr("shape"), shape_);
  form->addRow(tr("size (m)"), sizes);
  form->addRow(tr("density"), density_);
  form->addRow(list_);
}

NewBody BodiesPanel::next() const {
  NewBody body;
  body.hull = shape_->currentIndex() == 1;
  for (std::size_t k = 0; k < 3; ++k)
    body.size[k] = size_[k]->value();
  body.density = density_->value();
  return body;
}

void BodiesPanel::suggestSize(double dx) {
  if (sizeEdited_) return;
  for (std::size_t k = 0; k < 3; ++k)
    size_[k]->setValue(kSizeCells[k] * dx);
}

void BodiesPanel::showBodies(const std::vector<QString>& lines) {
  list_->clear();
  for (const QString& line : lines)
    list_->addItem(line);
  list_->setVisible(!lines.empty());
}

}  // namespace wb::gui
