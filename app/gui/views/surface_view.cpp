#include "app/gui/views/surface_view.hpp"

#include <chrono>
#include <cmath>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <QMetaMethod>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWindow>
#include <QPainter>
#include <QSurfaceFormat>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace wb::gui {

namespace {
// A press and release closer than this (pixels) is a click, not a camera drag.
constexpr double kClickTolerancePixels = 4.0;
constexpr int kGlMajor = 3, kGlMinor = 2, kDepthBits = 24, kStencilBits = 8;
}  // namespace

// The native child window a view renders into; it hands everything to its SurfaceView.
class SurfaceWindow : public QOpenGLWindow {
 public:
  explicit SurfaceWindow(SurfaceView* view) : QOpenGLWindow(NoPartialUpdate), view_(view) {
    // Keyboard shortcuts (Space, .) belong to the main window, not to the view.
    setFlag(Qt::WindowDoesNotAcceptFocus);
    connect(this, &QOpenGLWindow::frameSwapped, view, &SurfaceView::swapped);
  }

 protected:
  void initializeGL() override { view_->initializeGL(); }
  void resizeGL(int width, int height) override { view_->resizeGL(width, height); }
  void paintGL() override { view_->paintGL(); }
  void mousePressEvent(QMouseEvent* event) override { view_->mousePressed(event); }
  void mouseMoveEvent(QMouseEvent* event) override { view_->mouseMoved(event); }
  void mouseReleaseEvent(QMouseEvent* event) override { view_->mouseReleased(event); }
  void wheelEvent(QWheelEvent* event) override { view_->wheelTurned(event); }

 private:
  SurfaceView* view_;
};

void SurfaceView::setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(kGlMajor, kGlMinor);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(kDepthBits);
  format.setStencilBufferSize(kStencilBits);
  QSurfaceFormat::setDefaultFormat(format);
}

QString SurfaceView::openGlRenderer() {
  static const QString renderer = [] {
    QOpenGLContext context;
    QOffscreenSurface surface;
    surface.create();
    if (!context.create() || !context.makeCurrent(&surface)) return QString();
    const auto* name = context.functions()->glGetString(GL_RENDERER);
    const QString text = name ? QString::fromLatin1(reinterpret_cast<const char*>(name)) : "";
    context.doneCurrent();
    return text;
  }();
  return renderer;
}

bool SurfaceView::isSoftwareRenderer(const QString& renderer) {
  return renderer.isEmpty() || renderer.contains("llvmpipe", Qt::CaseInsensitive) ||
         renderer.contains("softpipe", Qt::CaseInsensitive) ||
         renderer.contains("swrast", Qt::CaseInsensitive);
}

SurfaceView::SurfaceView(vtkCamera* sharedCamera, QWidget* parent)
    : QWidget(parent), scene_(sharedCamera) {
  window_->AddRenderer(scene_.renderer());
  // VTK asks for 8 samples (llvmpipe gives 4): anti-aliasing halves the software renderer.
  window_->SetMultiSamples(0);
  interactor_->SetRenderWindow(window_);
  interactor_->SetInteractorStyle(style_);
  // Qt schedules the paints; the interactor must not render outside paintGL.
  interactor_->EnableRenderOff();
  glWindow_ = new SurfaceWindow(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(QWidget::createWindowContainer(glWindow_, this));
  setMinimumSize(160, 160);
}

SurfaceView::~SurfaceView() {
  if (glWindow_->isValid()) {
    glWindow_->makeCurrent();
    window_->Finalize();
    glWindow_->doneCurrent();
  }
}

double SurfaceView::pixelRatio() const {
  return glWindow_->devicePixelRatio();
}

void SurfaceView::requestRender() {
  glWindow_->update();
}

QWindow* SurfaceView::renderWindow() const {
  return glWindow_;
}

bool SurfaceView::isOnScreen() const {
  return glWindow_->isExposed();
}

void SurfaceView::initializeGL() {
  window_->SetOwnContext(false);
  window_->SetFrameBlitModeToBlitToCurrent();
  window_->SetIsCurrent(true);
  window_->OpenGLInitContext();
  interactor_->Initialize();
  const auto* name = QOpenGLContext::currentContext()->functions()->glGetString(GL_RENDERER);
  glRenderer_ = name ? QString::fromLatin1(reinterpret_cast<const char*>(name)) : QString();
}

void SurfaceView::resizeGL(int width, int height) {
  const double ratio = pixelRatio();
  window_->SetSize(int(width * ratio), int(height * ratio));
  interactor_->SetSize(int(width * ratio), int(height * ratio));
  scene_.fitToView(int(width * ratio), int(height * ratio));
  emit resized();
}

void SurfaceView::paintGL() {
  const auto start = std::chrono::steady_clock::now();
  window_->SetIsCurrent(true);
  window_->GetState()->ResetFramebufferBindings();
  scene_.renderer()->ResetCameraClippingRange();
  window_->Render();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  lastPaintMs_ = 1e3 * seconds;
  paintEnd_ = std::chrono::steady_clock::now();
  totalPaintSeconds_ += seconds;
  ++paintCount_;
}

void SurfaceView::swapped() {
  lastPresentMs_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - paintEnd_)
          .count();
  emit frameSwapped();
}

QImage SurfaceView::renderToImage() {
  if (!glWindow_->isExposed() || !glWindow_->isValid()) return {};
  glWindow_->makeCurrent();
  paintGL();
  const QSize size = glWindow_->size() * pixelRatio();
  QImage image(size, QImage::Format_RGBA8888);
  auto* gl = QOpenGLContext::currentContext()->functions();
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 1);
  gl->glReadPixels(0, 0, size.width(), size.height(), GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
  glWindow_->doneCurrent();
  return image.mirrored().convertToFormat(QImage::Format_RGB32);
}

