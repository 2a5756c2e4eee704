#include "app/gui/editors/ocean_panel.hpp"

#include <iomanip>
#include <sstream>

#include <QCheckBox>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "app/gui/editors/param_panel.hpp"
#include "core/errors.hpp"
#include "core/ocean/ocean_layer.hpp"
#include "core/ocean/ocean_spectrum.hpp"
#include "core/ocean/wind_sea_params.hpp"

namespace wb::gui {

OceanPanel::OceanPanel(ScenarioDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox(tr("Open sea"));
  outer->addWidget(box);
  auto* layout = new QVBoxLayout(box);
  switch_ = new QCheckBox(tr("An FFT sea under every model"));
  switch_->setObjectName("oceanSwitch");
  switch_->setToolTip(
      tr("Each model's surface is its own plus one Tessendorf sea; the bodies float on the sum "
         "(needs one rest depth and an even grid)"));
  connect(switch_, &QCheckBox::toggled, this, [this](bool on) {
    if (!showing_) setOcean(on);
  });
  layout->addWidget(switch_);
  params_ = new ParamPanel("ocean", ParamValues(oceanParameterSpecs()));
  connect(params_, &ParamPanel::applied, this,
          [this](const std::string&, const nlohmann::json& values) { apply(values); });
  layout->addWidget(params_);
  sea_ = new QLabel;
  sea_->setObjectName("oceanSea");
  sea_->setWordWrap(true);
  layout->addWidget(sea_);
  connect(&document_, &ScenarioDocument::rebuildNeeded, this, &OceanPanel::showDocument);
  connect(&document_, &ScenarioDocument::loaded, this, &OceanPanel::showDocument);
  showDocument();
}

void OceanPanel::setOcean(bool on) {
  try {
    document_.setOcean(on ? std::optional<nlohmann::json>(params_->valuesJson()) : std::nullopt);
  } catch (const InputError& error) {
    sea_->setText(QString::fromStdString(error.what()));
  }
  showDocument();
}

void OceanPanel::apply(const nlohmann::json& values) {
  if (!document_.scenario().ocean) return;  // the switch turns it on with these values
  nlohmann::json sea = values;
  if (document_.scenario().ocean->contains("window"))  // not the sea's: kept as it was
    sea["window"] = document_.scenario().ocean->at("window");
  try {
    document_.setOcean(sea);
  } catch (const InputError& error) {
    sea_->setText(QString::fromStdString(error.what()));
    return;
  }
  showDocument();
}

std::string OceanPanel::describeSea(const Scenario& scenario) {
  if (!scenario.ocean) return "No sea: each model shows its own surface.";
  const ParamValues sea = oceanParams(scenario);
  const OceanSpectrum spectrum(windSeaFrom(sea, scenario.g, scenario.depth));
  std::ostringstream text;
  text << std::fixed << std::setprecision(2);
  if (spectrum.variance() > 0.0)
    text << "Wind sea: Hs " << spectrum.significantWaveHeight() << " m, peak period "
         << std::setprecision(1) << spectrum.peakPeriod() << " s";
  else
    text << "No wind sea";
  if (const double swell = sea.get("swell_height"); swell > 0.0)
    text << std::setprecision(2) << "; swell " << swell << " m, " << std::setprecision(1)
         << sea.get("swell_period") << " s";
  text << ".";
  return text.str();
}

void OceanPanel::showDocument() {
  const Scenario& scenario = document_.scenario();
  showing_ = true;
  {
    const QSignalBlocker blocker(switch_);
    switch_->setChecked(scenario.ocean.has_value());
  }
  try {
    params_->setValues(oceanParams(scenario));
    sea_->setText(QString::fromStdString(describeSea(scenario)));
  } catch (const InputError& error) {
    sea_->setText(QString::fromStdString(error.what()));
  }
  showing_ = false;
}

}  // namespace wb::gui
