#include "app/gui/editors/mask_editor.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/gui/editors/edges_panel.hpp"
#include "core/errors.hpp"
#include "core/forcing/excitations.hpp"
#include "core/grid/domain.hpp"
#include "core/scenario/field_io.hpp"

namespace wb::gui {

namespace {
const QRgb kWallColour = qRgb(115, 140, 75);
const QRgb kCoastColour = qRgb(205, 185, 130);  // land from the heightmap, above sea level
// The obstacles preset: round islands at these centres (shares of the pool) and radius.
constexpr double kIslands[][2] = {{0.3, 0.55}, {0.55, 0.3}, {0.7, 0.7}};
constexpr double kIslandRadiusShare = 0.08;
constexpr int kDefaultBrushRadius = 2;
// Wet cells: light blue over the shallowest, dark blue over the deepest rest depth.
const QColor kShallowColour(150, 200, 240), kDeepColour(10, 40, 120);
constexpr double kEvenDepthShade = 0.5;    // the shade of a pool of one depth
constexpr double kDefaultDepthStep = 0.1;  // m, until a scenario sets it
constexpr double kMaxDepthStep = 1000.0;   // m
constexpr int kDepthStepDecimals = 3;
// An open edge's layer: translucent blue over its cells, a dashed blue line at its inner side.
const QColor kOpenLayerFill(40, 110, 255, 110), kOpenLayerLine(0, 70, 230);
constexpr double kOpenLayerLineWidth = 2.0;

// Cosine falloff of a depth dab: 1 at the centre, 0 at `reach` cells and beyond.
double depthFalloff(double distance, double reach) {
  if (distance >= reach) return 0.0;
  return 0.5 * (1.0 + std::cos(std::numbers::pi * distance / reach));
}
}  // namespace

MaskEditor::MaskEditor(ScenarioDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  auto* layout = new QVBoxLayout(this);
  auto* tools = new QHBoxLayout;
  tool_ = new QComboBox;
  tool_->setObjectName("tool");
  // In MaskTool's order.
  tool_->addItems({tr("Brush: wall"), tr("Brush: water"), tr("Rectangle: wall"),
                   tr("Rectangle: water"), tr("Brush: deepen"), tr("Brush: shallow")});
  connect(tool_, &QComboBox::currentIndexChanged, this,
          [this](int index) { canvas_->tool = MaskTool(index); });
  radius_ = new QSpinBox;
  radius_->setRange(0, 64);
  radius_->setValue(kDefaultBrushRadius);
  radius_->setPrefix(tr("radius "));
  radius_->setSuffix(tr(" cells"));
  depthStep_ = new QDoubleSpinBox;
  depthStep_->setObjectName("depthStep");
  depthStep_->setRange(Domain::kMinDepth, kMaxDepthStep);
  depthStep_->setDecimals(kDepthStepDecimals);
  depthStep_->setValue(kDefaultDepthStep);
  depthStep_->setPrefix(tr("step "));
  depthStep_->setSuffix(tr(" m"));
  depthStep_->setToolTip(tr("Change of rest depth at the centre of a deepen/shallow dab"));
  tools->addWidget(tool_);
  tools->addWidget(radius_);
  tools->addWidget(depthStep_);
  layout->addLayout(tools);

  auto* presets = new QHBoxLayout;
  const std::pair<QString, MaskPresetKind> presetButtons[] = {
      {tr("Rectangle"), MaskPresetKind::Rectangle},
      {tr("Π pool"), MaskPresetKind::Pi},
      {tr("Obstacles"), MaskPresetKind::Obstacles}};
  for (const auto& [name, kind] : presetButtons) {
    auto* button = new QPushButton(name);
    connect(button, &QPushButton::clicked, this, [this, kind = kind] { applyPreset(kind); });
    presets->addWidget(button);
  }
  layout->addLayout(presets);

  auto* files = new QHBoxLayout;
  auto* importMask = new QPushButton(tr("Import mask…"));
  auto* importHeight = new QPushButton(tr("Import heightmap…"));
  importMask->setToolTip(tr("Grayscale PNG: white = water, black = wall"));
  importHeight->setToolTip(tr("Grayscale PNG of terrain height: cells above sea level are land"));
  connect(importMask, &QPushButton::clicked, this, &MaskEditor::askMaskImage);
  connect(importHeight, &QPushButton::clicked, this, &MaskEditor::askHeightmap);
  auto* importElevation = new QPushButton(tr("Import elevation file…"));
  importElevation->setToolTip(
      tr("Bathymetry or topography: XYZ, ESRI ASCII (.asc), GeoTIFF or NetCDF, read with GDAL"));
  connect(importElevation, &QPushButton::clicked, this, &MaskEditor::askElevationFile);
  files->addWidget(importMask);
  files->addWidget(importHeight);
  files->addWidget(importElevation);
  layout->addLayout(files);

  // The canvas comes right after the tools that paint on it, so that on a laptop's screen
  // it is in view without scrolling; the edges' settings follow it.
  canvas_ = new MaskCanvas(this);
  layout->addWidget(canvas_, 1);

  auto* history = new QHBoxLayout;
  for (QAction* action : {undoStack()->createUndoAction(this, tr("Undo")),
                          undoStack()->createRedoAction(this, tr("Redo"))}) {
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    history->addWidget(button);
  }
  history->addStretch();
  layout->addLayout(history);

  edges_ = new EdgesPanel(document_);
  layout->addWidget(edges_);
  connect(&document_, &ScenarioDocument::layersChanged, this, [this] {
    documentAhead_ = true;
    redraw();
  });
  redraw();
}

QRgb MaskEditor::wetColour(std::size_t cell, float shallowest, float deepest) const {
  const bool depthShown = depth().size() == mask().size();
  const double shade = !depthShown || deepest <= shallowest
                           ? kEvenDepthShade
                           : (depth().data()[cell] - shallowest) / (deepest - shallowest);
  const auto mix = [shade](int shallow, int deep) {
    return int(shallow + shade * (deep - shallow));
  };
  return qRgb(mix(kShallowColour.red(), kDeepColour.red()),
              mix(kShallowColour.green(), kDeepColour.green()),
              mix(kShallowColour.blue(), kDeepColour.blue()));
}

void MaskEditor::setEdge(Side side, EdgeKind kind) {
  edges_->setEdge(side, kind);
}

QComboBox* MaskEditor::edgeChoice(Side side) const {
  return edges_->choice(side);
}

void MaskEditor::redraw() {
  canvas_->setEdges(document_.scenario().edges);
  const Mask& wet = mask();
  const int nx = this->nx(), ny = this->ny();
  if (wet.size() != std::size_t(nx) * ny) return;           // no scenario yet
  if (domainWet_.size() != wet.size()) domainWet_.clear();  // the grid changed
  // The running domain's cells (the strokes made while the models run included); cells the
  // document has made walls since it was built are walls already.
  const auto wetHere = [&](std::size_t k) {
    if (domainWet_.empty()) return wet[k] != 0;
    return domainWet_[k] != 0 && (wet[k] || !documentAhead_);
  };
  float shallowest = std::numeric_limits<float>::max(), deepest = 0.0f;
  if (depth().size() == wet.size())
    for (std::size_t k = 0; k < wet.size(); ++k)
      if (wetHere(k)) {
        shallowest = std::min(shallowest, depth().data()[k]);
        deepest = std::max(deepest, depth().data()[k]);
      }
  QImage image(nx, ny, QImage::Format_RGB32);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = std::size_t(j) * nx + i;
      const bool water = wetHere(k);
      const bool coast =
          !water && wet[k] && (document_.scenario().terrain || document_.scenario().terrainFile);
      const QRgb colour = water   ? wetColour(k, shallowest, deepest)
                          : coast ? kCoastColour
                                  : kWallColour;
      image.setPixel(i, ny - 1 - j, colour);
    }
  canvas_->setImage(image);
}

