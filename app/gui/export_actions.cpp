#include "export_actions.h"

#include "plot_export.h"
#include "results_model.h"
#include "session.h"
#include "view_registry.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <optional>

namespace gemmscope {

namespace {

std::optional<QString> writeResults(const Session &session, const ResultsModel &model, const QString &path)
{
    const bool csv = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
    QByteArray bytes;
    if (csv) {
        bytes = model.toCsv();
    } else {
        QJsonArray runs;
        for (const RunRecord &r : session.runs())
            runs.append(toJson(r));
        bytes = QJsonDocument(runs).toJson(QJsonDocument::Indented);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.flush() ||
        !file.commit())
        return QObject::tr("Could not write %1: %2.").arg(path, file.errorString());
    return std::nullopt;
}

} // namespace

bool exportResultsOrView(const Session &session, const ResultsModel &model, const ViewRegistry &registry,
                         QWidget *view, const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    std::optional<QString> failure;
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json"))
        failure = writeResults(session, model, path);
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
