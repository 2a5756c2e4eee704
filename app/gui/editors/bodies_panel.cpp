#include "app/gui/editors/bodies_panel.hpp"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace wb::gui {

namespace {
constexpr int kDecimals = 3;
constexpr int kListRows = 4;  // the list shows this many bodies before it scrolls

QString describe(int index, const BodySpec& b) {
  return QString("%1: %2 %3 × %4 × %5 m, %6 kg/m³ at (%7, %8)")
      .arg(index)
      .arg(bodyShapeName(b.shape))
      .arg(b.size.x(), 0, 'g', 3)
      .arg(b.size.y(), 0, 'g', 3)
      .arg(b.size.z(), 0, 'g', 3)
      .arg(b.density)
      .arg(b.x, 0, 'f', 2)
      .arg(b.y, 0, 'f', 2);
}

QDoubleSpinBox* numberBox(const BodyKey& key) {
  auto* spin = new QDoubleSpinBox;
  spin->setDecimals(kDecimals);
  spin->setRange(key.lo, key.hi);
  if (!key.unit.empty()) spin->setSuffix(" " + QString::fromStdString(key.unit));
  spin->setAccelerated(true);
  return spin;
}
}  // namespace

BodiesPanel::BodiesPanel(QWidget* parent) : QGroupBox(tr("Buoyant bodies"), parent) {
  setObjectName("bodiesPanel");
  auto* layout = new QVBoxLayout(this);
  list_ = new QListWidget;
  list_->setObjectName("bodyList");
  list_->setToolTip(tr("The scenario's bodies; add one with the Bodies toolbar"));
  list_->setMaximumHeight(fontMetrics().height() * kListRows + 4 * list_->frameWidth());
  layout->addWidget(list_);
  form_ = new QWidget;
  auto* form = new QFormLayout(form_);
  form->setContentsMargins(0, 0, 0, 0);
  for (const BodyKey& key : bodyKeys()) {
    QWidget* editor = makeEditor(key);
    QString tip = QString::fromStdString(key.doc);
    if (key.kind != BodyKey::Kind::Choice && key.extent == BodyKey::Extent::None)
      tip += tr(" (%1 to %2 %3)").arg(key.lo).arg(key.hi).arg(QString::fromStdString(key.unit));
    editor->setToolTip(tip);
    QWidget* field = editor;
    if (key.optional) {
      auto* set = new QCheckBox;
      set->setObjectName(QString::fromStdString("bodySet_" + key.name));
      set->setToolTip(tr("Unset: %1").arg(QString::fromStdString(key.doc)));
      connect(set, &QCheckBox::toggled, editor, &QWidget::setEnabled);
      setBoxes_[key.name] = set;
      field = new QWidget;
      auto* row = new QHBoxLayout(field);
      row->setContentsMargins(0, 0, 0, 0);
      row->addWidget(set);
      row->addWidget(editor, 1);
    }
    auto* label = new QLabel(QString::fromStdString(key.name));
    label->setToolTip(tip);
    form->addRow(label, field);
  }
  layout->addWidget(form_);
  auto* buttons = new QHBoxLayout;
  apply_ = new QPushButton(tr("Apply"));
  apply_->setObjectName("bodyApply");
  remove_ = new QPushButton(tr("Remove"));
  remove_->setObjectName("bodyRemove");
  buttons->addStretch();
  buttons->addWidget(remove_);
  buttons->addWidget(apply_);
  layout->addLayout(buttons);
  layout->addStretch();
  connect(list_, &QListWidget::currentRowChanged, this, &BodiesPanel::showBody);
  connect(apply_, &QPushButton::clicked, this, [this] {
    if (selected() >= 0) emit bodyApplied(selected(), shownJson());
  });
  connect(remove_, &QPushButton::clicked, this, [this] {
    if (selected() >= 0) emit bodyRemoved(selected());
  });
  showBody(-1);
}

