// The workbench's measured figures (wavebench --stats-json, the status bar): the FrameMeter's
// presented frames and stages beside what they were measured on (grid, render mesh, window,
// views, renderer) and what on the machine sways them (the 1-minute load average from
// /proc/loadavg, OMP_WAIT_POLICY and GOMP_SPINCOUNT), so that two runs' figures can be told apart
// (docs/gui-performance.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <QSize>
#include <QString>
#include <nlohmann/json.hpp>

#include "app/gui/window/frame_meter.hpp"
#include "core/grid/domain.hpp"

namespace wb::gui {

// What the frames were measured on.
struct StatsSetting {
  Grid grid;                        // the shown comparison's, or the scenario's before one
  int meshStride = 1;               // the render mesh's cells per grid cell
  QSize window;                     // the main window's size
  std::size_t views = 0;            // the 3-D views shown
  std::vector<std::string> models;  // the comparison's models
  QString glRenderer;
  int simulatedFrames = 0;
  double realTimeRatio = 0.0;  // simulated seconds per wall second
};

nlohmann::json statsJson(const FrameMeter& meter, const StatsSetting& setting);
// The frames and stages in one line (status bar, automation output).
QString statsLine(const FrameMeter& meter, int meshStride);

}  // namespace wb::gui
