#include "app/gui/mask_commands.hpp"

#include <QObject>

namespace wb::gui {

ReplaceMaskCommand::ReplaceMaskCommand(const QString& text, Mask before, Mask after, MaskSetter set)
    : before_(std::move(before)), after_(std::move(after)), set_(std::move(set)) {
  setText(text);
}

BrushCommand::BrushCommand(int stroke, bool water, Mask before, Mask after, MaskSetter set)
    : ReplaceMaskCommand(water ? QObject::tr("paint water") : QObject::tr("paint wall"),
                         std::move(before), std::move(after), std::move(set)),
      stroke_(stroke) {}

bool BrushCommand::mergeWith(const QUndoCommand* other) {
  const auto* dab = static_cast<const BrushCommand*>(other);
  if (dab->stroke_ != stroke_) return false;
  after_ = dab->after_;
  return true;
}

TerrainCommand::TerrainCommand(std::optional<TerrainSetting> before,
                               std::optional<TerrainSetting> after, TerrainSetter set)
    : before_(std::move(before)), after_(std::move(after)), set_(std::move(set)) {
  setText(after_ ? QObject::tr("import heightmap") : QObject::tr("remove heightmap"));
}

}  // namespace wb::gui
