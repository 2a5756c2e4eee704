// Gauges and transects placed in the workbench (docs/gauges.md): each placement or removal is
// one undoable edit of the scenario's `gauges` / `transects` keys (a DocumentCommand through
// ScenarioDocument::setScenario), so Save writes them and `wavebench-cli run` on the saved
// file records the same gauges.csv. The rules are the core's (core/scenario/scenario.cpp,
// Comparison): a gauge inside the pool and not in a wall; a transect's ends inside the pool
// and apart. The GUI never makes a scenario the core refuses.
#pragma once

#include <QPointF>
#include <QString>

#include "app/gui/document/scenario_document.hpp"

namespace wb::gui {

// Samples of a transect placed by a drag.
constexpr int kTransectSamples = 100;

// Why the core would refuse a gauge at `point` (m) of this scenario; empty if it would not.
QString gaugeRefusal(const Scenario& scenario, QPointF point);
// The first free name "g1", "g2", ... (prefix "g") or "t1", ... (prefix "t").
std::string freeMarkerName(const Scenario& scenario, char prefix);

// Adds a gauge at `point`; throws InputError (one line, "Gauge not placed: ...") if refused.
void addGauge(ScenarioDocument& document, QPointF point);
// Adds a transect from `from` to `to` (ends moved onto the pool); throws InputError if the
// line is shorter than a cell.
void addTransect(ScenarioDocument& document, QPointF from, QPointF to);
void removeGauge(ScenarioDocument& document, int index);
void removeTransect(ScenarioDocument& document, int index);

}  // namespace wb::gui
