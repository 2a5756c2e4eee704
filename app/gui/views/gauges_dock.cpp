#include "app/gui/views/gauges_dock.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include "app/gui/views/plots_dock.hpp"
#include "core/grid/interpolation.hpp"
#include "core/measure/gauge_metrics.hpp"
#include "core/run/tick_steps.hpp"
#include "core/scenario/field_io.hpp"

namespace wb::gui {

namespace {
// At most this many points per line (every other one dropped past it, as in the Plots dock).
constexpr std::size_t kMaxPoints = 1500;
const QList<QColor> kPalette = {QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),
                                QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75)};
// Gauges and transects are told apart by the line style; the reference is dashed black.
const Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};

// Ticks at 0 and multiples of a step 1, 2 or 5 x 10^k, about four intervals across [lo, hi].
void setNiceRange(QValueAxis* axis, double lo, double hi) {
  const double raw = std::max(hi - lo, 1e-12) / 4.0;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * decade;
  for (double factor : {1.0, 2.0, 5.0})
    if (factor * decade >= raw) {
      step = factor * decade;
      break;
    }
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0.0);
  axis->setTickInterval(step);  // before the range: a wider range with the old step is many ticks
  axis->setRange(lo, hi);
}

QColor modelColour(std::size_t m) {
  return kPalette[int(m % kPalette.size())];
}
Qt::PenStyle markerStyle(std::size_t k) {
  return kStyles[k % std::size(kStyles)];
}
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}
std::string optionalNumber(const std::optional<double>& v) {
  return v ? number(*v) : std::string();
}
}  // namespace

GaugesDock::GaugesDock(QWidget* parent) : QDockWidget(tr("Gauges"), parent) {
  setObjectName("gaugesDock");
  auto* splitter = splitter_ = new QSplitter(Qt::Horizontal);
  auto* side = new QWidget;
  auto* column = new QVBoxLayout(side);
  column->setContentsMargins(0, 0, 0, 0);
  list_ = new QListWidget;
  list_->setObjectName("gaugeList");
  list_->setToolTip(
      tr("Gauges (Alt + click) and transects (Transect tool, drag) of the "
         "scenario; the gauges selected here are charted"));
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  connect(list_, &QListWidget::itemSelectionChanged, this, &GaugesDock::chartSelectedGauges);
  list_->setMinimumWidth(
      list_->fontMetrics().horizontalAdvance("t10  (10.00, 10.00) → (10.00, 10.00) m") + 24);
  column->addWidget(list_);
  auto* remove = new QPushButton(tr("Remove"));
  remove->setObjectName("removeGauge");
  column->addWidget(remove);
  connect(remove, &QPushButton::clicked, this, &GaugesDock::removeSelected);
  auto* del = new QAction(list_);
  del->setShortcut(QKeySequence::Delete);
  del->setShortcutContext(Qt::WidgetShortcut);
  list_->addAction(del);
  connect(del, &QAction::triggered, this, &GaugesDock::removeSelected);
  charts_ = new QWidget;
  auto* chartsColumn = new QVBoxLayout(charts_);
  chartsColumn->setContentsMargins(0, 0, 0, 0);
  chartsColumn->setSpacing(2);
  // One legend for both charts (as in the Plots dock): the models' colours, the markers' lines.
  legend_ = new QLabel;
  legend_->setObjectName("gaugesLegend");
  legend_->setWordWrap(true);
  chartsColumn->addWidget(legend_);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  chartsColumn->addLayout(row, 1);
  gaugeChart_ = makeChart(tr("Gauges: η over time"), tr("time (s)"));
  transectChart_ = makeChart(tr("Transects: η along the line now"), tr("distance along (m)"));
  for (QChart* chart : {gaugeChart_.chart, transectChart_.chart}) {
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(260, 200);
    row->addWidget(view);
    transectView_ = view;  // the last
  }
  // The summary: gauge_summary.csv's main measures (docs/gauges.md), errors model less record.
  summary_ = new QTableWidget(0, 9);
  summary_->setObjectName("gaugeSummary");
  summary_->setHorizontalHeaderLabels({tr("gauge"), tr("model"), tr("RMS error (m)"),
                                       tr("peak (m)"), tr("peak error"), tr("peak t (s)"),
                                       tr("peak t error"), tr("arrival (s)"), tr("shift (s)")});
  summary_->setToolTip(
      tr("Each model against each gauge's record over the record's window (docs/gauges.md): "
         "RMS error, peak and its error (relative), peak time and its error, arrival, and the "
         "shift that best aligns the model with the record (> 0: the model is late)"));
  summary_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  summary_->verticalHeader()->hide();
  summary_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  summary_->hide();
  splitter->addWidget(side);
  splitter->addWidget(charts_);
  splitter->addWidget(summary_);
  splitter->setStretchFactor(1, 4);
  splitter->setStretchFactor(2, 2);
  setWidget(splitter);
}

