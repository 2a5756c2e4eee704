// The workbench window: the views of the models (ViewGrid) in the centre, the controls and
// the domain editor on the left, the plots at the bottom; it wires them to the document. The
// simulation runs on a SimulationWorker; a GUI timer shows its newest snapshot once the last
// one has reached the screen, and a FrameMeter measures the frames presented.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include <QElapsedTimer>
#include <QMainWindow>
#include <nlohmann/json.hpp>

#include "app/gui/document/interactions.hpp"
#include "app/gui/document/scenario_document.hpp"
#include "app/gui/document/session_recorder.hpp"
#include "app/gui/export/export_actions.hpp"
#include "app/gui/simulation/simulation_worker.hpp"
#include "app/gui/views/view_grid.hpp"
#include "app/gui/window/autosave.hpp"
#include "app/gui/window/file_actions.hpp"
#include "app/gui/window/frame_meter.hpp"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QTimer;

namespace wb::gui {

class BodiesPanel;
class BodyToolbar;
class GaugeCanvasOverlay;
class GaugeToolbar;
class GaugesDock;
class ControlsDock;
class MaskEditor;
class OceanPanel;
class PlotsDock;
class SurfaceView;
class VerificationWindow;
class StudyWindow;
class ViewSettingsMenu;

class MainWindow : public QMainWindow, public FrameSource {
  Q_OBJECT

 public:
  explicit MainWindow(bool restoreLayout = true);
  ~MainWindow() override;

  // Loads a scenario ("builtin:NAME" or a path); shows the error and returns false on failure.
  bool openScenario(const QString& fileOrBuiltin, const std::vector<std::string>& modelIds = {});
  // A scripted run (--frames, --quit, --screenshot): errors go to stderr as one line, no dialog
  // waits for a user who is not there.
  void setScripted(bool scripted) { files_.setScripted(scripted); }
  bool saveScenarioAs(const QString& file);

  ScenarioDocument& document() { return document_; }
  SessionRecorder& recorder() { return interactions_.recorder(); }
  SimulationWorker& worker() override { return worker_; }
  ControlsDock* controls() const { return controls_; }
  MaskEditor* maskEditor() const { return maskEditor_; }
  OceanPanel* oceanPanel() const { return oceanPanel_; }
  BodiesPanel* bodiesPanel() const { return bodiesPanel_; }
  const Autosave& autosave() const { return files_.autosave(); }
  // An autosave that could not be restored nor moved aside: exit leaves it, and no later
  // autosave overwrites it.
  void keepAutosave() { files_.keepAutosave(); }
  PlotsDock* plots() const { return plots_; }
  const std::vector<SurfaceView*>& views() const;
  QWidget* viewArea() const { return viewGrid_; }
  ViewGrid* viewGrid() const { return viewGrid_; }
  // View > Colour by, its ranges and the vertical scale.
  ViewSettingsMenu* viewSettingsMenu() const { return viewSettings_; }
  // Tools > Verification (made when first opened).
  VerificationWindow* showVerificationWindow();
  // File > Run study…: the study window (one per workbench).
  StudyWindow* showStudyWindow();
  // File > New study of this scenario…: a study file whose base is the scenario (saved first
  // when it has unsaved changes), its models and the grid halved and doubled, shown in the
  // study window. The study file is written to `file` (a dialog asks when empty).
  bool writeStudyOfScenario(QString file = {});
  std::shared_ptr<const Snapshot> shownSnapshot() const { return shown_; }
  QAction* playAction() const { return play_; }
  QAction* differenceAction() const { return difference_; }
  // The Bodies toolbar: while one is checked, a click on the water adds that body there.
  QAction* addBoxAction() const;
  QAction* addHullAction() const;
  QDoubleSpinBox* bodySizeBox() const;
  QDoubleSpinBox* bodyDensityBox() const;
  // Adds the checked tool's body at a point of the pool (m): an undoable scenario edit.
  void addBodyAt(QPointF point);
  const FrameMeter& frameMeter() const { return meter_; }
  // The measured frames, stages, grid, window and renderer (wavebench --stats-json,
  // window_stats.hpp).
  nlohmann::json statsJson() const;
  // The frames and stages in one line (status bar, automation output).
  QString statsLine() const;
  // Gauges and transects (docs/gauges.md, main_window_gauges.cpp): the tools, the dock of
  // their list and charts, and the placements the tools make (undoable scenario edits; a
  // refused one is a status-bar message).
  GaugeToolbar* gaugeToolbar() const { return gaugeToolbar_; }
  GaugesDock* gaugesDock() const { return gaugesDock_; }
  void placeGaugeAt(QPointF point);
  void placeTransect(QPointF from, QPointF to);
  // Render meshes at the grid's resolution even on a software renderer (measurements).
  void setFullResolutionMesh(bool on);
  // Which models have a view (all by default); the others still run and plot.
  void setModelShown(const std::string& id, bool shown);
  // Shows the newest snapshot now (the timer does this ~60 times a second).
  void tick() override;
  // Repaints every view immediately (export, screenshots).
  void renderViewsNow();
  // FrameSource: the frame export pauses, grabs the views and reports through these.
  void pause() override;
  QImage grabViews(QSize size) override;
  void showMessage(const QString& message) override;
  // Fits the pool into the views (shared camera).
  void resetCamera();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildActions();
  void connectBodiesPanel();
  void buildMenus();
  void buildDocks();
  void buildGauges();
  // A new comparison's gauges in the views and the dock; then each tick's samples and profiles.
  void resetGauges(const Snapshot& snapshot);
  void updateGauges(const SimulationWorker::RecordBatch& batch,
                    std::shared_ptr<const Snapshot> snapshot, bool refreshDue);
  // Whether a click or drag in a view places a marker instead of its usual action.
  bool placesMarker(QPointF clicked);
  bool placesTransect(QPointF from, QPointF to);
  void exportGaugePlotsDialog();
  void exportGaugeDataDialog();
  void connectDocument();
  void rebuild();
  // The views for the snapshot's models (the shown ones, and the difference view if asked),
  // then the snapshot in them.
  void setUpViews(std::shared_ptr<const Snapshot> snapshot);
  // The snapshot in the views; captions (text re-rendered by VTK) only when `captions` (a few
  // times a second).
  void showSnapshot(std::shared_ptr<const Snapshot> snapshot, bool captions);
  void rebuildShownMenu(const std::vector<std::string>& ids);
  // A click, a Shift + drag and a Ctrl + click or drag in a view (interactions.hpp), unless a
  // tool in hand places a marker or a body instead.
  void dropAt(QPointF clicked);
  void stirAt(QPointF clicked, QPointF to);
  void placeBody(QPointF from, QPointF to);
  void updateStatus(const Snapshot& snapshot);

