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

// What a mode needs of the comparison; without it the views show the surface and the menu's
// entry is disabled.
enum class ColourNeed { Nothing, Reference, TwoModels, Sea, MaximumMaps };

// A colour mode, declared once in kColourModes: the View > Colour by menu (name, tip, when it
// is enabled), the saved setting and the workbench's --colour (key, help), the colour bar's
// title and colours, and what the views show when the comparison cannot (needs) all come from
// its row; docs/views.md's "Colour by" table and --colour line are checked against it (test
// ColourModes.DocsListEveryDeclaredMode). The field a mode colours is ViewGrid's
// (view_grid_colours.cpp, computeColourValues).
struct ColourModeSpec {
  ColourMode mode;
  const char* key;     // saved and --colour name; with takesModel, "--colour key:MODEL"
  bool takesModel;     // Difference: the model subtracted
  const char* menu;    // View > Colour by
  const char* tip;     // the menu entry's tooltip
  const char* option;  // what --colour's help says it colours
  const char* title;   // the colour bar's title; "%1" is the model subtracted
  ColourNeed needs;
  bool diverging;  // cool to warm about 0 (a difference); else the surface's colours
};

inline constexpr std::array<ColourModeSpec, 5> kColourModes = {{
    {ColourMode::Surface, "surface", false, "Surface height (eta)",
     "eta, the water's height above rest", "eta", "eta (m)", ColourNeed::Nothing, false},
    {ColourMode::Error, "error", false, "Error against the reference",
     "eta minus the scenario's exact solution at the frame's time (scenarios with a "
     "\"reference\")",
     "against the reference", "eta - reference (m)", ColourNeed::Reference, true},
    {ColourMode::Difference, "difference", true, "Difference to a model (A − B)",
     "each view shows its model's eta minus the eta of the model chosen below",
     "each view minus MODEL", "eta - %1 (m)", ColourNeed::TwoModels, true},
    {ColourMode::Local, "local", false, "Own waves (without the sea)",
     "eta minus the open sea's: what each model's own physics adds (scenarios with an "
     "\"ocean\")",
     "minus the open sea", "eta - sea (m)", ColourNeed::Sea, true},
    {ColourMode::Highest, "highest", false, "Highest so far (eta max)",
     "eta_max, the highest surface each cell has had since the run started (its maximum map, "
     "sampled every step; dry ground shows 0)",
     "the highest surface so far", "eta_max (m)", ColourNeed::MaximumMaps, false},
}};
constexpr int kColourModeCount = int(kColourModes.size());
// Row k is mode k: the enum indexes the table, the saved ranges and the menu's actions.
constexpr bool colourModesInOrder() {
  for (int m = 0; m < kColourModeCount; ++m)
    if (kColourModes[std::size_t(m)].mode != ColourMode(m)) return false;
  return true;
}
static_assert(colourModesInOrder(), "kColourModes lists the modes in the enum's order");
inline const ColourModeSpec& colourModeSpec(ColourMode mode) {
  return kColourModes[std::size_t(mode)];
}

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

// The colour bar's title of a mode: "eta (m)", "eta - reference (m)", "eta - swe-adi (m)",
// "eta_max (m)".
std::string colourTitle(ColourMode mode, const std::string& subtractedModel);

}  // namespace wb::gui
