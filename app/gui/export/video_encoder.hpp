// An MP4 written by Debian's ffmpeg: raw RGB frames are piped to its standard input
// (QProcess), so no image files are needed in between. The video goes to a temporary beside
// the target and is renamed into place by finish(); cancel() (or destruction before finish)
// kills ffmpeg and removes the temporary, so no partial video is ever left behind.
#pragma once

#include <filesystem>

#include <QImage>
#include <QProcess>
#include <QSize>

namespace wb::gui {

class VideoEncoder {
 public:
  // Starts ffmpeg for frames of `size` (even sides) at `fps`. Throws InputError when ffmpeg is
  // missing or does not start.
  VideoEncoder(const std::filesystem::path& file, QSize size, int fps);
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;
  ~VideoEncoder();

  // Sends one frame (scaled to the video's size when it differs). Throws InputError when
  // ffmpeg has stopped.
  void add(const QImage& frame);
  // Ends the stream, waits for ffmpeg and renames the video into place. Throws InputError
  // with ffmpeg's own message when it failed.
  void finish();
  void cancel();

 private:
  [[noreturn]] void fail(const std::string& why);
  std::filesystem::path partial() const;

  std::filesystem::path file_;
  QSize size_;
  QProcess ffmpeg_;
  bool open_ = false;
};

}  // namespace wb::gui
