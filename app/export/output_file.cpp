#include "app/export/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace wb {
namespace fs = std::filesystem;

namespace {

std::string reasonOf(int error) {
  return std::strerror(error);
}

}  // namespace

OutputFile::OutputFile(fs::path file) : file_(std::move(file)) {
  temporary_ = file_;
  temporary_ += ".tmp";
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) throw WriteError(file_.string() + ": cannot open for writing: " + reasonOf(errno));
}

OutputFile::~OutputFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(temporary_.c_str());
}

void OutputFile::append(std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd_, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) throw WriteError(file_.string() + ": write failed: " + reasonOf(errno));
    size_ += written;
    text.remove_prefix(std::size_t(written));
  }
}

void OutputFile::dropFrame() {
  // A full disk frees the blocks of the cut-off tail; a failure here leaves a torn last frame,
  // which is all that could be done.
  if (::ftruncate(fd_, frameStart_) == 0) size_ = frameStart_;
}

void OutputFile::commit() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary_.c_str());
    throw WriteError(file_.string() + ": write failed: " + reasonOf(error));
  }
  if (::rename(temporary_.c_str(), file_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary_.c_str());
    throw WriteError(file_.string() + ": cannot rename into place: " + reasonOf(error));
  }
}

void writeWholeFile(const fs::path& file, std::string_view text) {
  OutputFile out(file);
  out.append(text);
  out.commit();
}

}  // namespace wb
