#include "export_actions.h"

#include "plot_export.h"
#include "results_export.h"
#include "results_model.h"
#include "session.h"
#include "view_registry.h"

#include <QDir>
#include <QFileInfo>
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

} // namespace gemmscope
