// Exports: plots as PNG / SVG / PDF and their data as CSV; a frame sequence of the views as
// PNG images, the ParaView series of every model (app/export/paraview_series.hpp, the same
// files as `wavebench-cli run --dump-every`), and an MP4 piped to ffmpeg where it is installed.
#pragma once

#include <QDialog>
#include <QImage>
#include <QSize>
#include <QString>

class QCheckBox;
class QLineEdit;
class QProgressDialog;
class QSpinBox;

namespace wb::gui {

class PlotsDock;
class SimulationWorker;

// What the frame export needs of the workbench, and no more: the running simulation, a way
// to pause it and show its newest frame, the views as an image, and a place for a message.
class FrameSource {
 public:
  virtual SimulationWorker& worker() = 0;
  virtual void pause() = 0;
  // Shows the newest snapshot of the worker in the views.
  virtual void tick() = 0;
  // The views as they are now, rendered and scaled to `size`.
  virtual QImage grabViews(QSize size) = 0;
  virtual void showMessage(const QString& message) = 0;

 protected:
  ~FrameSource() = default;
};

void exportPlotsDialog(QWidget* parent, const PlotsDock& plots);
void exportCsvDialog(QWidget* parent, const PlotsDock& plots);

struct FrameExportOptions {
  QString directory;
  int frames = 120;
  QSize size{1280, 720};
  bool png = true;
  bool paraview = false;
  bool mp4 = false;
};

// Path of ffmpeg, or empty when it is not installed.
QString ffmpegPath();

class FrameExportDialog : public QDialog {
  Q_OBJECT

 public:
  explicit FrameExportDialog(QWidget* parent = nullptr);
  FrameExportOptions options() const;
  void setOptions(const FrameExportOptions& options);

 private:
  QLineEdit* directory_;
  QSpinBox* frames_;
  QSpinBox* width_;
  QSpinBox* height_;
  QCheckBox* png_;
  QCheckBox* paraview_;
  QCheckBox* mp4_;
};

// Advances the comparison frame by frame from its current state and writes each frame;
// returns the number of frames written (fewer when cancelled: then no video is left behind).
// Throws InputError.
int exportFrames(FrameSource& source, const FrameExportOptions& options, QProgressDialog* progress);
void exportFramesDialog(QWidget* parent, FrameSource& source);

}  // namespace wb::gui
