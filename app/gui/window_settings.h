// The window's arrangement, kept between runs in QSettings: its geometry and bar state, the
// workspaces' splitters and panels, the Kernel and Sweep tabs shown, the results table's columns.
// A window with nothing saved, or saved before the workspaces (one window of splitters), starts
// from the first-start layout.
#pragma once

class QMainWindow;

namespace gemmscope {

class Workspaces;
struct WindowLayout;

void saveWindowSettings(const QMainWindow &window, const WindowLayout &views);
void restoreWindowSettings(QMainWindow *window, const WindowLayout &views);

// The first start (and Reset Layout): 90% of the screen, centred, with the workspaces' first-start
// shares for that size.
void applyFirstStartLayout(QMainWindow *window, Workspaces *workspaces);

} // namespace gemmscope