void SurfaceView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QImage image = renderToImage();
  if (image.isNull())
    painter.fillRect(rect(), Qt::black);
  else
    painter.drawImage(rect(), image);
}

void SurfaceView::forwardPosition(QPointF position, Qt::KeyboardModifiers modifiers) {
  const double ratio = pixelRatio();
  interactor_->SetEventInformationFlipY(int(position.x() * ratio), int(position.y() * ratio),
                                        (modifiers & Qt::ControlModifier) ? 1 : 0,
                                        (modifiers & Qt::ShiftModifier) ? 1 : 0);
}

void SurfaceView::mousePressed(QMouseEvent* event) {
  pressPosition_ = event->position();
  dragged_ = false;
  if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)) {
    stirFrom_ = pickRestPlane(event->position());  // a stir, not a camera move
    if (stirFrom_) return;
  }
  // Only when someone places the bodies: otherwise Ctrl + drag stays the camera's spin.
  const bool placesBodies = isSignalConnected(QMetaMethod::fromSignal(&SurfaceView::bodyPlaced));
  if (event->button() == Qt::LeftButton && placesBodies &&
      (bodyMode_ || (event->modifiers() & Qt::ControlModifier))) {
    bodyFrom_ = pickRestPlane(event->position());  // a body, not a camera spin
    if (bodyFrom_) return;
  }
  forwardPosition(event->position(), event->modifiers());
  switch (event->button()) {
    case Qt::LeftButton:
      interactor_->InvokeEvent(vtkCommand::LeftButtonPressEvent);
      break;
    case Qt::RightButton:
      interactor_->InvokeEvent(vtkCommand::RightButtonPressEvent);
      break;
    case Qt::MiddleButton:
      interactor_->InvokeEvent(vtkCommand::MiddleButtonPressEvent);
      break;
    default:
      break;
  }
}

void SurfaceView::mouseMoved(QMouseEvent* event) {
  if (stirFrom_ || bodyFrom_) return;
  const QPointF moved = event->position() - pressPosition_;
  if (event->buttons() != Qt::NoButton && std::hypot(moved.x(), moved.y()) > kClickTolerancePixels)
    dragged_ = true;
  forwardPosition(event->position(), event->modifiers());
  interactor_->InvokeEvent(vtkCommand::MouseMoveEvent);
  if (event->buttons() != Qt::NoButton) {
    emit cameraMoved();
  } else if (auto point = pickRestPlane(event->position())) {
    emit surfaceHovered(*point);
  }
}

void SurfaceView::mouseReleased(QMouseEvent* event) {
  if (stirFrom_) {
    const QPointF from = *stirFrom_;
    stirFrom_.reset();
    if (auto to = pickRestPlane(event->position())) emit surfaceStirred(from, *to);
    return;
  }
  if (bodyFrom_) {
    const QPointF from = *bodyFrom_;
    bodyFrom_.reset();
    const QPointF moved = event->position() - pressPosition_;
    const auto to = pickRestPlane(event->position());
    const bool click = std::hypot(moved.x(), moved.y()) <= kClickTolerancePixels || !to;
    emit bodyPlaced(from, click ? from : *to);
    return;
  }
  forwardPosition(event->position(), event->modifiers());
  switch (event->button()) {
    case Qt::LeftButton:
      interactor_->InvokeEvent(vtkCommand::LeftButtonReleaseEvent);
      break;
    case Qt::RightButton:
      interactor_->InvokeEvent(vtkCommand::RightButtonReleaseEvent);
      break;
    case Qt::MiddleButton:
      interactor_->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent);
      break;
    default:
      break;
  }
  if (event->button() == Qt::LeftButton && !dragged_)
    if (auto point = pickRestPlane(event->position())) emit surfaceClicked(*point);
  emit cameraMoved();
}

void SurfaceView::wheelTurned(QWheelEvent* event) {
  forwardPosition(event->position(), event->modifiers());
  interactor_->InvokeEvent(event->angleDelta().y() > 0 ? vtkCommand::MouseWheelForwardEvent
                                                       : vtkCommand::MouseWheelBackwardEvent);
  emit cameraMoved();
}

// Bressler 4.4: unproject the cursor at the near and far clipping planes and intersect that
// ray with the rest plane z = 0.
std::optional<QPointF> SurfaceView::pickRestPlane(QPointF position) const {
  vtkRenderer* renderer = const_cast<SurfaceScene&>(scene_).renderer();
  const double ratio = pixelRatio();
  const double x = position.x() * ratio, y = (height() - position.y()) * ratio - 1.0;
  double ends[2][3];
  for (int k = 0; k < 2; ++k) {
    renderer->SetDisplayPoint(x, y, double(k));
    renderer->DisplayToWorld();
    double world[4];
    renderer->GetWorldPoint(world);
    if (world[3] == 0.0) return std::nullopt;
    for (int c = 0; c < 3; ++c)
      ends[k][c] = world[c] / world[3];
  }
  const double dz = ends[1][2] - ends[0][2];
  if (std::abs(dz) < 1e-12) return std::nullopt;
  const double t = -ends[0][2] / dz;
  if (t < 0.0 || t > 1.0) return std::nullopt;
  return QPointF(ends[0][0] + t * (ends[1][0] - ends[0][0]),
                 ends[0][1] + t * (ends[1][1] - ends[0][1]));
}

}  // namespace wb::gui
