#include "app/gui/window/frame_meter.hpp"

#include <time.h>

#include <algorithm>
#include <utility>

namespace wb::gui {

namespace {
double msBetween(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double cpuMs(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return 1e3 * double(t.tv_sec) + 1e-6 * double(t.tv_nsec);
}

// The q-quantile (0..1) by the nearest rank of the sorted values.
double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const std::size_t rank = std::min(values.size() - 1, std::size_t(q * double(values.size())));
  std::nth_element(values.begin(), values.begin() + long(rank), values.end());
  return values[rank];
}
}  // namespace

void FrameMeter::restart() {
  ring_.clear();
  next_ = 0;
  pending_ = {};
  swapsAwaited_ = 0;
  seen_ = measured_ = 0;
}

void FrameMeter::frameRequested(double updateMs, int views) {
  pending_.updateMs += updateMs;
  swapsAwaited_ = views;
  requestedAt_ = Clock::now();
  if (views == 0) pending_ = {};
}

bool FrameMeter::framePending() const {
  return swapsAwaited_ > 0 && msBetween(requestedAt_, Clock::now()) < kAbandonMs;
}

void FrameMeter::viewSwapped(double renderMs, double presentMs) {
  if (swapsAwaited_ <= 0) return;
  pending_.renderMs += renderMs;
  pending_.presentMs += presentMs;
  if (--swapsAwaited_ == 0) presented();
}

void FrameMeter::presented() {
  const auto now = Clock::now();
  FrameSample sample = std::exchange(pending_, {});
  sample.frameMs = msBetween(lastPresented_, now);
  lastPresented_ = now;
  // The meter lives on the GUI thread: frameSwapped arrives there.
  const double gui = cpuMs(CLOCK_THREAD_CPUTIME_ID), process = cpuMs(CLOCK_PROCESS_CPUTIME_ID);
  sample.guiCpuMs = gui - std::exchange(guiCpuAt_, gui);
  sample.processCpuMs = process - std::exchange(processCpuAt_, process);
  if (++seen_ <= kWarmUpFrames) {
    measureStart_ = now;  // the interval of the first measured frame starts here
    return;
  }
  ++measured_;
  if (ring_.size() < kRingSize) {
    ring_.push_back(sample);
  } else {
    ring_[next_] = sample;
    next_ = (next_ + 1) % kRingSize;
  }
}

FrameSummary FrameMeter::summary() const {
  FrameSummary s;
  s.presentedFrames = measured_;
  if (measured_ > 0) s.presentedFps = 1e3 * measured_ / msBetween(measureStart_, lastPresented_);
  std::vector<double> intervals;
  for (const FrameSample& f : ring_) {
    intervals.push_back(f.frameMs);
    s.meanStages.updateMs += f.updateMs;
    s.meanStages.renderMs += f.renderMs;
    s.meanStages.presentMs += f.presentMs;
    s.meanStages.chartsMs += f.chartsMs;
    s.meanStages.simulateMs += f.simulateMs;
    s.meanStages.guiCpuMs += f.guiCpuMs;
    s.meanStages.processCpuMs += f.processCpuMs;
  }
  if (!ring_.empty()) {
    const double n = double(ring_.size());
    s.meanStages.frameMs = quantile(intervals, 0.5);
    s.meanStages.updateMs /= n;
    s.meanStages.renderMs /= n;
    s.meanStages.presentMs /= n;
    s.meanStages.chartsMs /= n;
    s.meanStages.simulateMs /= n;
    s.meanStages.guiCpuMs /= n;
    s.meanStages.processCpuMs /= n;
  }
  s.frameMsP50 = quantile(intervals, 0.50);
  s.frameMsP95 = quantile(intervals, 0.95);
  return s;
}

}  // namespace wb::gui
