#include "app/gui/window/main_window.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/export/output_file.hpp"
#include "app/gui/editors/bodies_panel.hpp"
#include "app/gui/editors/body_toolbar.hpp"
#include "app/gui/editors/controls_dock.hpp"
#include "app/gui/editors/mask_editor.hpp"
#include "app/gui/editors/ocean_panel.hpp"
#include "app/gui/export/export_actions.hpp"
#include "app/gui/views/plots_dock.hpp"
#include "app/gui/views/surface_view.hpp"
#include "app/gui/views/view_settings_menu.hpp"
#include "app/gui/window/study_window.hpp"
#include "app/gui/window/verification_window.hpp"
#include "core/errors.hpp"
#include "core/grid/interpolation.hpp"
#include "core/ocean/ocean_spectrum.hpp"
#include "core/ocean/wind_sea_params.hpp"

namespace wb::gui {

namespace {
constexpr int kAutosaveMs = 10000;   // an edited scenario is copied to the autosave this often
constexpr int kTickMs = 15;          // the GUI looks for a new snapshot this often
constexpr int kPlotRefreshMs = 250;  // plots redraw a few times a second, not per frame
constexpr int kMaxRecentFiles = 8;
constexpr int kMessageMs = 10000;          // status bar messages stay this long
constexpr double kMinColourRange = 0.005;  // m
constexpr double kDepthStepShare = 0.1;    // the depth brush step: this share of the depth
// Waves spread and fall well below the drops that made them: colour half their height.
constexpr double kColourShareOfDrops = 0.5;
// A boat's wake is a small dent per boat step; its waves add up to this many dents.
constexpr double kWakeBuildUp = 10.0;
constexpr double kBoatCells = 4.0;  // a boat is drawn this many cells long

// A buoyant body's splash: the water it displaces afloat, pushed into the surface over its
// footprint's circle widened by two cells (docs/bodies.md, "Displacement"), as a mean height;
// the highest of `bodies`.
double bodySplash(const std::vector<BodySpec>& bodies, double waterDensity, double dx) {
  double height = 0.0;
  for (const auto& b : bodies) {
    const double afloat = std::min(1.0, b.density / waterDensity) * b.size.prod();
    const double radius = 0.5 * std::hypot(b.size.x(), b.size.y()) + 2.0 * dx;
    height = std::max(height, afloat / (M_PI * radius * radius));
  }
  return height;
}

// The scenario's bodies and those thrown in later.
std::vector<BodySpec> allBodies(const Scenario& s) {
  std::vector<BodySpec> bodies = s.rigidBodies;
  for (const auto& thrown : s.excitations.bodies)
    bodies.push_back(thrown.spec);
  return bodies;
}

double waveHeightFor(const Scenario& s) {
  double amplitude = 0.0;
  for (const auto& d : s.initialDrops)
    amplitude = std::max(amplitude, std::abs(d.amplitude));
  for (const auto& d : s.excitations.drops)
    amplitude = std::max(amplitude, std::abs(d.amplitude));
  for (const auto& r : s.excitations.rain)
    amplitude = std::max(amplitude, std::abs(r.amplitude));
  for (const auto& b : s.excitations.boats)
    amplitude = std::max(amplitude, kWakeBuildUp * std::abs(b.wakeAmplitude));
  amplitude = std::max(amplitude, bodySplash(allBodies(s), s.waterDensity, s.grid.dx));
  // A reference's surface keeps its height: a standing mode's amplitude, a dam's step.
  double reference = 0.0;
  if (s.reference && s.reference->kind == ReferenceSpec::Kind::StandingMode)
    reference = std::abs(s.reference->amplitude);
  if (s.reference && s.reference->kind == ReferenceSpec::Kind::DamBreak)
    reference = std::abs(s.reference->hLeft - s.reference->hRight);
  // The open sea's: half its significant wave height and half the swell's, the height of a
  // typical crest (docs/scenario.md#ocean); a sea the models would refuse shows nothing here.
  double sea = 0.0;
  if (s.ocean) try {
      const ParamValues values = oceanParams(s);
      const OceanSpectrum spectrum(windSeaFrom(values, s.g, s.depth));
      sea = 0.5 * spectrum.significantWaveHeight() + 0.5 * values.get("swell_height");
    } catch (const InputError&) {
    }
  return std::max({kMinColourRange, kColourShareOfDrops * amplitude, reference, sea});
}

// A buoyant body is drawn true to size on water drawn verticalScale times its height: a wave
// of the colour range's height rises (verticalScale - 1) times that against the body. It
// stays below the lowest freeboard of the bodies, h (1 - rho_b / rho_w) for a box, so the
// drawn water does not swamp a body the model keeps afloat.
double maxVerticalScaleFor(const std::vector<BodySpec>& bodies, double waterDensity,
                           double colourRange) {
  double scale = std::numeric_limits<double>::infinity();
  for (const auto& b : bodies) {
    const double freeboard = b.size.z() * (1.0 - std::min(1.0, b.density / waterDensity));
    scale = std::min(scale, 1.0 + freeboard / colourRange);
  }
  return scale;
}
}  // namespace

MainWindow::MainWindow(bool restoreLayout) : interactive_(restoreLayout) {
  setObjectName("mainWindow");
  setWindowTitle("Wavebench");
  viewGrid_ = new ViewGrid;
  setCentralWidget(viewGrid_);
  connect(viewGrid_, &ViewGrid::frameSwapped, this,
          [this](double paintMs, double presentMs) { meter_.viewSwapped(paintMs, presentMs); });
  connect(viewGrid_, &ViewGrid::surfaceClicked, this, &MainWindow::dropAt);
  connect(viewGrid_, &ViewGrid::surfaceStirred, this, &MainWindow::stirAt);
  connect(viewGrid_, &ViewGrid::bodyPlaced, this, &MainWindow::placeBody);
  connect(viewGrid_, &ViewGrid::surfaceHovered, this, &MainWindow::boatTowards);
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
  if (restoreLayout) {
    // Autosave (autosave.hpp): a copy of an edited scenario every few seconds; a clean exit drops
    // it. Automated runs (screenshots, tests) leave the user's autosave alone.
    auto* autosaveTimer = new QTimer(this);
    connect(autosaveTimer, &QTimer::timeout, this, [this] {
      if (autosaveKept_) return;
      QString error;
      if (!autosave_.write(document_, &error))
        statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 10000);
    });
    autosaveTimer->start(kAutosaveMs);
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
  maskEditor_->setLiveDab([this](const MaskDab& dab, bool water) {
    if (!worker_.playing()) return false;
    recorder_.maskDab(dab, !water);
    return true;
  });
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
  connect(controls_, &ControlsDock::rainChanged, this, &MainWindow::setRain);
  connect(controls_, &ControlsDock::windChanged, this, &MainWindow::setWind);
  connect(controls_, &ControlsDock::boatFollowChanged, this, &MainWindow::setBoatFollow);
  connectBodiesPanel();
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
  QMenu* builtins = file->addMenu(tr("Built-in scenarios"));
  for (const auto& name : builtinScenarioNames()) {
    const QString id = "builtin:" + QString::fromStdString(name);
    builtins->addAction(QString::fromStdString(name), this, [this, id] {
      if (maybeSave()) openScenario(id);
    });
  }
  recentMenu_ = file->addMenu(tr("Open &recent"));
  updateRecentMenu();
  file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
  file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, &MainWindow::saveAsDialog);
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
    connect(verification_, &VerificationWindow::openScenarioAsked, this, [this](const QString& id) {
      if (maybeSave()) openScenario(id);
    });
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
  const Scenario& s = document_.scenario();
  const bool builtin = !document_.isModified() && document_.filePath().isEmpty() &&
                       s.source.rfind("builtin:", 0) == 0;
  if (!builtin && (document_.isModified() || document_.filePath().isEmpty()) && !save())
    return false;
  const QString base = builtin ? QString::fromStdString(s.source)
                               : QFileInfo(document_.filePath()).absoluteFilePath();
  if (file.isEmpty()) {
    const QString name = QString::fromStdString(s.name.empty() ? "scenario" : s.name);
    const QString folder = builtin ? QDir::homePath() : QFileInfo(base).absolutePath();
    file = QFileDialog::getSaveFileName(
        this, tr("New study"), QDir(folder).filePath(name + "-study.json"), tr("Studies (*.json)"));
    if (file.isEmpty()) return false;
  }
  const int cells = std::max(s.grid.nx, s.grid.ny);
  const nlohmann::json study = {
      {"description", "A study of " + base.toStdString() + " written by the workbench."},
      {"scenario", base.toStdString()},
      {"axes", {{"models", document_.modelIds()}, {"grid", {cells / 2, cells, 2 * cells}}}},
      {"error", {{"at", {s.duration}}}}};
  try {
    writeWholeFile(file.toStdString(), study.dump(2) + "\n");
  } catch (const std::exception& error) {
    QMessageBox::warning(this, tr("New study"), QString::fromStdString(error.what()));
    return false;
  }
  StudyWindow* window = showStudyWindow();
  window->setStudyFile(file);
  const QFileInfo info(file);
  window->setOutputFolder(info.dir().filePath(info.completeBaseName() + "-results"));
  return true;
}

