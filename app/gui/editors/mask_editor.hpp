// The top-down editor of the domain shared by every model: mask brush (wall or water) with a
// size, depth brush (deepen or shallow the rest depth by a step, cosine falloff), rectangle fill,
// presets (rectangle, Π, obstacles), mask or heightmap PNG import, elevation files (GDAL),
// the edges (edges_panel.hpp; an open edge's absorbing layer drawn as a blue dashed band). It
// shows the document's layers and edits them through the document, whose undo stack holds
// every edit; a brush stroke is one undo step and one rebuild, at its release.
#pragma once

#include <array>
#include <functional>
#include <optional>

#include <QImage>
#include <QWidget>

#include "app/gui/document/scenario_document.hpp"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QUndoStack;

namespace wb::gui {

enum class MaskTool { WallBrush, WaterBrush, WallRect, WaterRect, DeepenBrush, ShallowBrush };
enum class MaskPresetKind { Rectangle, Pi, Obstacles };

class EdgesPanel;
class MaskCanvas;

class MaskEditor : public QWidget {
  Q_OBJECT

 public:
  explicit MaskEditor(ScenarioDocument& document, QWidget* parent = nullptr);

  // The domain the models run on: cells the painted mask leaves wet but the heightmap coast
  // turns to land are drawn as land (not editable with the brush; change the sea level);
  // walls and water painted while the models run are drawn as they run.
  void showDomain(const std::vector<std::uint8_t>& wet);
  const Mask& mask() const { return document_.mask(); }
  const Depth& depth() const { return document_.depth(); }
  int nx() const { return document_.scenario().grid.nx; }
  int ny() const { return document_.scenario().grid.ny; }
  QUndoStack* undoStack() const { return document_.undoStack(); }
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
  // A wall or water dab of the brush's radius at cell (i, j): an edit of the document's mask,
  // or, when the live-dab hook takes it (the models run), a recorded session entry.
  void dab(int i, int j, bool water);
  // Takes a wall or water dab (x, y, radius in metres) while the models run and returns true,
  // or returns false to leave it to the document (paused, before the start).
  using LiveDab = std::function<bool(const MaskDab& dab, bool water)>;
  void setLiveDab(LiveDab hook) { liveDab_ = std::move(hook); }
  // Deepens (or makes shallower) the rest depth around (i, j) by the step times a cosine
  // falloff that reaches 0 one cell beyond the brush radius; never below Domain::kMinDepth.
  void dabDepth(int i, int j, bool deepen);
  void endStroke();
  // Reads a grayscale PNG as the mask (white = water); throws InputError.
  void importMaskImage(const QString& file);
  void importHeightmap(const QString& file, double seaLevel, double heightScale);
  // The ground from an elevation file read with GDAL (XYZ, ESRI ASCII, GeoTIFF, NetCDF;
  // docs/scenario.md, "Terrain from elevation files"); throws InputError naming the file.
  void importElevationFile(const QString& file, ElevationValues values, double seaLevel,
                           bool gridFromFile, Domain::Coast coast);
  // Makes one side a wall or open (one undo step); the layer keeps the scenario's width.
  void setEdge(Side side, EdgeKind kind);
  EdgesPanel* edgesPanel() const { return edges_; }
  QComboBox* edgeChoice(Side side) const;

 private:
  void redraw();
  QRgb wetColour(std::size_t cell, float shallowest, float deepest) const;
  void askHeightmap();
  void askElevationFile();
  void askMaskImage();

  MaskCanvas* canvas_ = nullptr;
  ScenarioDocument& document_;
  QComboBox* tool_ = nullptr;
  QSpinBox* radius_ = nullptr;
  QDoubleSpinBox* depthStep_ = nullptr;
  EdgesPanel* edges_ = nullptr;
  std::vector<std::uint8_t> domainWet_;  // wet cells of the running domain (mask and coast)
  LiveDab liveDab_;
  bool documentAhead_ = false;  // the document's layers changed since domainWet_ was shown
  bool inStroke_ = false;
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
  void setEdges(const Edges& edges) {
    edges_ = edges;
    update();
  }
  MaskTool tool = MaskTool::WallBrush;
  // Cell under a widget position, if inside the grid.
  std::optional<QPoint> cellAt(QPointF position) const;
  // Where the grid is drawn (y up: row 0 at the bottom); empty before the first image.
  QRectF imageRect() const;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  void dabAt(QPoint cell);
  // The absorbing layer of each open side: a blue band over its cells, dashed at its inner side.
  void paintOpenEdges(QPainter& painter, const QRectF& target) const;
  MaskEditor* editor_;
  QImage image_;
  Edges edges_;
  std::optional<QPoint> rectStart_, rectEnd_;
  std::optional<QPoint> lastDab_;  // a depth brush dabs once per cell it enters
};

}  // namespace wb::gui
