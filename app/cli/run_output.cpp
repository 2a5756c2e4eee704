#include "app/cli/run_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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
