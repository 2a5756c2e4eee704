// Command-line parsing for wavebench-cli (docs/cli.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb::cli {

struct Args {
  std::string command;
  std::vector<std::string> rest;
};

// A small flag reader: every flag is checked, unknown flags, missing or malformed values and a
// second value of a flag not among repeatableFlags (--set) throw InputError naming the flag.
class FlagReader {
 public:
  FlagReader(std::vector<std::string> args, std::vector<std::string> valueFlags,
             std::vector<std::string> switchFlags, std::vector<std::string> repeatableFlags = {});
  std::optional<std::string> value(const std::string& flag) const;
  std::vector<std::string> values(const std::string& flag) const;
  bool isSet(const std::string& flag) const;
  int integer(const std::string& flag, int fallback, int lo, int hi) const;
  double number(const std::string& flag, double fallback, double lo, double hi) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::string> switches_;
};

std::vector<std::string> splitList(const std::string& text, char separator = ',');

int runCommand(const FlagReader& flags);
int benchCommand(const FlagReader& flags);
int verifyCommand(const FlagReader& flags);
int listCommand();

}  // namespace wb::cli
