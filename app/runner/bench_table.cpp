#include "bench_table.h"

#include <QJsonArray>
#include <algorithm>

namespace gemmscope::bench {

namespace {

QString number(double v, int precision)
{
    return QString::number(v, 'f', precision);
}

// The measured DRAM intensity (FLOP per DRAM byte) when the run read counters: "n/a" when the
// counters could not be read (the sentence is printed under the table), "-" when not asked for.
QString dramIntensityCell(const QJsonObject &result)
{
    const QJsonValue counters = result.value(QStringLiteral("counters"));
    if (!counters.isObject())
        return QStringLiteral("-");
    const QJsonValue intensity = counters.toObject().value(QStringLiteral("dram_intensity"));
    return intensity.isDouble() ? number(intensity.toDouble(), 2) : QStringLiteral("n/a");
}

bool anyCounters(const std::vector<BenchRow> &rows)
{
    return std::any_of(rows.begin(), rows.end(), [](const BenchRow &r) {
        return r.event.value(QStringLiteral("counters")).isObject();
    });
}

QStringList cellsFor(const BenchRow &row, double cublasMs, double peakTflops, bool counters)
{
    const QJsonObject &e = row.event;
    const QString preset = row.preset.isEmpty() ? QStringLiteral("-") : row.preset;
    if (e.value(QStringLiteral("event")).toString() != QStringLiteral("result")) {
        QString message = e.value(QStringLiteral("message")).toString();
        if (message.size() > 90)
            message = message.left(87) + QStringLiteral("...");
        return {preset, row.stage, row.params,
                QStringLiteral("%1: %2").arg(e.value(QStringLiteral("kind")).toString(), message)};
    }
    const QJsonObject t = e.value(QStringLiteral("timing")).toObject();
    const double median = t.value(QStringLiteral("median_ms")).toDouble();
    const double tflops = e.value(QStringLiteral("tflops")).toDouble();
    const QJsonObject verify = e.value(QStringLiteral("verify")).toObject();
    const QJsonObject compiled = e.value(QStringLiteral("compiled")).toObject();
    const QJsonObject occ = compiled.value(QStringLiteral("occupancy")).toObject();
    QString regs = QStringLiteral("-"), spills = QStringLiteral("-"), occupancy = QStringLiteral("-");
    if (!compiled.isEmpty()) {
        regs = QString::number(compiled.value(QStringLiteral("registers")).toInt());
        spills = QStringLiteral("%1/%2")
                     .arg(compiled.value(QStringLiteral("spill_store_bytes")).toInt())
                     .arg(compiled.value(QStringLiteral("spill_load_bytes")).toInt());
        if (!occ.isEmpty())
            occupancy = QStringLiteral("%1% (%2)")
                            .arg(number(100 * occ.value(QStringLiteral("fraction")).toDouble(), 0),
                                 occ.value(QStringLiteral("limiter")).toString());
    }
    QStringList cells{preset,
                      row.stage,
                      row.params,
                      QStringLiteral("%1 (%2-%3)")
                          .arg(number(median, 3), number(t.value(QStringLiteral("p20_ms")).toDouble(), 3),
                               number(t.value(QStringLiteral("p80_ms")).toDouble(), 3)),
                      number(tflops, 2),
                      cublasMs > 0 && median > 0 ? number(100 * cublasMs / median, 1) + QStringLiteral("%")
                                                 : QStringLiteral("-"),
                      peakTflops > 0 ? number(100 * tflops / peakTflops, 1) + QStringLiteral("%")
                                     : QStringLiteral("-"),
                      verify.contains(QStringLiteral("rel_error"))
                          ? QString::number(verify.value(QStringLiteral("rel_error")).toDouble(), 'e', 2)
                          : QStringLiteral("-"),
                      regs,
                      spills,
                      occupancy};
    if (counters)
        cells.insert(7, dramIntensityCell(e));
    return cells;
}

} // namespace

QString formatTable(const std::vector<BenchRow> &rows, double cublasMs, double peakTflops)
{
    const QStringList header{QStringLiteral("preset"),      QStringLiteral("stage"),
                             QStringLiteral("params"),      QStringLiteral("median ms (p20-p80)"),
                             QStringLiteral("TFLOP/s"),     QStringLiteral("% cuBLAS"),
                             QStringLiteral("% FP32 peak"), QStringLiteral("rel error"),
                             QStringLiteral("regs"),        QStringLiteral("spills st/ld"),
                             QStringLiteral("occupancy")};
    const bool counters = anyCounters(rows);
    QStringList columns = header;
    if (counters)
        columns.insert(7, QStringLiteral("DRAM FLOP/B"));
    std::vector<QStringList> table{columns};
    for (const BenchRow &row : rows)
        table.push_back(cellsFor(row, cublasMs, peakTflops, counters));
    std::vector<qsizetype> widths(columns.size(), 0);
    for (const QStringList &cells : table)
        if (cells.size() == columns.size()) // error rows span the rest of the line
            for (int i = 0; i < cells.size(); ++i)
                widths[i] = std::max(widths[i], cells[i].size());
    QString out;
    for (const QStringList &cells : table) {
        QStringList padded;
        for (int i = 0; i < cells.size(); ++i)
            padded << (i + 1 < cells.size() ? cells[i].leftJustified(widths[i]) : cells[i]);
        out += padded.join(QStringLiteral("  ")) + QLatin1Char('\n');
    }
    // Counters fail for the whole session alike (permission, device): one sentence is enough.
    for (const BenchRow &row : rows) {
        const QString why =
            row.event.value(QStringLiteral("counters")).toObject().value(QStringLiteral("error")).toString();
        if (!why.isEmpty()) {
            out += QStringLiteral("\nHardware counters unavailable: ") + why + QLatin1Char('\n');
            break;
        }
    }
    return out;
}

} // namespace gemmscope::bench
