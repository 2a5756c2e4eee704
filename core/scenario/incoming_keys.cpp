#include "core/scenario/incoming_keys.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace wb {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw InputError(where + ": " + why);
}

// Each time after the one before it: the record is a function of time.
void appendSample(IncomingWave& wave, double t, double eta, const std::string& where) {
  if (!wave.times.empty() && !(t > wave.times.back())) {
    std::ostringstream why;
    why << "time " << t << " s does not increase (the sample before is at " << wave.times.back()
        << " s)";
    fail(where, why.str());
  }
  wave.times.push_back(t);
  wave.etas.push_back(eta);
}

void checkRecordLength(const IncomingWave& wave, const std::string& where) {
  if (wave.times.size() < 2) fail(where, "a record needs at least two samples");
}

}  // namespace

IncomingWave parseIncomingRecord(const std::string& text, const std::string& where) {
  IncomingWave wave;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream fields(line);
    std::string first;
    if (!(fields >> first) || first[0] == '#') continue;
    const std::string at = where + ": line " + std::to_string(number);
    std::istringstream firstField(first);
    double t = 0.0, eta = 0.0;
    std::string extra;
    if (!(firstField >> t) || !firstField.eof() || !(fields >> eta) || (fields >> extra) ||
        !std::isfinite(t) || !std::isfinite(eta))
      fail(at, "expected two numbers, time (s) and elevation (m): '" + line + "'");
    appendSample(wave, t, eta, at);
  }
  checkRecordLength(wave, where);
  return wave;
}

namespace {

using K = KeyKind;
using Form = IncomingWave::Form;

// "series": a file of two columns, or [[t, eta], ...] inline.
void readSeries(IncomingWave& wave, const json& series, const KeyContext& at) {
  if (series.is_string()) {
    const FileRef file = at.files->file(series, at.where);
    wave = parseIncomingRecord(file.read(), at.where + " (" + file.describe() + ")");
    wave.file = file.describe();
  } else if (series.is_array()) {
    for (std::size_t k = 0; k < series.size(); ++k) {
      const std::string rowAt = at.where + "[" + std::to_string(k) + "]";
      const json& row = series[k];
      if (!row.is_array() || row.size() != 2 || !row[0].is_number() || !row[1].is_number())
        fail(rowAt, "must be [time, elevation] (two numbers)");
      appendSample(wave, row[0].get<double>(), row[1].get<double>(), rowAt);
    }
    checkRecordLength(wave, at.where);
  } else {
    fail(at.where, "must be a file name or [[time, elevation], ...]");
  }
}

json seriesJson(const IncomingWave& wave) {
  if (wave.form != Form::Series) return json();
  if (!wave.file.empty()) return wave.file;
  json rows = json::array();
  for (std::size_t k = 0; k < wave.times.size(); ++k)
    rows.push_back({wave.times[k], wave.etas[k]});
  return rows;
}

// A number of one form's object, written only for that form (`shown`: and when it holds).
Key<IncomingWave> formNumber(Form form, Key<IncomingWave> key, double IncomingWave::*member,
                             bool (*shown)(const IncomingWave&) = nullptr) {
  key.get = [form, member, shown](const IncomingWave& w) {
    return w.form == form && (!shown || shown(w)) ? json(w.*member) : json();
  };
  key.set = [member](IncomingWave& w, const json& v, const KeyContext&) {
    w.*member = v.get<double>();
  };
  return key;
}

// One form's object: read into the wave, which then has that form.
Key<IncomingWave> formObject(Form form, Key<IncomingWave> key,
                             const std::vector<Key<IncomingWave>>& children) {
  key.kind = K::Object;
  key.children = children;
  key.then = [form](IncomingWave& w, const KeyContext&) { w.form = form; };
  return key;
}

std::vector<Key<IncomingWave>> declareSineKeys() {
  return {
      formNumber(Form::Sine,
                 {.name = "amplitude",
                  .lo = -1e3,
                  .hi = 1e3,
                  .unit = "m",
                  .doc = "a of eta_in = a sin(2 pi t / T)",
                  .required = true},
                 &IncomingWave::amplitude),
      formNumber(
          Form::Sine,
          {.name = "period", .lo = 1e-6, .hi = 1e7, .unit = "s", .doc = "T", .required = true},
          &IncomingWave::period),
  };
}

std::vector<Key<IncomingWave>> declareSolitaryKeys() {
  return {
      formNumber(Form::Solitary,
                 {.name = "amplitude",
                  .lo = 1e-9,
                  .hi = 1e3,
                  .unit = "m",
                  .doc = "a of eta_in = a sech^2(k c (t - t_c))",
                  .required = true},
                 &IncomingWave::amplitude),
      formNumber(Form::Solitary,
                 {.name = "crest_time",
                  .lo = 0.0,
                  .hi = 1e7,
                  .unit = "s",
                  .doc = "t_c, when the crest passes the edge",
                  .defaultDoc = "where eta_in(0) = 1e-3 a"},
                 &IncomingWave::crestTime,
                 [](const IncomingWave& w) { return w.crestTime >= 0.0; }),
  };
}

std::vector<Key<IncomingWave>> declareIncomingKeys() {
  return {
      {.name = "series",
       .kind = K::Custom,
       .doc = "eta_in at the grid's edge (m) against time (s), linear between samples; a file "
              "holds two columns separated by spaces or tabs, one sample a line (blank lines "
              "and `#` lines skipped); relative to the scenario, or `builtin:NAME` "
              "(`builtin:MonaiValley_InputWave.txt` is the Monai Valley tank's record)",
       .typeDoc = "file name, or `[[t, eta], ...]`",
       .defaultDoc = "none",
       .rangeDoc = "exactly one of `series`, `sine` and `solitary`",
       .get = seriesJson,
       .set = readSeries},
      formObject(Form::Sine, {.name = "sine", .doc = "eta_in = a sin(2 pi t / T) (keys below)"},
                 incomingSineKeys()),
      formObject(Form::Solitary,
                 {.name = "solitary",
                  .doc = "the KdV solitary wave passing the edge, eta_in = a sech^2(k c (t - "
                         "t_c)), k = sqrt(3 a / (4 d^3)), c = sqrt(g (d + a)), d the mean depth "
                         "along the side (keys below)"},
                 incomingSolitaryKeys()),
      // After the form: only a series ends.
      {.name = "then",
       .kind = K::Custom,
       .doc = "when the record ends the side becomes an open edge (eta_in = 0); without it the "
              "run must end by the record's last time",
       .typeDoc = "`\"open\"`",
       .rangeDoc = "a `series` only",
       .get = [](const IncomingWave& w) { return w.thenOpen ? json("open") : json(); },
       .set =
           [](IncomingWave& w, const json& then, const KeyContext& at) {
             if (!then.is_string() || then.get<std::string>() != "open")
               fail(at.where, "must be \"open\" (what the side becomes when the record ends)");
             if (w.form != Form::Series)
               fail(at.where, "only a series ends; a sine or solitary wave has no end");
             w.thenOpen = true;
           }},
  };
}

// The keys of `object` (and of its objects) that `keys` does not declare, refused before any is
// read: a misspelt key ("amplitud") is named as such rather than as the key it misses.
void refuseUnknownKeys(const json& object, const std::vector<Key<IncomingWave>>& keys,
                       const std::string& where) {
  if (!object.is_object()) fail(where, "must be an object");
  for (const auto& item : object.items()) {
    const std::string& name = item.key();
    const json& value = item.value();
    const auto key = std::find_if(keys.begin(), keys.end(),
                                  [&name](const Key<IncomingWave>& k) { return k.name == name; });
    if (key == keys.end()) fail(where + "." + name, "unknown key");
    if (key->kind == K::Object) refuseUnknownKeys(value, key->children, where + "." + name);
  }
}

}  // namespace

