#include "app/cli/run_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <regex>
#include <system_error>

#include "core/scenario/field_io.hpp"

namespace wb::cli {
namespace fs = std::filesystem;

RunOutput::RunOutput(fs::path dir) : dir_(std::move(dir)) {
  // The outermost folder that create_directories is about to make, if any.
  std::error_code ec;
  fs::path outermostNew;
  for (fs::path p = fs::absolute(dir_, ec); !ec && !p.empty() && !fs::exists(p, ec);
       p = p.parent_path()) {
    outermostNew = p;
    if (p == p.parent_path()) break;
  }
  ensureWritableDirectory(dir_);
  lockFd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lockFd_ < 0)
    throw InputError(dir_.string() + ": cannot open output folder: " + std::strerror(errno));
  if (::flock(lockFd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(lockFd_);
    lockFd_ = -1;
    if (error == EWOULDBLOCK)
      throw InputError(dir_.string() + ": output folder is in use by another run");
    // A file system without locks (some network mounts): run unlocked rather than refuse.
  }
  if (!outermostNew.empty()) folders_.push_back(outermostNew);
}

RunOutput::~RunOutput() {
  if (lockFd_ >= 0) ::close(lockFd_);  // releases the lock
}

namespace {

// The files `run` writes (docs/cli.md, run), and their temporaries (OutputFile's FILE.tmp, the
// write probe of ensureWritableDirectory) left by a run that was killed.
bool isRunFile(const std::string& name) {
  static const std::regex top(
      R"(((series|gauges|transects|max_maps|gauge_summary)\.csv(\.tmp)?)|\.wavebench-write-test)");
  return std::regex_match(name, top);
}
bool isModelFile(const std::string& name) {
  static const std::regex model(
      R"(((eta_\d+\.(csv|vti))|(bodies_\d+\.vtp)|((eta|bodies)\.pvd)|(bodies\.csv)|(max_map\.(csv|vti)))(\.tmp)?|\.wavebench-write-test)");
  return std::regex_match(name, model);
}

// A regular file (a symbolic link is never followed into).
bool isPlainFile(const fs::directory_entry& entry) {
  std::error_code ec;
  return entry.symlink_status(ec).type() == fs::file_type::regular;
}

}  // namespace

void RunOutput::clearEarlierRun(const std::vector<std::string>& modelFolders) {
  std::vector<fs::path> files, folders;
  std::vector<std::string> foreign;
  auto scan = [&](const fs::path& folder, auto&& belongs, auto&& onFolder) {
    std::error_code listed;
    fs::directory_iterator entries(folder, listed);
    if (listed)
      throw InputError(folder.string() + ": cannot list the output folder: " + listed.message());
    for (const auto& entry : entries) {
      const std::string name = entry.path().filename().string();
      std::error_code ec;
      if (entry.symlink_status(ec).type() == fs::file_type::directory && onFolder(entry.path()))
        continue;
      if (isPlainFile(entry) && belongs(name))
        files.push_back(entry.path());
      else
        foreign.push_back(fs::relative(entry.path(), dir_).string());
    }
  };
  const auto noFolder = [](const fs::path&) { return false; };
  scan(dir_, isRunFile, [&](const fs::path& folder) {
    const std::string name = folder.filename().string();
    if (std::find(modelFolders.begin(), modelFolders.end(), name) == modelFolders.end())
      return false;
    scan(folder, isModelFile, noFolder);
    folders.push_back(folder);
    return true;
  });
  if (!foreign.empty()) {
    std::sort(foreign.begin(), foreign.end());
    std::string names;
    for (std::size_t k = 0; k < foreign.size() && k < 3; ++k)
      names += (k ? ", " : "") + foreign[k];
    if (foreign.size() > 3) names += ", ... (" + std::to_string(foreign.size()) + " in all)";
    throw InputError(dir_.string() + ": the output folder holds files that wavebench-cli run " +
                     "does not write (" + names +
                     "); give a new or empty folder, or one that holds only an earlier run");
  }
  std::error_code ec;
  for (const auto& file : files)
    if (!fs::remove(file, ec) && ec)
      throw InputError(file.string() + ": cannot remove the earlier run's file: " + ec.message());
  for (const auto& folder : folders)
    fs::remove(folder, ec);  // empty now
}

void RunOutput::noteSubfolders(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    std::error_code ec;
    if (!fs::exists(dir_ / name, ec)) folders_.push_back(dir_ / name);
  }
}

void RunOutput::discard() {
  std::error_code ignored;
  for (const auto& file : files_)
    fs::remove(file, ignored);
  // Outermost first: removing the run's own top folder takes everything below with it.
  for (const auto& folder : folders_)
    fs::remove_all(folder, ignored);
  files_.clear();
  folders_.clear();
}

}  // namespace wb::cli
