// One 3-D view: a SurfaceScene rendered by a vtkGenericOpenGLRenderWindow inside a Qt 6
// QOpenGLWidget (docs/architecture.md: VTK's own Qt module is built against Qt 5). Mouse drags turn
// the shared camera through a vtkGenericRenderWindowInteractor; a click without a drag picks
// the point of the rest plane under the cursor (Bressler 4.4, ray-plane picking).
#pragma once

#include <optional>

#include <vtkNew.h>
#include <QOpenGLWidget>
#include <QPointF>

#include "app/gui/views/surface_scene.hpp"

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkInteractorStyleTrackballCamera;

namespace wb::gui {

class SurfaceView : public QOpenGLWidget {
  Q_OBJECT

 public:
  SurfaceView(vtkCamera* sharedCamera, QWidget* parent = nullptr);
  ~SurfaceView() override;

  // VTK needs an OpenGL 3.2 core context with depth and stencil buffers (docs/architecture.md,
  // platform facts); call before the QApplication exists.
  static void setDefaultSurfaceFormat();

  SurfaceScene& scene() { return scene_; }
  // The point of the plane z = 0 (rest level) under the widget position, if any.
  std::optional<QPointF> pickRestPlane(QPointF widgetPosition) const;
  // Wall time of the last paint (ms) and the number of paints, for the frame-rate report.
  double lastPaintMs() const { return lastPaintMs_; }
  double totalPaintSeconds() const { return totalPaintSeconds_; }
  int paintCount() const { return paintCount_; }

 signals:
  void cameraMoved();
  void resized();
  void surfaceClicked(QPointF worldPoint);
  // Shift + left drag: stir the water from `from` towards `to` (world metres).
  void surfaceStirred(QPointF from, QPointF to);
  void surfaceHovered(QPointF worldPoint);

 protected:
  void initializeGL() override;
  void resizeGL(int width, int height) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void forwardPosition(QPointF position, Qt::KeyboardModifiers modifiers);

  SurfaceScene scene_;
  vtkNew<vtkGenericOpenGLRenderWindow> window_;
  vtkNew<vtkGenericRenderWindowInteractor> interactor_;
  vtkNew<vtkInteractorStyleTrackballCamera> style_;
  QPointF pressPosition_;
  bool dragged_ = false;
  std::optional<QPointF> stirFrom_;  // set while a Shift + left drag is under way
  double lastPaintMs_ = 0.0;
  double totalPaintSeconds_ = 0.0;
  int paintCount_ = 0;
};

}  // namespace wb::gui
