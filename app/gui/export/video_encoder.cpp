#include "app/gui/export/video_encoder.hpp"

#include <system_error>

#include <QStandardPaths>

#include "core/errors.hpp"

namespace wb::gui {
namespace fs = std::filesystem;

namespace {
constexpr int kStartMs = 10000;
constexpr int kWriteMs = 60000;    // one frame through the encoder
constexpr int kFinishMs = 300000;  // flushing the encoder's queue at the end
}  // namespace

VideoEncoder::VideoEncoder(const fs::path& file, QSize size, int fps) : file_(file), size_(size) {
  const QString program = QStandardPaths::findExecutable("ffmpeg");
  if (program.isEmpty())
    throw InputError(file_.string() + ": MP4 export needs ffmpeg: apt-get install ffmpeg");
  const QString videoSize = QString("%1x%2").arg(size.width()).arg(size.height());
  ffmpeg_.setProgram(program);
  ffmpeg_.setArguments({"-y", "-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
                        "rgb24", "-video_size", videoSize, "-framerate", QString::number(fps), "-i",
                        "pipe:0", "-pix_fmt", "yuv420p", "-f", "mp4",
                        QString::fromStdString(partial().string())});
  ffmpeg_.setProcessChannelMode(QProcess::SeparateChannels);
  ffmpeg_.start();
  if (!ffmpeg_.waitForStarted(kStartMs)) fail("cannot start ffmpeg");
  open_ = true;
}

VideoEncoder::~VideoEncoder() {
  if (open_) cancel();
}

fs::path VideoEncoder::partial() const {
  fs::path path = file_;
  return path += ".part";
}

void VideoEncoder::fail(const std::string& why) {
  cancel();
  QString detail = QString::fromLocal8Bit(ffmpeg_.readAllStandardError()).trimmed();
  detail = detail.section('\n', -1);  // ffmpeg's last word says what went wrong
  throw InputError(file_.string() + ": " + why +
                   (detail.isEmpty() ? std::string() : ": " + detail.toStdString()));
}

void VideoEncoder::add(const QImage& frame) {
  QImage rgb = frame.size() == size_
                   ? frame
                   : frame.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  rgb = rgb.convertToFormat(QImage::Format_RGB888);
  const qsizetype rowBytes = qsizetype(size_.width()) * 3;
  for (int y = 0; y < rgb.height(); ++y)  // rows of a QImage are padded to 4 bytes
    ffmpeg_.write(reinterpret_cast<const char*>(rgb.constScanLine(y)), rowBytes);
  while (ffmpeg_.bytesToWrite() > 0)
    if (!ffmpeg_.waitForBytesWritten(kWriteMs)) fail("ffmpeg stopped taking frames");
}

void VideoEncoder::finish() {
  ffmpeg_.closeWriteChannel();
  if (!ffmpeg_.waitForFinished(kFinishMs)) fail("ffmpeg did not finish");
  if (ffmpeg_.exitStatus() != QProcess::NormalExit || ffmpeg_.exitCode() != 0)
    fail("ffmpeg failed");
  open_ = false;
  std::error_code ec;
  fs::rename(partial(), file_, ec);
  if (ec) {
    fs::remove(partial(), ec);
    throw InputError(file_.string() + ": cannot rename into place: " + ec.message());
  }
}

void VideoEncoder::cancel() {
  open_ = false;
  if (ffmpeg_.state() != QProcess::NotRunning) {
    ffmpeg_.kill();
    ffmpeg_.waitForFinished(kStartMs);
  }
  std::error_code ignored;
  fs::remove(partial(), ignored);
}

}  // namespace wb::gui