void MaskEditor::showDomain(const std::vector<std::uint8_t>& wet) {
  if (wet == domainWet_ && !documentAhead_) return;
  domainWet_ = wet;
  documentAhead_ = false;
  redraw();
}

void MaskEditor::setTool(MaskTool tool) {
  tool_->setCurrentIndex(int(tool));
}
void MaskEditor::setBrushRadius(int cells) {
  radius_->setValue(cells);
}

void MaskEditor::setDepthStep(double metres) {
  depthStep_->setValue(metres);
}
double MaskEditor::depthStep() const {
  return depthStep_->value();
}

void MaskEditor::applyPreset(MaskPresetKind preset) {
  const int nx = this->nx(), ny = this->ny();
  Domain domain(Grid{nx, ny, 1.0}, 9.81, 1.0);
  if (preset == MaskPresetKind::Pi) domain.applyPreset(MaskPreset::Pi);
  Mask after = domain.wetMask();
  if (preset == MaskPresetKind::Obstacles)
    for (const auto& centre : kIslands) {
      const double radius = kIslandRadiusShare * std::max(nx, ny);
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          if (std::hypot(i + 0.5 - centre[0] * nx, j + 0.5 - centre[1] * ny) < radius)
            after[std::size_t(j) * nx + i] = 0;
    }
  const QString names[] = {tr("rectangle preset"), tr("Π preset"), tr("obstacles preset")};
  document_.setMask(after, names[int(preset)]);
}