GaugesDock::Chart GaugesDock::makeChart(const QString& title, const QString& xTitle) {
  Chart c;
  c.chart = new QChart;
  c.chart->setTitle(title);
  c.chart->legend()->setAlignment(Qt::AlignBottom);
  c.chart->setMargins(QMargins(2, 2, 2, 2));
  c.x = new QValueAxis;
  c.x->setTitleText(xTitle);
  c.x->setLabelFormat("%.3g");
  c.y = new QValueAxis;
  c.y->setTitleText(tr("η (m)"));
  c.y->setLabelFormat("%.3g");
  c.chart->addAxis(c.x, Qt::AlignBottom);
  c.chart->addAxis(c.y, Qt::AlignLeft);
  return c;
}

QLineSeries* GaugesDock::addLine(Chart& c, QColor colour, Qt::PenStyle style, double width) {
  auto* series = new QLineSeries;
  QPen pen(colour, width);
  pen.setStyle(style);
  series->setPen(pen);
  c.chart->addSeries(series);
  series->attachAxis(c.x);
  series->attachAxis(c.y);
  return series;
}

void GaugesDock::reset(const Snapshot& snapshot) {
  modelIds_.clear();
  for (const auto& m : snapshot.models)
    modelIds_.push_back(m.id);
  gauges_ = snapshot.gauges;
  transects_ = snapshot.transects;
  hasReference_ = snapshot.referenceEta != nullptr;
  summary_->setRowCount(0);
  summarySized_ = false;
  const bool records = std::any_of(gauges_.begin(), gauges_.end(),
                                   [](const GaugeSpec& g) { return g.record != nullptr; });
  summary_->setVisible(records);
  // The summary takes the room of a Transects chart that would stay empty.
  transectView_->setVisible(!records || !transects_.empty());
  samples_.assign(modelIds_.size(), {});
  profileLines_.clear();
  profiles_.reset();
  transectChart_.chart->removeAllSeries();
  transectChart_.lo = std::numeric_limits<double>::max();
  transectChart_.hi = std::numeric_limits<double>::lowest();
  const std::size_t models = modelIds_.size();
  {
    const QSignalBlocker quiet(list_);  // the list is refilled below; no selection to chart
    list_->clear();
  }
  std::vector<std::size_t> first(std::min(gauges_.size(), kChartedGauges));
  std::iota(first.begin(), first.end(), std::size_t(0));
  chartGauges(std::move(first));
  for (std::size_t t = 0; t < transects_.size(); ++t) {
    for (std::size_t m = 0; m <= models; ++m) {
      const bool ref = m == models;
      QLineSeries* s = ref ? addLine(transectChart_, Qt::black, Qt::DashLine, 1.4)
                           : addLine(transectChart_, modelColour(m), markerStyle(t), 1.8);
      s->setName(QString::fromStdString(transects_[t].name) + " " +
                 (ref ? tr("reference") : QString::fromStdString(modelIds_[m])));
      if (ref && !hasReference_) s->setVisible(false);
      profileLines_.push_back(s);
    }
  }
  // The rows in one insertion (one rowsInserted for the view to lay out, not one per gauge).
  QStringList rows;
  rows.reserve(qsizetype(gauges_.size() + transects_.size()));
  for (const GaugeSpec& g : gauges_)
    rows << QString("%1  (%2, %3) m")
                .arg(QString::fromStdString(g.name))
                .arg(g.x, 0, 'f', 2)
                .arg(g.y, 0, 'f', 2);
  for (const TransectSpec& t : transects_)
    rows << QString("%1  (%2, %3) → (%4, %5) m")
                .arg(QString::fromStdString(t.name))
                .arg(t.x0, 0, 'f', 2)
                .arg(t.y0, 0, 'f', 2)
                .arg(t.x1, 0, 'f', 2)
                .arg(t.y1, 0, 'f', 2);
  const QSignalBlocker quiet(list_);
  list_->addItems(rows);
  for (QChart* chart : {gaugeChart_.chart, transectChart_.chart})
    chart->legend()->hide();
  updateLegend();
  dirty_ = profilesDirty_ = true;
  refresh();
}

