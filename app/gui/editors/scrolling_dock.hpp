// A dock whose content scrolls up and down, never sideways: it is as wide as its widest
// control and as short as the window needs, so every dock fits a 1280 x 800 screen (a
// panel's natural height, e.g. the mask editor's or the bodies list's, would otherwise set
// the whole window's minimum height).
#pragma once

#include <QDockWidget>

class QScrollArea;

namespace wb::gui {

class ScrollingDock : public QDockWidget {
  Q_OBJECT

 public:
  ScrollingDock(const QString& title, const QString& objectName, QWidget* parent = nullptr);
  // Takes ownership of content.
  void setContent(QWidget* content);

 protected:
  void showEvent(QShowEvent* event) override;
  // Makes the dock wide enough for its widest control (no sideways scrolling or cut edges);
  // again whenever the content's controls change.
  void fitWidth();

 private:
  QScrollArea* scroll_ = nullptr;
};

}  // namespace wb::gui
