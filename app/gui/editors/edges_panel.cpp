#include "app/gui/editors/edges_panel.hpp"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "core/errors.hpp"

namespace wb::gui {

namespace {
constexpr int kMaxLayerCells = 1 << 15;  // as the scenario reader allows (domain.edges)
constexpr int kFractionDecimals = 3;
constexpr double kFractionStep = 0.005;
const QColor kFitsColour(20, 120, 40), kDoesNotFitColour(190, 30, 30);
}  // namespace

EdgesPanel::EdgesPanel(ScenarioDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox(tr("Edges"));
  outer->addWidget(box);
  auto* grid = new QGridLayout(box);
  // Two sides per row keep the domain tab as narrow as the controls.
  for (Side side : kSides) {
    auto* choice = new QComboBox;
    choice->setObjectName(QString("edge.%1").arg(sideName(side)));
    choice->addItems({tr("wall"), tr("open"), tr("incoming")});  // in EdgeKind's order
    // An incoming side needs its wave (a record, a sine, a solitary wave), which the scenario
    // file gives (docs/scenario.md, "Incoming edges"): shown here, not chosen here.
    qobject_cast<QStandardItemModel*>(choice->model())
        ->item(int(EdgeKind::Incoming))
        ->setEnabled(false);
    choice->setToolTip(
        tr("Wall: waves reflect. Open: waves leave through an absorbing layer. "
           "Incoming (set in the scenario file): a wave enters, waves leave"));
    choices_[std::size_t(side)] = choice;
    connect(choice, &QComboBox::activated, this,
            [this, side](int index) { setEdge(side, EdgeKind(index)); });
    const int k = int(side);
    grid->addWidget(new QLabel(sideName(side)), k / 2, 2 * (k % 2));
    grid->addWidget(choice, k / 2, 2 * (k % 2) + 1);
  }
  cells_ = new QSpinBox;
  cells_->setObjectName("layerCells");
  cells_->setRange(1, kMaxLayerCells);
  cells_->setSuffix(tr(" cells"));
  cells_->setToolTip(tr("Width of each open edge's absorbing layer"));
  connect(cells_, &QSpinBox::editingFinished, this, [this] {
    if (!showing_) setLayerCells(cells_->value());
  });
  fraction_ = new QDoubleSpinBox;
  fraction_->setObjectName("layerFraction");
  fraction_->setDecimals(kFractionDecimals);
  fraction_->setSingleStep(kFractionStep);
  fraction_->setToolTip(
      tr("The layer's width over the longest wave the domain holds (twice its "
         "longer side); rounded to whole cells"));
  connect(fraction_, &QDoubleSpinBox::editingFinished, this, [this] {
    if (!showing_) setLayerFraction(fraction_->value());
  });
  longest_ = new QLabel;
  longest_->setWordWrap(true);
  grid->addWidget(new QLabel(tr("layer")), 2, 0);
  grid->addWidget(cells_, 2, 1);
  grid->addWidget(fraction_, 2, 3);
  grid->addWidget(new QLabel(tr("=")), 2, 2, Qt::AlignCenter);
  grid->addWidget(longest_, 3, 0, 1, 4);
  fit_ = new QLabel;
  fit_->setObjectName("edgesFit");
  fit_->setWordWrap(true);
  grid->addWidget(fit_, 4, 0, 1, 4);
  grid->setColumnStretch(1, 1);
  grid->setColumnStretch(3, 1);
  connect(&document_, &ScenarioDocument::layersChanged, this, &EdgesPanel::showDocument);
  showDocument();
}

void EdgesPanel::setEdge(Side side, EdgeKind kind) {
  Edges edges = document_.scenario().edges;
  edges.set(side, kind);
  document_.setEdges(edges);
  showDocument();  // an unchanged document pushes nothing and announces nothing
}

void EdgesPanel::setLayerCells(int cells) {
  Edges edges = document_.scenario().edges;
  edges.layerCells = std::clamp(cells, 1, kMaxLayerCells);
  document_.setEdges(edges);
  showDocument();
}

void EdgesPanel::setLayerFraction(double fraction) {
  const Grid& grid = document_.scenario().grid;
  setLayerCells(int(std::lround(fraction * longestWave(grid) / grid.dx)));
}

void EdgesPanel::showDocument() {
  const Scenario& s = document_.scenario();
  const Edges& edges = s.edges;
  const QSignalBlocker blockCells(cells_), blockFraction(fraction_);
  showing_ = true;
  for (Side side : kSides)
    choice(side)->setCurrentIndex(int(edges.kind(side)));
  const double longest = longestWave(s.grid);
  cells_->setValue(edges.layerCells);
  fraction_->setRange(std::pow(10.0, -kFractionDecimals),
                      std::max(1.0, kMaxLayerCells * s.grid.dx / longest));
  fraction_->setValue(layerFractionOfLongestWave(edges, s.grid));
  longest_->setText(tr("of the longest wave (%1 m, twice the longer side): %2 m wide")
                        .arg(longest, 0, 'g', 4)
                        .arg(edges.layerCells * s.grid.dx, 0, 'g', 4));
  showing_ = false;

  fitError_.clear();
  try {
    checkEdgesFit(edges, s.grid, "domain.edges");
  } catch (const InputError& error) {
    fitError_ = error.what();
  }
  QString verdict;
  if (!fitError_.empty())
    verdict = QString::fromStdString(fitError_);
  else if (edges.anyOpen())
    verdict = tr("The %1 × %2 grid holds its layers.").arg(s.grid.nx).arg(s.grid.ny);
  else
    verdict = tr("All edges are walls: no layer.");
  fit_->setText(verdict);
  QPalette palette = fit_->palette();
  palette.setColor(QPalette::WindowText, fitError_.empty() ? kFitsColour : kDoesNotFitColour);
  fit_->setPalette(palette);
}

}  // namespace wb::gui