  ScenarioDocument document_;
  bool interactive_ = true;  // a user at the window (not --screenshot/--quit automation)
  FileActions files_;
  SimulationWorker worker_;
  Interactions interactions_{document_, worker_};  // every interaction is recorded through it
  ViewGrid* viewGrid_ = nullptr;
  std::set<std::string> hiddenModels_;
  QMenu* shownMenu_ = nullptr;
  ViewSettingsMenu* viewSettings_ = nullptr;
  VerificationWindow* verification_ = nullptr;
  StudyWindow* study_ = nullptr;
  std::vector<std::string> viewIds_;
  ControlsDock* controls_ = nullptr;
  MaskEditor* maskEditor_ = nullptr;
  OceanPanel* oceanPanel_ = nullptr;
  BodiesPanel* bodiesPanel_ = nullptr;
  PlotsDock* plots_ = nullptr;
  QAction *play_ = nullptr, *step_ = nullptr, *reset_ = nullptr, *difference_ = nullptr;
  QComboBox *diffA_ = nullptr, *diffB_ = nullptr;
  BodyToolbar* bodyToolbar_ = nullptr;
  GaugeToolbar* gaugeToolbar_ = nullptr;
  GaugesDock* gaugesDock_ = nullptr;
  GaugeCanvasOverlay* gaugeOverlay_ = nullptr;
  QLabel* status_ = nullptr;
  QTimer* timer_ = nullptr;
  std::shared_ptr<const Snapshot> shown_;
  std::uint64_t shownGeneration_ = 0;
  // The colour range and the vertical scale's cap for the scenario's waves and bodies
  // (view_scale.hpp).
  ViewGrid::Look look_;
  double speed_ = 1.0;
  QElapsedTimer clock_, plotClock_;
  FrameMeter meter_;
  double simulatedSecondsSeen_ = 0.0;  // the worker's busy time already given to the meter
  bool captionsDue_ = true;
};

}  // namespace wb::gui
