// The workbench measures itself: a frame counts when its picture reached the screen (every
// view that was asked to draw it has swapped its buffers), not when a snapshot was handed to
// the views. After a warm-up (shader compilation, first uploads, window mapping), each
// presented frame's interval and the time spent in each stage go into a ring buffer:
//   update      new water written into the scenes (GUI thread)
//   render      VTK rendering, all views
//   present     buffer swaps, all views
//   charts      plots and figures table
//   simulation  the worker advancing the models (its own thread, in parallel)
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace wb::gui {

struct FrameSample {
  double frameMs = 0.0;  // since the previous presented frame
  double updateMs = 0.0, renderMs = 0.0, presentMs = 0.0, chartsMs = 0.0, simulateMs = 0.0;
  // CPU time since the previous presented frame: the GUI thread's, and the whole process's
  // (all threads: GUI, simulation, OpenMP, llvmpipe). Unlike wall times, these do not grow
  // when other programs share the cores.
  double guiCpuMs = 0.0, processCpuMs = 0.0;
};

struct FrameSummary {
  int presentedFrames = 0;    // after the warm-up
  double presentedFps = 0.0;  // presentedFrames over the time since the warm-up ended
  double frameMsP50 = 0.0, frameMsP95 = 0.0;  // over the ring buffer
  FrameSample meanStages;                     // mean per presented frame over the ring buffer
};

class FrameMeter {
 public:
  static constexpr int kWarmUpFrames = 20;
  static constexpr std::size_t kRingSize = 600;
  // A frame whose views never swap (hidden, not exposed) is given up after this long.
  static constexpr double kAbandonMs = 500.0;

  // Starts over (a new comparison, new views): the warm-up begins again.
  void restart();
  // New water was written into the scenes (taking updateMs) and `views` renders requested.
  void frameRequested(double updateMs, int views);
  // True while the last requested frame has not reached the screen (and is not abandoned):
  // the window then holds back the next snapshot instead of piling up renders.
  bool framePending() const;
  void addCharts(double ms) { pending_.chartsMs += ms; }
  void addSimulation(double ms) { pending_.simulateMs += ms; }
  // One view rendered (renderMs) and swapped its buffers (presentMs); the frame is presented
  // when every requested view has. Swaps of camera moves or exposes are not frames.
  void viewSwapped(double renderMs, double presentMs);

  FrameSummary summary() const;
  int warmUpLeft() const { return std::max(0, kWarmUpFrames - seen_); }

 private:
  using Clock = std::chrono::steady_clock;
  void presented();

  std::vector<FrameSample> ring_;
  std::size_t next_ = 0;
  FrameSample pending_;
  int swapsAwaited_ = 0;
  Clock::time_point requestedAt_{}, lastPresented_{}, measureStart_{};
  double guiCpuAt_ = 0.0, processCpuAt_ = 0.0;  // CPU clocks (ms) at the last presented frame
  int seen_ = 0;                                // presented frames since restart, warm-up included
  int measured_ = 0;                            // after the warm-up
};

}  // namespace wb::gui
