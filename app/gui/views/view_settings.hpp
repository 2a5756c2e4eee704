// What the views colour and how high they draw the water (View menu), saved in QSettings so a
// user's choice survives a restart: the colour mode, each mode's range (automatic, or fixed
// to a typed half-width) and the vertical scale (automatic, or a typed exaggeration).
#pragma once

#include <array>
#include <optional>
#include <string>

class QSettings;

namespace wb::gui {

enum class ColourMode {
  Surface,     // eta, the height above rest
  Error,       // eta minus the scenario's reference at the frame's time
  Difference,  // eta minus the eta of one chosen model
  Local,       // eta minus the open sea's: the model's own waves (scenario "ocean")
  Highest,     // eta_max, the highest surface so far (the model's maximum map)
};
constexpr int kColourModeCount = 5;

struct ColourRangeSetting {
  bool automatic = true;
  double fixed = 0.1;  // m, the bar's half-width when not automatic
  bool operator==(const ColourRangeSetting&) const = default;
};

struct ViewSettings {
  ColourMode mode = ColourMode::Surface;
  std::array<ColourRangeSetting, kColourModeCount> ranges;  // one per mode
  std::string subtractedModel;         // Difference: the model every view is compared with
  std::optional<double> exaggeration;  // typed vertical scale; automatic when empty

  ColourRangeSetting& range(ColourMode m) { return ranges[std::size_t(m)]; }
  const ColourRangeSetting& range(ColourMode m) const { return ranges[std::size_t(m)]; }
  bool operator==(const ViewSettings&) const = default;

  // Under "view/" in the application's settings.
  static ViewSettings load(QSettings& settings);
  void save(QSettings& settings) const;
};

// The colour bar's title of a mode: "eta (m)", "eta − reference (m)", "eta − swe-adi (m)",
// "eta_max (m)".
std::string colourTitle(ColourMode mode, const std::string& subtractedModel);

}  // namespace wb::gui
