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

OutputFile::OutputFile(fs::path file, Temporary temporary) : file_(std::move(file)) {
  temporary_ = file_;
  if (temporary == Temporary::PerProcess) {
    temporary_ += ".";
    temporary_ += std::to_string(::getpid());
  }
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
  std::string withTrailer(text);
  withTrailer += trailer_;
  if (const int error = writeAt(size_, withTrailer)) {
    cutTo(size_);  // the trailer back where it was: the file stays whole
    throw WriteError(file_.string() + ": write failed: " + reasonOf(error));
  }
  size_ += off_t(text.size());
}

void OutputFile::setTrailer(std::string trailer) {
  trailer_ = std::move(trailer);
  if (const int error = writeAt(size_, trailer_)) {
    cutTo(size_);
    throw WriteError(file_.string() + ": write failed: " + reasonOf(error));
  }
}

void OutputFile::dropFrame() {
  cutTo(frameStart_);
}

void OutputFile::cutTo(off_t size) {
  // Cutting frees the tail's blocks, so on a full disk the trailer fits again where the old
  // one was; a failure here leaves a torn last frame, which is all that could be done.
  if (::ftruncate(fd_, size) != 0) return;
  size_ = size;
  writeAt(size_, trailer_);
}

int OutputFile::writeAt(off_t offset, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::pwrite(fd_, text.data(), text.size(), offset);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return errno;
    offset += written;
    text.remove_prefix(std::size_t(written));
  }
  return 0;
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

void writeWholeFile(const fs::path& file, std::string_view text, Temporary temporary) {
  OutputFile out(file, temporary);
  out.append(text);
  out.commit();
}

}  // namespace wb
