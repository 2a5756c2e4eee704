#include "app/gui/document/mask_commands.hpp"

#include <QObject>

namespace wb::gui {

TerrainCommand::TerrainCommand(std::optional<TerrainSetting> before,
                               std::optional<TerrainSetting> after, TerrainSetter set)
    : before_(std::move(before)), after_(std::move(after)), set_(std::move(set)) {
  setText(after_ ? QObject::tr("import heightmap") : QObject::tr("remove heightmap"));
}

}  // namespace wb::gui