void MaskEditor::fillRect(int i0, int j0, int i1, int j1, bool water) {
  const int nx = this->nx(), ny = this->ny();
  Mask after = mask();
  for (int j = std::max(0, std::min(j0, j1)); j <= std::min(ny - 1, std::max(j0, j1)); ++j)
    for (int i = std::max(0, std::min(i0, i1)); i <= std::min(nx - 1, std::max(i0, i1)); ++i)
      after[std::size_t(j) * nx + i] = water ? 1 : 0;
  document_.setMask(after, water ? tr("fill water") : tr("fill wall"));
}

void MaskEditor::beginStroke() {
  inStroke_ = true;
  document_.beginStroke();
}

void MaskEditor::dab(int ci, int cj, bool water) {
  const Grid& grid = document_.scenario().grid;
  const MaskDab disc{grid.x(ci), grid.y(cj), radius_->value() * grid.dx};
  if (liveDab_ && liveDab_(disc, water)) return;
  // The cells a recorded stroke would take (strokeCells): paused or playing, one footprint.
  Mask after = mask();
  for (const std::uint32_t k :
       strokeCells(MaskStroke{.time = 0.0, .solid = !water, .dabs = {disc}}, grid))
    after[k] = water ? 1 : 0;
  if (after == mask()) return;
  document_.paintMask(after, water ? tr("paint water") : tr("paint wall"));
}

void MaskEditor::dabDepth(int ci, int cj, bool deepen) {
  const int nx = this->nx(), ny = this->ny();
  if (depth().nx() != nx || depth().ny() != ny) return;  // no depth yet
  const int r = radius_->value();
  const double reach = r + 1.0;
  const double step = deepen ? depthStep_->value() : -depthStep_->value();
  Depth after = depth();
  for (int j = std::max(0, cj - r); j <= std::min(ny - 1, cj + r); ++j)
    for (int i = std::max(0, ci - r); i <= std::min(nx - 1, ci + r); ++i) {
      const double weight = depthFalloff(std::hypot(i - ci, j - cj), reach);
      if (weight > 0.0)
        after(i, j) = float(std::max(Domain::kMinDepth, after(i, j) + step * weight));
    }
  if (sameField(after, depth())) return;
  document_.paintDepth(after, deepen ? tr("deepen") : tr("make shallower"));
}

void MaskEditor::endStroke() {
  if (!inStroke_) return;
  inStroke_ = false;
  document_.endStroke();
}

void MaskEditor::importMaskImage(const QString& file) {
  const Field2D image = readPngField(file.toStdString(), nx(), ny());
  Mask after(image.size());
  for (std::size_t k = 0; k < image.size(); ++k)
    after[k] = image.data()[k] >= 0.5f;
  document_.setMask(after, tr("import mask"));
}

void MaskEditor::importHeightmap(const QString& file, double seaLevel, double heightScale) {
  readPngField(file.toStdString(), nx(), ny());  // fails here, with the file's name, if unusable
  document_.setTerrain(TerrainSetting{file, seaLevel, heightScale});
}

