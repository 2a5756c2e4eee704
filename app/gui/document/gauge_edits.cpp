#include "app/gui/document/gauge_edits.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/errors.hpp"

namespace wb::gui {

namespace {
QString metres(QPointF p) {
  return QString("(%1, %2) m").arg(p.x(), 0, 'f', 2).arg(p.y(), 0, 'f', 2);
}
}  // namespace

QString gaugeRefusal(const Scenario& scenario, QPointF point) {
  const Grid& grid = scenario.grid;
  if (!(point.x() >= 0 && point.x() <= grid.width() && point.y() >= 0 &&
        point.y() <= grid.height()))
    return QObject::tr("%1 is outside the pool").arg(metres(point));
  // The cell the Comparison checks (core/run/comparison.cpp), on the scenario's own domain.
  const int i = std::min(grid.nx - 1, int(point.x() / grid.dx));
  const int j = std::min(grid.ny - 1, int(point.y() / grid.dx));
  try {
    if (!buildDomain(scenario).isWet(i, j))
      return QObject::tr("%1 is in a wall").arg(metres(point));
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}

std::string freeMarkerName(const Scenario& scenario, char prefix) {
  std::set<std::string> taken;
  for (const GaugeSpec& g : scenario.gauges)
    taken.insert(g.name);
  for (const TransectSpec& t : scenario.transects)
    taken.insert(t.name);
  for (int n = 1;; ++n)
    if (std::string name = prefix + std::to_string(n); !taken.count(name)) return name;
}

void addGauge(ScenarioDocument& document, QPointF point) {
  if (const QString why = gaugeRefusal(document.scenario(), point); !why.isEmpty())
    throw InputError("Gauge not placed: " + why.toStdString());
  Scenario s = document.scenario();
  s.gauges.push_back({freeMarkerName(s, 'g'), point.x(), point.y(), nullptr});
  document.setScenario(s, QObject::tr("add gauge %1 at %2")
                              .arg(QString::fromStdString(s.gauges.back().name), metres(point)));
}

void addTransect(ScenarioDocument& document, QPointF from, QPointF to) {
  const Grid& grid = document.scenario().grid;
  const auto ontoPool = [&](QPointF p) {
    return QPointF(std::clamp(p.x(), 0.0, grid.width()), std::clamp(p.y(), 0.0, grid.height()));
  };
  from = ontoPool(from);
  to = ontoPool(to);
  if (std::hypot(to.x() - from.x(), to.y() - from.y()) < grid.dx)
    throw InputError("Transect not placed: drag at least one cell (" + std::to_string(grid.dx) +
                     " m)");
  Scenario s = document.scenario();
  s.transects.push_back(
      {freeMarkerName(s, 't'), from.x(), from.y(), to.x(), to.y(), kTransectSamples});
  document.setScenario(
      s, QObject::tr("add transect %1 from %2 to %3")
             .arg(QString::fromStdString(s.transects.back().name), metres(from), metres(to)));
}

void removeGauge(ScenarioDocument& document, int index) {
  Scenario s = document.scenario();
  if (index < 0 || index >= int(s.gauges.size())) return;
  const QString name = QString::fromStdString(s.gauges[std::size_t(index)].name);
  s.gauges.erase(s.gauges.begin() + index);
  document.setScenario(s, QObject::tr("remove gauge %1").arg(name));
}

void removeTransect(ScenarioDocument& document, int index) {
  Scenario s = document.scenario();
  if (index < 0 || index >= int(s.transects.size())) return;
  const QString name = QString::fromStdString(s.transects[std::size_t(index)].name);
  s.transects.erase(s.transects.begin() + index);
  document.setScenario(s, QObject::tr("remove transect %1").arg(name));
}

}  // namespace wb::gui
