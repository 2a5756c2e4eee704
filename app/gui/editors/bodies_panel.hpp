// The scenario's buoyant bodies in the controls dock: a list, and for the body selected one
// editor per key generated from the scenario's one declaration of the body keys (bodyKeys(),
// core/scenario/scenario.hpp) with its range and unit, its meaning as tooltip (ParaView
// pqProxyWidget style). A key that may be unset (z: resting; towed_by) has a box that sets it.
// Apply and Remove emit the edit; the document makes each one undoable command.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <QGroupBox>
#include <nlohmann/json.hpp>

#include "core/scenario/scenario.hpp"

class QCheckBox;
class QListWidget;
class QPushButton;

namespace wb::gui {

class BodiesPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit BodiesPanel(QWidget* parent = nullptr);

  // Lists the scenario's bodies and shows the selected one's keys (the same index as before
  // when it still exists).
  void showBodies(const Scenario& scenario);
  QListWidget* list() const { return list_; }
  int selected() const;
  void select(int index);
  // The editor of one key (a Triple's is a widget holding three spin boxes).
  QWidget* editor(const std::string& key) const;
  // The selected body's keys as shown, as scenario JSON (keys left unset are absent).
  nlohmann::json shownJson() const;
  // Sets one key's editor (a value of the key's JSON form; null unsets an optional key).
  void setShown(const std::string& key, const nlohmann::json& value);

 signals:
  // Apply pressed: the selected body's index and its keys as shown.
  void bodyApplied(int index, const nlohmann::json& keys);
  void bodyRemoved(int index);

 private:
  QWidget* makeEditor(const BodyKey& key);
  void showBody(int index);

  QListWidget* list_ = nullptr;
  QWidget* form_ = nullptr;
  QPushButton *apply_ = nullptr, *remove_ = nullptr;
  std::map<std::string, QWidget*> editors_;
  std::map<std::string, QCheckBox*> setBoxes_;
  std::vector<BodySpec> bodies_;
  Grid grid_;
  std::size_t boats_ = 0;
};

}  // namespace wb::gui
