// The domain editor's edges: wall or open per side, and the open edges' absorbing layer width
// both in cells and as a fraction of the longest wave the domain holds (core/grid/edges.hpp,
// docs/open-edges.md). Each change is one document command (ScenarioDocument::setEdges); the
// panel shows the document's edges after every change, undo and redo included, and re-runs
// the check that the grid holds its layers (checkEdgesFit) whenever the edges or the grid
// change, so a grid made too small says so here before the models refuse it.
#pragma once

#include <array>
#include <string>

#include <QWidget>

#include "app/gui/document/scenario_document.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace wb::gui {

class EdgesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EdgesPanel(ScenarioDocument& document, QWidget* parent = nullptr);

  QComboBox* choice(Side side) const { return choices_[std::size_t(side)]; }
  QSpinBox* layerCellsBox() const { return cells_; }
  QDoubleSpinBox* layerFractionBox() const { return fraction_; }
  QLabel* fitLabel() const { return fit_; }

  // Edits (each one undo step); also used by the tests.
  void setEdge(Side side, EdgeKind kind);
  void setLayerCells(int cells);
  // The layer as this fraction of longestWave(grid), rounded to whole cells (at least one).
  void setLayerFraction(double fraction);
  // The fit check's verdict on the document as shown: empty when the layers fit.
  const std::string& fitError() const { return fitError_; }

 private:
  // Shows the document's edges, layer width and fit check, without editing.
  void showDocument();

  ScenarioDocument& document_;
  std::array<QComboBox*, 4> choices_{};  // in kSides' order; items in EdgeKind's order
  QSpinBox* cells_ = nullptr;
  QDoubleSpinBox* fraction_ = nullptr;
  QLabel* longest_ = nullptr;
  QLabel* fit_ = nullptr;
  std::string fitError_;
  bool showing_ = false;
};

}  // namespace wb::gui
