// The central area of the workbench: one 3-D view per shown model and an optional difference
// view (A - B), tiled (up to three side by side, four as two by two, five and six as three by
// two) and sharing one camera. It turns a snapshot into the views' water, bodies and captions
// and chooses the render mesh's stride; the window only tells it what to show. It colours the
// water by eta, by its error against the scenario's reference or by its difference to a
// chosen model (ViewSettings), over a range fixed by the user or following the data
// (AutoRange, one per mode).
#pragma once

#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <vtkNew.h>
#include <QWidget>

#include "app/gui/simulation/simulation_worker.hpp"
#include "app/gui/views/colour_range.hpp"
#include "app/gui/views/view_settings.hpp"

class QGridLayout;
class vtkCamera;

namespace wb::gui {

class SurfaceView;

class ViewGrid : public QWidget {
  Q_OBJECT

 public:
  explicit ViewGrid(QWidget* parent = nullptr);
  ~ViewGrid() override;

  // What the views show besides the snapshot's water.
  struct Look {
    // m: the automatic vertical scale draws a wave of this height at a fixed share of the
    // pool's extent (SurfaceScene::setDomain), at most maxVerticalScale.
    double waveHeight = 0.05;
    double maxVerticalScale = std::numeric_limits<double>::infinity();  // bodies' freeboard
  };
  // The difference view's pair and the figures the captions need.
  struct Captions {
    int differenceA = 0, differenceB = 1;  // model indices of the snapshot
    double frameBudgetMs = 0.0;            // wall time a frame may take at the chosen speed
    double boatLength = 0.0;               // m
    std::function<double(std::size_t)> recentStepMs;  // median ms per step of a model, or 0
  };

  // Makes one view per shown model (shownModels: indices into the snapshot's models) and the
  // difference view if asked, and draws the snapshot's domain in them. Returns whether the
  // views were made anew.
  // remake: make them anew even if their number and models are the same (other models).
  bool setUp(const Snapshot& snapshot, const std::vector<int>& shownModels, bool withDifference,
             bool remake, const Look& look);
  // Draws a new domain (a mask stroke, a new colour range or exaggeration) in every view and
  // shows the last snapshot again on it.
  void setDomain(std::shared_ptr<const Domain> domain, const Look& look);
  // Writes the snapshot's water into the scenes and asks the views to render; captions (text
  // re-rendered by VTK) only when `withCaptions` (a few times a second).
  void show(std::shared_ptr<const Snapshot> snapshot, const Captions& captions, bool withCaptions);
  // What the views colour and over which range, and the vertical scale typed by the user
  // (ViewSettings::exaggeration); shows the last snapshot again with them.
  void setViewSettings(const ViewSettings& settings);
  const ViewSettings& viewSettings() const { return settings_; }
  // The mode the views show: the settings' one, or Surface when the snapshot cannot give it
  // (Error without a reference, Difference with a single model).
  ColourMode shownMode() const { return shownMode_; }
  // The model views' colour range (m, +-) as last shown.
  double colourRange() const { return colourRange_; }
  // The model view v's values as coloured in the last show outside Surface mode (its error or
  // difference; in Surface mode the views colour eta itself and this is not filled).
  const Field2D& colourValues(std::size_t view) const { return colourValues_.at(view); }
  // Fits the pool into the views (shared camera).
  void resetCamera();
  // Repaints every view now (export, screenshots).
  void renderNow();
  // Render meshes at the grid's resolution even on a software renderer (measurements).
  void setFullResolutionMesh(bool on);
  // The automatic ranges' clock (seconds, any steady origin): the wall clock unless a caller
  // gives another, as a test does to run AutoRange's time rule without waiting for it.
  void setClock(std::function<double()> secondsNow) { clock_ = std::move(secondsNow); }

  const std::vector<SurfaceView*>& views() const { return views_; }
  int meshStride() const { return meshStride_; }
  int viewsOnScreen() const;
  QString glRenderer() const;

 signals:
  void surfaceClicked(QPointF point);
  void surfaceStirred(QPointF from, QPointF to);
  void bodyPlaced(QPointF from, QPointF to);
  void surfaceHovered(QPointF point);
  void frameSwapped(double paintMs, double presentMs);

 private:
  int meshStrideFor(const Grid& grid) const;
  void updateMeshStride();
  void showDifference(const Snapshot& snapshot, const Captions& captions, bool withCaptions);
  void drawDomain(SurfaceView& view, const Domain& domain);
  ColourMode modeFor(const Snapshot& snapshot) const;
  static double wallSeconds();  // the automatic ranges' default clock
  // The snapshot's model whose eta is subtracted in Difference mode.
  std::size_t subtractedIndex(const Snapshot& snapshot) const;
  // Fills colourValues_ for the Error and Difference modes; returns the largest |value| over the
  // wet cells of the models still running (the automatic range's data).
  double computeColourValues(const Snapshot& snapshot, ColourMode mode);
  void applyColours(ColourMode mode, double maxAbs);
  std::string colourCaption(const Snapshot& snapshot, std::size_t view) const;

  vtkNew<vtkCamera> camera_;
  QGridLayout* grid_ = nullptr;
  std::vector<SurfaceView*> views_;
  std::vector<int> viewModels_;  // the model index of each view but the difference view
  SurfaceView* differenceView_ = nullptr;
  std::shared_ptr<const Domain> domain_;  // drawn in the views
  void followWindow(const Snapshot& snapshot);
  std::optional<std::array<double, 2>> followed_;  // the followed boat in the window, last shown
  std::uint64_t followedGeneration_ = 0;
  std::shared_ptr<const Snapshot> shown_;  // its water is in the views
  Captions captions_;                      // the last shown's
  Look look_;
  ViewSettings settings_;
  ColourMode shownMode_ = ColourMode::Surface;
  std::array<AutoRange, kColourModeCount> autoRanges_;
  AutoRange differenceViewRange_;
  std::function<double()> clock_ = &ViewGrid::wallSeconds;  // the automatic ranges' (setClock)
  double colourRange_ = 0.0;
  std::vector<Field2D> colourValues_;  // per model view
  int meshStride_ = 1;
  bool fullResolutionMesh_ = false;
  bool cameraNeedsFit_ = false;
};

}  // namespace wb::gui
