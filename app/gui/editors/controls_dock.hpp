// The controls dock: transport (play / pause / step / reset, speed), the shared water and
// grid, the models in the comparison, the interaction settings (drops, rain, boat, wind) and
// one generated parameter panel per model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/gui/editors/scrolling_dock.hpp"
#include "core/scenario/scenario.hpp"

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QListWidget;
class QTabWidget;

namespace wb::gui {

class ParamPanel;

struct Transport {
  QAction* play = nullptr;
  QAction* step = nullptr;
  QAction* reset = nullptr;
};

class ControlsDock : public ScrollingDock {
  Q_OBJECT

 public:
  ControlsDock(const Transport& transport, QWidget* parent = nullptr);

  // Shows the document's state: grid, water, models and their parameter panels.
  void showScenario(const Scenario& scenario, const std::vector<std::string>& modelIds);

  double dropRadius() const;
  double dropAmplitude() const;
  bool boatFollowsMouse() const;
  ParamPanel* panel(const std::string& modelId) const;
  QComboBox* gridBox() const { return grid_; }
  QListWidget* modelList() const { return models_; }
  QCheckBox* rainBox() const { return rain_; }

 signals:
  void speedChanged(double speed);
  void gridChanged(int cells);
  void waterChanged(double g, double depth);
  void modelsChanged(const std::vector<std::string>& ids);
  // Apply pressed in one panel: its values, and those of the panels that share a changed
  // parameter with it when linked, by model id.
  void paramsApplied(const std::map<std::string, nlohmann::json>& valuesByModel);
  void rainChanged(bool on, double rate);
  void windChanged(bool on, double directionDegrees, double strength);
  void boatFollowChanged(bool on);

 private:
  QWidget* makeTransport(const Transport& transport);
  QWidget* makeWater();
  QWidget* makeModels();
  QWidget* makeInteraction();
  void applyShared(const std::string& fromModel, const nlohmann::json& values,
                   std::map<std::string, nlohmann::json>& applied);
  QComboBox* grid_ = nullptr;
  QDoubleSpinBox* g_ = nullptr;
  QDoubleSpinBox* depth_ = nullptr;
  QListWidget* models_ = nullptr;
  QDoubleSpinBox* dropRadius_ = nullptr;
  QDoubleSpinBox* dropAmplitude_ = nullptr;
  QCheckBox* rain_ = nullptr;
  QDoubleSpinBox* rainRate_ = nullptr;
  QCheckBox* boat_ = nullptr;
  QCheckBox* wind_ = nullptr;
  QDoubleSpinBox* windDirection_ = nullptr;
  QDoubleSpinBox* windStrength_ = nullptr;
  QCheckBox* linkShared_ = nullptr;
  QTabWidget* panels_ = nullptr;
  bool updating_ = false;
};

}  // namespace wb::gui
