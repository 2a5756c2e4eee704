// Declared model parameters. A model declares each parameter once (name, kind, default,
// unit, range, doc); the GUI panel, its tooltips, the scenario JSON and the CLI `--set`
// are all generated from that one declaration.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

enum class ParamKind { Real, Integer, Choice, Flag };

struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Real;
  double defaultValue = 0.0;  // for Choice: index into choices; for Flag: 0 or 1
  double min = 0.0;           // inclusive range for Real and Integer
  double max = 0.0;
  std::string unit;  // "1/s", "m/s", "s", "" for dimensionless
  std::string doc;
  std::vector<std::string> choices;  // for Choice
  // When true the parameter may be left unset ("auto") and the model derives it from the
  // scenario (e.g. c = sqrt(g d), dt = the largest stable step times a safety factor).
  bool autoDerived = false;
};

// Values of one model's parameters by name. Choice values are stored as the choice index.
// A parameter with autoDerived that has no value is "auto".
class ParamValues {
 public:
  explicit ParamValues(std::vector<ParamSpec> specs);

  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec& spec(const std::string& name) const;
  bool has(const std::string& name) const;

  // Value or default; throws std::logic_error for an auto parameter without value.
  double get(const std::string& name) const;
  std::optional<double> getOptional(const std::string& name) const;
  int getInt(const std::string& name) const { return static_cast<int>(get(name)); }
  const std::string& getChoice(const std::string& name) const;

  // Set from a number or text; validates kind, finiteness and range. Throws InputError whose
  // message starts with `where` (e.g. "scenario.json: models.damped-wave.k").
  void set(const std::string& name, double value, const std::string& where);
  void setFromText(const std::string& name, const std::string& text, const std::string& where);
  void unset(const std::string& name);  // back to default / auto

  // Text form of a value, as JSON or --set would take it ("auto" when unset and auto).
  std::string text(const std::string& name) const;

 private:
  std::vector<ParamSpec> specs_;
  std::map<std::string, double> values_;
};

// The wave speed `c` of the wave models (m/s), or auto (unset) for sqrt(g d); `doc` names the
// equation it enters and the depth d.
ParamSpec waveSpeedParamSpec(const std::string& doc);
// The `speed` of the wave models: `mean` (the papers' one c for the whole pool, sqrt(g d) with
// d the mean rest depth, or the `c` given) or `local` (c^2 = g d(x, y) on each stencil link,
// core/grid/stencil.hpp), declared once for both (docs/models.md, "Local wave speed").
ParamSpec waveSpeedModeParamSpec();

// The `dt` of every model: the fixed step in seconds within [min, max], or auto (unset) for the
// step the model derives; `doc` says how it derives it and what bounds it.
ParamSpec dtParamSpec(const std::string& doc, double min, double max);

// The `force` flag of every model whose time step has a bound: accept a dt beyond it.
ParamSpec forceParamSpec(const std::string& boundName = "stability bound");

// The fixed step a model runs (Bressler 4.1): the user's `dt` if it is within `limit`, or if
// `force` is set; otherwise an InputError "<model>.dt: X s exceeds the <bound> Y s (<why>);
// set <model>.force=true to run it anyway". Without a user dt: autoFraction * limit.
double chooseFixedStep(const ParamValues& params, const std::string& modelId, double limit,
                       double autoFraction, const std::string& boundWhy);

}  // namespace wb
