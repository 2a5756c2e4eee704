#include "app/gui/window/main_window.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/gui/editors/bodies_panel.hpp"
#include "app/gui/editors/body_toolbar.hpp"
#include "app/gui/editors/controls_dock.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/editors/ocean_panel.hpp"
#include "app/gui/export/export_actions.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_scale.hpp"
#include "app/gui/views/view_settings_menu.hpp"
#include "app/gui/window/study_window.hpp"
#include "app/gui/window/verification_window.hpp"
#include "app/gui/window/window_stats.hpp"
#include "core/errors.hpp"

namespace wb::gui {

namespace {
constexpr int kTickMs = 15;              // the GUI looks for a new snapshot this often
constexpr int kPlotRefreshMs = 250;      // plots redraw a few times a second, not per frame
constexpr int kMessageMs = 10000;        // status bar messages stay this long
constexpr double kDepthStepShare = 0.1;  // the depth brush step: this share of the depth
constexpr double kBoatCells = 4.0;       // a boat is drawn this many cells long
}  // namespace

MainWindow::MainWindow(bool restoreLayout)
    : interactive_(restoreLayout), files_(document_, this, restoreLayout) {
  setObjectName("mainWindow");
  setWindowTitle("Wavebench");
  viewGrid_ = new ViewGrid;
  setCentralWidget(viewGrid_);
  connect(viewGrid_, &ViewGrid::frameSwapped, this,
          [this](double paintMs, double presentMs) { meter_.viewSwapped(paintMs, presentMs); });
  connect(viewGrid_, &ViewGrid::surfaceClicked, this, &MainWindow::dropAt);
  connect(viewGrid_, &ViewGrid::surfaceStirred, this, &MainWindow::stirAt);
  connect(viewGrid_, &ViewGrid::bodyPlaced, this, &MainWindow::placeBody);
  connect(viewGrid_, &ViewGrid::surfaceHovered, this,
          [this](QPointF point) { interactions_.steerBoat(point); });
  buildActions();
  buildDocks();
  buildMenus();
  connectDocument();
  status_ = new QLabel;
  statusBar()->addWidget(status_, 1);
  if (restoreLayout) {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
  }
  timer_ = new QTimer(this);
  connect(timer_, &QTimer::timeout, this, &MainWindow::tick);
  timer_->start(kTickMs);
  clock_.start();
  plotClock_.start();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions() {
  play_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"), this);
  play_->setCheckable(true);
  play_->setShortcut(Qt::Key_Space);
  play_->setToolTip(tr("Play / pause (Space)"));
  connect(play_, &QAction::toggled, this, [this](bool on) {
    worker_.setPlaying(on);
    play_->setText(on ? tr("Pause") : tr("Play"));
    play_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });
  step_ = new QAction(style()->standardIcon(QStyle::SP_MediaSkipForward), tr("Step"), this);
  step_->setShortcut(Qt::Key_Period);
  step_->setToolTip(tr("Advance one frame (.)"));
  connect(step_, &QAction::triggered, this, [this] {
    play_->setChecked(false);
    worker_.stepOnce();
  });
  reset_ = new QAction(style()->standardIcon(QStyle::SP_MediaSkipBackward), tr("Reset"), this);
  reset_->setShortcut(Qt::CTRL | Qt::Key_R);
  connect(reset_, &QAction::triggered, this, &MainWindow::rebuild);
  difference_ = new QAction(tr("Difference A − B"), this);
  difference_->setCheckable(true);
  difference_->setToolTip(tr("Show eta of model A minus model B on the same grid"));
  connect(difference_, &QAction::toggled, this, [this] {
    if (shown_) setUpViews(shown_);
  });
  diffA_ = new QComboBox;
  diffB_ = new QComboBox;
  diffA_->setObjectName("differenceA");
  diffB_->setObjectName("differenceB");
  for (QComboBox* box : {diffA_, diffB_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // whole model names
    box->setToolTip(tr("The difference view shows A − B"));
  }
  auto* toolbar = addToolBar(tr("Simulation"));
  toolbar->setObjectName("simulationToolbar");
  toolbar->addAction(play_);
  toolbar->addAction(step_);
  toolbar->addAction(reset_);
  toolbar->addSeparator();
  toolbar->addAction(difference_);
  toolbar->addWidget(new QLabel(" A "));
  toolbar->addWidget(diffA_);
  toolbar->addWidget(new QLabel(" B "));
  toolbar->addWidget(diffB_);
  bodyToolbar_ = new BodyToolbar(this);
  addToolBar(bodyToolbar_);
  connect(bodyToolbar_, &BodyToolbar::hint, this, &MainWindow::showMessage);
}

// The Bodies toolbar: a box or a hull of the size and density shown, added where the user
// clicks next (then the tool is put down); the body rests afloat there (no "z").
void MainWindow::addBodyAt(QPointF point) {
  if (!bodyToolbar_->placing()) return;
  const Grid& grid = document_.scenario().grid;
  const int i = int(std::floor(point.x() / grid.dx)), j = int(std::floor(point.y() / grid.dx));
  const bool inside = i >= 0 && j >= 0 && i < grid.nx && j < grid.ny;
  if (!shown_ || !inside || !shown_->domain->isWet(i, j)) {
    showMessage(tr("Body not placed: (%1, %2) m is not on a water cell")
                    .arg(point.x(), 0, 'f', 2)
                    .arg(point.y(), 0, 'f', 2));
    return;
  }
  document_.addBody(*bodyToolbar_->takeBodyAt(point));
  // Its keys in view: the Bodies tab raised, the new body selected.
  bodiesPanel_->select(int(document_.scenario().rigidBodies.size()) - 1);
  if (auto* dock = qobject_cast<QDockWidget*>(bodiesPanel_->parentWidget())) dock->raise();
}

void MainWindow::connectBodiesPanel() {
  connect(bodiesPanel_, &BodiesPanel::bodyApplied, this,
          [this](int index, const nlohmann::json& keys) {
            try {
              document_.setBodyKeys(index, keys);
            } catch (const InputError& error) {
              showMessage(tr("Body not changed: %1").arg(error.what()));
            }
          });
  connect(bodiesPanel_, &BodiesPanel::bodyRemoved, &document_, &ScenarioDocument::removeBody);
}

void MainWindow::buildDocks() {
  controls_ = new ControlsDock(Transport{play_, step_, reset_}, this);
  addDockWidget(Qt::LeftDockWidgetArea, controls_);
  auto* domainDock = new ScrollingDock(tr("Domain"), "domainDock", this);
  maskEditor_ = new MaskEditor(document_);
  // While the models run, a wall or water dab is a session entry that they take at the next
  // frame; paused or before the start, it edits the document's mask (one undo step a stroke).
  maskEditor_->setLiveDab(
      [this](const MaskDab& dab, bool water) { return interactions_.maskDab(dab, water); });
  auto* domainTab = new QWidget;
  auto* domainLayout = new QVBoxLayout(domainTab);
  domainLayout->setContentsMargins(0, 0, 0, 0);
  domainLayout->addWidget(maskEditor_);
  oceanPanel_ = new OceanPanel(document_);
  domainLayout->addWidget(oceanPanel_);
  domainDock->setContent(domainTab);
  addDockWidget(Qt::LeftDockWidgetArea, domainDock);
  tabifyDockWidget(controls_, domainDock);
  auto* bodiesDock = new ScrollingDock(tr("Bodies"), "bodiesDock", this);
  bodiesPanel_ = new BodiesPanel;
  bodiesDock->setContent(bodiesPanel_);
  addDockWidget(Qt::LeftDockWidgetArea, bodiesDock);
  tabifyDockWidget(domainDock, bodiesDock);
  controls_->raise();
  plots_ = new PlotsDock(this);
  addDockWidget(Qt::BottomDockWidgetArea, plots_);
  buildGauges();
  resizeDocks({controls_}, {360}, Qt::Horizontal);
  resizeDocks({plots_}, {300}, Qt::Vertical);

  connect(controls_, &ControlsDock::speedChanged, this, [this](double speed) {
    speed_ = speed;
    worker_.setSpeed(speed);
  });
  connect(controls_, &ControlsDock::gridChanged, &document_, &ScenarioDocument::setGridCells);
  connect(controls_, &ControlsDock::waterChanged, &document_, &ScenarioDocument::setWater);
  connect(controls_, &ControlsDock::modelsChanged, &document_, &ScenarioDocument::setModelIds);
  connect(controls_, &ControlsDock::paramsApplied, &document_, &ScenarioDocument::setModelParamsOf);
  connect(controls_, &ControlsDock::rainChanged, this, [this](bool on, double rate) {
    interactions_.setRain(on, rate, controls_->dropRadius(), controls_->dropAmplitude());
  });
  connect(controls_, &ControlsDock::windChanged, this,
          [this](bool on, double direction, double strength) {
            interactions_.setWind(on, direction, strength);
          });
  connect(controls_, &ControlsDock::boatFollowChanged, this,
          [this](bool on) { interactions_.setBoatFollow(on); });
  connectBodiesPanel();
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  files_.addToMenu(file);
  file->addSeparator();
  QMenu* exports = file->addMenu(tr("&Export"));
  exports->addAction(tr("Plots as image (PNG, SVG, PDF)…"), this,
                     [this] { exportPlotsDialog(this, *plots_); });
  exports->addAction(tr("Plot data as CSV…"), this, [this] { exportCsvDialog(this, *plots_); });
  exports->addAction(tr("Gauge plots as image (PNG, SVG, PDF)…"), this,
                     &MainWindow::exportGaugePlotsDialog);
  exports->addAction(tr("Gauge and transect data as CSV…"), this,
                     &MainWindow::exportGaugeDataDialog);
  exports->addAction(tr("Frames (PNG, ParaView, MP4)…"), this,
                     [this] { exportFramesDialog(this, *this); });
  file->addSeparator();
  file->addSeparator();
  file->addAction(tr("Run s&tudy…"), this, &MainWindow::showStudyWindow);
  file->addAction(tr("New study of this scenario…"), this, [this] { writeStudyOfScenario(); });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = document_.undoStack()->createUndoAction(this, tr("&Undo"));
  QAction* redo = document_.undoStack()->createRedoAction(this, tr("&Redo"));
  undo->setShortcut(QKeySequence::Undo);
  redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
  simulation->addActions({play_, step_, reset_});

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(difference_);
  shownMenu_ = view->addMenu(tr("Models shown"));
  view->addAction(tr("Reset camera"), this, [this] { viewGrid_->resetCamera(); });
  view->addSeparator();
  viewSettings_ = new ViewSettingsMenu(view, this, interactive_);
  connect(viewSettings_, &ViewSettingsMenu::changed, viewGrid_, &ViewGrid::setViewSettings);
  viewGrid_->setViewSettings(viewSettings_->settings());
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    view->addAction(dock->toggleViewAction());

  // One Tools menu, whichever part of the window adds to it first.
  QMenu* tools = menuBar()->findChild<QMenu*>("toolsMenu");
  if (!tools) {
    tools = menuBar()->addMenu(tr("&Tools"));
    tools->setObjectName("toolsMenu");
  }
  tools->addAction(tr("&Verification…"), this, &MainWindow::showVerificationWindow);
}

VerificationWindow* MainWindow::showVerificationWindow() {
  if (!verification_) {
    verification_ = new VerificationWindow(this);
    connect(verification_, &VerificationWindow::openScenarioAsked, &files_,
            &FileActions::openAsked);
  }
  verification_->show();
  verification_->raise();
  verification_->activateWindow();
  return verification_;
}

StudyWindow* MainWindow::showStudyWindow() {
  if (!study_) study_ = new StudyWindow(this);
  study_->show();
  study_->raise();
  study_->activateWindow();
  return study_;
}

bool MainWindow::writeStudyOfScenario(QString file) {
  file = files_.writeStudyOfScenario(file);
  if (file.isEmpty()) return false;
  StudyWindow* window = showStudyWindow();
  window->setStudyFile(file);
  const QFileInfo info(file);
  window->setOutputFolder(info.dir().filePath(info.completeBaseName() + "-results"));
  return true;
}

void MainWindow::connectDocument() {
  connect(&document_, &ScenarioDocument::rebuildNeeded, this, &MainWindow::rebuild);
  connect(&document_, &ScenarioDocument::loaded, this,
          [this] { maskEditor_->setDepthStep(kDepthStepShare * document_.scenario().depth); });
  // A scenario the models cannot run (e.g. open edges for a model without a layer) follows any
  // edit: the one-line reason stays in the status bar until the next message, without a modal
  // box that would stop each edit (and an automated run) until dismissed.
  connect(&worker_, &SimulationWorker::buildFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Cannot run this scenario: %1").arg(message));
    std::fprintf(stderr, "wavebench: %s\n", qPrintable(message));
  });
  connect(&worker_, &SimulationWorker::modelFailed, this,
          [this](const QString& message) { statusBar()->showMessage(message, kMessageMs); });
  // A click the comparison refused (a body on a wall cell): one line, the session goes on.
  connect(&worker_, &SimulationWorker::commandFailed, this,
          [this](const QString& message) { statusBar()->showMessage(message, kMessageMs); });
}

bool MainWindow::openScenario(const QString& fileOrBuiltin, const std::vector<std::string>& ids) {
  return files_.open(fileOrBuiltin, ids);
}

bool MainWindow::saveScenarioAs(const QString& file) {
  return files_.saveAs(file);
}

void MainWindow::rebuild() {
  const Scenario& s = document_.scenario();
  look_ = lookFor(s);
  controls_->showScenario(s, document_.modelIds());
  bodiesPanel_->showBodies(s);
  worker_.rebuild(s, document_.modelIds());
}

void MainWindow::tick() {
  using Clock = std::chrono::steady_clock;
  auto snapshot = worker_.latest();
  if (!snapshot) return;
  // The records of this snapshot's comparison only: those of a newer one wait in the worker
  // until its first snapshot is here and the plots and gauges are reset for it.
  auto batch = worker_.takeRecords(snapshot->generation);
  if (snapshot->generation != shownGeneration_) {
    setUpViews(snapshot);
    std::vector<std::string> ids;
    for (const auto& m : snapshot->models)
      ids.push_back(m.id);
    plots_->reset(ids);
    resetGauges(*snapshot);
    shownGeneration_ = snapshot->generation;
    shown_ = snapshot;
    meter_.restart();
  }
  const auto chartsStart = Clock::now();
  if (batch.generation == shownGeneration_) plots_->append(batch.perModel);
  const bool refreshDue = plotClock_.elapsed() >= kPlotRefreshMs;
  updateGauges(batch, snapshot, refreshDue);
  if (refreshDue) {
    plotClock_.restart();
    plots_->refresh();
    captionsDue_ = true;
  }
  meter_.addCharts(std::chrono::duration<double, std::milli>(Clock::now() - chartsStart).count());
  // The next water waits until the last reached the screen: renders never pile up.
  if (snapshot != shown_ && !meter_.framePending()) {
    const bool strokes = shown_ && shown_->domain != snapshot->domain;  // a mask stroke ran
    shown_ = snapshot;
    if (strokes) {
      maskEditor_->showDomain(snapshot->domain->wetMask());
      viewGrid_->setDomain(snapshot->domain, look_);
    }
    const auto start = Clock::now();
    showSnapshot(snapshot, std::exchange(captionsDue_, false));
    const double updateMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const double busy = worker_.timing().busySeconds;
    meter_.addSimulation(1e3 * (busy - simulatedSecondsSeen_));
    simulatedSecondsSeen_ = busy;
    meter_.frameRequested(updateMs, viewGrid_->viewsOnScreen());
  }
  if (refreshDue) updateStatus(*snapshot);
}

void MainWindow::setUpViews(std::shared_ptr<const Snapshot> snapshotPointer) {
  const Snapshot& snapshot = *snapshotPointer;
  std::vector<std::string> ids;
  for (const auto& m : snapshot.models)
    ids.push_back(m.id);
  const bool idsChanged = ids != viewIds_;
  std::vector<int> shownModels;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (!hiddenModels_.count(ids[k])) shownModels.push_back(int(k));
  const bool withDifference = difference_->isChecked() && ids.size() >= 2;
  const bool firstViews =
      viewGrid_->setUp(snapshot, shownModels, withDifference, idsChanged, look_);
  if (idsChanged) {
    const QString a = diffA_->currentText(), b = diffB_->currentText();
    diffA_->clear();
    diffB_->clear();
    for (const auto& id : ids) {
      diffA_->addItem(QString::fromStdString(id));
      diffB_->addItem(QString::fromStdString(id));
    }
    if (diffA_->findText(a) >= 0) diffA_->setCurrentText(a);
    diffB_->setCurrentIndex(diffB_->findText(b) >= 0 ? diffB_->findText(b)
                                                     : std::min(1, int(ids.size()) - 1));
    rebuildShownMenu(ids);
    viewIds_ = ids;
  }
  viewSettings_->setComparison(ids, snapshot.referenceEta != nullptr, snapshot.seaEta != nullptr);
  maskEditor_->showDomain(snapshot.domain->wetMask());
  if (firstViews || shownGeneration_ == 0 || !shown_ ||
      shown_->domain->grid().width() != snapshot.domain->grid().width())
    viewGrid_->resetCamera();
  showSnapshot(std::move(snapshotPointer), true);
}

void MainWindow::rebuildShownMenu(const std::vector<std::string>& ids) {
  shownMenu_->clear();
  for (const auto& id : ids) {
    QAction* action = shownMenu_->addAction(QString::fromStdString(id));
    action->setCheckable(true);
    action->setChecked(!hiddenModels_.count(id));
    connect(action, &QAction::toggled, this, [this, id](bool on) { setModelShown(id, on); });
  }
}

void MainWindow::setModelShown(const std::string& id, bool shown) {
  if (shown)
    hiddenModels_.erase(id);
  else
    hiddenModels_.insert(id);
  for (QAction* action : shownMenu_->actions())
    if (action->text().toStdString() == id && action->isChecked() != shown)
      action->setChecked(shown);
  if (shown_) setUpViews(shown_);
}

void MainWindow::showSnapshot(std::shared_ptr<const Snapshot> snapshot, bool captions) {
  ViewGrid::Captions figures;
  figures.differenceA = diffA_->currentIndex();
  figures.differenceB = diffB_->currentIndex();
  figures.frameBudgetMs = 1e3 * document_.scenario().frameDt / speed_;
  figures.boatLength = kBoatCells * document_.scenario().grid.dx;
  figures.recentStepMs = [this](std::size_t model) { return plots_->recentStepMs(model); };
  viewGrid_->show(std::move(snapshot), figures, captions);
}

QAction* MainWindow::addBoxAction() const {
  return bodyToolbar_->addBoxAction();
}

QAction* MainWindow::addHullAction() const {
  return bodyToolbar_->addHullAction();
}

QDoubleSpinBox* MainWindow::bodySizeBox() const {
  return bodyToolbar_->sizeBox();
}

QDoubleSpinBox* MainWindow::bodyDensityBox() const {
  return bodyToolbar_->densityBox();
}

const std::vector<SurfaceView*>& MainWindow::views() const {
  return viewGrid_->views();
}

void MainWindow::resetCamera() {
  viewGrid_->resetCamera();
}

void MainWindow::renderViewsNow() {
  viewGrid_->renderNow();
}

void MainWindow::setFullResolutionMesh(bool on) {
  viewGrid_->setFullResolutionMesh(on);
}

void MainWindow::pause() {
  play_->setChecked(false);
}

QImage MainWindow::grabViews(QSize size) {
  renderViewsNow();
  return viewGrid_->grab().toImage().scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

void MainWindow::showMessage(const QString& message) {
  statusBar()->showMessage(message, kMessageMs);
}

void MainWindow::dropAt(QPointF clicked) {
  if (placesMarker(clicked)) return;
  if (bodyToolbar_->placing()) {  // a body off the water is refused, the tool stays in hand
    addBodyAt(clicked);
    return;
  }
  interactions_.drop(clicked, controls_->dropRadius(), controls_->dropAmplitude());
}

void MainWindow::stirAt(QPointF clicked, QPointF to) {
  interactions_.stir(clicked, to, controls_->dropRadius());
}

// The crate (a recorded session entry) is drawn true to size from its first frame: the view's
// scale is widened for it before it enters the water.
void MainWindow::placeBody(QPointF from, QPointF to) {
  if (placesTransect(from, to)) return;
  const BodySpec crate = Interactions::crate(from, to);
  if (admitThrownBody(look_, document_.scenario(), crate) && shown_)
    viewGrid_->setDomain(shown_->domain, look_);
  interactions_.throwBody(crate);
}

nlohmann::json MainWindow::statsJson() const {
  return wb::gui::statsJson(meter_,
                            {.grid = shown_ ? shown_->domain->grid() : document_.scenario().grid,
                             .meshStride = viewGrid_->meshStride(),
                             .window = size(),
                             .views = viewGrid_->views().size(),
                             .models = viewIds_,
                             .glRenderer = viewGrid_->glRenderer(),
                             .simulatedFrames = shown_ ? shown_->frame : 0,
                             .realTimeRatio = shown_ ? shown_->realTimeRatio : 0.0});
}

QString MainWindow::statsLine() const {
  return wb::gui::statsLine(meter_, viewGrid_->meshStride());
}

void MainWindow::updateStatus(const Snapshot& snapshot) {
  status_->setToolTip(tr("OpenGL renderer: %1").arg(viewGrid_->glRenderer()));
  status_->setText(tr("frame %1   t = %2 s   %3 % of real time   %4")
                       .arg(snapshot.frame)
                       .arg(snapshot.time, 0, 'f', 2)
                       .arg(100.0 * snapshot.realTimeRatio, 0, 'f', 0)
                       .arg(statsLine()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!files_.close()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  event->accept();
}

}  // namespace wb::gui
