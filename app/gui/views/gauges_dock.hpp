// The Gauges dock (docs/gauges.md): the scenario's gauges and transects in a list with a
// Remove button (Delete), a Gauges chart (eta at each gauge over time, one line per model per
// charted gauge, from the samples the comparison takes after every model step: the CLI's
// gauges.csv; the gauges selected in the list are charted, else the first ones, at most
// kChartedGauges: a chart's lines cost Qt Charts work that grows with their square)
// and a Transects chart (eta of every model along each transect at the shown frame). Where
// the scenario has an exact `reference`, its eta is a dashed black line in both; a gauge with
// a measured `record` draws the record dashed instead, and a summary table beside the charts
// measures every model against every record (gauge_summary.csv's measures, updated as the run
// goes). Exports the charts as PNG, SVG or PDF and the data as the CLI's gauges.csv /
// transects.csv columns.
#pragma once

#include <string>
#include <vector>

#include <QDockWidget>

#include "app/gui/simulation/simulation_worker.hpp"

class QChart;
class QLabel;
class QLineSeries;
class QListWidget;
class QSplitter;
class QTableWidget;
class QValueAxis;

namespace wb::gui {

class GaugesDock : public QDockWidget {
  Q_OBJECT

 public:
  // At most this many gauges have lines in the Gauges chart at a time (more are unreadable).
  static constexpr std::size_t kChartedGauges = 8;

  explicit GaugesDock(QWidget* parent = nullptr);

  // Starts new, empty charts for the snapshot's models, gauges and transects (a rebuild).
  void reset(const Snapshot& snapshot);
  // Appends the gauge samples of each model (same order as the snapshot's models).
  void append(const std::vector<std::vector<GaugeSample>>& perModel);
  // The transects' profiles of a newly shown snapshot, drawn at the next refresh.
  void showProfiles(std::shared_ptr<const Snapshot> snapshot);
  // The snapshot whose profiles the Transects chart and transects.csv hold (null before one).
  const std::shared_ptr<const Snapshot>& profiles() const { return profiles_; }
  // Hands the new points to the charts (a few times a second).
  void refresh();

  const std::vector<std::vector<GaugeSample>>& samples() const { return samples_; }
  QWidget* chartsWidget() const { return charts_; }
  QListWidget* list() const { return list_; }
  QChart* gaugeChart() const { return gaugeChart_.chart; }
  // Every model against every gauge's record (hidden when no gauge has one).
  QTableWidget* summaryTable() const { return summary_; }
  // The gauges (indices in the scenario's list) that have lines in the Gauges chart.
  const std::vector<std::size_t>& chartedGauges() const { return charted_; }
  // Both charts as an image (.png, .svg or .pdf). Throws InputError.
  void exportPlots(const QString& file) const;
  // gauges.csv: time,gauge,model,eta,depth,u,v,ref_eta,ref_depth, every sample taken.
  void exportGaugesCsv(const QString& file) const;
  // transects.csv: time,transect,s,x,y,model,eta,depth,ref_eta at the shown frame.
  void exportTransectsCsv(const QString& file) const;

 signals:
  void gaugeRemoved(int index);
  void transectRemoved(int index);

 private:
  struct Line {
    QLineSeries* series = nullptr;
    QList<QPointF> points;
    std::size_t seen = 0, stride = 1;  // thinning, as in the Plots dock
  };
  struct Chart {
    QChart* chart = nullptr;
    QValueAxis *x = nullptr, *y = nullptr;
    double lo = 0.0, hi = 0.0;
  };
  Chart makeChart(const QString& title, const QString& xTitle);
  QLineSeries* addLine(Chart& chart, QColor colour, Qt::PenStyle style, double width);
  void addPoint(Line& line, QPointF point);
  void removeSelected();
  // Lines for these gauges (at most kChartedGauges), drawn from every sample taken so far.
  void chartGauges(std::vector<std::size_t> gauges);
  void chartSelectedGauges();
  void updateLegend();
  void drawProfiles();
  void updateSummary();

  QListWidget* list_ = nullptr;
  QLabel* legend_ = nullptr;
  QWidget* charts_ = nullptr;
  QTableWidget* summary_ = nullptr;
  QSplitter* splitter_ = nullptr;
  QWidget* transectView_ = nullptr;
  bool summarySized_ = false;  // the splitter made room for the summary since the last reset
  Chart gaugeChart_, transectChart_;
  std::vector<std::string> modelIds_;
  std::vector<GaugeSpec> gauges_;
  std::vector<TransectSpec> transects_;
  bool hasReference_ = false;                      // the scenario has an exact reference
  std::vector<std::vector<GaugeSample>> samples_;  // per model, every sample
  std::vector<std::size_t> plotted_;               // per model, samples already in lines
  std::vector<std::size_t> charted_;               // the charted gauges, in list order
  std::vector<int> chartSlot_;                     // per gauge: its place in charted_, or -1
  std::vector<Line> gaugeLines_;                   // [slot * models + model]
  std::vector<Line> referenceLines_;  // per slot (a null series without a reference or record)
  std::vector<QLineSeries*> profileLines_;  // [transect * (models + 1) + model], last: reference
  std::shared_ptr<const Snapshot> profiles_;
  double tMax_ = 0.0;
  bool dirty_ = false, profilesDirty_ = false;
};

}  // namespace wb::gui