void MaskEditor::importElevationFile(const QString& file, ElevationValues values, double seaLevel,
                                     bool gridFromFile, Domain::Coast coast) {
  TerrainFile terrain;
  terrain.file = FileRef{file.toStdString(), false};
  terrain.values = values;
  terrain.gridFromFile = gridFromFile;
  document_.setTerrainFile(terrain, seaLevel, coast);
}

void MaskEditor::askElevationFile() {
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Import elevation file"), QString(),
      tr("Elevation files (*.xyz *.txt *.asc *.tif *.tiff *.nc *.grd *.gz);;All files (*)"));
  if (file.isEmpty()) return;
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Elevation file"));
  auto* form = new QFormLayout(&dialog);
  auto* values = new QComboBox;
  values->addItem(tr("depth below the still water"));
  values->addItem(tr("elevation above the datum"));
  values->setToolTip(tr("What the file's numbers are: depths (positive down) or heights"));
  auto* sea = new QDoubleSpinBox;
  sea->setRange(-1e5, 1e5);
  sea->setDecimals(3);
  sea->setValue(0.0);
  sea->setSuffix(" m");
  sea->setToolTip(tr("The still water's level in the file's datum"));
  auto* grid = new QComboBox;
  grid->addItem(tr("the file's samples"));
  grid->addItem(tr("resample onto the current grid"));
  auto* coast = new QComboBox;
  coast->addItem(tr("ground (floods and drains)"));
  coast->addItem(tr("walls"));
  form->addRow(tr("values"), values);
  form->addRow(tr("sea level"), sea);
  form->addRow(tr("grid"), grid);
  form->addRow(tr("land"), coast);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return;
  try {
    importElevationFile(
        file, values->currentIndex() == 0 ? ElevationValues::Depth : ElevationValues::Elevation,
        sea->value(), grid->currentIndex() == 0,
        coast->currentIndex() == 0 ? Domain::Coast::Ground : Domain::Coast::Walls);
  } catch (const std::exception& error) {
    QMessageBox::warning(this, tr("Import elevation file"), QString::fromStdString(error.what()));
  }
}

void MaskEditor::askMaskImage() {
  const QString file =
      QFileDialog::getOpenFileName(this, tr("Import mask"), QString(), tr("PNG images (*.png)"));
  if (file.isEmpty()) return;
  try {
    importMaskImage(file);
  } catch (const std::exception& error) {
    QMessageBox::warning(this, tr("Import mask"), QString::fromStdString(error.what()));
  }
}

void MaskEditor::askHeightmap() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Import heightmap"), QString(),
                                                    tr("PNG images (*.png)"));
  if (file.isEmpty()) return;
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Heightmap coast"));
  auto* form = new QFormLayout(&dialog);
  const std::optional<TerrainSetting> terrain = document_.terrain();
  auto* sea = new QDoubleSpinBox;
  auto* scale = new QDoubleSpinBox;
  sea->setRange(0.0, 1000.0);
  sea->setValue(terrain ? terrain->seaLevel : 0.5);
  sea->setSuffix(" m");
  sea->setToolTip(tr("Cells whose terrain is at or above the sea level are land"));
  scale->setRange(0.001, 1000.0);
  scale->setValue(terrain ? terrain->heightScale : 1.0);
  scale->setSuffix(" m");
  scale->setToolTip(tr("Terrain height of a white pixel"));
  form->addRow(tr("sea level"), sea);
  form->addRow(tr("height of white"), scale);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return;
  try {
    importHeightmap(file, sea->value(), scale->value());
  } catch (const std::exception& error) {
    QMessageBox::warning(this, tr("Import heightmap"), QString::fromStdString(error.what()));
  }
}

MaskCanvas::MaskCanvas(MaskEditor* editor) : QWidget(editor), editor_(editor) {
  setMinimumSize(200, 200);
  setCursor(Qt::CrossCursor);
}

QRectF MaskCanvas::imageRect() const {
  if (image_.isNull()) return {};
  const double scale =
      std::min(width() / double(image_.width()), height() / double(image_.height()));
  const QSizeF size(image_.width() * scale, image_.height() * scale);
  return QRectF(QPointF((width() - size.width()) / 2, (height() - size.height()) / 2), size);
}

