// The central area of the workbench: one 3-D view per shown model and an optional difference
// view (A - B), tiled (up to three side by side, four as two by two, five and six as three by
// two) and sharing one camera. It turns a snapshot into the views' water, bodies and captions
// and chooses the render mesh's stride; the window only tells it what to show.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <vtkNew.h>
#include <QWidget>

#include "app/gui/simulation/simulation_worker.hpp"

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
    double colourRange = 0.05;                                          // m, colour bar's half
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
  // Fits the pool into the views (shared camera).
  void resetCamera();
  // Repaints every view now (export, screenshots).
  void renderNow();
  // Render meshes at the grid's resolution even on a software renderer (measurements).
  void setFullResolutionMesh(bool on);

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

  vtkNew<vtkCamera> camera_;
  QGridLayout* grid_ = nullptr;
  std::vector<SurfaceView*> views_;
  std::vector<int> viewModels_;  // the model index of each view but the difference view
  SurfaceView* differenceView_ = nullptr;
  std::shared_ptr<const Domain> domain_;   // drawn in the views
  std::shared_ptr<const Snapshot> shown_;  // its water is in the views
  Captions captions_;                      // the last shown's
  Look look_;
  int meshStride_ = 1;
  bool fullResolutionMesh_ = false;
  bool cameraNeedsFit_ = false;
};

}  // namespace wb::gui
