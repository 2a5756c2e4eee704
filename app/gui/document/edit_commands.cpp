#include "app/gui/document/edit_commands.hpp"

namespace wb::gui {

DocumentCommand::DocumentCommand(ScenarioDocument& document, const QString& text,
                                 DocumentState after, Excitations excitations)
    : document_(document),
      before_(document.state()),
      after_(std::move(after)),
      excitations_(excitations) {
  setText(text);
}

bool StrokeCommand::mergeWith(const QUndoCommand* other) {
  const auto* dab = static_cast<const StrokeCommand*>(other);
  if (dab->stroke_ != stroke_) return false;
  after_ = dab->after_;
  return true;
}

}  // namespace wb::gui