std::optional<QPoint> MaskCanvas::cellAt(QPointF position) const {
  const QRectF rect = imageRect();
  if (!rect.contains(position)) return std::nullopt;
  const int i = int((position.x() - rect.left()) / rect.width() * image_.width());
  const int row = int((position.y() - rect.top()) / rect.height() * image_.height());
  return QPoint(std::min(i, image_.width() - 1),
                image_.height() - 1 - std::min(row, image_.height() - 1));
}

void MaskCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  const QRectF target = imageRect();
  painter.drawImage(target, image_);
  paintOpenEdges(painter, target);
  if (rectStart_ && rectEnd_) {
    const double cell = target.width() / image_.width();
    const auto corner = [&](QPoint c) {
      return QPointF(target.left() + c.x() * cell, target.bottom() - c.y() * cell);
    };
    QRectF r(corner(*rectStart_), corner(*rectEnd_));
    r = r.normalized().adjusted(0, -cell, cell, 0);
    painter.setPen(QPen(Qt::yellow, 2, Qt::DashLine));
    painter.drawRect(r);
  }
}

void MaskCanvas::paintOpenEdges(QPainter& painter, const QRectF& target) const {
  if (image_.isNull()) return;
  const double cell = target.width() / image_.width();
  const double across = std::min(edges_.layerCells, image_.width()) * cell;
  const double upDown = std::min(edges_.layerCells, image_.height()) * cell;
  painter.save();
  painter.setPen(QPen(kOpenLayerLine, kOpenLayerLineWidth, Qt::DashLine));
  for (Side side : kSides) {
    if (!edges_.isOpen(side)) continue;
    // The band over the layer's cells and its inner side (y up: north is the picture's top).
    QRectF band = target;
    QLineF inner;
    switch (side) {
      case Side::West:
        band.setWidth(across);
        inner = QLineF(band.topRight(), band.bottomRight());
        break;
      case Side::East:
        band.setLeft(target.right() - across);
        inner = QLineF(band.topLeft(), band.bottomLeft());
        break;
      case Side::South:
        band.setTop(target.bottom() - upDown);
        inner = QLineF(band.topLeft(), band.topRight());
        break;
      case Side::North:
        band.setHeight(upDown);
        inner = QLineF(band.bottomLeft(), band.bottomRight());
        break;
    }
    painter.fillRect(band, kOpenLayerFill);
    painter.drawLine(inner);
  }
  painter.restore();
}

void MaskCanvas::mousePressEvent(QMouseEvent* event) {
  const auto cell = cellAt(event->position());
  if (!cell) return;
  if (tool == MaskTool::WallRect || tool == MaskTool::WaterRect) {
    rectStart_ = rectEnd_ = cell;
    update();
    return;
  }
  editor_->beginStroke();
  lastDab_.reset();
  dabAt(*cell);
}

void MaskCanvas::dabAt(QPoint cell) {
  if (tool == MaskTool::DeepenBrush || tool == MaskTool::ShallowBrush) {
    if (lastDab_ == cell) return;  // a dab adds depth: once per cell the stroke enters
    lastDab_ = cell;
    editor_->dabDepth(cell.x(), cell.y(), tool == MaskTool::DeepenBrush);
  } else {
    editor_->dab(cell.x(), cell.y(), tool == MaskTool::WaterBrush);
  }
}

void MaskCanvas::mouseMoveEvent(QMouseEvent* event) {
  if (!(event->buttons() & Qt::LeftButton)) return;
  const auto cell = cellAt(event->position());
  if (!cell) return;
  if (rectStart_) {
    rectEnd_ = cell;
    update();
  } else if (editor_->inStroke_) {
    dabAt(*cell);
  }
}

void MaskCanvas::mouseReleaseEvent(QMouseEvent*) {
  if (rectStart_ && rectEnd_) {
    editor_->fillRect(rectStart_->x(), rectStart_->y(), rectEnd_->x(), rectEnd_->y(),
                      tool == MaskTool::WaterRect);
    rectStart_.reset();
    rectEnd_.reset();
    update();
  }
  editor_->endStroke();
}

}  // namespace wb::gui
