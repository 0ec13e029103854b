#include "results_export.h"

#include "csv_field.h"
#include "file_write.h"
#include "occupancy_limiter.h"
#include "results_model.h"
#include "session.h"
#include "trust_mark.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

namespace gemmscope {

namespace {

// A number as a spreadsheet reads it: shortest round-tripping form, never grouped or localised.
QString number(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString optionalNumber(const std::optional<double> &value)
{
    return value ? number(*value) : QString();
}

struct CsvColumn {
    const char *name;
    QString (*cell)(const ResultsModel &model, const RunRecord &run);
};

// The columns, each a quantity in one unit; an empty cell where the run has no such number.
const QList<CsvColumn> &csvColumns()
{
    using M = const ResultsModel &;
    using R = const RunRecord &;
    static const QList<CsvColumn> columns{
        {"run_id", [](M, R r) -> QString { return r.runId; }},
        {"preset", [](M, R r) -> QString { return r.presetKey; }},
        {"stage", [](M, R r) -> QString { return stageKeyText(r.stage); }},
        {"stage_title", [](M, R r) -> QString { return runStageTitleText(r); }},
        {"parameters", [](M, R r) -> QString { return formatRunParams(r); }},
        {"m", [](M, R r) -> QString { return r.m > 0 ? QString::number(r.m) : QString(); }},
        {"n", [](M, R r) -> QString { return r.n > 0 ? QString::number(r.n) : QString(); }},
        {"k", [](M, R r) -> QString { return r.k > 0 ? QString::number(r.k) : QString(); }},
        {"time_ms", [](M, R r) -> QString { return r.isOk() ? number(r.medianMs) : QString(); }},
        {"p20_ms", [](M, R r) -> QString { return r.isOk() && r.count > 0 ? number(r.p20Ms) : QString(); }},
        {"p80_ms", [](M, R r) -> QString { return r.isOk() && r.count > 0 ? number(r.p80Ms) : QString(); }},
        {"samples", [](M, R r) -> QString { return r.count > 0 ? QString::number(r.count) : QString(); }},
        {"trust", [](M, R r) -> QString { return r.isOk() ? trustOf(r).word : QString(); }},
        {"tflops", [](M, R r) -> QString { return r.isOk() ? number(r.tflops) : QString(); }},
        {"pct_of_cublas_fp32", [](M m, R r) -> QString { return optionalNumber(m.percentOfCublas(r)); }},
        {"pct_of_cublas_tf32", [](M m, R r) -> QString { return optionalNumber(m.percentOfCublasTf32(r)); }},
        {"registers",
         [](M, R r) -> QString { return r.registers >= 0 ? QString::number(r.registers) : QString(); }},
        {"spill_bytes",
         [](M, R r) -> QString {
             return r.registers >= 0 ? QString::number(r.spillStoreBytes + r.spillLoadBytes) : QString();
         }},
        {"smem_static_bytes",
         [](M, R r) -> QString { return r.registers >= 0 ? QString::number(r.staticSmemBytes) : QString(); }},
        {"smem_dynamic_bytes",
         [](M, R r) -> QString {
             return r.registers >= 0 ? QString::number(launchDynamicSmemBytes(r)) : QString();
         }},
        {"occupancy_pct",
         [](M, R r) -> QString { return r.occupancy >= 0 ? number(100.0 * r.occupancy) : QString(); }},
        {"occupancy_limiter",
         [](M, R r) -> QString { return r.occupancy >= 0 ? limiterWords(occupancyLimiter(r)) : QString(); }},
        {"rel_error", [](M, R r) -> QString { return optionalNumber(r.relError); }},
        {"sm_clock_mhz",
         [](M, R r) -> QString {
             return r.conditions ? optionalNumber(r.conditions->smClockMedianMhz) : QString();
         }},
        {"origin", [](M, R r) -> QString { return r.origin; }},
        {"gpu", [](M, R r) -> QString { return r.gpuName; }},
        {"timestamp",
         [](M, R r) -> QString {
             return r.timestamp.isValid() ? r.timestamp.toUTC().toString(Qt::ISODate) : QString();
         }},
        {"status", [](M, R r) -> QString { return runStatusName(r.status); }},
        {"error_kind", [](M, R r) -> QString { return r.errorKind; }},
        {"error", [](M, R r) -> QString { return r.errorMessage; }},
    };
    return columns;
}

} // namespace

bool isResultsExport(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("csv") || suffix == QLatin1String("json");
}

QStringList resultsCsvHeader()
{
    QStringList header;
    for (const CsvColumn &column : csvColumns())
        header << QLatin1String(column.name);
    return header;
}

QByteArray resultsCsv(const ResultsModel &model)
{
    QStringList lines{resultsCsvHeader().join(QLatin1Char(','))};
    for (int row = 0; row < model.rowCount(); ++row) {
        const RunRecord &run = model.runAt(row);
        QStringList cells;
        for (const CsvColumn &column : csvColumns())
            cells << csvField(column.cell(model, run));
        lines << cells.join(QLatin1Char(','));
    }
    return (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

QString resultsExportBaseName(const QString &sessionPath)
{
    const QString name = QFileInfo(sessionPath).completeBaseName();
    return (name.isEmpty() ? QStringLiteral("session") : name) + QStringLiteral("-results");
}

std::optional<QString> exportResults(const QString &path, const ResultsModel &model, const Session &session)
{
    QByteArray bytes;
    if (QFileInfo(path).suffix().toLower() == QLatin1String("csv")) {
        bytes = resultsCsv(model);
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
