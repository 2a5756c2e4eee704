// The scenario's file handling in the workbench: File > Open…, Built-in scenarios, Open recent,
// Save and Save as…, the question about unsaved changes before anything replaces or closes the
// scenario, the window's title (the file, and * while it has unsaved changes), the autosave of
// an edited scenario every few seconds (autosave.hpp) and File > New study of this scenario's
// study file (docs/studies.md). A failure is a dialog, or one line on stderr in a scripted run.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "app/gui/window/autosave.hpp"

class QMainWindow;
class QMenu;

namespace wb::gui {

class ScenarioDocument;

class FileActions : public QObject {
  Q_OBJECT

 public:
  // `interactive`: a user at the window. Automated runs (screenshots, tests) leave the user's
  // autosave alone: no autosave is written, and closing does not remove one.
  FileActions(ScenarioDocument& document, QMainWindow* window, bool interactive);

  // Open…, Built-in scenarios, Open recent, Save and Save as… at the end of `file`.
  void addToMenu(QMenu* file);

  // Loads a scenario ("builtin:NAME" or a path); reports the error and returns false on failure.
  bool open(const QString& fileOrBuiltin, const std::vector<std::string>& modelIds = {});
  // The same once the unsaved changes are saved or discarded (not when the user cancels).
  void openAsked(const QString& fileOrBuiltin);
  bool saveAs(const QString& file);
  // Saves to the document's file, or asks for one.
  bool save();
  // Asks whether to save unsaved changes; false when the user cancels.
  bool maybeSave();
  // The window closes: false when the user keeps it open (unsaved changes, Cancel); a clean
  // exit removes the autosave.
  bool close();

  // A study file whose base is the scenario (saved first when it has unsaved changes), its
  // models and the grid halved and doubled, written to `file` (a dialog asks when empty).
  // Returns the file written, or an empty string.
  QString writeStudyOfScenario(QString file);

  void setScripted(bool scripted) { scripted_ = scripted; }
  const Autosave& autosave() const { return autosave_; }
  // An autosave that could not be restored nor moved aside: exit leaves it, and no later
  // autosave overwrites it.
  void keepAutosave() { autosaveKept_ = true; }

 private:
  void openDialog();
  void saveAsDialog();
  void addRecentFile(const QString& file);
  void updateRecentMenu();
  void updateTitle();
  // Shows an error: a dialog, or one line on stderr in a scripted run.
  void reportError(const QString& title, const std::exception& error);

  ScenarioDocument& document_;
  QMainWindow* window_;
  bool interactive_;
  bool scripted_ = false;
  Autosave autosave_;
  bool autosaveKept_ = false;
  QMenu* recentMenu_ = nullptr;
};

}  // namespace wb::gui
