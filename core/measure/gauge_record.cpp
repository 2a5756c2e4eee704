#include "core/measure/gauge_record.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/errors.hpp"

namespace wb {

namespace {

// The fields of a line: split at commas when it has one, else at spaces and tabs.
std::vector<std::string> splitFields(const std::string& line) {
  std::vector<std::string> fields;
  const auto trim = [](std::string s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return std::string();
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
  };
  if (line.find(',') != std::string::npos) {
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
      fields.push_back(trim(field));
    if (line.back() == ',') fields.emplace_back();
  } else {
    std::istringstream in(line);
    for (std::string field; in >> field;)
      fields.push_back(field);
  }
  return fields;
}

// The whole field as a number (strtod's syntax: nan and inf are numbers, refused later).
std::optional<double> parseNumber(const std::string& field) {
  if (field.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(field.c_str(), &end);
  if (end != field.c_str() + field.size()) return std::nullopt;
  return value;
}

std::string text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::optional<double> unitScale(const std::string& units) {
  if (units == "m") return 1.0;
  if (units == "cm") return 0.01;
  if (units == "mm") return 0.001;
  return std::nullopt;
}

GaugeRecord::GaugeRecord(const std::string& bytes, const std::string& name, RecordSpec spec)
    : spec_(std::move(spec)) {
  const double scale = unitScale(spec_.units).value_or(1.0);
  const int wanted = std::max(spec_.timeColumn, spec_.column);
  const auto fail = [&](int line, const std::string& why) {
    throw InputError(name + ": line " + std::to_string(line) + ": " + why);
  };
  std::istringstream in(bytes);
  int lineNo = 0;
  bool sawRow = false;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::vector<std::string> fields = splitFields(line);
    if (fields.empty() || (fields.size() == 1 && fields[0].empty())) continue;
    const bool first = !sawRow;
    sawRow = true;
    // A header: the first row, when any of its fields is not a number.
    if (first && std::any_of(fields.begin(), fields.end(),
                             [](const std::string& f) { return !parseNumber(f); }))
      continue;
    if (int(fields.size()) <= wanted)
      fail(lineNo, "has " + std::to_string(fields.size()) + " columns; column " +
                       std::to_string(wanted) + " is missing (columns count from 0)");
    double values[2];
    const int columns[2] = {spec_.timeColumn, spec_.column};
    for (int c = 0; c < 2; ++c) {
      const std::string& field = fields[std::size_t(columns[c])];
      const auto value = parseNumber(field);
      if (!value)
        fail(lineNo, "column " + std::to_string(columns[c]) + ": '" + field + "' is not a number");
      if (!std::isfinite(*value))
        fail(lineNo, "column " + std::to_string(columns[c]) + ": '" + field + "' is not finite");
      values[c] = *value;
    }
    const double t = values[0] + spec_.shift;
    if (!time_.empty() && !(t > time_.back()))
      fail(lineNo, "time " + text(values[0]) + " s does not increase (the row before has " +
                       text(time_.back() - spec_.shift) + " s)");
    time_.push_back(t);
    eta_.push_back(scale * values[1]);
  }
  if (time_.size() < 2)
    throw InputError(name + ": holds " + std::to_string(time_.size()) +
                     " rows of numbers; a record needs at least two");
  if (spec_.zero > 0.0) {
    double sum = 0.0;
    std::size_t n = 0;
    for (std::size_t k = 0; k < time_.size() && time_[k] <= time_.front() + spec_.zero; ++k)
      sum += eta_[k], ++n;
    offset_ = sum / double(n);  // n >= 1: the first row always counts
    for (double& eta : eta_)
      eta -= offset_;
  }
}

double GaugeRecord::at(double t) const {
  if (t <= time_.front()) return eta_.front();
  if (t >= time_.back()) return eta_.back();
  const auto upper = std::upper_bound(time_.begin(), time_.end(), t);
  const std::size_t k = std::size_t(upper - time_.begin());
  const double f = (t - time_[k - 1]) / (time_[k] - time_[k - 1]);
  return eta_[k - 1] + f * (eta_[k] - eta_[k - 1]);
}

void GaugeRecord::requireCovers(double runEnd, const std::string& where) const {
  // Rounding of a written time (0.1 + 0.2) is not a gap.
  const double slack = 1e-9 * std::max(1.0, runEnd);
  if (begin() <= slack && end() >= runEnd - slack) return;
  throw InputError(where + ": " + spec_.file + " covers " + text(begin()) + " to " + text(end()) +
                   " s (after the shift); the run needs 0 to " + text(runEnd) + " s");
}

}  // namespace wb
