#include "app/gui/views/view_grid.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include <vtkCamera.h>
#include <QGridLayout>

#include "app/gui/views/surface_view.hpp"

namespace wb::gui {

namespace {
// Views in a grid: up to three side by side, four as two by two, five and six as three by two.
constexpr int kMaxViewColumns = 3;
int viewColumns(int views) {
  return views == 4 ? 2 : std::min(kMaxViewColumns, std::max(1, views));
}
// A software renderer draws one water vertex per this many pixels of a view (at least).
constexpr double kPixelsPerVertex = 4.0;
}  // namespace

ViewGrid::ViewGrid(QWidget* parent) : QWidget(parent) {
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(2, 2, 2, 2);
  grid_->setSpacing(3);
}

ViewGrid::~ViewGrid() = default;

bool ViewGrid::setUp(const Snapshot& snapshot, const std::vector<int>& shownModels,
                     bool withDifference, bool remake, const Look& look) {
  const std::size_t wanted = shownModels.size() + (withDifference ? 1 : 0);
  const bool firstViews = views_.empty();
  if (remake || views_.size() != wanted || shownModels != viewModels_) {
    for (auto* view : views_) {
      grid_->removeWidget(view);
      view->hide();
      view->deleteLater();
    }
    views_.clear();
    const int columns = viewColumns(int(wanted));
    for (std::size_t k = 0; k < wanted; ++k) {
      auto* view = new SurfaceView(camera_, this);
      connect(view, &SurfaceView::cameraMoved, this, [this] {
        cameraNeedsFit_ = false;
        renderNow();
      });
      connect(view, &SurfaceView::resized, this, [this] {
        if (cameraNeedsFit_) resetCamera();
        updateMeshStride();
      });
      connect(view, &SurfaceView::frameSwapped, this,
              [this, view] { emit frameSwapped(view->lastPaintMs(), view->lastPresentMs()); });
      connect(view, &SurfaceView::surfaceClicked, this, &ViewGrid::surfaceClicked);
      connect(view, &SurfaceView::surfaceStirred, this, &ViewGrid::surfaceStirred);
      connect(view, &SurfaceView::bodyPlaced, this, &ViewGrid::bodyPlaced);
      connect(view, &SurfaceView::surfaceHovered, this, &ViewGrid::surfaceHovered);
      grid_->addWidget(view, int(k) / columns, int(k) % columns);
      views_.push_back(view);
    }
    differenceView_ = withDifference ? views_.back() : nullptr;
    viewModels_ = shownModels;
  }
  layout()->activate();
  domain_ = snapshot.domain;
  look_ = look;
  meshStride_ = meshStrideFor(snapshot.domain->grid());
  const bool software = SurfaceView::isSoftwareRenderer(glRenderer());
  for (auto* view : views_) {
    view->scene().setGradientBackground(!software);
    drawDomain(*view, *snapshot.domain);
  }
  if (differenceView_) {
    differenceView_->scene().setColourTitle("A - B (m)");
    differenceView_->scene().setDivergingColours(true);
  }
  // A new comparison or other views: the automatic ranges start from its data.
  for (AutoRange& range : autoRanges_)
    range.reset();
  differenceViewRange_.reset();
  return firstViews;
}

void ViewGrid::setDomain(std::shared_ptr<const Domain> domain, const Look& look) {
  domain_ = std::move(domain);
  look_ = look;
  if (!domain_ || views_.empty()) return;
  for (auto* view : views_)
    drawDomain(*view, *domain_);
  if (shown_) show(shown_, captions_, true);
}

// The geometry, then the vertical scale typed by the user (if any) and the colour range shown.
void ViewGrid::drawDomain(SurfaceView& view, const Domain& domain) {
  SurfaceScene& scene = view.scene();
  scene.setDomain(domain, look_.waveHeight, meshStride_, look_.maxVerticalScale);
  if (settings_.exaggeration) scene.setVerticalScale(*settings_.exaggeration);
  if (colourRange_ > 0.0 && &view != differenceView_) scene.setColourRange(colourRange_);
}

void ViewGrid::setViewSettings(const ViewSettings& settings) {
  if (settings.mode != settings_.mode) autoRanges_[std::size_t(settings.mode)].reset();
  const bool redraw = settings.exaggeration != settings_.exaggeration;
  settings_ = settings;
  if (redraw && domain_)
    setDomain(domain_, look_);  // shows the last snapshot again
  else if (shown_)
    show(shown_, captions_, true);
}

void ViewGrid::show(std::shared_ptr<const Snapshot> snapshotPointer, const Captions& captions,
                    bool withCaptions) {
  shown_ = std::move(snapshotPointer);
  captions_ = captions;
  const Snapshot& snapshot = *shown_;
  shownMode_ = modeFor(snapshot);
  applyColours(shownMode_, computeColourValues(snapshot, shownMode_));
  followWindow(snapshot);
  const auto [originX, originY] = snapshot.windowOrigin;
  std::vector<BoxMarker> boats;
  for (const auto& boat : snapshot.boats)
    boats.push_back({boat.x - originX, boat.y - originY, captions.boatLength, boat.heading,
                     boat.tilt, 0.0, true});
  for (std::size_t v = 0; v < viewModels_.size() && v < views_.size(); ++v) {
    const std::size_t k = std::size_t(viewModels_[v]);
    if (k >= snapshot.models.size()) continue;
    const ModelSnapshot& m = snapshot.models[k];
    SurfaceScene& scene = views_[v]->scene();
    scene.setEta(m.eta, shownMode_ == ColourMode::Surface   ? nullptr
                        : shownMode_ == ColourMode::Highest ? m.etaMax.get()
                                                            : &colourValues_[v]);
    scene.setRigidBodies(m.rigidMeshes, m.rigidBodies);
    std::vector<BoxMarker> boxes = boats;
    const bool dots = m.bodies.size() > SurfaceScene::kMaxGlyphTracers;
    if (!dots)
      for (const auto& body : m.bodies)
        boxes.push_back({body.x, body.y, m.bodySize, std::atan2(body.vy, body.vx), 0.0, body.z});
    scene.setBoxes(boxes);
    scene.setTracerDots(dots ? m.bodies : std::vector<FloatingBody>{}, m.bodySize);
    if (!withCaptions) continue;
    // The median of the last frames: one frame's wall time jumps with other load.
    const double recentMs = captions.recentStepMs ? captions.recentStepMs(k) : 0.0;
    const double stepMs = recentMs > 0.0 ? recentMs : m.record.stepMs;
    const double frameMs = stepMs * m.record.substeps;
    std::ostringstream caption;
    caption.precision(3);
    caption << m.id << "\nt = " << std::fixed << snapshot.time << " s\n"
            << stepMs << " ms/step x " << m.record.substeps;
    bool warning = false;
    if (m.failure) {
      // The banner says when and why: the runner's message without the model's id, which the
      // caption already shows ("blew up at t = 1.2 s (frame 72): eta became NaN ...").
      const std::string& why = *m.failure;
      const auto at = why.find("blew up");
      caption << "\nSTOPPED: " << (at == std::string::npos ? why : why.substr(at));
      warning = true;
    } else if (snapshot.playing && frameMs > captions.frameBudgetMs) {
      caption << "\nLAGS: " << std::setprecision(1) << frameMs / captions.frameBudgetMs
              << "x slower than real time";
      warning = true;
    }
    if (scene.tracerDotStride() > 1)
      caption << "\n"
              << m.bodies.size() << " tracers, 1 in " << scene.tracerDotStride() << " drawn";
    caption << colourCaption(snapshot, v);
    scene.setCaption(caption.str(), warning);
  }
  if (differenceView_) showDifference(snapshot, captions, withCaptions);
  renderNow();
}

void ViewGrid::showDifference(const Snapshot& snapshot, const Captions& captions,
                              bool withCaptions) {
  const int a = captions.differenceA, b = captions.differenceB;
  if (a < 0 || b < 0 || a >= int(snapshot.models.size()) || b >= int(snapshot.models.size()))
    return;
  const Field2D& etaA = snapshot.models[a].eta;
  const Field2D& etaB = snapshot.models[b].eta;
  Field2D difference(etaA.nx(), etaA.ny());
  for (std::size_t k = 0; k < difference.size(); ++k)
    difference.data()[k] = etaA.data()[k] - etaB.data()[k];
  const ColourRangeSetting& setting = settings_.range(ColourMode::Difference);
  differenceView_->scene().setColourRange(
      setting.automatic ? differenceViewRange_.update(difference.maxAbs(), clock_())
                        : setting.fixed);
  differenceView_->scene().setEta(difference);
  if (!withCaptions) return;
  std::ostringstream caption;
  caption.precision(3);
  caption << snapshot.models[a].id << " - " << snapshot.models[b].id << "\nt = " << std::fixed
          << snapshot.time << " s\nmax |A - B| = " << std::scientific << difference.maxAbs()
          << " m";
  differenceView_->scene().setCaption(caption.str(), false);
}

// With a travelling window the camera rides with the boat it follows: it moves by the boat's
// move in the window's coordinates, so the boat stays put on screen while the water streams
// past, and the window's jumps by whole cells (the water and the boat jump back together)
// do not show. The user's own angle and distance are kept.
void ViewGrid::followWindow(const Snapshot& snapshot) {
  if (!snapshot.windowBoat || *snapshot.windowBoat >= snapshot.boats.size()) {
    followed_.reset();
    return;
  }
  const BoatState& boat = snapshot.boats[*snapshot.windowBoat];
  const std::array<double, 2> at{boat.x - snapshot.windowOrigin[0],
                                 boat.y - snapshot.windowOrigin[1]};
  if (followed_ && followedGeneration_ == snapshot.generation) {
    double focal[3], position[3];
    camera_->GetFocalPoint(focal);
    camera_->GetPosition(position);
    for (int axis = 0; axis < 2; ++axis) {
      focal[axis] += at[axis] - (*followed_)[axis];
      position[axis] += at[axis] - (*followed_)[axis];
    }
    camera_->SetFocalPoint(focal);
    camera_->SetPosition(position);
  }
  followed_ = at;
  followedGeneration_ = snapshot.generation;
}

void ViewGrid::resetCamera() {
  if (views_.empty()) return;
  // The layout gives the new views their size before they are first shown.
  layout()->activate();
  const QSize size = views_.front()->size();
  // Views get their final size after they are shown: keep fitting on resizes until the user
  // moves the camera.
  cameraNeedsFit_ = true;
  // A travelling window is about its boat: the camera frames the middle half of it.
  const bool travels = shown_ && shown_->windowBoat;
  views_.front()->scene().resetCamera(size.width() / double(std::max(1, size.height())),
                                      travels ? 0.5 : 1.0);
  renderNow();
}

void ViewGrid::renderNow() {
  for (auto* view : views_)
    view->requestRender();
}

void ViewGrid::setFullResolutionMesh(bool on) {
  fullResolutionMesh_ = on;
  updateMeshStride();
}

int ViewGrid::viewsOnScreen() const {
  return int(std::count_if(views_.begin(), views_.end(),
                           [](const SurfaceView* view) { return view->isOnScreen(); }));
}

QString ViewGrid::glRenderer() const {
  for (const auto* view : views_)
    if (!view->glRenderer().isEmpty()) return view->glRenderer();
  return SurfaceView::openGlRenderer();
}

// On a GPU every cell corner is a vertex. A software renderer's cost grows with the
// vertices: there the render mesh takes one corner in `stride`, so that a view has one
// vertex per kPixelsPerVertex pixels or more.
int ViewGrid::meshStrideFor(const Grid& grid) const {
  if (fullResolutionMesh_ || !SurfaceView::isSoftwareRenderer(glRenderer())) return 1;
  const int views = std::max<int>(1, int(views_.size()));
  const int columns = viewColumns(views), rows = (views + columns - 1) / columns;
  const double pixels =
      devicePixelRatioF() * std::min(width() / double(columns), height() / double(rows));
  const int cells = std::max(grid.nx, grid.ny);
  return std::max(1, int(std::ceil(cells * kPixelsPerVertex / std::max(1.0, pixels))));
}

void ViewGrid::updateMeshStride() {
  if (!domain_ || views_.empty()) return;
  const int stride = meshStrideFor(domain_->grid());
  if (stride == meshStride_) return;
  meshStride_ = stride;
  setDomain(domain_, look_);
}

}  // namespace wb::gui
