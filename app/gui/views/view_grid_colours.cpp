// ViewGrid's colours: what each model view's water is coloured by (eta, its error against the
// scenario's reference, its difference to a chosen model, its own waves without the open sea)
// and over which range.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_grid.hpp"

namespace wb::gui {

namespace {
// The largest finite |value| over the wet cells.
double wetMaxAbs(const Field2D& field, const Domain& domain) {
  double largest = 0.0;
  const Grid& grid = domain.grid();
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const double value = std::abs(double(field(i, j)));
      if (domain.isWet(i, j) && std::isfinite(value)) largest = std::max(largest, value);
    }
  return largest;
}
}  // namespace

double ViewGrid::wallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ColourMode ViewGrid::modeFor(const Snapshot& snapshot) const {
  bool possible = true;
  switch (colourModeSpec(settings_.mode).needs) {
    case ColourNeed::Nothing:
      break;
    case ColourNeed::Reference:
      possible = snapshot.referenceEta != nullptr;
      break;
    case ColourNeed::TwoModels:
      possible = snapshot.models.size() >= 2;
      break;
    case ColourNeed::Sea:
      possible = snapshot.seaEta != nullptr;
      break;
    case ColourNeed::MaximumMaps:
      possible = std::none_of(snapshot.models.begin(), snapshot.models.end(),
                              [](const ModelSnapshot& m) { return !m.etaMax; });
      break;
  }
  return possible ? settings_.mode : ColourMode::Surface;
}

std::size_t ViewGrid::subtractedIndex(const Snapshot& snapshot) const {
  for (std::size_t k = 0; k < snapshot.models.size(); ++k)
    if (snapshot.models[k].id == settings_.subtractedModel) return k;
  return 0;  // a model not in this comparison: the first one
}

double ViewGrid::computeColourValues(const Snapshot& snapshot, ColourMode mode) {
  colourValues_.resize(viewModels_.size());
  const Domain& domain = *snapshot.domain;
  const Field2D* subtracted = nullptr;
  if (mode == ColourMode::Error) subtracted = snapshot.referenceEta.get();
  if (mode == ColourMode::Local) subtracted = snapshot.seaEta.get();
  if (mode == ColourMode::Difference) subtracted = &snapshot.models[subtractedIndex(snapshot)].eta;
  double largest = 0.0;
  for (std::size_t v = 0; v < viewModels_.size(); ++v) {
    const std::size_t k = std::size_t(viewModels_[v]);
    if (k >= snapshot.models.size()) continue;
    const ModelSnapshot& m = snapshot.models[k];
    if (mode == ColourMode::Highest) {  // its own field: no copy
      if (!m.failure) largest = std::max(largest, wetMaxAbs(*m.etaMax, domain));
      continue;
    }
    // A model that blew up keeps its last field: it would set the range of the others.
    if (!subtracted) {  // eta itself: no copy (a frame's budget on big grids)
      if (!m.failure) largest = std::max(largest, wetMaxAbs(m.eta, domain));
      continue;
    }
    Field2D& values = colourValues_[v];
    if (values.nx() != m.eta.nx() || values.ny() != m.eta.ny())
      values = Field2D(m.eta.nx(), m.eta.ny());
    for (std::size_t c = 0; c < values.size(); ++c)
      values.data()[c] = m.eta.data()[c] - subtracted->data()[c];
    if (!m.failure) largest = std::max(largest, wetMaxAbs(values, domain));
  }
  return largest;
}

void ViewGrid::applyColours(ColourMode mode, double maxAbs) {
  const ColourRangeSetting& setting = settings_.range(mode);
  colourRange_ =
      setting.automatic ? autoRanges_[std::size_t(mode)].update(maxAbs, clock_()) : setting.fixed;
  const std::string subtracted =
      shown_ && !shown_->models.empty() ? shown_->models[subtractedIndex(*shown_)].id : "";
  const std::string title = colourTitle(mode, subtracted);
  for (std::size_t v = 0; v < viewModels_.size() && v < views_.size(); ++v) {
    SurfaceScene& scene = views_[v]->scene();
    scene.setColourRange(colourRange_);
    scene.setDivergingColours(colourModeSpec(mode).diverging);
    if (scene.colourTitle() != title) scene.setColourTitle(title);
  }
}

// The caption's last line outside Surface mode: the largest |value| the view colours, or that
// the view is the model subtracted from the others.
std::string ViewGrid::colourCaption(const Snapshot& snapshot, std::size_t view) const {
  if (shownMode_ == ColourMode::Surface || view >= colourValues_.size()) return "";
  std::ostringstream line;
  line.precision(2);
  const std::size_t k = std::size_t(viewModels_[view]);
  if (shownMode_ == ColourMode::Highest) {
    if (k < snapshot.models.size() && snapshot.models[k].etaMax)
      line << "\nhighest so far: " << std::scientific
           << wetMaxAbs(*snapshot.models[k].etaMax, *snapshot.domain) << " m";
    return line.str();
  }
  if (shownMode_ == ColourMode::Difference && k == subtractedIndex(snapshot)) {
    line << "\n(subtracted from the others: 0)";
    return line.str();
  }
  const std::string subtracted = shownMode_ == ColourMode::Error ? std::string("reference")
                                 : shownMode_ == ColourMode::Local
                                     ? std::string("sea")
                                     : snapshot.models[subtractedIndex(snapshot)].id;
  line << "\nmax |eta - " << subtracted << "| = " << std::scientific
       << wetMaxAbs(colourValues_[view], *snapshot.domain) << " m";
  return line.str();
}

}  // namespace wb::gui
