// The domain editor's open sea (scenario "ocean", docs/scenario.md#ocean): a switch and the
// sea's parameters, generated from their one declaration (oceanParameterSpecs) as a model's
// panel is; Apply and the switch are each one document command (ScenarioDocument::setOcean),
// undone and redone like any edit. Beside them the sea the values make: its significant wave
// height and peak period (core/ocean/ocean_spectrum.hpp) and the swell's height and period.
#pragma once

#include <string>

#include <QWidget>
#include <nlohmann/json.hpp>

#include "app/gui/document/scenario_document.hpp"

class QCheckBox;
class QLabel;

namespace wb::gui {

class ParamPanel;

class OceanPanel : public QWidget {
  Q_OBJECT

 public:
  explicit OceanPanel(ScenarioDocument& document, QWidget* parent = nullptr);

  QCheckBox* switchBox() const { return switch_; }
  ParamPanel* params() const { return params_; }
  QLabel* seaLabel() const { return sea_; }

  // Edits (each one undo step); also used by the tests. Off drops a travelling window too.
  void setOcean(bool on);
  void apply(const nlohmann::json& values);
  // What the sea of the document is, as the label says it ("Hs 0.54 m, peak 6.1 s; ...").
  static std::string describeSea(const Scenario& scenario);

 private:
  // Shows the document's sea, without editing.
  void showDocument();

  ScenarioDocument& document_;
  QCheckBox* switch_ = nullptr;
  ParamPanel* params_ = nullptr;
  QLabel* sea_ = nullptr;
  bool showing_ = false;
};

}  // namespace wb::gui
