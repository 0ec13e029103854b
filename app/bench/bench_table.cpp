#include "bench_table.h"

#include "events.h"
#include "occupancy_limiter.h"
#include "stage_catalog.h"
#include "trust_mark.h"

#include <QJsonArray>
#include <algorithm>
#include <optional>
#include <utility>

namespace gemmscope::bench {

namespace {

QString number(double v, int precision)
{
    return QString::number(v, 'f', precision);
}

// The measured DRAM intensity (FLOP per DRAM byte) when the run read counters: "n/a" when the
// counters could not be read (the sentence is printed under the table), "-" when not asked for.
QString dramIntensityCell(const protocol::ResultEvent &result)
{
    if (!result.counters)
        return QStringLiteral("-");
    return result.counters->dramIntensity ? number(*result.counters->dramIntensity, 2)
                                          : QStringLiteral("n/a");
}

std::optional<protocol::Counters> countersOf(const BenchRow &row)
{
    return row.result ? row.result->counters : std::nullopt;
}

bool anyInterleaved(const std::vector<BenchRow> &rows)
{
    return std::any_of(rows.begin(), rows.end(),
                       [](const BenchRow &r) { return r.resultIsWhole && r.result->baseline.has_value(); });
}

bool anyCounters(const std::vector<BenchRow> &rows)
{
    return std::any_of(rows.begin(), rows.end(), [](const BenchRow &r) { return countersOf(r).has_value(); });
}

// The run as a percentage of cuBLAS TF32, for the TF32 stages (whose inputs are rounded alike);
// "-" for FP32 stages, which are compared with cuBLAS FP32 only.
QString tf32Cell(const BenchRow &row, double median, double cublasTf32Ms)
{
    const StageInfo *stage = findStage(row.stage.toStdString());
    if (!stage || stage->precision != Precision::Tf32 || median <= 0)
        return QStringLiteral("-");
    return number(100 * cublasTf32Ms / median, 1) + QStringLiteral("%");
}

// The row's ratio against its own interleaved cuBLAS call: "93.1%i", the median of the
// per-round ratios where the result has them (older results: the ratio of the two medians). The
// baseline is of the stage's precision, so it fills the matching column; the other stays as the
// run-wide one.
std::optional<QString> interleavedCell(const protocol::ResultEvent &e, StageId baselineStage)
{
    if (!e.baseline || e.baseline->stage.toStdString() != baselineStage.key() || e.timing.medianMs <= 0)
        return std::nullopt;
    const auto &paired = e.baseline->pairedRatio;
    const double ratio =
        paired && paired->median > 0 ? paired->median : e.baseline->timing.medianMs / e.timing.medianMs;
    return number(100 * ratio, 1) + QStringLiteral("%i");
}

QString noiseCell(const protocol::ResultEvent &e)
{
    if (!e.conditions || !e.conditions->noisePct)
        return QStringLiteral("-");
    return number(*e.conditions->noisePct, 2) + QStringLiteral("%");
}

QStringList cellsFor(const BenchRow &row, double cublasMs, double peakTflops, bool counters,
                     double cublasTf32Ms)
{
    const QString preset = row.preset.isEmpty() ? QStringLiteral("-") : row.preset;
    if (!row.result) {
        QString message = row.error.message;
        if (message.size() > 90)
            message = message.left(87) + QStringLiteral("...");
        return {preset, row.stage, row.params,
                QStringLiteral("%1: %2").arg(protocol::errorKindName(row.error.kind), message)};
    }
    const protocol::ResultEvent &e = *row.result;
    const double median = e.timing.medianMs;
    const double tflops = e.tflops.value_or(0);
    QString regs = QStringLiteral("-"), spills = QStringLiteral("-"), occupancy = QStringLiteral("-");
    if (e.compiled) {
        regs = QString::number(e.compiled->registers);
        spills = QStringLiteral("%1/%2").arg(e.compiled->spillStoreBytes).arg(e.compiled->spillLoadBytes);
        if (e.compiled->occupancy)
            occupancy = QStringLiteral("%1% (%2)")
                            .arg(number(100 * e.compiled->occupancy->fraction, 0),
                                 limiterWords(e.compiled->occupancy->limiter));
    }
    QStringList cells{
        preset,
        row.stage,
        row.params,
        QStringLiteral("%1 (%2-%3)")
            .arg(number(median, 3), number(e.timing.p20Ms, 3), number(e.timing.p80Ms, 3)),
        number(tflops, 2),
        interleavedCell(e, StageId::CublasFp32)
            .value_or(cublasMs > 0 && median > 0 ? number(100 * cublasMs / median, 1) + QStringLiteral("%")
                                                 : QStringLiteral("-")),
        peakTflops > 0 ? number(100 * tflops / peakTflops, 1) + QStringLiteral("%") : QStringLiteral("-"),
        e.verify.relError ? QString::number(*e.verify.relError, 'e', 2) : QStringLiteral("-"),
        regs,
        spills,
        occupancy,
        clockText(e.conditions),
        noiseCell(e),
        trustMark(e.conditions).word};
    if (counters)
        cells.insert(7, dramIntensityCell(e));
    if (cublasTf32Ms > 0 || e.baseline)
        cells.insert(
            6, interleavedCell(e, StageId::CublasTf32)
                   .value_or(cublasTf32Ms > 0 ? tf32Cell(row, median, cublasTf32Ms) : QStringLiteral("-")));
    return cells;
}

// The cells padded into columns; an error row's message spans the rest of its line.
QString aligned(const std::vector<QStringList> &table, qsizetype columnCount)
{
    std::vector<qsizetype> widths(columnCount, 0);
    for (const QStringList &cells : table)
        if (cells.size() == columnCount) // error rows span the rest of the line
            for (int i = 0; i < cells.size(); ++i)
                widths[i] = std::max(widths[i], cells[i].size());
    QString out;
    for (const QStringList &cells : table) {
        QStringList padded;
        for (int i = 0; i < cells.size(); ++i)
            padded << (i + 1 < cells.size() ? cells[i].leftJustified(widths[i]) : cells[i]);
        out += padded.join(QStringLiteral("  ")) + QLatin1Char('\n');
    }
    return out;
}

// What the table's marks mean, and why a row is not to be compared.
QString notesUnder(const std::vector<BenchRow> &rows, bool interleaved)
{
    QString out;
    if (interleaved)
        out +=
            QStringLiteral("\n%i: against the row's own cuBLAS call, timed interleaved with it (one launch "
                           "each in turn), the median of the\n    per-round ratios (a clock drift both "
                           "launches of a round share "
                           "cancels in them); other percentages: against the cuBLAS row of this run.\n");
    // A result that is not steady says why under the table: its number is not comparable.
    for (const BenchRow &row : rows) {
        if (!row.resultIsWhole)
            continue;
        const TrustMark mark = trustMark(row.result->conditions);
        if (mark.level == TrustLevel::Throttled || mark.level == TrustLevel::Noisy)
            out += QStringLiteral("%1: %2\n").arg(row.preset.isEmpty() ? row.stage : row.preset, mark.reason);
    }
    // Counters fail for the whole session alike (permission, device): one sentence is enough.
    for (const BenchRow &row : rows) {
        const std::optional<protocol::Counters> c = countersOf(row);
        if (c && c->hasError()) {
            out += QStringLiteral("\nHardware counters unavailable: ") + c->error + QLatin1Char('\n');
            break;
        }
    }
    return out;
}

} // namespace

BenchRow benchRow(QString preset, QString stage, QString params, QJsonObject event)
{
    BenchRow row{std::move(preset), std::move(stage), std::move(params), std::move(event), {}, false, {}};
    if (protocol::eventTypeOf(row.event) == protocol::EventType::Result) {
        protocol::ResultEvent result;
        row.resultIsWhole = protocol::fromJson(row.event, result);
        row.result = std::move(result);
    } else {
        protocol::fromJson(row.event, row.error);
    }
    return row;
}

QString formatTable(const std::vector<BenchRow> &rows, double cublasMs, double peakTflops,
                    double cublasTf32Ms)
{
    const QStringList header{QStringLiteral("preset"),      QStringLiteral("stage"),
                             QStringLiteral("params"),      QStringLiteral("median ms (p20-p80)"),
                             QStringLiteral("TFLOP/s"),     QStringLiteral("% cuBLAS"),
                             QStringLiteral("% FP32 peak"), QStringLiteral("rel error"),
                             QStringLiteral("regs"),        QStringLiteral("spills st/ld"),
                             QStringLiteral("occupancy"),   QStringLiteral("SM clock"),
                             QStringLiteral("noise"),       QStringLiteral("trust")};
    const bool counters = anyCounters(rows);
    const bool interleaved = anyInterleaved(rows);
    // With an interleaved TF32 baseline the column is there even without a cuBLAS TF32 row.
    const bool tf32Column = cublasTf32Ms > 0 || interleaved;
    QStringList columns = header;
    if (counters)
        columns.insert(7, QStringLiteral("DRAM FLOP/B"));
    if (tf32Column)
        columns.insert(6, QStringLiteral("% cuBLAS TF32"));
    std::vector<QStringList> table{columns};
    for (const BenchRow &row : rows) {
        QStringList cells = cellsFor(row, cublasMs, peakTflops, counters, cublasTf32Ms);
        if (tf32Column && cells.size() == columns.size() - 1) // a row without a TF32 cell of its own
            cells.insert(6, QStringLiteral("-"));
        table.push_back(cells);
    }
    return aligned(table, columns.size()) + notesUnder(rows, interleaved);
}

} // namespace gemmscope::bench
