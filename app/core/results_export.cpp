#include "results_export.h"

#include "file_write.h"
#include "results_model.h"
#include "session.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace gemmscope {

bool isResultsExport(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("csv") || suffix == QLatin1String("json");
}

std::optional<QString> exportResults(const QString &path, const ResultsModel &model, const Session &session)
{
    QByteArray bytes;
    if (QFileInfo(path).suffix().toLower() == QLatin1String("csv")) {
        bytes = model.toCsv();
    } else {
        QJsonArray runs;
        for (const RunRecord &r : session.runs())
            runs.append(toJson(r));
        bytes = QJsonDocument(runs).toJson(QJsonDocument::Indented);
    }
    if (const FileWrite written = writeFileAtomically(path, bytes); !written)
        return written.error;
    return std::nullopt;
}

} // namespace gemmscope
