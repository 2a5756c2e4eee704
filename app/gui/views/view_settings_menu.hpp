// The View menu's entries for the colours and the vertical scale: "Colour by" (eta, the error
// against the reference, the difference to a chosen model), the range of the mode shown
// (automatic or a typed one) and the vertical scale (automatic or a typed exaggeration). They
// edit one ViewSettings, saved to QSettings when the window is a user's (not a scripted run).
#pragma once

#include <string>
#include <vector>

#include <QObject>

#include "app/gui/views/view_settings.hpp"

class QAction;
class QActionGroup;
class QMenu;
class QWidget;

namespace wb::gui {

class ViewSettingsMenu : public QObject {
  Q_OBJECT

 public:
  // Adds the entries to `view`; `persistent`: load the settings now and save every change.
  ViewSettingsMenu(QMenu* view, QWidget* dialogParent, bool persistent);

  const ViewSettings& settings() const { return settings_; }
  // Shows the settings in the menu, saves them (when persistent) and emits changed.
  void setSettings(const ViewSettings& settings);
  // The comparison's models (the choices of "Difference to"), whether it has a reference
  // (else "Error against the reference" is disabled) and an open sea (else "Own waves" is).
  void setComparison(const std::vector<std::string>& modelIds, bool hasReference,
                     bool hasSea = false);

  QAction* modeAction(ColourMode mode) const { return modeActions_[std::size_t(mode)]; }
  QAction* automaticRangeAction() const { return automaticRange_; }

 signals:
  void changed(const ViewSettings& settings);

 private:
  void showSettings();
  void askFixedRange();
  void askVerticalScale();

  ViewSettings settings_;
  bool persistent_ = false;
  QWidget* dialogParent_ = nullptr;
  QMenu* subtractedMenu_ = nullptr;
  QActionGroup* subtractedGroup_ = nullptr;
  std::array<QAction*, kColourModeCount> modeActions_{};
  QAction* automaticRange_ = nullptr;
  QAction* fixedRange_ = nullptr;
  QAction* verticalScale_ = nullptr;
};

}  // namespace wb::gui
