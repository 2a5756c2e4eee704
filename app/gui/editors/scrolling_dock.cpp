#include "app/gui/editors/scrolling_dock.hpp"

#include <QLayout>
#include <QScrollArea>
#include <QScrollBar>

namespace wb::gui {

ScrollingDock::ScrollingDock(const QString& title, const QString& objectName, QWidget* parent)
    : QDockWidget(title, parent) {
  setObjectName(objectName);
  scroll_ = new QScrollArea;
  scroll_->setWidgetResizable(true);
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setWidget(scroll_);
}

void ScrollingDock::setContent(QWidget* content) {
  scroll_->setWidget(content);
  fitWidth();
}

void ScrollingDock::showEvent(QShowEvent* event) {
  QDockWidget::showEvent(event);
  fitWidth();  // sizes are final once the style has polished the controls
}

void ScrollingDock::fitWidth() {
  QWidget* content = scroll_->widget();
  if (!content) return;
  if (content->layout()) content->layout()->activate();
  scroll_->setMinimumWidth(content->minimumSizeHint().width() + 2 * scroll_->frameWidth() +
                           scroll_->verticalScrollBar()->sizeHint().width());
}

}  // namespace wb::gui