const std::vector<Key<IncomingWave>>& incomingSineKeys() {
  static const std::vector<Key<IncomingWave>> keys = declareSineKeys();
  return keys;
}

const std::vector<Key<IncomingWave>>& incomingSolitaryKeys() {
  static const std::vector<Key<IncomingWave>> keys = declareSolitaryKeys();
  return keys;
}

const std::vector<Key<IncomingWave>>& incomingKeys() {
  static const std::vector<Key<IncomingWave>> keys = declareIncomingKeys();
  return keys;
}

IncomingWave readIncomingEdge(const json& value, const KeyContext& context) {
  ObjectReader side(value, context.where);
  side.has("incoming");
  side.finish();  // an unknown key before a missing one: {"inflow": ...} is a misspelt form
  if (!value.contains("incoming")) fail(side.at("incoming"), "missing");
  const json& spec = value.at("incoming");
  KeyContext at = context;
  at.where = side.at("incoming");
  ObjectReader r(spec, at.where);
  refuseUnknownKeys(spec, incomingKeys(), at.where);
  const int forms =
      int(spec.contains("series")) + int(spec.contains("sine")) + int(spec.contains("solitary"));
  if (forms != 1) fail(at.where, "needs exactly one of \"series\", \"sine\" or \"solitary\"");
  IncomingWave wave;
  readKeys(r, incomingKeys(), wave, at);
  r.finish();
  return wave;
}

json incomingEdgeJson(const IncomingWave& wave) {
  return {{"incoming", writeKeys(incomingKeys(), wave)}};
}

}  // namespace wb
