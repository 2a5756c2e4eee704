#include "app/gui/views/view_settings.hpp"

#include <cmath>

#include <QSettings>

namespace wb::gui {

namespace {
// A typed range or scale that is not a positive number is left out (the default stays).
bool positive(double value) {
  return std::isfinite(value) && value > 0.0;
}
}  // namespace

ViewSettings ViewSettings::load(QSettings& settings) {
  ViewSettings s;
  settings.beginGroup("view");
  const QString mode = settings.value("colourMode", kColourModes[0].key).toString();
  for (int m = 0; m < kColourModeCount; ++m)
    if (mode == kColourModes[std::size_t(m)].key) s.mode = ColourMode(m);
  for (int m = 0; m < kColourModeCount; ++m) {
    const QString key = QString("range/") + kColourModes[std::size_t(m)].key;
    ColourRangeSetting& range = s.ranges[std::size_t(m)];
    range.automatic = settings.value(key + "/automatic", true).toBool();
    const double fixed = settings.value(key + "/fixed", range.fixed).toDouble();
    if (positive(fixed)) range.fixed = fixed;
  }
  s.subtractedModel = settings.value("subtractedModel").toString().toStdString();
  const double scale = settings.value("exaggeration", 0.0).toDouble();
  if (positive(scale)) s.exaggeration = scale;
  settings.endGroup();
  return s;
}

void ViewSettings::save(QSettings& settings) const {
  settings.beginGroup("view");
  settings.setValue("colourMode", colourModeSpec(mode).key);
  for (int m = 0; m < kColourModeCount; ++m) {
    const QString key = QString("range/") + kColourModes[std::size_t(m)].key;
    settings.setValue(key + "/automatic", ranges[std::size_t(m)].automatic);
    settings.setValue(key + "/fixed", ranges[std::size_t(m)].fixed);
  }
  settings.setValue("subtractedModel", QString::fromStdString(subtractedModel));
  settings.setValue("exaggeration", exaggeration.value_or(0.0));
  settings.endGroup();
}

std::string colourTitle(ColourMode mode, const std::string& subtractedModel) {
  std::string title = colourModeSpec(mode).title;
  if (const std::size_t at = title.find("%1"); at != std::string::npos)
    title.replace(at, 2, subtractedModel);
  return title;
}

}  // namespace wb::gui
