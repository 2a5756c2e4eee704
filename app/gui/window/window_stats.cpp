#include "app/gui/window/window_stats.hpp"

#include <cstdio>
#include <cstdlib>

#include <QObject>

namespace wb::gui {

namespace {
// The 1-minute load average (Linux), 0 where /proc/loadavg cannot be read.
double loadAverage1Min() {
  double load = 0.0;
  if (std::FILE* file = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(file, "%lf", &load) != 1) load = 0.0;
    std::fclose(file);
  }
  return load;
}
}  // namespace

nlohmann::json statsJson(const FrameMeter& meter, const StatsSetting& setting) {
  const FrameSummary f = meter.summary();
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spinCount = std::getenv("GOMP_SPINCOUNT");
  return {
      {"presented_fps", f.presentedFps},
      {"presented_frames", f.presentedFrames},
      {"frame_ms_p50", f.frameMsP50},
      {"frame_ms_p95", f.frameMsP95},
      {"warm_up_frames", FrameMeter::kWarmUpFrames},
      {"stage_ms",
       {{"update", f.meanStages.updateMs},
        {"render", f.meanStages.renderMs},
        {"present", f.meanStages.presentMs},
        {"charts", f.meanStages.chartsMs},
        {"simulation", f.meanStages.simulateMs}}},
      {"cpu_ms_per_frame",
       {{"gui_thread", f.meanStages.guiCpuMs}, {"process", f.meanStages.processCpuMs}}},
      {"grid", {{"nx", setting.grid.nx}, {"ny", setting.grid.ny}}},
      {"render_mesh_stride", setting.meshStride},
      {"window", {{"width", setting.window.width()}, {"height", setting.window.height()}}},
      {"views", setting.views},
      {"models", setting.models},
      {"gl_renderer", setting.glRenderer.toStdString()},
      {"simulated_frames", setting.simulatedFrames},
      {"real_time_ratio", setting.realTimeRatio},
      {"omp_wait_policy", policy ? policy : ""},
      {"gomp_spincount", spinCount ? spinCount : ""},
      {"load_average_1min", loadAverage1Min()},
  };
}

QString statsLine(const FrameMeter& meter, int meshStride) {
  const FrameSummary f = meter.summary();
  const FrameSample& m = f.meanStages;
  if (meter.warmUpLeft() > 0 || f.presentedFrames == 0)
    return QObject::tr("presented frames/s: warming up (%1 frames)").arg(meter.warmUpLeft());
  return QObject::tr(
             "%1 presented frames/s (p50 %2, p95 %3 ms)   ms/frame: update %4, render %5, "
             "present %6, charts %7, simulation %8, CPU %9 (GUI %10)   mesh 1/%11")
      .arg(f.presentedFps, 0, 'f', 1)
      .arg(f.frameMsP50, 0, 'f', 1)
      .arg(f.frameMsP95, 0, 'f', 1)
      .arg(m.updateMs, 0, 'f', 1)
      .arg(m.renderMs, 0, 'f', 1)
      .arg(m.presentMs, 0, 'f', 1)
      .arg(m.chartsMs, 0, 'f', 1)
      .arg(m.simulateMs, 0, 'f', 1)
      .arg(m.processCpuMs, 0, 'f', 1)
      .arg(m.guiCpuMs, 0, 'f', 1)
      .arg(meshStride);
}

}  // namespace wb::gui
