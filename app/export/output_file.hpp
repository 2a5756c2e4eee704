// A file written frame by frame (series.csv, bodies.csv) or whole (a dump, a .pvd) through
// FILE.tmp with plain write(2) calls, so a failing write names the system's reason (errno),
// and the frame it was writing can be cut off again: the file keeps whole frames only.
// commit() renames it into place; a file never committed leaves nothing behind.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string_view>

#include "core/errors.hpp"

namespace wb {

// Writing an output file failed (a full disk, a file size limit, an I/O error): bad input's
// exit code, but the frames already written are kept.
class WriteError : public InputError {
 public:
  using InputError::InputError;
};

class OutputFile {
 public:
  // Creates FILE.tmp (truncating one left by a killed run). Throws WriteError.
  explicit OutputFile(std::filesystem::path file);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Closes the file and removes the temporary unless commit() renamed it.
  ~OutputFile();

  // Marks where the current frame starts, for dropFrame().
  void beginFrame() { frameStart_ = size_; }
  // Appends text; throws WriteError naming the file and the system's reason.
  void append(std::string_view text);
  // Cuts the file back to where the current frame started (after a failed append).
  void dropFrame();
  // Closes the temporary and renames it into place. Throws WriteError.
  void commit();

  const std::filesystem::path& path() const { return file_; }

 private:
  std::filesystem::path file_, temporary_;
  int fd_ = -1;
  off_t size_ = 0, frameStart_ = 0;
};

// Writes text to file through a temporary and a rename. Throws WriteError.
void writeWholeFile(const std::filesystem::path& file, std::string_view text);

}  // namespace wb
