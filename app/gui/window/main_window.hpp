// The workbench window: one 3-D view per model (and an optional difference view) in the
// centre, the controls and the domain editor on the left, the plots at the bottom. The
// simulation runs on a SimulationWorker; a GUI timer shows its newest snapshot.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vtkNew.h>
#include <QElapsedTimer>
#include <QMainWindow>

#include "app/gui/document/scenario_document.hpp"
#include "app/gui/document/session_recorder.hpp"
#include "app/gui/simulation/simulation_worker.hpp"
#include "app/gui/window/autosave.hpp"

class QAction;
class QComboBox;
class QGridLayout;
class QLabel;
class QMenu;
class QTimer;
class vtkCamera;

namespace wb::gui {

class ControlsDock;
class MaskEditor;
class PlotsDock;
class SurfaceView;

// Window frame rate and the shares of time simulating and rendering, for the report.
struct FrameStats {
  double wallSeconds = 0.0;
  int viewUpdates = 0;         // snapshots shown (window frames with new water)
  double renderSeconds = 0.0;  // inside paintGL, all views
  double simulateSeconds = 0.0;
  int framesSimulated = 0;
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(bool restoreLayout = true);
  ~MainWindow() override;

  // Loads a scenario ("builtin:NAME" or a path); shows the error and returns false on failure.
  bool openScenario(const QString& fileOrBuiltin, const std::vector<std::string>& modelIds = {});
  bool saveScenarioAs(const QString& file);

  ScenarioDocument& document() { return document_; }
  SessionRecorder& recorder() { return recorder_; }
  SimulationWorker& worker() { return worker_; }
  ControlsDock* controls() const { return controls_; }
  MaskEditor* maskEditor() const { return maskEditor_; }
  const Autosave& autosave() const { return autosave_; }
  PlotsDock* plots() const { return plots_; }
  const std::vector<SurfaceView*>& views() const { return views_; }
  QWidget* viewArea() const { return viewArea_; }
  std::shared_ptr<const Snapshot> shownSnapshot() const { return shown_; }
  QAction* playAction() const { return play_; }
  QAction* differenceAction() const { return difference_; }
  FrameStats frameStats() const;
  // Shows the newest snapshot now (the timer does this ~60 times a second).
  void tick();
  // Repaints every view immediately (export, screenshots).
  void renderViewsNow();
  // Fits the pool into the views (shared camera).
  void resetCamera();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildActions();
  void buildMenus();
  void buildDocks();
  void connectDocument();
  void rebuild();
  void setUpViews(const Snapshot& snapshot);
  void showSnapshot(const Snapshot& snapshot);
  void updateDifferenceView(const Snapshot& snapshot);
  void dropAt(QPointF point);
  void stirAt(QPointF from, QPointF to);
  void boatTowards(QPointF point);
  void setBoatFollow(bool on);
  void setRain(bool on, double rate);
  void setWind(bool on, double direction, double strength);
  bool maybeSave();
  bool save();
  void saveAsDialog();
  void openDialog();
  void addRecentFile(const QString& file);
  void updateRecentMenu();
  void updateTitle();
  void updateStatus(const Snapshot& snapshot);

  ScenarioDocument document_;
  Autosave autosave_;
  bool interactive_ = true;  // a user at the window (not --screenshot/--quit automation)
  SimulationWorker worker_;
  SessionRecorder recorder_{document_, worker_};  // every interaction goes through it
  vtkNew<vtkCamera> camera_;
  QWidget* viewArea_ = nullptr;
  QGridLayout* viewGrid_ = nullptr;
  std::vector<SurfaceView*> views_;
  SurfaceView* differenceView_ = nullptr;
  std::vector<std::string> viewIds_;
  ControlsDock* controls_ = nullptr;
  MaskEditor* maskEditor_ = nullptr;
  PlotsDock* plots_ = nullptr;
  QAction *play_ = nullptr, *step_ = nullptr, *reset_ = nullptr, *difference_ = nullptr;
  QComboBox *diffA_ = nullptr, *diffB_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QLabel* status_ = nullptr;
  QTimer* timer_ = nullptr;
  std::shared_ptr<const Snapshot> shown_;
  std::uint64_t shownGeneration_ = 0;
  double colourRange_ = 0.05;
  double speed_ = 1.0;
  bool boatFollow_ = false;
  bool cameraNeedsFit_ = false;
  QElapsedTimer clock_, plotClock_;
  int viewUpdates_ = 0;
};

}  // namespace wb::gui