void GaugesDock::chartGauges(std::vector<std::size_t> gauges) {
  if (gauges.size() > kChartedGauges) gauges.resize(kChartedGauges);
  charted_ = std::move(gauges);
  chartSlot_.assign(gauges_.size(), -1);
  for (std::size_t slot = 0; slot < charted_.size(); ++slot)
    chartSlot_[charted_[slot]] = int(slot);
  gaugeLines_.clear();
  referenceLines_.clear();
  gaugeChart_.chart->removeAllSeries();
  gaugeChart_.lo = std::numeric_limits<double>::max();
  gaugeChart_.hi = std::numeric_limits<double>::lowest();
  tMax_ = 0.0;
  const std::size_t models = modelIds_.size();
  for (std::size_t slot = 0; slot < charted_.size(); ++slot) {
    const GaugeSpec& gauge = gauges_[charted_[slot]];
    for (std::size_t m = 0; m < models; ++m) {
      QLineSeries* s = addLine(gaugeChart_, modelColour(m), markerStyle(slot), 1.8);
      s->setName(QString::fromStdString(gauge.name + " " + modelIds_[m]));
      gaugeLines_.push_back(Line{s, {}, 0, 1});
    }
    // The gauge's record where it has one (the samples' reference is the record then), else
    // the scenario's exact reference.
    QLineSeries* s = nullptr;
    if (hasReference_ || gauge.record) {
      s = addLine(gaugeChart_, Qt::black, Qt::DashLine, 1.4);
      s->setName(QString::fromStdString(gauge.name) +
                 (gauge.record ? tr(" record") : tr(" reference")));
    }
    referenceLines_.push_back(Line{s, {}, 0, 1});
  }
  plotted_.assign(modelIds_.size(), 0);  // the new lines are drawn from every sample so far
  dirty_ = true;
}

void GaugesDock::chartSelectedGauges() {
  std::vector<std::size_t> selected;
  for (int row = 0; row < int(gauges_.size()) && selected.size() < kChartedGauges; ++row)
    if (list_->item(row)->isSelected()) selected.push_back(std::size_t(row));
  if (selected.empty()) {
    selected.resize(std::min(gauges_.size(), kChartedGauges));
    std::iota(selected.begin(), selected.end(), std::size_t(0));
  }
  if (selected == charted_) return;
  chartGauges(std::move(selected));
  updateLegend();
  refresh();
}

void GaugesDock::updateLegend() {
  QStringList entries;
  for (std::size_t m = 0; m < modelIds_.size(); ++m)
    entries << QString("<span style='color:%1'>&#9632;&#9632;</span>&nbsp;%2")
                   .arg(modelColour(m).name(),
                        QString::fromStdString(modelIds_[m]).toHtmlEscaped());
  const QStringList styleNames = {"—", "···", "-·-", "-··"};
  QStringList markers;
  for (std::size_t slot = 0; slot < charted_.size(); ++slot)
    markers << QString::fromStdString(gauges_[charted_[slot]].name).toHtmlEscaped() + " " +
                   styleNames[int(slot % std::size(kStyles))];
  if (charted_.size() < gauges_.size())
    markers << tr("(%1 of %2 gauges charted: select others in the list)")
                   .arg(charted_.size())
                   .arg(gauges_.size());
  for (std::size_t t = 0; t < transects_.size(); ++t)
    markers << QString::fromStdString(transects_[t].name).toHtmlEscaped() + " " +
                   styleNames[int(t % std::size(kStyles))];
  const bool records = std::any_of(charted_.begin(), charted_.end(),
                                   [&](std::size_t g) { return gauges_[g].record != nullptr; });
  if (hasReference_) markers << tr("reference - - - (black)");
  if (records) markers << tr("record - - - (black)");
  legend_->setText(entries.join("&nbsp;&nbsp;&nbsp;") + "&nbsp;&nbsp;&nbsp;&nbsp;" +
                   markers.join("&nbsp;&nbsp;&nbsp;"));
}

void GaugesDock::append(const std::vector<std::vector<GaugeSample>>& perModel) {
  for (std::size_t m = 0; m < perModel.size() && m < samples_.size(); ++m) {
    samples_[m].insert(samples_[m].end(), perModel[m].begin(), perModel[m].end());
    dirty_ = dirty_ || !perModel[m].empty();
  }
}

void GaugesDock::showProfiles(std::shared_ptr<const Snapshot> snapshot) {
  profiles_ = std::move(snapshot);
  profilesDirty_ = true;
}

