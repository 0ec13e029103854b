#include "export_actions.h"

#include "access_check_view.h"
#include "bank_conflict_view.h"
#include "coalescing_view.h"
#include "plot_export.h"
#include "results_export.h"
#include "results_model.h"
#include "roofline_chart.h"
#include "runtime_chart.h"
#include "session.h"
#include "session_actions.h"
#include "size_sweep_view.h"
#include "sweep_view.h"
#include "view_registry.h"
#include "window_action.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <optional>

namespace gemmscope {

bool exportResultsOrView(const Session &session, const ResultsModel &model, const ViewRegistry &registry,
                         QWidget *view, const QString &path, QString *error)
{
    std::optional<QString> failure;
    if (isResultsExport(path))
        failure = exportResults(path, model, session); // replaced whole or left as it was
    else if (!exportFormatForPath(path))
        failure =
            QObject::tr("GemmScope exports .png, .pdf, .svg (the view you last clicked) and .csv, .json "
                        "(the results); \"%1\" is none of them.")
                .arg(QFileInfo(path).fileName());
    else
        failure = registry.exportView(view, path);
    if (failure && error)
        *error = *failure;
    return !failure;
}

bool exportAs(const QString &directory, const QString &name,
              const std::function<std::optional<QString>(const QString &)> &write, QStringList *written,
              QString *error)
{
    for (const char *suffix : {"png", "svg", "pdf"}) {
        const QString path =
            QDir(directory).filePath(QStringLiteral("%1.%2").arg(name, QLatin1String(suffix)));
        if (const std::optional<QString> failure = write(path)) {
            *error = *failure;
            return false;
        }
        *written << path;
    }
    return true;
}

QStringList exportEach(const ViewRegistry &registry, const QList<QPair<QString, QWidget *>> &views,
                       const QString &directory, QString *error)
{
    QStringList written;
    if (!QDir().mkpath(directory)) {
        *error = QObject::tr("Could not create the folder %1.").arg(directory);
        return written;
    }
    for (const auto &[name, view] : views)
        if (!exportAs(
                directory, name,
                [&registry, view = view](const QString &path) { return registry.exportView(view, path); },
                &written, error))
            break;
    return written;
}

ExportActions::ExportActions(const WindowLayout &views, const Session *session, const ResultsModel *model,
                             ViewRegistry *registry, QMainWindow *window)
    : QObject(window), m_views(views), m_session(session), m_model(model), m_registry(registry),
      m_window(window)
{
    QAction *action = addWindowAction(window, "actionExport", tr("&Export…"), QKeySequence(tr("Ctrl+E")));
    connect(action, &QAction::triggered, this, &ExportActions::showDialog);
}

QWidget *ExportActions::target() const
{
    return m_registry->focused() ? m_registry->focused() : m_views.runtimeChart;
}

QString ExportActions::dialogTitle() const
{
    return tr("Export %1").arg(m_registry->viewName(target()));
}

bool ExportActions::exportTo(const QString &path, QString *error)
{
    m_registry->refreshNow(); // a paced refresh or a stale view must not be what is written
    QWidget *view =
        target() == m_views.resultsTable() ? m_views.runtimeChart : target(); // the table: CSV/JSON
    return exportResultsOrView(*m_session, *m_model, *m_registry, view, path, error);
}

QStringList ExportActions::exportEveryView(const QString &directory, QString *error,
                                           const QStringList &leftOut)
{
    // Every view from its print layout (fixed size, full title, legend): the same pictures as
    // Ctrl+E writes, whatever the window's size.
    error->clear();
    m_registry->refreshNow();
    QList<QPair<QString, QWidget *>> pages = {{QStringLiteral("runtime"), m_views.runtimeChart},
                                              {QStringLiteral("roofline"), m_views.roofline},
                                              {QStringLiteral("mapping"), m_views.kernel.mappingStack},
                                              {QStringLiteral("coalescing"), m_views.kernel.coalescing},
                                              {QStringLiteral("bank"), m_views.kernel.bankConflicts},
                                              {QStringLiteral("counters"), m_views.counters.counters}};
    pages.removeIf([&leftOut](const auto &page) { return leftOut.contains(page.first); });
    QStringList written = exportEach(*m_registry, pages, directory, error);
    if (!error->isEmpty())
        return written;
    // The sweeps the session holds (an empty view has nothing to print and refuses to).
    QList<QPair<QString, QWidget *>> sweeps;
    if (m_views.sweeps.grid->shownSweep())
        sweeps.append({QStringLiteral("sweep"), m_views.sweeps.grid});
    if (m_views.sweeps.sizes->shownSweep())
        sweeps.append({QStringLiteral("sizes"), m_views.sweeps.sizes});
    written += exportEach(*m_registry, sweeps, directory, error);
    if (!error->isEmpty())
        return written;
    // The runtime chart's second mode: measured speedups against the worklog's published ones.
    RuntimeChart *runtime = m_views.runtimeChart;
    const RuntimeChart::Mode mode = runtime->mode();
    runtime->setMode(RuntimeChart::Mode::Speedup);
    exportAs(
        directory, QStringLiteral("speedup"),
        [runtime](const QString &path) { return runtime->exportTo(path); }, &written, error);
    runtime->setMode(mode);
    return written;
}

void ExportActions::showDialog()
{
    // The dialog names what a picture would show; the results go to CSV or JSON from anywhere.
    QWidget *view = target();
    const bool table = view == m_views.resultsTable();
    const QString filters =
        table ? tr("Results as CSV (*.csv);;Results as JSON (*.json)")
              : exportFileFilter() + tr(";;Results as CSV (*.csv);;Results as JSON (*.json)");
    // The name says what the file holds: the session's results, or the view's picture.
    QString base = view->objectName();
    base.remove(QStringLiteral("View"));
    if (table)
        base = resultsExportBaseName(m_session->filePath());
    const QString path = QFileDialog::getSaveFileName(
        m_window, dialogTitle(), base + (table ? QStringLiteral(".csv") : QStringLiteral(".png")), filters);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        SessionActions::warn(m_window, tr("Export"), error);
    else
        m_window->statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

} // namespace gemmscope