QWidget* BodiesPanel::makeEditor(const BodyKey& key) {
  QWidget* editor = nullptr;
  switch (key.kind) {
    case BodyKey::Kind::Choice: {
      auto* box = new QComboBox;
      for (const auto& choice : key.choices)
        box->addItem(QString::fromStdString(choice));
      editor = box;
      break;
    }
    case BodyKey::Kind::Number:
      editor = numberBox(key);
      break;
    case BodyKey::Kind::Integer: {
      auto* spin = new QSpinBox;
      spin->setRange(int(key.lo), int(std::max(key.lo, key.hi)));
      editor = spin;
      break;
    }
    case BodyKey::Kind::Triple: {
      editor = new QWidget;
      auto* row = new QHBoxLayout(editor);
      row->setContentsMargins(0, 0, 0, 0);
      row->setSpacing(2);
      for (int a = 0; a < 3; ++a) {
        QDoubleSpinBox* spin = numberBox(key);
        spin->setSuffix({});  // three boxes in a row: the unit once, after them
        spin->setObjectName(QString::fromStdString("body_" + key.name) + QString::number(a));
        row->addWidget(spin, 1);
      }
      row->addWidget(new QLabel(QString::fromStdString(key.unit)));
      break;
    }
    case BodyKey::Kind::Text:
    case BodyKey::Kind::Object:
    case BodyKey::Kind::Custom:  // kinds of scenario keys that no body key has
      editor = new QWidget;
      break;
  }
  editor->setObjectName(QString::fromStdString("body_" + key.name));
  editors_[key.name] = editor;
  return editor;
}

void BodiesPanel::showBodies(const Scenario& scenario) {
  const int keep = selected();
  bodies_ = scenario.rigidBodies;
  grid_ = scenario.grid;
  boats_ = scenario.excitations.boats.size();
  for (const BodyKey& key : bodyKeys()) {
    if (key.extent == BodyKey::Extent::None) continue;
    const double hi = key.upper(grid_, boats_);
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(editors_.at(key.name)))
      spin->setRange(key.lo, hi);
    if (auto* spin = qobject_cast<QSpinBox*>(editors_.at(key.name)))
      spin->setRange(int(key.lo), std::max(int(key.lo), int(hi)));
    if (key.extent == BodyKey::Extent::Boats) setBoxes_.at(key.name)->setEnabled(boats_ > 0);
  }
  const QSignalBlocker block(list_);
  list_->clear();
  for (std::size_t k = 0; k < bodies_.size(); ++k)
    list_->addItem(describe(int(k), bodies_[k]));
  const int index = bodies_.empty() ? -1 : std::clamp(keep, 0, int(bodies_.size()) - 1);
  list_->setCurrentRow(index);
  showBody(index);
}

int BodiesPanel::selected() const {
  return list_->currentRow();
}

void BodiesPanel::select(int index) {
  list_->setCurrentRow(index);
}

QWidget* BodiesPanel::editor(const std::string& key) const {
  auto it = editors_.find(key);
  return it == editors_.end() ? nullptr : it->second;
}

void BodiesPanel::showBody(int index) {
  const bool any = index >= 0 && index < int(bodies_.size());
  form_->setEnabled(any);
  apply_->setEnabled(any);
  remove_->setEnabled(any);
  const BodySpec body = any ? bodies_[std::size_t(index)] : BodySpec{};
  for (const BodyKey& key : bodyKeys())
    setShown(key.name, key.get(body));
}

void BodiesPanel::setShown(const std::string& name, const nlohmann::json& value) {
  QWidget* widget = editors_.at(name);
  if (auto it = setBoxes_.find(name); it != setBoxes_.end()) {
    it->second->setChecked(!value.is_null());
    widget->setEnabled(!value.is_null());
    if (value.is_null()) return;
  }
  if (auto* box = qobject_cast<QComboBox*>(widget))
    box->setCurrentText(QString::fromStdString(value.get<std::string>()));
  else if (auto* spin = qobject_cast<QDoubleSpinBox*>(widget))
    spin->setValue(value.get<double>());
  else if (auto* spin = qobject_cast<QSpinBox*>(widget))
    spin->setValue(value.get<int>());
  else
    for (int a = 0; a < 3; ++a)
      widget
          ->findChild<QDoubleSpinBox*>(QString::fromStdString("body_" + name) + QString::number(a))
          ->setValue(value[a].get<double>());
}

nlohmann::json BodiesPanel::shownJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const BodyKey& key : bodyKeys()) {
    if (auto it = setBoxes_.find(key.name); it != setBoxes_.end() && !it->second->isChecked())
      continue;
    QWidget* widget = editors_.at(key.name);
    if (auto* box = qobject_cast<QComboBox*>(widget))
      out[key.name] = box->currentText().toStdString();
    else if (auto* spin = qobject_cast<QDoubleSpinBox*>(widget))
      out[key.name] = spin->value();
    else if (auto* spin = qobject_cast<QSpinBox*>(widget))
      out[key.name] = spin->value();
    else
      for (int a = 0; a < 3; ++a)
        out[key.name].push_back(
            widget
                ->findChild<QDoubleSpinBox*>(QString::fromStdString("body_" + key.name) +
                                             QString::number(a))
                ->value());
  }
  return out;
}

}  // namespace wb::gui
