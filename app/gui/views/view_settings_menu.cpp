#include "app/gui/views/view_settings_menu.hpp"

#include <QAction>
#include <QActionGroup>
#include <QInputDialog>
#include <QMenu>
#include <QSettings>

namespace wb::gui {

namespace {
constexpr double kSmallestRange = 1e-6, kLargestRange = 1e5;  // m
constexpr double kLargestScale = 1e6;
constexpr int kRangeDecimals = 6;
}  // namespace

ViewSettingsMenu::ViewSettingsMenu(QMenu* view, QWidget* dialogParent, bool persistent)
    : QObject(view), persistent_(persistent), dialogParent_(dialogParent) {
  if (persistent_) {
    QSettings store;
    settings_ = ViewSettings::load(store);
  }
  QMenu* colours = view->addMenu(tr("Colour by"));
  colours->setObjectName("colourMenu");
  auto* modes = new QActionGroup(this);
  for (int m = 0; m < kColourModeCount; ++m) {
    const ColourModeSpec& spec = kColourModes[std::size_t(m)];
    QAction* action = colours->addAction(tr(spec.menu));
    action->setCheckable(true);
    action->setToolTip(tr(spec.tip));
    action->setStatusTip(tr(spec.tip));
    modes->addAction(action);
    connect(action, &QAction::triggered, this, [this, m] {
      ViewSettings s = settings_;
      s.mode = ColourMode(m);
      setSettings(s);
    });
    modeActions_[std::size_t(m)] = action;
  }
  subtractedMenu_ = colours->addMenu(tr("Model subtracted (B)"));
  subtractedGroup_ = new QActionGroup(this);
  colours->addSeparator();
  automaticRange_ = colours->addAction(tr("Automatic range"));
  automaticRange_->setCheckable(true);
  automaticRange_->setToolTip(
      tr("Follow the data: symmetric about 0, grows at once, shrinks after a while"));
  connect(automaticRange_, &QAction::triggered, this, [this](bool on) {
    ViewSettings s = settings_;
    s.range(s.mode).automatic = on;
    setSettings(s);
  });
  fixedRange_ = colours->addAction(tr("Fixed range…"), this, &ViewSettingsMenu::askFixedRange);
  verticalScale_ =
      view->addAction(tr("Vertical scale…"), this, &ViewSettingsMenu::askVerticalScale);
  showSettings();
}

void ViewSettingsMenu::setSettings(const ViewSettings& settings) {
  settings_ = settings;
  showSettings();
  if (persistent_) {
    QSettings store;
    settings_.save(store);
  }
  emit changed(settings_);
}

void ViewSettingsMenu::setComparison(const std::vector<std::string>& ids, bool hasReference,
                                     bool hasSea) {
  // Every model keeps a maximum map: that mode is always possible here.
  for (const ColourModeSpec& spec : kColourModes)
    modeActions_[std::size_t(spec.mode)]->setEnabled(
        spec.needs == ColourNeed::Reference   ? hasReference
        : spec.needs == ColourNeed::Sea       ? hasSea
        : spec.needs == ColourNeed::TwoModels ? ids.size() >= 2
                                              : true);
  subtractedMenu_->clear();
  for (QAction* action : subtractedGroup_->actions())
    subtractedGroup_->removeAction(action);
  for (const std::string& id : ids) {
    QAction* action = subtractedMenu_->addAction(QString::fromStdString(id));
    action->setCheckable(true);
    subtractedGroup_->addAction(action);
    connect(action, &QAction::triggered, this, [this, id] {
      ViewSettings s = settings_;
      s.subtractedModel = id;
      s.mode = ColourMode::Difference;
      setSettings(s);
    });
  }
  showSettings();
}

void ViewSettingsMenu::showSettings() {
  // The views show a mode this comparison cannot (no reference, one model) as the surface, so
  // the menu checks that; the saved mode stays and comes back with a comparison that can.
  const bool possible = modeActions_[std::size_t(settings_.mode)]->isEnabled();
  modeActions_[std::size_t(possible ? settings_.mode : ColourMode::Surface)]->setChecked(true);
  const ColourRangeSetting& range = settings_.range(settings_.mode);
  automaticRange_->setChecked(range.automatic);
  fixedRange_->setText(range.automatic ? tr("Fixed range…")
                                       : tr("Fixed range (± %1 m)…").arg(range.fixed));
  verticalScale_->setText(settings_.exaggeration
                              ? tr("Vertical scale (× %1)…").arg(*settings_.exaggeration)
                              : tr("Vertical scale (automatic)…"));
  const QList<QAction*> models = subtractedGroup_->actions();
  for (int k = 0; k < models.size(); ++k)
    models[k]->setChecked(models[k]->text().toStdString() == settings_.subtractedModel ||
                          (k == 0 && settings_.subtractedModel.empty()));
}

void ViewSettingsMenu::askFixedRange() {
  ColourRangeSetting& current = settings_.range(settings_.mode);
  bool ok = false;
  const double range =
      QInputDialog::getDouble(dialogParent_, tr("Fixed colour range"),
                              tr("The colour bar runs from −R to +R (m) for %1. R:")
                                  .arg(QString::fromStdString(colourTitle(settings_.mode, "B"))),
                              current.fixed, kSmallestRange, kLargestRange, kRangeDecimals, &ok);
  if (!ok) return;
  ViewSettings s = settings_;
  s.range(s.mode) = {false, range};
  setSettings(s);
}

void ViewSettingsMenu::askVerticalScale() {
  bool ok = false;
  const double scale = QInputDialog::getDouble(
      dialogParent_, tr("Vertical scale"),
      tr("Draw the water's height this many times larger (0: automatic, from the scenario's "
         "wave height):"),
      settings_.exaggeration.value_or(0.0), 0.0, kLargestScale, 2, &ok);
  if (!ok) return;
  ViewSettings s = settings_;
  s.exaggeration = scale > 0.0 ? std::optional(scale) : std::nullopt;
  setSettings(s);
}

}  // namespace wb::gui
