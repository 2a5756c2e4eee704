// Undoable edits of the domain mask (Qt undoframework style): each edit is a command of a
// few lines holding the mask before and after; the moves of one brush stroke merge into one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <QUndoCommand>

namespace wb::gui {

using Mask = std::vector<std::uint8_t>;  // 1 = water, row-major nx x ny
using MaskSetter = std::function<void(const Mask&)>;

// Replaces the whole mask: rectangle fill, preset, imported image.
class ReplaceMaskCommand : public QUndoCommand {
 public:
  ReplaceMaskCommand(const QString& text, Mask before, Mask after, MaskSetter set);
  void undo() override { set_(before_); }
  void redo() override { set_(after_); }

 protected:
  Mask before_, after_;
  MaskSetter set_;
};

// One dab of a brush stroke; the dabs of the same stroke merge, so a stroke is one undo step.
class BrushCommand : public ReplaceMaskCommand {
 public:
  static constexpr int kId = 1;
  BrushCommand(int stroke, bool water, Mask before, Mask after, MaskSetter set);
  int id() const override { return kId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  int stroke_;
};

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
