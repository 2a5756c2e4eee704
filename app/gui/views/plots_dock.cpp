#include "app/gui/views/plots_dock.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QPdfWriter>
#include <QScrollBar>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <sstream>

#include "core/errors.hpp"
#include "core/scenario/field_io.hpp"

namespace wb::gui {

namespace {
enum ChartId { kDriftChart, kEnergyChart, kCostChart };
enum Energy { kPotential, kKinetic, kTotal, kEnergyCount };
// Plots draw at most this many points per series: past it, every other point is dropped and
// the stride between plotted records doubles (so a long session is thinned evenly).
constexpr std::size_t kMaxPlotPoints = 1500;
// The figures table's widest (pixels): six models' columns beside the plots (long model names
// break in two, headerName).
constexpr int kMaxTableWidth = 640;
// Rows as tall as their text (a default row is half again as tall): all seven rows show.
constexpr int kRowPadding = 6;
// A time axis has at most this many intervals, each 1, 2 or 5 times a power of ten: tick
// labels of a narrow chart (1280-pixel window) do not run into each other.
constexpr int kMaxTimeIntervals = 4;
// The figures table: one row per quantity, one column per model (narrow beside the plots).
enum Row { kMsPerStep, kSubsteps, kDt, kStepsPerS, kIterations, kResidual, kMaxEta };
const QStringList kRows = {"ms/step",      "substeps", "dt (s)",       "steps/s",
                           "solver iter.", "residual", "max |eta| (m)"};
const QList<QColor> kPalette = {QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),
                                QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75)};

// A model's name as a column header: a long name breaks after its last hyphen.
QString headerName(const std::string& id) {
  constexpr int kLongName = 12;  // characters
  QString name = QString::fromStdString(id);
  const auto hyphen = name.lastIndexOf('-');
  if (name.size() > kLongName && hyphen > 0) name.insert(hyphen + 1, '\n');
  return name;
}

// The smallest step 1, 2 or 5 x 10^k that covers `range` in kMaxTimeIntervals steps.
double niceTimeStep(double range) {
  const double raw = range / kMaxTimeIntervals;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0})
    if (factor * decade >= raw) return factor * decade;
  return 10.0 * decade;
}

double energyOf(const FrameRecord& r, int which) {
  return which == kPotential ? r.energyPotential
         : which == kKinetic ? r.energyKinetic
                             : r.energyTotal();
}
}  // namespace

