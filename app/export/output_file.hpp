// A file written frame by frame (series.csv, bodies.csv, a .pvd) or whole (a dump) through
// FILE.tmp with plain pwrite(2) calls, so a failing write names the system's reason (errno),
// and the frame it was writing can be cut off again: the file keeps whole frames only.
// commit() renames it into place (no space needed: a full disk still gets its files); a file
// never committed leaves nothing behind.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace wb {

// Writing an output file failed (a full disk, a file size limit, an I/O error): bad input's
// exit code, but the frames already written are kept.
class WriteError : public InputError {
 public:
  using InputError::InputError;
};

// Which temporary a file is written through: FILE.tmp, or FILE.PID.tmp where writers in
// several processes may write the same file at once (a study's runs), so that none truncates
// or renames another's half-written temporary.
enum class Temporary { Shared, PerProcess };

class OutputFile {
 public:
  // Creates FILE.tmp (truncating one left by a killed run). Throws WriteError.
  explicit OutputFile(std::filesystem::path file, Temporary temporary = Temporary::Shared);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Closes the file and removes the temporary unless commit() renamed it.
  ~OutputFile();

  // Marks where the current frame starts, for dropFrame().
  void beginFrame() { frameStart_ = size_; }
  // Appends text (before the trailer); throws WriteError naming the file and the system's
  // reason, leaving the file as it was.
  void append(std::string_view text);
  // Text kept at the end of the file after everything appended (a .pvd's closing tags), so
  // the file is a whole document after every append, and after a failed one.
  void setTrailer(std::string trailer);
  // Cuts the file back to where the current frame started (after a failed append).
  void dropFrame();
  // Closes the temporary and renames it into place. Throws WriteError.
  void commit();

  const std::filesystem::path& path() const { return file_; }

 private:
  // Cuts the file to size and writes the trailer after it.
  void cutTo(off_t size);
  // pwrite(2) of all of text at offset: 0, or the errno of the failure.
  int writeAt(off_t offset, std::string_view text);

  std::filesystem::path file_, temporary_;
  std::string trailer_;
  int fd_ = -1;
  off_t size_ = 0, frameStart_ = 0;
};

// Writes text to file through a temporary and a rename. Throws WriteError.
void writeWholeFile(const std::filesystem::path& file, std::string_view text,
                    Temporary temporary = Temporary::Shared);

}  // namespace wb
