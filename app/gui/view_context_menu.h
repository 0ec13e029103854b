// The window's entries in every chart's and diagram's context menu, after the view's own: "Export
// <the view>…" (the Export dialog for that view) and "Maximise this view" / "Restore the
// arrangement" (Ctrl+M). A right click chooses the view, as a left click does.
#pragma once

#include <functional>

class QWidget;

namespace gemmscope {

class ViewRegistry;
class Workspaces;

// Adds the entries to the context menu of every view of `window` (registered in `registry`) from
// now on; `exportDialog` opens the Export dialog for the view chosen. Once `window` is gone its
// entries are not added.
void addViewContextMenu(QWidget *window, ViewRegistry *registry, Workspaces *workspaces,
                        std::function<void()> exportDialog);

} // namespace gemmscope