PlotsDock::PlotsDock(QWidget* parent) : QDockWidget(tr("Plots"), parent) {
  setObjectName("plotsDock");
  auto* splitter = new QSplitter(Qt::Horizontal);
  plots_ = new QWidget;
  auto* column = new QVBoxLayout(plots_);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  // One legend for the three charts (they share the models' colours): a legend per chart
  // would not fit the names of three or more models beside each other. It also says what the
  // energy chart's line styles mean, which a chart title as long would not fit.
  legend_ = new QLabel;
  legend_->setObjectName("plotsLegend");
  legend_->setWordWrap(true);
  column->addWidget(legend_);
  auto* layout = new QHBoxLayout;
  layout->setContentsMargins(0, 0, 0, 0);
  column->addLayout(layout, 1);
  charts_.push_back(makeChart(tr("Volume drift"), tr("m³")));
  charts_.push_back(makeChart(tr("Energy"), tr("m⁵/s²")));
  charts_.push_back(
      makeChart(tr("Cost per step (median of %1 frames)").arg(kCostWindow), tr("ms")));
  for (auto& chart : charts_) {
    auto* view = new QChartView(chart.chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(260, 200);
    layout->addWidget(view);
    views_.push_back(view);
  }
  table_ = new QTableWidget(int(kRows.size()), 0);
  table_->setVerticalHeaderLabels(kRows);
  for (int row : {kMsPerStep, kStepsPerS})
    table_->verticalHeaderItem(row)->setToolTip(
        tr("Median over the last %1 frames").arg(kCostWindow));
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + kRowPadding);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  splitter->addWidget(plots_);
  splitter->addWidget(table_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  setWidget(splitter);
}

PlotsDock::Chart PlotsDock::makeChart(const QString& title, const QString& unit) {
  Chart c;
  c.chart = new QChart;
  c.chart->setTitle(title);
  c.chart->legend()->hide();
  c.chart->setMargins(QMargins(2, 2, 2, 2));
  c.time = new QValueAxis;
  c.time->setTitleText(tr("time (s)"));
  c.time->setLabelFormat("%.3g");
  c.time->setTickType(QValueAxis::TicksDynamic);
  c.time->setTickAnchor(0.0);
  c.value = new QValueAxis;
  c.value->setTitleText(unit);
  c.value->setLabelFormat("%.2g");
  c.chart->addAxis(c.time, Qt::AlignBottom);
  c.chart->addAxis(c.value, Qt::AlignLeft);
  return c;
}

void PlotsDock::reset(const std::vector<std::string>& modelIds) {
  history_.assign(modelIds.size(), {});
  plotted_.assign(modelIds.size(), {});
  tMax_ = 0.0;
  for (auto& c : charts_) {
    c.chart->removeAllSeries();
    c.series.clear();
    c.points.clear();
    c.lo = std::numeric_limits<double>::max();
    c.hi = std::numeric_limits<double>::lowest();
  }
  const auto addSeries = [](Chart& c, const QString& name, QColor colour, Qt::PenStyle style,
                            bool legend) {
    auto* series = new QLineSeries;
    series->setName(name);
    QPen pen(colour, style == Qt::SolidLine && !legend ? 2.5 : 1.6);
    pen.setStyle(style);
    series->setPen(pen);
    c.chart->addSeries(series);
    series->attachAxis(c.time);
    series->attachAxis(c.value);
    c.series.push_back(series);
    c.points.emplace_back();
    return series;
  };
  for (std::size_t m = 0; m < modelIds.size(); ++m) {
    const QString name = QString::fromStdString(modelIds[m]);
    const QColor colour = kPalette[int(m % kPalette.size())];
    addSeries(charts_[kDriftChart], name, colour, Qt::SolidLine, true);
    addSeries(charts_[kCostChart], name, colour, Qt::SolidLine, true);
    addSeries(charts_[kEnergyChart], name, colour, Qt::SolidLine, true);
    addSeries(charts_[kEnergyChart], name, colour, Qt::DotLine, false);
    addSeries(charts_[kEnergyChart], name, colour, Qt::SolidLine, false);
  }
  QStringList entries;
  for (std::size_t m = 0; m < modelIds.size(); ++m)
    entries << QString("<span style='color:%1'>&#9632;&#9632;</span>&nbsp;%2")
                   .arg(kPalette[int(m % kPalette.size())].name(),
                        QString::fromStdString(modelIds[m]).toHtmlEscaped());
  legend_->setText(entries.join("&nbsp;&nbsp;&nbsp;&nbsp;") +
                   tr("&nbsp;&nbsp;&nbsp;&nbsp; energy: — potential, ··· kinetic, ▬ total"));
  table_->setColumnCount(int(modelIds.size()));
  QStringList names;
  for (const auto& id : modelIds)
    names << headerName(id);
  table_->setHorizontalHeaderLabels(names);
  dirty_ = true;
  refresh();
}

void PlotsDock::append(const std::vector<std::vector<FrameRecord>>& perModel) {
  for (std::size_t m = 0; m < perModel.size() && m < history_.size(); ++m) {
    history_[m].insert(history_[m].end(), perModel[m].begin(), perModel[m].end());
    dirty_ = dirty_ || !perModel[m].empty();
  }
}

double PlotsDock::recentStepMs(std::size_t model) const {
  if (model >= history_.size()) return 0.0;
  return medianStepMs(history_[model], history_[model].size(), kCostWindow);
}

void PlotsDock::appendPoints(std::size_t m, std::size_t from) {
  const auto& h = history_[m];
  Plotted& p = plotted_[m];
  // The cost plot shows the running median over kCostWindow frames (medianStepMs).
  for (std::size_t k = p.costMs.size(); k < h.size(); ++k)
    p.costMs.push_back(medianStepMs(h, k + 1, kCostWindow));
  const auto add = [&](int chart, std::size_t series, std::size_t k, double v) {
    if (!std::isfinite(v)) return;
    Chart& c = charts_[std::size_t(chart)];
    c.lo = std::min(c.lo, v);
    c.hi = std::max(c.hi, v);
    if (k % p.stride == 0) c.points[series].append(QPointF(h[k].time, v));
  };
  for (std::size_t k = from; k < h.size(); ++k) {
    add(kDriftChart, m, k, h[k].volumeDrift);
    add(kCostChart, m, k, p.costMs[k]);
    for (int e = 0; e < kEnergyCount; ++e)
      add(kEnergyChart, m * kEnergyCount + std::size_t(e), k, energyOf(h[k], e));
  }
}

void PlotsDock::refresh() {
  if (!dirty_) return;
  dirty_ = false;
  for (std::size_t m = 0; m < history_.size(); ++m) {
    const auto& h = history_[m];
    if (h.empty()) continue;
    tMax_ = std::max(tMax_, h.back().time);
    appendPoints(m, plotted_[m].records);
    plotted_[m].records = h.size();
    // Too many points: double the stride and take this model's points again (rare: the
    // stride doubles each time the history doubles; a first refresh of a long history may
    // need several doublings).
    while (std::size_t(charts_[kDriftChart].points[m].size()) > kMaxPlotPoints) {
      plotted_[m].stride *= 2;
      charts_[kDriftChart].points[m].clear();
      charts_[kCostChart].points[m].clear();
      for (int e = 0; e < kEnergyCount; ++e)
        charts_[kEnergyChart].points[m * kEnergyCount + std::size_t(e)].clear();
      appendPoints(m, 0);
    }
  }
  // The time axis grows with every refresh, so every point moves on screen: each series is
  // handed its whole (bounded) point list once.
  for (auto& c : charts_)
    for (std::size_t k = 0; k < c.series.size(); ++k)
      c.series[k]->replace(c.points[k]);
  for (std::size_t c = 0; c < charts_.size(); ++c) {
    double lo = charts_[c].lo, hi = charts_[c].hi;
    const double tEnd = std::max(tMax_, 1e-3);
    charts_[c].time->setRange(0.0, tEnd);
    charts_[c].time->setTickInterval(niceTimeStep(tEnd));
    if (lo > hi) lo = hi = 0.0;
    // Drift is shown around zero; a flat line still gets a readable range.
    const double pad = std::max(0.05 * (hi - lo), 1e-12 + 1e-6 * std::abs(hi));
    const double low = c == kDriftChart ? std::min(lo, -pad) : std::min(lo, 0.0);
    charts_[c].value->setRange(low, hi + pad);
  }
  updateTable();
}

void PlotsDock::updateTable() {
  for (std::size_t m = 0; m < history_.size(); ++m) {
    const auto set = [&](int row, const QString& text) {
      auto* item = table_->item(row, int(m));
      if (!item) table_->setItem(row, int(m), item = new QTableWidgetItem);
      item->setText(text);
    };
    if (history_[m].empty()) continue;
    const FrameRecord& r = history_[m].back();
    const auto solver = [&](const char* key) {
      auto it = r.solver.find(key);
      return it == r.solver.end() ? QString("–") : QString::number(it->second, 'g', 3);
    };
    const double stepMs = recentStepMs(m);
    set(kMsPerStep, QString::number(stepMs, 'f', 3));
    set(kSubsteps, QString::number(r.substeps));
    set(kDt, QString::number(r.dt, 'g', 3));
    set(kStepsPerS, stepMs > 0 ? QString::number(1e3 / stepMs, 'f', 0) : QString("–"));
    set(kIterations, solver("solver_iterations"));
    set(kResidual, solver("solver_residual"));
    set(kMaxEta, QString::number(r.maxAbsEta, 'g', 3));
  }
  // Wide enough for every model's column (the plots take the rest), up to kMaxTableWidth.
  int width = table_->verticalHeader()->width() + 2 * table_->frameWidth() +
              table_->verticalScrollBar()->sizeHint().width();
  for (int column = 0; column < table_->columnCount(); ++column)
    width += table_->columnWidth(column);
  table_->setMinimumWidth(std::min(width, kMaxTableWidth));
  int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth();
  for (int row = 0; row < table_->rowCount(); ++row)
    height += table_->rowHeight(row);
  table_->setMinimumHeight(height);
}

void exportWidgetImage(QWidget* widget, const QString& file, const QString& title) {
  const QString suffix = QFileInfo(file).suffix().toLower();
  const QSize size = widget->size();
  if (suffix == "svg") {
    QSvgGenerator svg;
    svg.setFileName(file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    QPainter painter(&svg);
    widget->render(&painter);
  } else if (suffix == "pdf") {
    QPdfWriter pdf(file);
    pdf.setPageSize(QPageSize(QSizeF(size.width(), size.height()), QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setResolution(72);
    QPainter painter(&pdf);
    widget->render(&painter);
  } else {
    if (!widget->grab().save(file)) throw InputError(file.toStdString() + ": cannot write image");
  }
}

void PlotsDock::exportPlots(const QString& file) const {
  exportWidgetImage(plots_, file, tr("Wavebench plots"));
}

void PlotsDock::exportCsv(const QString& file) const {
  writeFileAtomically(file.toStdString(), [&](std::ostream& out) {
    writeSeriesHeader(out);
    std::size_t frames = 0;
    for (const auto& h : history_)
      frames = std::max(frames, h.size());
    for (std::size_t f = 0; f < frames; ++f)
      for (const auto& h : history_)
        if (f < h.size()) writeSeriesRow(out, h[f]);
  });
}

}  // namespace wb::gui
