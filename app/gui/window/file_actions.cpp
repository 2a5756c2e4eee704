#include "app/gui/window/file_actions.hpp"

#include <algorithm>
#include <cstdio>
#include <new>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <nlohmann/json.hpp>

#include "app/export/output_file.hpp"
#include "app/gui/document/scenario_document.hpp"

namespace wb::gui {

namespace {
constexpr int kAutosaveMs = 10000;  // an edited scenario is copied to the autosave this often
constexpr int kMaxRecentFiles = 8;
constexpr int kMessageMs = 10000;  // status bar messages stay this long
}  // namespace

FileActions::FileActions(ScenarioDocument& document, QMainWindow* window, bool interactive)
    : document_(document), window_(window), interactive_(interactive) {
  connect(&document_, &ScenarioDocument::modifiedChanged, this, &FileActions::updateTitle);
  if (interactive_) {
    // A copy of an edited scenario every few seconds; a clean exit drops it.
    auto* autosaveTimer = new QTimer(this);
    connect(autosaveTimer, &QTimer::timeout, this, [this] {
      if (autosaveKept_) return;
      QString error;
      if (!autosave_.write(document_, &error))
        window_->statusBar()->showMessage(tr("Autosave failed: %1").arg(error), kMessageMs);
    });
    autosaveTimer->start(kAutosaveMs);
  }
}

void FileActions::addToMenu(QMenu* file) {
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &FileActions::openDialog);
  QMenu* builtins = file->addMenu(tr("Built-in scenarios"));
  for (const auto& name : builtinScenarioNames()) {
    const QString id = "builtin:" + QString::fromStdString(name);
    builtins->addAction(QString::fromStdString(name), this, [this, id] { openAsked(id); });
  }
  recentMenu_ = file->addMenu(tr("Open &recent"));
  updateRecentMenu();
  file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
  file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, &FileActions::saveAsDialog);
}

void FileActions::reportError(const QString& title, const std::exception& error) {
  // Memory running out is the input's size, not a bug: say so rather than "std::bad_alloc".
  const QString message = dynamic_cast<const std::bad_alloc*>(&error)
                              ? tr("out of memory: the scenario is too large for this machine "
                                   "(try a smaller grid or fewer bodies)")
                              : QString::fromStdString(error.what());
  if (scripted_) {
    std::fprintf(stderr, "wavebench: %s\n", qPrintable(message));
    return;
  }
  QMessageBox::warning(window_, title, message);
}

bool FileActions::open(const QString& fileOrBuiltin, const std::vector<std::string>& ids) {
  try {
    document_.load(fileOrBuiltin.toStdString(), ids);
  } catch (const std::exception& error) {
    reportError(tr("Open scenario"), error);
    return false;
  }
  if (!document_.filePath().isEmpty()) addRecentFile(document_.filePath());
  updateTitle();
  return true;
}

void FileActions::openAsked(const QString& fileOrBuiltin) {
  if (maybeSave()) open(fileOrBuiltin);
}

void FileActions::openDialog() {
  if (!maybeSave()) return;
  const QString file = QFileDialog::getOpenFileName(window_, tr("Open scenario"), QString(),
                                                    tr("Scenarios (*.json)"));
  if (!file.isEmpty()) open(file);
}

bool FileActions::saveAs(const QString& file) {
  try {
    document_.saveAs(file);
  } catch (const std::exception& error) {
    reportError(tr("Save scenario"), error);
    return false;
  }
  addRecentFile(file);
  updateTitle();
  return true;
}

bool FileActions::save() {
  if (document_.filePath().isEmpty()) {
    saveAsDialog();
    return !document_.isModified();
  }
  return saveAs(document_.filePath());
}

void FileActions::saveAsDialog() {
  const QString file = QFileDialog::getSaveFileName(
      window_, tr("Save scenario"), QString::fromStdString(document_.scenario().name) + ".json",
      tr("Scenarios (*.json)"));
  if (!file.isEmpty()) saveAs(file);
}

bool FileActions::maybeSave() {
  if (!document_.isModified()) return true;
  const auto answer = QMessageBox::question(
      window_, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

bool FileActions::close() {
  if (!maybeSave()) return false;
  if (interactive_ && !autosaveKept_) autosave_.clear();
  return true;
}

QString FileActions::writeStudyOfScenario(QString file) {
  const Scenario& s = document_.scenario();
  const bool builtin = !document_.isModified() && document_.filePath().isEmpty() &&
                       s.source.rfind("builtin:", 0) == 0;
  if (!builtin && (document_.isModified() || document_.filePath().isEmpty()) && !save()) return {};
  const QString base = builtin ? QString::fromStdString(s.source)
                               : QFileInfo(document_.filePath()).absoluteFilePath();
  if (file.isEmpty()) {
    const QString name = QString::fromStdString(s.name.empty() ? "scenario" : s.name);
    const QString folder = builtin ? QDir::homePath() : QFileInfo(base).absolutePath();
    file = QFileDialog::getSaveFileName(window_, tr("New study"),
                                        QDir(folder).filePath(name + "-study.json"),
                                        tr("Studies (*.json)"));
    if (file.isEmpty()) return {};
  }
  const int cells = std::max(s.grid.nx, s.grid.ny);
  const nlohmann::json study = {
      {"description", "A study of " + base.toStdString() + " written by the workbench."},
      {"scenario", base.toStdString()},
      {"axes", {{"models", document_.modelIds()}, {"grid", {cells / 2, cells, 2 * cells}}}},
      {"error", {{"at", {s.duration}}}}};
  try {
    writeWholeFile(file.toStdString(), study.dump(2) + "\n");
  } catch (const std::exception& error) {
    QMessageBox::warning(window_, tr("New study"), QString::fromStdString(error.what()));
    return {};
  }
  return file;
}

void FileActions::addRecentFile(const QString& file) {
  QSettings settings;
  QStringList files = settings.value("recentFiles").toStringList();
  files.removeAll(file);
  files.prepend(file);
  while (files.size() > kMaxRecentFiles)
    files.removeLast();
  settings.setValue("recentFiles", files);
  updateRecentMenu();
}

void FileActions::updateRecentMenu() {
  if (!recentMenu_) return;  // before addToMenu
  recentMenu_->clear();
  for (const QString& file : QSettings().value("recentFiles").toStringList())
    recentMenu_->addAction(file, this, [this, file] { openAsked(file); });
  recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

void FileActions::updateTitle() {
  const QString name = document_.filePath().isEmpty()
                           ? QString::fromStdString(document_.scenario().source)
                           : document_.filePath();
  window_->setWindowTitle(
      QString("Wavebench — %1%2").arg(name, document_.isModified() ? " *" : ""));
}

}  // namespace wb::gui
