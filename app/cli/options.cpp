#include "app/cli/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace wb::cli {

FlagReader::FlagReader(std::vector<std::string> args, std::vector<std::string> valueFlags,
                       std::vector<std::string> switchFlags,
                       std::vector<std::string> repeatableFlags) {
  auto known = [](const std::vector<std::string>& list, const std::string& flag) {
    return std::find(list.begin(), list.end(), flag) != list.end();
  };
  for (std::size_t k = 0; k < args.size(); ++k) {
    std::string flag = args[k];
    std::optional<std::string> inlineValue;
    if (auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      inlineValue = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (known(switchFlags, flag) && !inlineValue) {
      switches_.push_back(flag);
    } else if (known(valueFlags, flag)) {
      if (inlineValue)
        values_.push_back({flag, *inlineValue});
      else if (k + 1 < args.size())
        values_.push_back({flag, args[++k]});
      else
        throw InputError(flag + ": missing value");
      // An empty value ("$DIR" unset) would silently mean the default or the current folder.
      if (values_.back().second.empty()) throw InputError(flag + ": empty value");
      // A second value of a one-value flag would silently replace the first.
      if (!known(repeatableFlags, flag) && values(flag).size() > 1)
        throw InputError(flag + ": given twice ('" + values(flag).front() + "', then '" +
                         values_.back().second + "'); give it once");
    } else {
      throw InputError(flag + ": unknown option (see wavebench-cli --help)");
    }
  }
}

std::optional<std::string> FlagReader::value(const std::string& flag) const {
  std::optional<std::string> found;
  for (const auto& [f, v] : values_)
    if (f == flag) found = v;
  return found;
}

std::vector<std::string> FlagReader::values(const std::string& flag) const {
  std::vector<std::string> found;
  for (const auto& [f, v] : values_)
    if (f == flag) found.push_back(v);
  return found;
}

bool FlagReader::isSet(const std::string& flag) const {
  return std::find(switches_.begin(), switches_.end(), flag) != switches_.end();
}

double FlagReader::number(const std::string& flag, double fallback, double lo, double hi) const {
  const auto text = value(flag);
  if (!text) return fallback;
  double v = 0.0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size() || text->empty() || !std::isfinite(v))
    throw InputError(flag + ": '" + *text + "' is not a number");
  if (v < lo || v > hi) {
    std::ostringstream out;
    out.precision(10);  // integer bounds print whole (100000000, not 1e+08)
    out << flag << ": " << v << " is outside [" << lo << ", " << hi << "]";
    throw InputError(out.str());
  }
  return v;
}

int FlagReader::integer(const std::string& flag, int fallback, int lo, int hi) const {
  const double v = number(flag, fallback, lo, hi);
  if (v != std::floor(v)) throw InputError(flag + ": must be an integer");
  return int(v);
}

std::vector<std::string> splitList(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, separator))
    if (!item.empty()) items.push_back(item);
  return items;
}

}  // namespace wb::cli