void MainWindow::connectDocument() {
  connect(&document_, &ScenarioDocument::rebuildNeeded, this, &MainWindow::rebuild);
  connect(&document_, &ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
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

void MainWindow::reportError(const QString& title, const std::exception& error) {
  // Memory running out is the input's size, not a bug: say so rather than "std::bad_alloc".
  const QString message = dynamic_cast<const std::bad_alloc*>(&error)
                              ? tr("out of memory: the scenario is too large for this machine "
                                   "(try a smaller grid or fewer bodies)")
                              : QString::fromStdString(error.what());
  if (scripted_) {
    std::fprintf(stderr, "wavebench: %s\n", qPrintable(message));
    return;
  }
  QMessageBox::warning(this, title, message);
}

bool MainWindow::openScenario(const QString& fileOrBuiltin, const std::vector<std::string>& ids) {
  try {
    document_.load(fileOrBuiltin.toStdString(), ids);
  } catch (const std::exception& error) {
    reportError(tr("Open scenario"), error);
    return false;
  }
  if (!document_.filePath().isEmpty()) addRecentFile(document_.filePath());
  updateTitle();
  return true;
}

void MainWindow::rebuild() {
  const Scenario& s = document_.scenario();
  waveHeight_ = waveHeightFor(s);
  maxVerticalScale_ = maxVerticalScaleFor(allBodies(s), s.waterDensity, waveHeight_);
  controls_->showScenario(s, document_.modelIds());
  bodiesPanel_->showBodies(s);
  worker_.rebuild(s, document_.modelIds());
}

void MainWindow::tick() {
  using Clock = std::chrono::steady_clock;
  auto batch = worker_.takeRecords();
  auto snapshot = worker_.latest();
  if (!snapshot) return;
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
      viewGrid_->setDomain(snapshot->domain, look());
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
      viewGrid_->setUp(snapshot, shownModels, withDifference, idsChanged, look());
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

ViewGrid::Look MainWindow::look() const {
  return {.waveHeight = waveHeight_, .maxVerticalScale = maxVerticalScale_};
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

// An interaction enters the comparison at the next frame: while the models do not play
// (paused, or stopped at a frame limit) that frame is stepped at once, so it shows.
void MainWindow::stepIfPaused() {
  if (!worker_.playing()) worker_.stepOnce();
}

// A point picked on the rest plane just beyond the pool's edge, moved onto its outermost cell
// centres: the recorded session (and its autosave) holds only what its scenario accepts.
QPointF MainWindow::ontoPool(QPointF point) const {
  const Grid& grid = document_.scenario().grid;
  const double half = 0.5 * grid.dx;
  return {std::clamp(point.x(), half, grid.width() - half),
          std::clamp(point.y(), half, grid.height() - half)};
}

void MainWindow::dropAt(QPointF clicked) {
  if (placesMarker(clicked)) return;
  if (bodyToolbar_->placing()) {  // a body off the water is refused, the tool stays in hand
    addBodyAt(clicked);
    return;
  }
  const QPointF point = ontoPool(clicked);
  const SurfaceEvent drop{0.0,
                          point.x(),
                          point.y(),
                          controls_->dropRadius(),
                          controls_->dropAmplitude(),
                          EventSource::User};
  recorder_.drop(drop);
  stepIfPaused();
}

// A Shift + drag stirs the water of the models that have a velocity: a Gaussian force at the
// start point for kStirSeconds, strong enough to give the water there about the drag's length
// per second of speed in the drag's direction (a = drag / (1 s * kStirSeconds)).
void MainWindow::stirAt(QPointF clicked, QPointF to) {
  constexpr double kStirSeconds = 0.2;
  const QPointF from = ontoPool(clicked);
  StirImpulse stir;
  stir.x = from.x();
  stir.y = from.y();
  stir.radius = 2.0 * controls_->dropRadius();
  stir.ax = (to.x() - from.x()) / kStirSeconds;
  stir.ay = (to.y() - from.y()) / kStirSeconds;
  stir.duration = kStirSeconds;
  recorder_.stir(stir);
  stepIfPaused();
}

// Ctrl + click drops a crate at the point, its bottom kBodyDropHeight above the highest of
// the models' water there; Ctrl + drag throws it, horizontally at kThrowRate times the drag
// (at most kMaxThrowSpeed). It is a recorded session entry (a timed "body" excitation) that
// enters every model's water at the next frame; a wall cell refuses it through
// SimulationWorker::commandFailed.
void MainWindow::placeBody(QPointF from, QPointF to) {
  if (placesTransect(from, to)) return;
  constexpr double kBodyEdge = 0.6;        // m
  constexpr double kBodyDensity = 500.0;   // kg/m^3: floats half immersed
  constexpr double kBodyDropHeight = 0.5;  // m
  constexpr double kThrowRate = 2.0;       // 1/s: speed per metre of drag
  constexpr double kMaxThrowSpeed = 4.0;   // m/s
  BodySpec spec;
  spec.size = Eigen::Vector3d::Constant(kBodyEdge);
  spec.density = kBodyDensity;
  spec.x = from.x();
  spec.y = from.y();
  Eigen::Vector3d throwVelocity(kThrowRate * (to.x() - from.x()), kThrowRate * (to.y() - from.y()),
                                0.0);
  if (throwVelocity.norm() > kMaxThrowSpeed) throwVelocity *= kMaxThrowSpeed / throwVelocity.norm();
  spec.velocity = throwVelocity;
  // Its splash joins the colour range and it is drawn true to size from now on: the water's
  // exaggeration stays below its freeboard and the scenario's bodies'.
  const Scenario& scenario = document_.scenario();
  const double range =
      std::max(waveHeight_,
               kColourShareOfDrops * bodySplash({spec}, scenario.waterDensity, scenario.grid.dx));
  const double cap =
      std::min(maxVerticalScaleFor(scenario.rigidBodies, scenario.waterDensity, range),
               maxVerticalScaleFor({spec}, scenario.waterDensity, range));
  if (range != waveHeight_ || cap < maxVerticalScale_) {
    waveHeight_ = range;
    maxVerticalScale_ = std::min(maxVerticalScale_, cap);
    if (shown_) viewGrid_->setDomain(shown_->domain, look());
  }
  recorder_.throwBody(spec, kBodyDropHeight);
  stepIfPaused();
}

void MainWindow::boatTowards(QPointF point) {
  if (!boatFollow_) return;
  recorder_.steerBoat(point.x(), point.y());
}

// A boat that follows the mouse needs a boat: add one in the middle of the pool if the
// scenario has none (a scenario edit, so the comparison restarts with it).
void MainWindow::setBoatFollow(bool on) {
  boatFollow_ = on;
  if (on) document_.addBoatIfNone();
}

void MainWindow::setRain(bool on, double rate) {
  std::optional<RainSpec> rain;
  if (on) {
    rain.emplace();
    rain->rate = rate;
    rain->radius = controls_->dropRadius();
    rain->amplitude = -0.5 * std::abs(controls_->dropAmplitude());
  }
  recorder_.rain(rain);
}

void MainWindow::setWind(bool on, double direction, double strength) {
  recorder_.wind(on ? std::optional(WindSpec{direction, strength}) : std::nullopt);
}

nlohmann::json MainWindow::statsJson() const {
  const FrameSummary f = meter_.summary();
  const Grid grid = shown_ ? shown_->domain->grid() : document_.scenario().grid;
  double load = 0.0;
  if (std::FILE* file = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(file, "%lf", &load) != 1) load = 0.0;
    std::fclose(file);
  }
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  return {
      {"presented_fps", f.presentedFps},
      {"presented_frames", f.presentedFrames},
      {"frame_ms_p50", f.frameMsP50},
      {"frame_ms_p95", f.frameMsP95},
      {"warm_up_frames", FrameMeter::kWarmUpFrames},
      {"stage_ms",
       {{"update", f.meanStages.updateMs},
        {"render", f.meanStages.renderMs},
        {"present", f.meanStages.presentMs},
        {"charts", f.meanStages.chartsMs},
        {"simulation", f.meanStages.simulateMs}}},
      {"cpu_ms_per_frame",
       {{"gui_thread", f.meanStages.guiCpuMs}, {"process", f.meanStages.processCpuMs}}},
      {"grid", {{"nx", grid.nx}, {"ny", grid.ny}}},
      {"render_mesh_stride", viewGrid_->meshStride()},
      {"window", {{"width", width()}, {"height", height()}}},
      {"views", viewGrid_->views().size()},
      {"models", viewIds_},
      {"gl_renderer", viewGrid_->glRenderer().toStdString()},
      {"simulated_frames", shown_ ? shown_->frame : 0},
      {"real_time_ratio", shown_ ? shown_->realTimeRatio : 0.0},
      {"omp_wait_policy", policy ? policy : ""},
      {"load_average_1min", load},
  };
}

QString MainWindow::statsLine() const {
  const FrameSummary f = meter_.summary();
  const FrameSample& m = f.meanStages;
  if (meter_.warmUpLeft() > 0 || f.presentedFrames == 0)
    return tr("presented frames/s: warming up (%1 frames)").arg(meter_.warmUpLeft());
  return tr("%1 presented frames/s (p50 %2, p95 %3 ms)   ms/frame: update %4, render %5, "
            "present %6, charts %7, simulation %8, CPU %9 (GUI %10)   mesh 1/%11")
      .arg(f.presentedFps, 0, 'f', 1)
      .arg(f.frameMsP50, 0, 'f', 1)
      .arg(f.frameMsP95, 0, 'f', 1)
      .arg(m.updateMs, 0, 'f', 1)
      .arg(m.renderMs, 0, 'f', 1)
      .arg(m.presentMs, 0, 'f', 1)
      .arg(m.chartsMs, 0, 'f', 1)
      .arg(m.simulateMs, 0, 'f', 1)
      .arg(m.processCpuMs, 0, 'f', 1)
      .arg(m.guiCpuMs, 0, 'f', 1)
      .arg(viewGrid_->meshStride());
}

void MainWindow::updateStatus(const Snapshot& snapshot) {
  status_->setToolTip(tr("OpenGL renderer: %1").arg(viewGrid_->glRenderer()));
  status_->setText(tr("frame %1   t = %2 s   %3 % of real time   %4")
                       .arg(snapshot.frame)
                       .arg(snapshot.time, 0, 'f', 2)
                       .arg(100.0 * snapshot.realTimeRatio, 0, 'f', 0)
                       .arg(statsLine()));
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString file =
      QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(), tr("Scenarios (*.json)"));
  if (!file.isEmpty()) openScenario(file);
}

bool MainWindow::saveScenarioAs(const QString& file) {
  try {
    document_.saveAs(file);
  } catch (const std::exception& error) {
    reportError(tr("Save scenario"), error);
    return false;
  }
  addRecentFile(file);
  updateTitle();
  return true;
}

bool MainWindow::save() {
  if (document_.filePath().isEmpty()) {
    saveAsDialog();
    return !document_.isModified();
  }
  return saveScenarioAs(document_.filePath());
}

void MainWindow::saveAsDialog() {
  const QString file = QFileDialog::getSaveFileName(
      this, tr("Save scenario"), QString::fromStdString(document_.scenario().name) + ".json",
      tr("Scenarios (*.json)"));
  if (!file.isEmpty()) saveScenarioAs(file);
}

bool MainWindow::maybeSave() {
  if (!document_.isModified()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  if (interactive_ && !autosaveKept_) autosave_.clear();
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  event->accept();
}

void MainWindow::addRecentFile(const QString& file) {
  QSettings settings;
  QStringList files = settings.value("recentFiles").toStringList();
  files.removeAll(file);
  files.prepend(file);
  while (files.size() > kMaxRecentFiles)
    files.removeLast();
  settings.setValue("recentFiles", files);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  for (const QString& file : QSettings().value("recentFiles").toStringList())
    recentMenu_->addAction(file, this, [this, file] {
      if (maybeSave()) openScenario(file);
    });
  recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

void MainWindow::updateTitle() {
  const QString name = document_.filePath().isEmpty()
                           ? QString::fromStdString(document_.scenario().source)
                           : document_.filePath();
  setWindowTitle(QString("Wavebench — %1%2").arg(name, document_.isModified() ? " *" : ""));
}

}  // namespace wb::gui
