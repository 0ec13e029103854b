// A view's column of controls, chart and notes inside a scroll area: when the pane is shorter
// than the column's minimum (a docked tab at 1280x800), it scrolls instead of squeezing the
// widgets over one another.
#pragma once

#include <QVBoxLayout>
#include <QWidget>

namespace gemmscope {

// Gives `owner` a frameless, resizable scroll area and returns the vertical layout of the
// column inside it, for the caller to fill.
QVBoxLayout *scrollingColumn(QWidget *owner);

} // namespace gemmscope
