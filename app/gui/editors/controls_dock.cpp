#include "app/gui/editors/controls_dock.hpp"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QListWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/gui/editors/param_panel.hpp"
#include "models/registry.hpp"

namespace wb::gui {

namespace {
const int kGridSizes[] = {32, 64, 128, 256, 512};
constexpr double kMaxSpeed = 8.0;
}  // namespace

ControlsDock::ControlsDock(const Transport& transport, QWidget* parent)
    : ScrollingDock(tr("Controls"), "controlsDock", parent) {
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(makeTransport(transport));
  layout->addWidget(makeWater());
  layout->addWidget(makeModels());
  layout->addWidget(makeInteraction());
  auto* params = new QGroupBox(tr("Model parameters"));
  auto* paramsLayout = new QVBoxLayout(params);
  linkShared_ = new QCheckBox(tr("Apply to every model that declares the parameter"));
  linkShared_->setChecked(true);
  panels_ = new QTabWidget;
  // Four to six models' tabs scroll rather than widen the dock.
  panels_->setUsesScrollButtons(true);
  panels_->setElideMode(Qt::ElideRight);
  paramsLayout->addWidget(linkShared_);
  paramsLayout->addWidget(panels_);
  layout->addWidget(params);
  layout->addStretch();
  setContent(content);
}

QWidget* ControlsDock::makeTransport(const Transport& transport) {
  auto* box = new QGroupBox(tr("Simulation"));
  auto* layout = new QHBoxLayout(box);
  for (QAction* action : {transport.play, transport.step, transport.reset}) {
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(button);
  }
  auto* speed = new QDoubleSpinBox;
  speed->setObjectName("speed");
  speed->setRange(0.05, kMaxSpeed);
  speed->setSingleStep(0.25);
  speed->setValue(1.0);
  speed->setSuffix(QString::fromUtf8(" ×"));
  speed->setToolTip(tr("Simulated seconds per wall-clock second"));
  connect(speed, &QDoubleSpinBox::valueChanged, this, &ControlsDock::speedChanged);
  layout->addWidget(speed);
  return box;
}

QWidget* ControlsDock::makeWater() {
  auto* box = new QGroupBox(tr("Water and grid (all models)"));
  auto* form = new QFormLayout(box);
  grid_ = new QComboBox;
  grid_->setObjectName("grid");
  for (int n : kGridSizes)
    grid_->addItem(QString("%1 × %1").arg(n), n);
  grid_->setToolTip(tr("Cells along x and y; the pool keeps its size and shape in metres"));
  connect(grid_, &QComboBox::activated, this,
          [this](int index) { emit gridChanged(grid_->itemData(index).toInt()); });
  g_ = new QDoubleSpinBox;
  g_->setRange(0.1, 100.0);
  g_->setSuffix(" m/s²");
  depth_ = new QDoubleSpinBox;
  depth_->setDecimals(3);
  depth_->setRange(0.01, 100.0);
  depth_->setSuffix(" m");
  depth_->setToolTip(tr("Rest depth where the scenario gives no bathymetry"));
  for (auto* spin : {g_, depth_})
    connect(spin, &QDoubleSpinBox::editingFinished, this, [this] {
      if (!updating_) emit waterChanged(g_->value(), depth_->value());
    });
  form->addRow(tr("grid"), grid_);
  form->addRow(tr("g"), g_);
  form->addRow(tr("depth"), depth_);
  return box;
}

QWidget* ControlsDock::makeModels() {
  auto* box = new QGroupBox(tr("Models in the comparison"));
  auto* layout = new QVBoxLayout(box);
  models_ = new QListWidget;
  models_->setMaximumHeight(90);
  for (const auto& entry : modelCatalogue()) {
    auto* item = new QListWidgetItem(QString::fromStdString(entry.id), models_);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    item->setCheckState(Qt::Checked);
    item->setToolTip(QString::fromStdString(entry.title));
  }
  connect(models_, &QListWidget::itemChanged, this, [this] {
    if (updating_) return;
    std::vector<std::string> ids;
    for (int k = 0; k < models_->count(); ++k)
      if (models_->item(k)->checkState() == Qt::Checked)
        ids.push_back(models_->item(k)->text().toStdString());
    if (!ids.empty()) emit modelsChanged(ids);
  });
  layout->addWidget(models_);
  return box;
}

QWidget* ControlsDock::makeInteraction() {
  auto* box = new QGroupBox(tr("Interaction (click a view to drop, Shift+drag to stir)"));
  box->setToolTip(
      tr("Click a view: a drop. Shift + drag: stir the water. Ctrl + click: drop a "
         "0.6 m crate into every model; Ctrl + drag: throw one."));
  auto* form = new QFormLayout(box);
  dropRadius_ = new QDoubleSpinBox;
  dropRadius_->setDecimals(3);
  dropRadius_->setRange(0.001, 100.0);
  dropRadius_->setSuffix(" m");
  dropAmplitude_ = new QDoubleSpinBox;
  dropAmplitude_->setDecimals(3);
  dropAmplitude_->setRange(-10.0, 10.0);
  dropAmplitude_->setSuffix(" m");
  dropAmplitude_->setToolTip(tr("Negative: a dent, as a falling drop makes"));
  rain_ = new QCheckBox(tr("rain"));
  rainRate_ = new QDoubleSpinBox;
  rainRate_->setRange(0.1, 1000.0);
  rainRate_->setValue(16.0);
  rainRate_->setSuffix(tr(" drops/s"));
  const auto rainChanged = [this] {
    if (!updating_) emit this->rainChanged(rain_->isChecked(), rainRate_->value());
  };
  connect(rain_, &QCheckBox::toggled, this, rainChanged);
  connect(rainRate_, &QDoubleSpinBox::editingFinished, this, rainChanged);
  boat_ = new QCheckBox(tr("boat follows the mouse"));
  connect(boat_, &QCheckBox::toggled, this, &ControlsDock::boatFollowChanged);
  wind_ = new QCheckBox(tr("wind"));
  windDirection_ = new QDoubleSpinBox;
  windDirection_->setRange(0.0, 360.0);
  windDirection_->setWrapping(true);
  windDirection_->setSuffix(QString::fromUtf8("°"));
  windDirection_->setToolTip(tr("0° blows towards +x, 90° towards +y"));
  windStrength_ = new QDoubleSpinBox;
  windStrength_->setRange(0.0, 100.0);
  windStrength_->setValue(0.5);
  windStrength_->setSuffix(" m/s²");
  windStrength_->setToolTip(tr("Acts on models with a velocity field"));
  const auto windChanged = [this] {
    if (!updating_)
      emit this->windChanged(wind_->isChecked(), windDirection_->value(), windStrength_->value());
  };
  connect(wind_, &QCheckBox::toggled, this, windChanged);
  connect(windDirection_, &QDoubleSpinBox::editingFinished, this, windChanged);
  connect(windStrength_, &QDoubleSpinBox::editingFinished, this, windChanged);
  form->addRow(tr("drop radius"), dropRadius_);
  form->addRow(tr("drop height"), dropAmplitude_);
  form->addRow(rain_, rainRate_);
  form->addRow(boat_);
  form->addRow(wind_, windDirection_);
  form->addRow(tr("wind strength"), windStrength_);
  return box;
}

void ControlsDock::showScenario(const Scenario& scenario, const std::vector<std::string>& ids) {
  updating_ = true;
  // A scenario's own grid size (e.g. 96) joins the list in order, so the box shows it.
  int gridIndex = grid_->findData(scenario.grid.nx);
  if (gridIndex < 0) {
    gridIndex = 0;
    while (gridIndex < grid_->count() && grid_->itemData(gridIndex).toInt() < scenario.grid.nx)
      ++gridIndex;
    grid_->insertItem(gridIndex, QString("%1 × %1").arg(scenario.grid.nx), scenario.grid.nx);
  }
  // Each size keeps the pool's shape (ScenarioDocument::setGridCells): label it nx x ny.
  for (int k = 0; k < grid_->count(); ++k) {
    const int nx = grid_->itemData(k).toInt();
    const long ny = std::max(1L, std::lround(double(scenario.grid.ny) * nx / scenario.grid.nx));
    grid_->setItemText(k, QString("%1 × %2").arg(nx).arg(ny));
  }
  grid_->setCurrentIndex(gridIndex);
  g_->setValue(scenario.g);
  depth_->setValue(scenario.depth);
  for (int k = 0; k < models_->count(); ++k) {
    const auto id = models_->item(k)->text().toStdString();
    const bool active = std::find(ids.begin(), ids.end(), id) != ids.end();
    models_->item(k)->setCheckState(active ? Qt::Checked : Qt::Unchecked);
  }
  // Drops default to a few cells wide and to the scenario's own drop height.
  dropRadius_->setValue(3.0 * scenario.grid.dx);
  double amplitude = -0.05;
  if (!scenario.initialDrops.empty()) amplitude = -std::abs(scenario.initialDrops[0].amplitude);
  dropAmplitude_->setValue(amplitude);
  rain_->setChecked(!scenario.excitations.rain.empty());
  if (!scenario.excitations.rain.empty()) rainRate_->setValue(scenario.excitations.rain[0].rate);
  wind_->setChecked(!scenario.excitations.wind.empty());
  const int current = panels_->currentIndex();
  while (panels_->count() > 0) {
    QWidget* page = panels_->widget(0);
    panels_->removeTab(0);
    page->deleteLater();
  }
  for (const auto& id : ids) {
    ParamValues params(catalogueEntry(id).specs);
    if (auto it = scenario.modelParams.find(id); it != scenario.modelParams.end())
      applyParamJson(params, it->second, scenario.source + ": models." + id);
    auto* panel = new ParamPanel(id, params);
    panel->setObjectName(QString::fromStdString("params-" + id));
    connect(panel, &ParamPanel::applied, this,
            [this](const std::string& model, const nlohmann::json& v) {
              std::map<std::string, nlohmann::json> applied{{model, v}};
              if (linkShared_->isChecked()) applyShared(model, v, applied);
              emit paramsApplied(applied);
            });
    panels_->addTab(panel, QString::fromStdString(id));
  }
  panels_->setCurrentIndex(std::min(current, panels_->count() - 1));
  fitWidth();  // the parameter panels may be the widest controls
  updating_ = false;
}

// A parameter the user changed takes the same value in every other model's panel that
// declares it (same name, kind and unit);
// those panels then apply too (into `applied`), so every model that shares it changes at once.
void ControlsDock::applyShared(const std::string& fromModel, const nlohmann::json& values,
                               std::map<std::string, nlohmann::json>& applied) {
  const ParamPanel* source = panel(fromModel);
  const ParamValues sourceValues = source->values();
  for (int k = 0; k < panels_->count(); ++k) {
    auto* other = qobject_cast<ParamPanel*>(panels_->widget(k));
    if (!other || other == source) continue;
    bool changed = false;
    for (const auto& spec : sourceValues.specs()) {
      const auto& before = source->shownJson();
      if (before.contains(spec.name) && before.at(spec.name) == values.at(spec.name)) continue;
      changed = other->setShared(spec, values.at(spec.name)) || changed;
    }
    if (changed) applied[other->modelId()] = other->valuesJson();
  }
}

double ControlsDock::dropRadius() const {
  return dropRadius_->value();
}
double ControlsDock::dropAmplitude() const {
  return dropAmplitude_->value();
}
bool ControlsDock::boatFollowsMouse() const {
  return boat_->isChecked();
}

ParamPanel* ControlsDock::panel(const std::string& modelId) const {
  for (int k = 0; k < panels_->count(); ++k)
    if (auto* p = qobject_cast<ParamPanel*>(panels_->widget(k)); p && p->modelId() == modelId)
      return p;
  return nullptr;
}

}  // namespace wb::gui