void GaugesDock::addPoint(Line& line, QPointF point) {
  gaugeChart_.lo = std::min(gaugeChart_.lo, point.y());
  gaugeChart_.hi = std::max(gaugeChart_.hi, point.y());
  if (line.seen++ % line.stride == 0) line.points.append(point);
  if (std::size_t(line.points.size()) > kMaxPoints) {
    QList<QPointF> every;
    for (qsizetype k = 0; k < line.points.size(); k += 2)
      every.append(line.points[k]);
    line.points = every;
    line.stride *= 2;
  }
}

void GaugesDock::refresh() {
  if (dirty_) {
    dirty_ = false;
    const std::size_t models = modelIds_.size();
    for (std::size_t m = 0; m < models; ++m) {
      for (std::size_t k = plotted_[m]; k < samples_[m].size(); ++k) {
        const GaugeSample& s = samples_[m][k];
        const auto g = std::size_t(s.gauge);
        if (g >= gauges_.size() || !std::isfinite(s.value.eta)) continue;
        tMax_ = std::max(tMax_, s.time);
        const int slot = chartSlot_[g];
        if (slot < 0) continue;
        addPoint(gaugeLines_[std::size_t(slot) * models + m], QPointF(s.time, s.value.eta));
        if (m == 0 && s.reference && referenceLines_[std::size_t(slot)].series)
          addPoint(referenceLines_[std::size_t(slot)], QPointF(s.time, s.reference->eta));
      }
      plotted_[m] = samples_[m].size();
    }
    for (auto* lines : {&gaugeLines_, &referenceLines_})
      for (Line& line : *lines)
        if (line.series) line.series->replace(line.points);
    double lo = gaugeChart_.lo, hi = gaugeChart_.hi;
    if (lo > hi) lo = hi = 0.0;
    const double pad = std::max(0.05 * (hi - lo), 1e-6);
    setNiceRange(gaugeChart_.x, 0.0, std::max(tMax_, 1e-3));
    setNiceRange(gaugeChart_.y, lo - pad, hi + pad);
    updateSummary();
  }
  if (profilesDirty_) {
    profilesDirty_ = false;
    drawProfiles();
  }
}

void GaugesDock::drawProfiles() {
  const std::size_t models = modelIds_.size();
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  double length = 1e-3;
  const Snapshot* shown = profiles_.get();
  for (std::size_t t = 0; t < transects_.size(); ++t) {
    const TransectProfile* profile =
        shown && t < shown->profiles.size() ? &shown->profiles[t] : nullptr;
    for (std::size_t m = 0; m <= models; ++m) {
      QList<QPointF> points;
      if (profile && m < profile->samples.size()) {
        for (std::size_t p = 0; p < profile->points.size(); ++p)
          points.append(QPointF(profile->points[p].s, profile->samples[m][p].eta));
      } else if (profile && m == models) {
        for (std::size_t p = 0; p < profile->reference.size(); ++p)
          points.append(QPointF(profile->points[p].s, profile->reference[p].eta));
      }
      for (const QPointF& p : points)
        if (std::isfinite(p.y())) {
          lo = std::min(lo, p.y());
          hi = std::max(hi, p.y());
          length = std::max(length, p.x());
        }
      profileLines_[t * (models + 1) + m]->replace(points);
    }
  }
  if (lo > hi) lo = hi = 0.0;
  const double pad = std::max(0.05 * (hi - lo), 1e-6);
  setNiceRange(transectChart_.x, 0.0, length);
  setNiceRange(transectChart_.y, lo - pad, hi + pad);
}

