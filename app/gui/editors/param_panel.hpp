// A parameter panel generated from a model's declared ParamSpecs (ParaView pqProxyWidget
// style): one editor per parameter with its range, unit and doc string as tooltip, an "auto"
// box for parameters the model can derive, and Apply / Defaults buttons.
#pragma once

#include <map>
#include <string>

#include <QWidget>
#include <nlohmann/json.hpp>

#include "core/model/parameters.hpp"

class QCheckBox;

namespace wb::gui {

class ParamPanel : public QWidget {
  Q_OBJECT

 public:
  ParamPanel(const std::string& modelId, const ParamValues& values, QWidget* parent = nullptr);

  const std::string& modelId() const { return modelId_; }
  // The values shown, validated; throws InputError naming the parameter.
  ParamValues values() const;
  // The values as scenario JSON ({"k": 0.5, "boundary": "zero", "dt": "auto"}).
  nlohmann::json valuesJson() const;
  void setValues(const ParamValues& values);
  // Sets one parameter's editor when this model declares it with the same kind and unit.
  bool setShared(const ParamSpec& spec, const nlohmann::json& value);
  QWidget* editor(const std::string& name) const;
  // The values as last shown by setValues, to tell which ones the user changed.
  const nlohmann::json& shownJson() const { return shownJson_; }

 signals:
  // Apply pressed: the panel's values as JSON.
  void applied(const std::string& modelId, const nlohmann::json& values);

 private:
  QWidget* makeEditor(const ParamSpec& spec);
  void showValue(const ParamSpec& spec, std::optional<double> value);

  std::string modelId_;
  ParamValues declared_;
  std::map<std::string, QWidget*> editors_;
  std::map<std::string, QCheckBox*> autoBoxes_;
  nlohmann::json shownJson_;
};

}  // namespace wb::gui
