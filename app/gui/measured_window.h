// The window the measuring entry points (--measure-open, --measure-open-stall) open files in: no
// runner, the user's settings and autosave untouched, laid out at one fixed size and shown (so
// that it paints) but never on screen.
#pragma once

#include "main_window.h"

namespace gemmscope {

inline MainWindow::Options measuredWindowOptions()
{
    return MainWindow::Options{
        .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false};
}

inline void showForMeasuring(MainWindow &window)
{
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1600, 1000);
    window.show();
}

} // namespace gemmscope
