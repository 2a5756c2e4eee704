// The controls of the buoyant rigid bodies (core/forcing/rigid_bodies.hpp): the shape, size and
// density of the next body a click drops or a drag throws (or the toolbar adds), and the list
// of the scenario's bodies with their parameters.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <QGroupBox>

class QComboBox;
class QDoubleSpinBox;
class QListWidget;

namespace wb::gui {

// What the panel sets for the next body.
struct NewBody {
  bool hull = false;             // a boat hull, else a box
  std::array<double, 3> size{};  // m, box edges or the hull's length, beam, height
  double density = 0.0;          // kg/m^3
};

class BodiesPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit BodiesPanel(QWidget* parent = nullptr);
  NewBody next() const;
  // Sizes a few cells wide for a pool with cells of dx (m), unless the user set them.
  void suggestSize(double dx);
  // One line per body of the scenario.
  void showBodies(const std::vector<QString>& lines);
  QListWidget* list() const { return list_; }

 private:
  QComboBox* shape_ = nullptr;
  std::array<QDoubleSpinBox*, 3> size_{};
  QDoubleSpinBox* density_ = nullptr;
  QListWidget* list_ = nullptr;
  bool sizeEdited_ = false;
};

}  // namespace wb::gui
