// Undoable edits of the domain layers (Qt undoframework style): the mask and the rest depth.
// Each edit is a command of a few lines holding the layer before and after; the dabs of one
// brush stroke merge into one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <QUndoCommand>

#include "core/grid/field2d.hpp"

namespace wb::gui {

using Mask = std::vector<std::uint8_t>;  // 1 = water, row-major nx x ny
using Depth = Field2D;                   // rest depth (m) of every cell, before mask and terrain

inline bool sameField(const Field2D& a, const Field2D& b) {
  return a.nx() == b.nx() && a.ny() == b.ny() &&
         std::equal(a.data(), a.data() + a.size(), b.data());
}

// Replaces a whole layer: rectangle fill, preset, imported image.
template <class Layer>
class ReplaceCommand : public QUndoCommand {
 public:
  using Setter = std::function<void(const Layer&)>;
  ReplaceCommand(const QString& text, Layer before, Layer after, Setter set)
      : before_(std::move(before)), after_(std::move(after)), set_(std::move(set)) {
    setText(text);
  }
  void undo() override { set_(before_); }
  void redo() override { set_(after_); }

 protected:
  Layer before_, after_;
  Setter set_;
};

// One dab of a brush stroke; the dabs of the same stroke merge, so a stroke is one undo step.
// `Id` tells the layers apart (Qt merges only commands of equal id).
template <class Layer, int Id>
class StrokeCommand : public ReplaceCommand<Layer> {
 public:
  StrokeCommand(const QString& text, int stroke, Layer before, Layer after,
                typename ReplaceCommand<Layer>::Setter set)
      : ReplaceCommand<Layer>(text, std::move(before), std::move(after), std::move(set)),
        stroke_(stroke) {}
  int id() const override { return Id; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* dab = static_cast<const StrokeCommand*>(other);
    if (dab->stroke_ != stroke_) return false;
    this->after_ = dab->after_;
    return true;
  }

 private:
  int stroke_;
};

using MaskSetter = ReplaceCommand<Mask>::Setter;
using ReplaceMaskCommand = ReplaceCommand<Mask>;
using BrushCommand = StrokeCommand<Mask, 1>;
using DepthSetter = ReplaceCommand<Depth>::Setter;
using DepthBrushCommand = StrokeCommand<Depth, 2>;

// A heightmap coast (terrain PNG, sea level, height scale) set or removed.
struct TerrainSetting {
  QString file;
  double seaLevel = 0.5;
  double heightScale = 1.0;
};
using TerrainSetter = std::function<void(const std::optional<TerrainSetting>&)>;

class TerrainCommand : public QUndoCommand {
 public:
  TerrainCommand(std::optional<TerrainSetting> before, std::optional<TerrainSetting> after,
                 TerrainSetter set);
  void undo() override { set_(before_); }
  void redo() override { set_(after_); }

 private:
  std::optional<TerrainSetting> before_, after_;
  TerrainSetter set_;
};

}  // namespace wb::gui