// The measures of every sample so far (the window cut at the latest sample): the same
// functions as the CLI's gauge_summary.csv.
void GaugesDock::updateSummary() {
  if (std::none_of(gauges_.begin(), gauges_.end(), [](const GaugeSpec& g) { return g.record; }))
    return;
  const std::size_t models = modelIds_.size();
  std::vector<Series> series(gauges_.size() * models);
  for (std::size_t m = 0; m < models; ++m)
    for (const GaugeSample& s : samples_[m]) {
      const auto g = std::size_t(s.gauge);
      if (g >= gauges_.size() || !gauges_[g].record || !std::isfinite(s.value.eta)) continue;
      series[g * models + m].t.push_back(s.time);
      series[g * models + m].v.push_back(s.value.eta);
    }
  const auto cell = [](const std::optional<double>& v, const QString& extra = {}) {
    auto* item = new QTableWidgetItem(v ? QString::number(*v, 'g', 4) + extra : QString("–"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
  };
  int row = 0;
  for (std::size_t g = 0; g < gauges_.size(); ++g) {
    if (!gauges_[g].record) continue;
    for (std::size_t m = 0; m < models; ++m, ++row) {
      if (summary_->rowCount() <= row) summary_->setRowCount(row + 1);
      const GaugeComparison c =
          compareWithRecord(series[g * models + m], *gauges_[g].record, tMax_);
      std::optional<double> peak, peakError, peakTime, peakTimeError;
      QString relative;
      if (c.peak) peak = c.peak->value, peakTime = c.peak->time;
      if (c.peak && c.refPeak) {
        peakError = c.peak->value - c.refPeak->value;
        peakTimeError = c.peak->time - c.refPeak->time;
        if (c.refPeak->value != 0.0)
          relative = QString(" (%1 %)").arg(100.0 * *peakError / c.refPeak->value, 0, 'f', 1);
      }
      summary_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(gauges_[g].name)));
      auto* model = new QTableWidgetItem(QString::fromStdString(modelIds_[m]));
      model->setForeground(modelColour(m));
      summary_->setItem(row, 1, model);
      summary_->setItem(row, 2, cell(c.rmsError));
      summary_->setItem(row, 3, cell(peak));
      summary_->setItem(row, 4, cell(peakError, relative));
      summary_->setItem(row, 5, cell(peakTime));
      summary_->setItem(row, 6, cell(peakTimeError));
      summary_->setItem(row, 7, cell(c.arrival));
      summary_->setItem(row, 8, cell(c.bestShift));
    }
  }
  summary_->setRowCount(row);
  if (!summarySized_ && row > 0) {
    // Once a load: room for every column where the dock has it (the user's split after).
    summarySized_ = true;
    const QList<int> sizes = splitter_->sizes();
    const int total = std::accumulate(sizes.begin(), sizes.end(), 0);
    const int table = std::min(summary_->horizontalHeader()->length() +
                                   summary_->verticalScrollBar()->sizeHint().width() + 4,
                               total / 2);
    splitter_->setSizes({sizes[0], std::max(0, total - sizes[0] - table), table});
  }
}

void GaugesDock::removeSelected() {
  const int row = list_->currentRow();
  if (row < 0) return;
  if (row < int(gauges_.size()))
    emit gaugeRemoved(row);
  else
    emit transectRemoved(row - int(gauges_.size()));
}

void GaugesDock::exportPlots(const QString& file) const {
  exportWidgetImage(charts_, file, tr("Wavebench gauges and transects"));
}

void GaugesDock::exportGaugesCsv(const QString& file) const {
  writeFileAtomically(file.toStdString(), [&](std::ostream& out) {
    out << "time,gauge,model,eta,depth,u,v,ref_eta,ref_depth\n";
    for (std::size_t m = 0; m < samples_.size(); ++m)
      for (const GaugeSample& s : samples_[m]) {
        const GaugeSpec& g = gauges_.at(std::size_t(s.gauge));
        out << timeText(s.time) << ',' << g.name << ',' << modelIds_[m] << ','
            << number(s.value.eta) << ',' << number(s.value.depth) << ','
            << optionalNumber(s.value.u) << ',' << optionalNumber(s.value.v) << ',';
        if (s.reference) {
          out << number(s.reference->eta) << ',' << number(s.reference->depth);
        } else {
          out << ',';
        }
        out << '\n';
      }
  });
}

void GaugesDock::exportTransectsCsv(const QString& file) const {
  writeFileAtomically(file.toStdString(), [&](std::ostream& out) {
    out << "time,transect,s,x,y,model,eta,depth,ref_eta\n";
    if (!profiles_) return;
    for (std::size_t t = 0; t < transects_.size() && t < profiles_->profiles.size(); ++t) {
      const TransectProfile& profile = profiles_->profiles[t];
      for (std::size_t p = 0; p < profile.points.size(); ++p)
        for (std::size_t m = 0; m < profile.samples.size(); ++m) {
          const TransectPoint& point = profile.points[p];
          const PointSample& v = profile.samples[m][p];
          out << timeText(profiles_->time) << ',' << transects_[t].name << ',' << number(point.s)
              << ',' << number(point.x) << ',' << number(point.y) << ',' << modelIds_[m] << ','
              << number(v.eta) << ',' << number(v.depth) << ','
              << (p < profile.reference.size() ? number(profile.reference[p].eta) : "") << '\n';
        }
    }
  });
}

}  // namespace wb::gui
