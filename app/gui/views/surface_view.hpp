// One 3-D view: a SurfaceScene rendered by a vtkGenericOpenGLRenderWindow (docs/architecture.md:
// VTK's own Qt module is built against Qt 5) into a native child window (a QOpenGLWindow inside
// QWidget::createWindowContainer). A QOpenGLWidget would switch the whole top-level window
// to OpenGL composition: every frame, and every chart repaint, would compose and swap the
// full window. Here each view swaps only its own rectangle and the rest stays raster.
// Mouse drags turn the shared camera through a vtkGenericRenderWindowInteractor; a click
// without a drag picks the point of the rest plane under the cursor (Bressler 4.4).
#pragma once

#include <chrono>
#include <optional>

#include <vtkNew.h>
#include <QImage>
#include <QPointF>
#include <QWidget>

#include "app/gui/views/surface_scene.hpp"

class QMouseEvent;
class QWindow;
class QWheelEvent;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkInteractorStyleTrackballCamera;

namespace wb::gui {

class SurfaceWindow;

class SurfaceView : public QWidget {
  Q_OBJECT

 public:
  SurfaceView(vtkCamera* sharedCamera, QWidget* parent = nullptr);
  ~SurfaceView() override;

  // VTK needs an OpenGL 3.2 core context with depth and stencil buffers (docs/architecture.md,
  // platform facts); call before the QApplication exists.
  static void setDefaultSurfaceFormat();
  // GL_RENDERER of a context in the default format (probed once; empty without OpenGL).
  static QString openGlRenderer();
  // Mesa's llvmpipe, softpipe or swrast, or no OpenGL at all: every vertex costs CPU time.
  static bool isSoftwareRenderer(const QString& renderer);

  SurfaceScene& scene() { return scene_; }
  // Schedules a render of the view (coalesced by Qt's update requests).
  void requestRender();
  // The view's window is mapped and visible: a requested render will reach the screen.
  bool isOnScreen() const;
  // Renders now and returns the picture (QWidget::grab of the window paints it in place of
  // the native child window, which a grab cannot see). Null when the view is not exposed.
  QImage renderToImage();
  // The point of the plane z = 0 (rest level) under the widget position, if any.
  std::optional<QPointF> pickRestPlane(QPointF widgetPosition) const;
  // Wall time of the last render (ms), all renders, and their count.
  double lastPaintMs() const { return lastPaintMs_; }
  double totalPaintSeconds() const { return totalPaintSeconds_; }
  int paintCount() const { return paintCount_; }
  // From the end of the last render to its buffer swap (ms).
  double lastPresentMs() const { return lastPresentMs_; }
  // The native window the view renders into and takes the mouse from.
  QWindow* renderWindow() const;
  // The renderer's OpenGL string (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"), once rendered.
  QString glRenderer() const { return glRenderer_; }
  // Body mode: a plain left click or drag places a body as Ctrl + left does (no camera turn).
  void setBodyMode(bool on) { bodyMode_ = on; }

 signals:
  void cameraMoved();
  void resized();
  // The view's picture reached the screen (after its buffer swap).
  void frameSwapped();
  void surfaceClicked(QPointF worldPoint);
  // Shift + left drag: stir the water from `from` towards `to` (world metres).
  void surfaceStirred(QPointF from, QPointF to);
  // Ctrl + left click (from == to) or drag, or either in body mode: a body is dropped at
  // `from`, thrown towards `to` (world metres).
  void bodyPlaced(QPointF from, QPointF to);
  void surfaceHovered(QPointF worldPoint);

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  friend class SurfaceWindow;
  void initializeGL();
  void resizeGL(int width, int height);
  void paintGL();
  void swapped();
  void mousePressed(QMouseEvent* event);
  void mouseMoved(QMouseEvent* event);
  void mouseReleased(QMouseEvent* event);
  void wheelTurned(QWheelEvent* event);
  void forwardPosition(QPointF position, Qt::KeyboardModifiers modifiers);
  double pixelRatio() const;

  SurfaceScene scene_;
  SurfaceWindow* glWindow_ = nullptr;  // owned by its container widget
  vtkNew<vtkGenericOpenGLRenderWindow> window_;
  vtkNew<vtkGenericRenderWindowInteractor> interactor_;
  vtkNew<vtkInteractorStyleTrackballCamera> style_;
  QPointF pressPosition_;
  bool dragged_ = false;
  std::optional<QPointF> stirFrom_;  // set while a Shift + left drag is under way
  std::optional<QPointF> bodyFrom_;  // set while a body is being placed (Ctrl + left)
  bool bodyMode_ = false;
  double lastPaintMs_ = 0.0;
  double totalPaintSeconds_ = 0.0;
  int paintCount_ = 0;
  std::chrono::steady_clock::time_point paintEnd_{};
  double lastPresentMs_ = 0.0;
  QString glRenderer_;
};

}  // namespace wb::gui
