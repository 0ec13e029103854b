#include "window_settings.h"

#include "results_model.h"
#include "results_tables.h"
#include "roofline_chart.h"
#include "settings_file.h"
#include "window_layout.h"

#include <QGuiApplication>
#include <QHeaderView>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

namespace gemmscope {

void saveWindowSettings(const QMainWindow &window, const WindowLayout &views)
{
    const SettingsChange change; // written to the settings file when this ends, never through a link
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window.saveState());
    settings.setValue(QStringLiteral("workspaces/state"), views.workspaces->saveState());
    settings.setValue(QStringLiteral("workspaces/kernelTab"), views.kernel.tabs->currentIndex());
    settings.setValue(QStringLiteral("workspaces/sweepTab"), views.sweeps.tabs->currentIndex());
    settings.setValue(QStringLiteral("window/resultsHeader"),
                      views.resultsTable()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/resultsHeaderColumns"), int(ResultsModel::ColumnCount));
    views.tables->saveColumnChoices(settings);
    settings.setValue(QStringLiteral("roofline/l2Shown"), views.roofline->levelShown(MemoryLevel::L2));
    settings.setValue(QStringLiteral("roofline/l1SharedShown"),
                      views.roofline->levelShown(MemoryLevel::L1Shared));
}

void restoreWindowSettings(QMainWindow *window, const WindowLayout &views)
{
    QSettings settings;
    // The roofline's memory levels the user hid stay hidden (shown by default).
    views.roofline->setLevelShown(MemoryLevel::L2,
                                  settings.value(QStringLiteral("roofline/l2Shown"), true).toBool());
    views.roofline->setLevelShown(MemoryLevel::L1Shared,
                                  settings.value(QStringLiteral("roofline/l1SharedShown"), true).toBool());
    views.tables->restoreColumnChoices(settings);
    if (!window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        applyFirstStartLayout(window, views.workspaces);
        return;
    }
    window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    // Arrangements saved before the workspaces (one window of splitters) do not fit them: those
    // start from the first-start layout.
    if (!views.workspaces->restoreState(settings.value(QStringLiteral("workspaces/state")).toByteArray()))
        applyFirstStartLayout(window, views.workspaces);
    views.kernel.tabs->setCurrentIndex(settings.value(QStringLiteral("workspaces/kernelTab"), 0).toInt());
    views.sweeps.tabs->setCurrentIndex(settings.value(QStringLiteral("workspaces/sweepTab"), 0).toInt());
    // A header saved with another set of columns (a version before the p20–p80 column) would put
    // its orders and widths on the wrong ones: the table starts from its own.
    if (settings.value(QStringLiteral("window/resultsHeaderColumns")).toInt() == ResultsModel::ColumnCount)
        views.resultsTable()->horizontalHeader()->restoreState(
            settings.value(QStringLiteral("window/resultsHeader")).toByteArray());
}

void applyFirstStartLayout(QMainWindow *window, Workspaces *workspaces)
{
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QRect available = screen->availableGeometry();
        window->resize((available.size() * 0.9).expandedTo(window->minimumSize()));
        window->move(available.center() - window->rect().center());
    } else {
        window->resize(1500, 900);
    }
    workspaces->applyFirstStartSizes(window->size()); // before the first show they have no size of their own
}

} // namespace gemmscope
