// The top-down editor of the domain shared by every model: mask brush (wall or water) with a
// size, depth brush (deepen or shallow the rest depth by a step, cosine falloff), rectangle fill,
// presets (rectangle, Π, obstacles), mask or heightmap PNG import. Every edit goes on a QUndoStack;
// the edited mask or depth is announced once per edit (a brush stroke at its release) so the
// comparison rebuilds once.
#pragma once

#include <optional>

#include <QImage>
#include <QWidget>

#include "app/gui/document/mask_commands.hpp"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QUndoStack;

namespace wb::gui {

enum class MaskTool { WallBrush, WaterBrush, WallRect, WaterRect, DeepenBrush, ShallowBrush };
enum class MaskPresetKind { Rectangle, Pi, Obstacles };

class MaskCanvas;

class MaskEditor : public QWidget {
  Q_OBJECT

 public:
  explicit MaskEditor(QWidget* parent = nullptr);

  // Shows a mask without an undo step (a loaded scenario); clears the undo history when
  // `clearHistory`.
  void showMask(int nx, int ny, const Mask& mask, bool clearHistory);
  void showTerrain(const std::optional<TerrainSetting>& terrain) { terrain_ = terrain; }
  // The domain the models run on: cells the painted mask leaves wet but the heightmap coast
  // turns to land are drawn as land (not editable with the brush; change the sea level).
  void showDomain(const std::vector<std::uint8_t>& wet);
  // The rest depth of every cell before mask and terrain (shades of blue on wet cells).
  void showDepth(const Depth& depth);
  const Mask& mask() const { return mask_; }
  const Depth& depth() const { return depth_; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  QUndoStack* undoStack() const { return undo_; }
  MaskCanvas* canvas() const { return canvas_; }

  // Edits (each one undo step); also used by the tests.
  void setTool(MaskTool tool);
  void setBrushRadius(int cells);
  // The change of depth at the centre of a depth dab (m).
  void setDepthStep(double metres);
  double depthStep() const;
  void applyPreset(MaskPresetKind preset);
  void fillRect(int i0, int j0, int i1, int j1, bool water);
  void beginStroke();
  void dab(int i, int j, bool water);
  // Deepens (or makes shallower) the rest depth around (i, j) by the step times a cosine
  // falloff that reaches 0 one cell beyond the brush radius; never below Domain::kMinDepth.
  void dabDepth(int i, int j, bool deepen);
  void endStroke();
  // Reads a grayscale PNG as the mask (white = water); throws InputError.
  void importMaskImage(const QString& file);
  void importHeightmap(const QString& file, double seaLevel, double heightScale);

 signals:
  void maskEdited(const Mask& mask);
  void depthEdited(const Depth& depth);
  void terrainEdited(const std::optional<TerrainSetting>& terrain);

 private:
  void redraw();
  QRgb wetColour(std::size_t cell, float shallowest, float deepest) const;
  void setMaskFromCommand(const Mask& mask);
  void setDepthFromCommand(const Depth& depth);
  void pushReplace(const QString& text, const Mask& after);
  void askHeightmap();
  void askMaskImage();

  MaskCanvas* canvas_ = nullptr;
  QUndoStack* undo_ = nullptr;
  QComboBox* tool_ = nullptr;
  QSpinBox* radius_ = nullptr;
  QDoubleSpinBox* depthStep_ = nullptr;
  Mask mask_;
  Depth depth_;
  std::vector<std::uint8_t> domainWet_;  // wet cells of the running domain (mask and coast)
  int nx_ = 0, ny_ = 0;
  int stroke_ = 0;
  bool inStroke_ = false;
  bool depthStroke_ = false;  // the current stroke paints depth, not the mask
  std::optional<TerrainSetting> terrain_;
  friend class MaskCanvas;
};

// Draws the mask and depth (y up) and turns mouse input into the editor's tools.
class MaskCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit MaskCanvas(MaskEditor* editor);
  void setImage(const QImage& image) {
    image_ = image;
    update();
  }
  MaskTool tool = MaskTool::WallBrush;
  // Cell under a widget position, if inside the grid.
  std::optional<QPoint> cellAt(QPointF position) const;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  QRectF imageRect() const;
  void dabAt(QPoint cell);
  MaskEditor* editor_;
  QImage image_;
  std::optional<QPoint> rectStart_, rectEnd_;
  std::optional<QPoint> lastDab_;  // a depth brush dabs once per cell it enters
};

}  // namespace wb::gui
