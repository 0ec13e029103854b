// The menu bar and the tool bar, laid out from the window's actions by name: one table says what
// each menu holds, so the arrangement is read in one place and the actions stay where they work.
#pragma once

class QMainWindow;

namespace gemmscope {

// Every action and submenu named in the layout must exist on `window` (found by object name);
// a missing one is a programming error and asserts in debug builds.
void buildWindowMenus(QMainWindow *window);

} // namespace gemmscope
