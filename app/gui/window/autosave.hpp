// Autosave: while the scenario has unsaved changes, a copy is written every few
// seconds to the application's data folder; a clean exit removes it. If Wavebench finds one
// at start, the last session ended without saving (a crash, a kill), and it offers to restore.
#pragma once

#include <QString>

namespace wb::gui {

class ScenarioDocument;

class Autosave {
 public:
  // folder empty: the application's data folder (QStandardPaths::AppDataLocation).
  explicit Autosave(QString folder = {});

  QString file() const;
  bool exists() const;
  // Writes a copy of the document when it has unsaved changes; returns false (with a reason)
  // when the copy cannot be written, which never disturbs the session.
  bool write(const ScenarioDocument& document, QString* error = nullptr) const;
  void clear() const;
  // Moves the autosave and its layers into a folder of their own beside it (a restore that
  // failed: the next autosave must not overwrite what it could not load); returns the JSON's
  // new path, or an empty string when nothing could be moved.
  QString keepAside() const;

 private:
  QString folder_;
};

}  // namespace wb::gui
