// The undoable edits of the scenario document (Qt undoframework style). A command holds the
// document's state before and after its edit; redo and undo restore one of them. The layers
// are shared between states, so an edit of the water or the parameters does not copy the mask.
// The dabs of one brush stroke merge into one command (mergeWith), as the moves of one drag do
// in the undoframework example. Only the commands that edit the excitation list (a boat added)
// restore it: the others leave the interactions recorded since (session_recorder.hpp) alone.
#pragma once

#include <QUndoCommand>

#include "app/gui/document/scenario_document.hpp"

namespace wb::gui {

class DocumentCommand : public QUndoCommand {
 public:
  enum class Excitations { Kept, Restored };
  DocumentCommand(ScenarioDocument& document, const QString& text, DocumentState after,
                  Excitations excitations = Excitations::Kept);
  void undo() override { document_.restore(before_, excitations_ == Excitations::Restored); }
  void redo() override { document_.restore(after_, excitations_ == Excitations::Restored); }

 protected:
  ScenarioDocument& document_;
  DocumentState before_, after_;
  Excitations excitations_;
};

// One dab of a brush stroke; the dabs of the same stroke merge, so a stroke is one undo step.
class StrokeCommand : public DocumentCommand {
 public:
  static constexpr int kId = 1;  // Qt merges only commands of equal id
  StrokeCommand(ScenarioDocument& document, const QString& text, int stroke, DocumentState after)
      : DocumentCommand(document, text, std::move(after)), stroke_(stroke) {}
  int id() const override { return kId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  int stroke_;
};

}  // namespace wb::gui
