// The output folder of `wavebench-cli run` (docs/cli.md, run): whole files or none.
// RunOutput holds the folder for the run's life: a lock on it (a second run with the same
// --out is refused; the kernel drops the lock when the process dies, so a crashed run never
// blocks the next one) and a record of the folders and files this run made, so a run stopped
// by bad input removes them again. Before a run writes, clearEarlierRun() removes an earlier
// run's files, so that the folder never holds frames of two runs. Files are written with OutputFile
// (app/export/output_file.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "app/export/output_file.hpp"
#include "core/errors.hpp"

namespace wb::cli {

class RunOutput {
 public:
  // Creates the folder if needed and locks it for this process's life. Throws InputError
  // when it cannot be created or written, or when another run holds it.
  explicit RunOutput(std::filesystem::path dir);
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;
  ~RunOutput();

  const std::filesystem::path& dir() const { return dir_; }
  // Makes the folder hold one run: removes what an earlier run left (the files `run` writes at
  // the top and in the folders named by modelFolders; docs/cli.md, run), or, when the folder
  // holds anything else, throws InputError naming it and removes nothing.
  void clearEarlierRun(const std::vector<std::string>& modelFolders);
  // Records the subfolders (of dir) that do not exist yet, before they are made, so that
  // discard() removes them.
  void noteSubfolders(const std::vector<std::string>& names);
  // Records a file this run put in place.
  void noteFile(const std::filesystem::path& file) { files_.push_back(file); }
  // Removes every file and folder this run made (the run stopped on bad input).
  void discard();

 private:
  std::filesystem::path dir_;
  int lockFd_ = -1;
  std::vector<std::filesystem::path> folders_;  // made by this run, outermost first
  std::vector<std::filesystem::path> files_;
};

}  // namespace wb::cli
