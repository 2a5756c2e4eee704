// Live plots of every model on shared time axes (Qt Charts): volume drift, potential /
// kinetic / total energy, and cost per step; and a per-model cost table. Keeps the whole
// history of frame records so plots and data can be exported (PNG, SVG, PDF, CSV).
#pragma once

#include <string>
#include <vector>

#include <QDockWidget>

#include "core/measure/diagnostics.hpp"

class QChart;
class QChartView;
class QLabel;
class QTableWidget;
class QValueAxis;
class QLineSeries;

namespace wb::gui {

// Writes a widget as an image; the format follows the suffix: .png, .svg or .pdf. Throws
// InputError when the file cannot be written.
void exportWidgetImage(QWidget* widget, const QString& file, const QString& title);

class PlotsDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit PlotsDock(QWidget* parent = nullptr);

  // Starts new, empty plots for these models (after a rebuild).
  void reset(const std::vector<std::string>& modelIds);
  // Appends the frame records of each model (same order as reset).
  void append(const std::vector<std::vector<FrameRecord>>& perModel);
  // Hands the points added since the last refresh to the series (called a few times a
  // second, not per frame). Its cost follows the new records, not the session's length.
  void refresh();
  // Records were appended that the next refresh hands to the series and the table.
  bool refreshPending() const { return dirty_; }

  const std::vector<std::vector<FrameRecord>>& history() const { return history_; }
  // Cost figures (plot, table, view captions) are medians over this many frames.
  static constexpr std::size_t kCostWindow = 15;
  // A model's median ms per step over its last kCostWindow frames (0 before its first).
  double recentStepMs(std::size_t model) const;
  QWidget* plotsWidget() const { return plots_; }
  QTableWidget* costTable() const { return table_; }
  int chartCount() const { return int(charts_.size()); }

  // Writes the plots as an image; the format follows the suffix: .png, .svg or .pdf.
  void exportPlots(const QString& file) const;
  // Writes series.csv columns (the same as wavebench-cli), every model, every frame.
  void exportCsv(const QString& file) const;

 private:
  struct Chart {
    QChart* chart = nullptr;
    QValueAxis* time = nullptr;
    QValueAxis* value = nullptr;
    std::vector<QLineSeries*> series;    // per model (and per quantity for energy)
    std::vector<QList<QPointF>> points;  // what each series shows
    double lo = 0.0, hi = 0.0;           // value range of every record so far
  };
  // What the plots have taken from one model's history.
  struct Plotted {
    std::size_t records = 0;     // history records already taken
    std::size_t stride = 1;      // every stride-th record is a point (thinning)
    std::vector<double> costMs;  // running median cost of each record taken
  };
  Chart makeChart(const QString& title, const QString& unit);
  // Appends history records [from, end) of model m to its series' point lists.
  void appendPoints(std::size_t m, std::size_t from);
  void updateTable();

  QWidget* plots_ = nullptr;
  QLabel* legend_ = nullptr;
  std::vector<Chart> charts_;
  std::vector<QChartView*> views_;
  QTableWidget* table_ = nullptr;
  std::vector<std::vector<FrameRecord>> history_;
  std::vector<Plotted> plotted_;
  double tMax_ = 0.0;
  bool dirty_ = false;
};

}  // namespace wb::gui
