#include "app/gui/window/autosave.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include <exception>

#include "app/gui/document/scenario_document.hpp"

namespace wb::gui {

namespace {
constexpr const char* kFileName = "autosave.json";
constexpr const char* kMaskFileName = "autosave-mask.csv";    // ScenarioDocument's mask suffix
constexpr const char* kDepthFileName = "autosave-depth.csv";  // and its depth suffix
}  // namespace

Autosave::Autosave(QString folder) : folder_(std::move(folder)) {
  if (folder_.isEmpty())
    folder_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString Autosave::file() const {
  return QDir(folder_).filePath(kFileName);
}

bool Autosave::exists() const {
  return QFile::exists(file());
}

bool Autosave::write(const ScenarioDocument& document, QString* error) const {
  if (!document.isModified()) return true;
  try {
    QDir().mkpath(folder_);
    document.writeCopy(file());
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

void Autosave::clear() const {
  QFile::remove(file());
  QFile::remove(QDir(folder_).filePath(kMaskFileName));
  QFile::remove(QDir(folder_).filePath(kDepthFileName));
}

QString Autosave::keepAside() const {
  const QString name = "unrestored-" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss-zzz");
  QDir folder(folder_);
  if (!folder.mkpath(name)) return {};
  for (const char* file : {kFileName, kMaskFileName, kDepthFileName})
    if (folder.exists(file) && !folder.rename(file, name + "/" + file)) return {};
  return folder.filePath(name + "/" + kFileName);
}

}  // namespace wb::gui
