// The Bodies toolbar: Add box / Add hull with a size and a density. While a tool is checked,
// a click on the water asks for a body there (bodyAt), which the window adds to the document.
#pragma once

#include <optional>

#include <QPointF>
#include <QToolBar>

#include "core/scenario/scenario.hpp"

class QAction;
class QActionGroup;
class QDoubleSpinBox;

namespace wb::gui {

class BodyToolbar : public QToolBar {
  Q_OBJECT

 public:
  explicit BodyToolbar(QWidget* parent = nullptr);

  // Whether a tool is checked (a click on the water places a body).
  bool placing() const;
  // The checked tool's body centred at `point` (m), the tool unchecked; none if no tool is.
  std::optional<BodySpec> takeBodyAt(QPointF point);

  QAction* addBoxAction() const { return addBox_; }
  QAction* addHullAction() const { return addHull_; }
  QDoubleSpinBox* sizeBox() const { return size_; }
  QDoubleSpinBox* densityBox() const { return density_; }

 signals:
  // A tool was checked: what a click will do, for the status bar.
  void hint(const QString& text);

 private:
  QActionGroup* tools_ = nullptr;
  QAction *addBox_ = nullptr, *addHull_ = nullptr;
  QDoubleSpinBox *size_ = nullptr, *density_ = nullptr;
};

}  // namespace wb::gui
