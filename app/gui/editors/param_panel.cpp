#include "app/gui/editors/param_panel.hpp"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

#include "core/errors.hpp"
#include "core/scenario/scenario.hpp"

namespace wb::gui {

namespace {
constexpr int kRealDecimals = 6;

QString tooltipFor(const ParamSpec& spec) {
  QString tip = QString::fromStdString(spec.doc);
  if (spec.kind == ParamKind::Real || spec.kind == ParamKind::Integer)
    tip += QString("\nRange: [%1, %2] %3")
               .arg(spec.min, 0, 'g', 6)
               .arg(spec.max, 0, 'g', 6)
               .arg(QString::fromStdString(spec.unit));
  if (spec.autoDerived) tip += "\n'auto': derived from the scenario by the model.";
  return tip;
}
}  // namespace

ParamPanel::ParamPanel(const std::string& modelId, const ParamValues& values, QWidget* parent)
    : QWidget(parent), modelId_(modelId), declared_(values.specs()) {
  auto* form = new QFormLayout(this);
  for (const auto& spec : values.specs()) {
    QWidget* editor = makeEditor(spec);
    editor->setToolTip(tooltipFor(spec));
    editors_[spec.name] = editor;
    QWidget* row = editor;
    if (spec.autoDerived) {
      row = new QWidget;
      auto* line = new QHBoxLayout(row);
      line->setContentsMargins(0, 0, 0, 0);
      auto* box = new QCheckBox(tr("auto"));
      box->setToolTip(
          tr("Let the model derive %1 from the scenario").arg(QString::fromStdString(spec.name)));
      connect(box, &QCheckBox::toggled, editor, &QWidget::setDisabled);
      autoBoxes_[spec.name] = box;
      line->addWidget(editor, 1);
      line->addWidget(box);
    }
    auto* label = new QLabel(QString::fromStdString(spec.name));
    label->setToolTip(editor->toolTip());
    form->addRow(label, row);
  }
  auto* buttons = new QHBoxLayout;
  auto* apply = new QPushButton(tr("Apply"));
  auto* defaults = new QPushButton(tr("Defaults"));
  apply->setObjectName("apply");
  defaults->setObjectName("defaults");
  buttons->addStretch();
  buttons->addWidget(defaults);
  buttons->addWidget(apply);
  form->addRow(buttons);
  connect(apply, &QPushButton::clicked, this, [this] {
    try {
      emit applied(modelId_, valuesJson());
    } catch (const InputError& error) {
      QMessageBox::warning(this, tr("Parameter"), QString::fromStdString(error.what()));
    }
  });
  connect(defaults, &QPushButton::clicked, this, [this] { setValues(declared_); });
  setValues(values);
}

QWidget* ParamPanel::makeEditor(const ParamSpec& spec) {
  const QString unit = spec.unit.empty() ? QString() : " " + QString::fromStdString(spec.unit);
  switch (spec.kind) {
    case ParamKind::Real: {
      auto* box = new QDoubleSpinBox;
      // Enough decimals to show the smallest allowed value (dt may be 1e-7 s).
      const int needed = spec.min > 0 ? int(std::ceil(-std::log10(spec.min))) + 1 : 0;
      box->setDecimals(std::max(kRealDecimals, needed));
      box->setRange(spec.min, spec.max);
      box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
      box->setSuffix(unit);
      return box;
    }
    case ParamKind::Integer: {
      auto* box = new QSpinBox;
      box->setRange(int(spec.min), int(spec.max));
      box->setSuffix(unit);
      return box;
    }
    case ParamKind::Choice: {
      auto* box = new QComboBox;
      for (const auto& choice : spec.choices)
        box->addItem(QString::fromStdString(choice));
      return box;
    }
    case ParamKind::Flag:
      return new QCheckBox;
  }
  return new QWidget;
}

void ParamPanel::showValue(const ParamSpec& spec, std::optional<double> value) {
  QWidget* editor = editors_.at(spec.name);
  if (auto it = autoBoxes_.find(spec.name); it != autoBoxes_.end()) {
    it->second->setChecked(!value);
    editor->setDisabled(!value);
  }
  const double v = value.value_or(spec.defaultValue);
  if (auto* real = qobject_cast<QDoubleSpinBox*>(editor)) real->setValue(v);
  if (auto* integer = qobject_cast<QSpinBox*>(editor)) integer->setValue(int(std::lround(v)));
  if (auto* choice = qobject_cast<QComboBox*>(editor)) choice->setCurrentIndex(int(v));
  if (auto* flag = qobject_cast<QCheckBox*>(editor)) flag->setChecked(v != 0.0);
}

void ParamPanel::setValues(const ParamValues& values) {
  for (const auto& spec : declared_.specs())
    showValue(spec, values.getOptional(spec.name));
  shownJson_ = valuesJson();
}

ParamValues ParamPanel::values() const {
  ParamValues values(declared_.specs());
  for (const auto& spec : declared_.specs()) {
    const std::string where = modelId_ + "." + spec.name;
    if (auto it = autoBoxes_.find(spec.name); it != autoBoxes_.end() && it->second->isChecked())
      continue;
    QWidget* editor = editors_.at(spec.name);
    if (auto* real = qobject_cast<QDoubleSpinBox*>(editor))
      values.set(spec.name, real->value(), where);
    if (auto* integer = qobject_cast<QSpinBox*>(editor))
      values.set(spec.name, integer->value(), where);
    if (auto* choice = qobject_cast<QComboBox*>(editor))
      values.set(spec.name, choice->currentIndex(), where);
    if (auto* flag = qobject_cast<QCheckBox*>(editor))
      values.set(spec.name, flag->isChecked(), where);
  }
  return values;
}

nlohmann::json ParamPanel::valuesJson() const {
  const ParamValues v = values();
  nlohmann::json out = nlohmann::json::object();
  for (const auto& spec : v.specs()) {
    const auto value = v.getOptional(spec.name);
    if (!value)
      out[spec.name] = "auto";
    else if (spec.kind == ParamKind::Choice)
      out[spec.name] = v.text(spec.name);
    else if (spec.kind == ParamKind::Flag)
      out[spec.name] = *value != 0.0;
    else
      out[spec.name] = *value;
  }
  return out;
}

bool ParamPanel::setShared(const ParamSpec& spec, const nlohmann::json& value) {
  if (!declared_.has(spec.name)) return false;
  const ParamSpec& mine = declared_.spec(spec.name);
  if (mine.kind != spec.kind || mine.unit != spec.unit) return false;
  ParamValues single(declared_.specs());
  applyParamJson(single, nlohmann::json{{spec.name, value}}, modelId_);
  showValue(mine, single.getOptional(spec.name));
  return true;
}

QWidget* ParamPanel::editor(const std::string& name) const {
  auto it = editors_.find(name);
  return it == editors_.end() ? nullptr : it->second;
}

}  // namespace wb::gui
