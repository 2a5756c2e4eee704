#include "app/gui/export/export_actions.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>

#include "app/export/paraview_series.hpp"
#include "app/gui/export/video_encoder.hpp"
#include "app/gui/simulation/simulation_worker.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

namespace wb::gui {

namespace {
constexpr int kMaxExportFrames = 100000;
constexpr int kMaxExportPixels = 8192;
constexpr int kStepTimeoutMs = 60000;  // a frame that takes longer is reported as an error
constexpr int kVideoFps = 60;
constexpr const char* kNeedsFfmpeg =
    "MP4 export needs ffmpeg, which is not installed: apt-get install ffmpeg";

void warn(QWidget* parent, const QString& title, const std::exception& error) {
  QMessageBox::warning(parent, title, QString::fromStdString(error.what()));
}

// Waits (keeping the GUI alive) until the worker has published a frame after `frame`.
void waitForFrameAfter(FrameSource& window, int frame) {
  QElapsedTimer clock;
  clock.start();
  while (!window.worker().latest() || window.worker().latest()->frame <= frame) {
    if (clock.elapsed() > kStepTimeoutMs)
      throw InputError("frame export: the simulation did not advance within 60 s");
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  window.tick();
}

// Runs `work` on the simulation thread between two frames and waits for it (keeping the GUI
// alive); rethrows what it threw.
// `work` is copied: it may still run after a timeout, so it must own what it touches.
void runOnWorker(FrameSource& window, std::function<void(Comparison&)> work) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  window.worker().post([done, work = std::move(work)](Comparison& comparison) {
    try {
      work(comparison);
      done->set_value();
    } catch (...) {
      done->set_exception(std::current_exception());
    }
  });
  QElapsedTimer clock;
  clock.start();
  while (finished.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
    if (clock.elapsed() > kStepTimeoutMs)
      throw InputError("frame export: the simulation did not answer within 60 s");
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  finished.get();
}

// yuv420p needs even sides.
QSize evenSize(QSize size) {
  return {size.width() + size.width() % 2, size.height() + size.height() % 2};
}

}  // namespace

void exportPlotsDialog(QWidget* parent, const PlotsDock& plots) {
  const QString file = QFileDialog::getSaveFileName(
      parent, QObject::tr("Export plots"), "plots.png",
      QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
  if (file.isEmpty()) return;
  try {
    plots.exportPlots(file);
  } catch (const std::exception& error) {
    warn(parent, QObject::tr("Export plots"), error);
  }
}

void exportCsvDialog(QWidget* parent, const PlotsDock& plots) {
  const QString file = QFileDialog::getSaveFileName(parent, QObject::tr("Export plot data"),
                                                    "series.csv", QObject::tr("CSV (*.csv)"));
  if (file.isEmpty()) return;
  try {
    plots.exportCsv(file);
  } catch (const std::exception& error) {
    warn(parent, QObject::tr("Export plot data"), error);
  }
}

QString ffmpegPath() {
  return QStandardPaths::findExecutable("ffmpeg");
}

FrameExportDialog::FrameExportDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export frames"));
  auto* form = new QFormLayout(this);
  directory_ = new QLineEdit;
  directory_->setObjectName("directory");
  auto* browse = new QPushButton(tr("Browse…"));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Export to"), directory_->text());
    if (!dir.isEmpty()) directory_->setText(dir);
  });
  auto* dirRow = new QHBoxLayout;
  dirRow->addWidget(directory_, 1);
  dirRow->addWidget(browse);
  frames_ = new QSpinBox;
  frames_->setObjectName("frames");
  frames_->setRange(1, kMaxExportFrames);
  frames_->setToolTip(
      tr("Frames from the current one on; the simulation advances while exporting"));
  width_ = new QSpinBox;
  height_ = new QSpinBox;
  for (auto* spin : {width_, height_}) {
    spin->setRange(16, kMaxExportPixels);
    spin->setSuffix(" px");
  }
  auto* sizeRow = new QHBoxLayout;
  sizeRow->addWidget(width_);
  sizeRow->addWidget(new QLabel("×"));
  sizeRow->addWidget(height_);
  png_ = new QCheckBox(tr("PNG image of the views per frame"));
  paraview_ =
      new QCheckBox(tr("ParaView files per model: eta, depth, velocity (.vti), bodies (.vtp)"));
  mp4_ = new QCheckBox(tr("MP4 video (ffmpeg), %1 frames/s").arg(kVideoFps));
  mp4_->setObjectName("mp4");
  if (ffmpegPath().isEmpty()) {
    mp4_->setEnabled(false);
    mp4_->setText(tr("MP4 video: needs ffmpeg (apt-get install ffmpeg)"));
    mp4_->setToolTip(QString::fromUtf8(kNeedsFfmpeg));
  }
  form->addRow(tr("folder"), dirRow);
  form->addRow(tr("frames"), frames_);
  form->addRow(tr("image size"), sizeRow);
  form->addRow(png_);
  form->addRow(paraview_);
  form->addRow(mp4_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    if (directory_->text().isEmpty()) {
      QMessageBox::warning(this, windowTitle(), tr("Choose a folder to export to."));
      return;
    }
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
  setOptions(FrameExportOptions{});
}

FrameExportOptions FrameExportDialog::options() const {
  return {directory_->text(), frames_->value(),       QSize(width_->value(), height_->value()),
          png_->isChecked(),  paraview_->isChecked(), mp4_->isChecked() && mp4_->isEnabled()};
}

void FrameExportDialog::setOptions(const FrameExportOptions& o) {
  directory_->setText(o.directory);
  frames_->setValue(o.frames);
  width_->setValue(o.size.width());
  height_->setValue(o.size.height());
  png_->setChecked(o.png);
  paraview_->setChecked(o.paraview);
  mp4_->setChecked(o.mp4 && mp4_->isEnabled());
}

int exportFrames(FrameSource& window, const FrameExportOptions& o, QProgressDialog* progress) {
  const std::filesystem::path dir = o.directory.toStdString();
  if (o.mp4 && ffmpegPath().isEmpty()) throw InputError(kNeedsFfmpeg);
  ensureWritableDirectory(dir);
  window.pause();
  window.tick();
  // Shared with the worker thread's commands (see runOnWorker).
  auto paraview = std::make_shared<std::optional<ParaViewSeries>>();
  std::optional<VideoEncoder> video;
  if (o.mp4) video.emplace(dir / "frames.mp4", evenSize(o.size), kVideoFps);
  int written = 0;
  for (int f = 0; f < o.frames; ++f) {
    if (progress) {
      progress->setValue(f);
      if (progress->wasCanceled()) break;
    }
    if (f > 0) {
      const int before = window.worker().latest()->frame;
      window.worker().stepOnce();
      waitForFrameAfter(window, before);
    }
    if (o.png || o.mp4) {
      const QImage image = window.grabViews(o.mp4 ? evenSize(o.size) : o.size);
      const QString file = QString("%1/frame_%2.png").arg(o.directory).arg(f, 5, 10, QChar('0'));
      if (o.png && !image.save(file)) throw InputError(file.toStdString() + ": cannot write image");
      if (video) video->add(image);
    }
    // The fields and the bodies come from the comparison itself, on the worker thread
    // between two frames: the same writer as `wavebench-cli run --dump-every`.
    if (o.paraview)
      runOnWorker(window, [paraview, dir](Comparison& comparison) {
        if (!*paraview) paraview->emplace(dir, comparison);
        (*paraview)->frame(comparison);
      });
    ++written;
  }
  if (*paraview) (*paraview)->finish();
  if (video) {
    if (written < o.frames)
      video->cancel();
    else
      video->finish();
  }
  if (progress) progress->setValue(o.frames);
  return written;
}

void exportFramesDialog(QWidget* parent, FrameSource& window) {
  FrameExportDialog dialog(parent);
  if (dialog.exec() != QDialog::Accepted) return;
  const FrameExportOptions options = dialog.options();
  QProgressDialog progress(QObject::tr("Exporting frames…"), QObject::tr("Cancel"), 0,
                           options.frames, parent);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(0);
  try {
    const int written = exportFrames(window, options, &progress);
    window.showMessage(QObject::tr("Exported %1 frames to %2").arg(written).arg(options.directory));
  } catch (const std::exception& error) {
    warn(parent, QObject::tr("Export frames"), error);
  }
}

}  // namespace wb::gui
