#include "sweep_summary.h"

#include "csv_field.h"

#include "sweep_record.h"

#include <QJsonArray>
#include <QObject>
#include <QSet>

namespace gemmscope {

namespace {

QString baselineKey(const QString &gpu, qint64 m, qint64 n, qint64 k)
{
    return QStringLiteral("%1|%2x%3x%4").arg(gpu).arg(m).arg(n).arg(k);
}

} // namespace

CublasBaselines::CublasBaselines(const QList<RunRecord> &runs)
{
    // In order, so the latest run of a GPU and size wins, as cublasMsOnSameGpu's backward scan.
    for (const RunRecord &r : runs)
        add(r);
}

bool CublasBaselines::add(const RunRecord &r)
{
    if (!r.isOk() || r.stage != StageId::CublasFp32 || r.medianMs <= 0)
        return false;
    m_ms.insert(baselineKey(gpuIdentity(r), r.m, r.n, r.k), r.medianMs);
    return true;
}

std::optional<double> CublasBaselines::msFor(const RunRecord &run) const
{
    const auto it = m_ms.constFind(baselineKey(gpuIdentity(run), run.m, run.n, run.k));
    return it == m_ms.constEnd() ? std::nullopt : std::optional<double>(*it);
}

QString gpuOnMachineText(const QString &gpuName, const QString &host)
{
    return host.isEmpty() ? gpuName : QObject::tr("%1 (machine “%2”)").arg(gpuName, host);
}

QString sweepProvenance(const QList<RunRecord> &runs)
{
    SweepProvenance provenance;
    for (const RunRecord &r : runs)
        provenance.add(r);
    return provenance.text();
}

void SweepProvenance::add(const RunRecord &r)
{
    if (r.gpuName.isEmpty())
        return;
    // The host said as one: "vm: NVIDIA H200" read as a GPU model named "vm" (issue 38).
    const QString gpu = gpuOnMachineText(r.gpuName, r.host);
    if (!m_seen.contains(gpu)) {
        m_seen.insert(gpu);
        m_gpus << gpu;
    }
    if (r.timestamp.isValid()) {
        if (!m_first.isValid() || r.timestamp < m_first)
            m_first = r.timestamp;
        if (!m_last.isValid() || r.timestamp > m_last)
            m_last = r.timestamp;
    }
}

QString SweepProvenance::text() const
{
    if (m_gpus.isEmpty())
        return {};
    const QString shown = m_gpus.size() <= 3 ? m_gpus.join(QStringLiteral(", "))
                                             : QObject::tr("%1 and %2 more GPUs")
                                                   .arg(m_gpus.mid(0, 3).join(QStringLiteral(", ")))
                                                   .arg(m_gpus.size() - 3);
    if (!m_first.isValid())
        return QObject::tr("measured on %1").arg(shown);
    const QDateTime a = m_first.toUTC(), b = m_last.toUTC();
    const QString minute = QStringLiteral("yyyy-MM-dd HH:mm");
    QString when = a.toString(minute);
    if (b.toString(minute) != when)
        when += QStringLiteral("–") + b.toString(a.date() == b.date() ? QStringLiteral("HH:mm") : minute);
    return QObject::tr("measured on %1, %2 UTC").arg(shown, when);
}

SweepSummary summarizeSweep(const SweepPlan &plan, const QList<RunRecord> &runs, bool byRatio)
{
    SweepSummary s;
    const QHash<QString, const RunRecord *> finished = finishedRunsByKey(runs);
    const CublasBaselines baselines(runs);
    QSet<QString> gpus;
    for (const RunRecord &r : runs)
        if (!r.gpuName.isEmpty())
            gpus.insert((r.host.isEmpty() ? QString() : r.host + QStringLiteral(": ")) + r.gpuName +
                        (r.gpuUuid.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(r.gpuUuid.left(12))));
    s.gpus = QStringList(gpus.begin(), gpus.end());
    s.gpus.sort();
    double bestValue = -1;
    for (const SweepCell &cell : plan.cells) {
        SweepCellSummary c;
        c.cell = int(s.cells.size());
        c.x = cell.x;
        c.y = cell.y;
        c.invalidReason = QString::fromStdString(cell.invalidReason);
        c.validPoints = cell.validPoints;
        for (int i : cell.points) {
            const SweepPoint &p = plan.points[std::size_t(i)];
            if (!p.valid())
                continue;
            const RunRecord *run =
                finished.value(QString::fromStdString(sweepPointKey(p.stage, p.params, p.size)));
            if (!run)
                continue;
            ++c.answeredPoints;
            if (!run->isOk()) {
                ++c.failures;
                if (run->errorKind == protocol::errorKindName(protocol::ErrorKind::WrongResult))
                    ++c.wrongResults;
                if (c.failureKind.isEmpty()) {
                    c.failureKind = run->errorKind;
                    c.failureMessage = run->errorMessage;
                }
                continue;
            }
            const std::optional<double> base = baselines.msFor(*run);
            const std::optional<double> pct = base && run->medianMs > 0
                                                  ? std::optional<double>(100.0 * *base / run->medianMs)
                                                  : std::nullopt;
            const double value = byRatio ? pct.value_or(0) : run->tflops;
            const double current = !c.best ? -1 : byRatio ? c.pctOfCublas.value_or(0) : c.best->tflops;
            if (value > current) {
                c.best = *run;
                c.pctOfCublas = pct;
            }
        }
        s.validPoints += c.validPoints;
        s.answeredPoints += c.answeredPoints;
        if (c.best) {
            const double value = byRatio ? c.pctOfCublas.value_or(0) : c.best->tflops;
            if (value > bestValue) {
                bestValue = value;
                s.bestCell = c.cell;
            }
        }
        s.cells.push_back(c);
    }
    return s;
}

double gpuKernelSeconds(const QList<RunRecord> &runs)
{
    double seconds = 0;
    for (const RunRecord &r : runs) {
        if (!r.isOk() || r.medianMs <= 0)
            continue;
        const int warmup = r.warmup.value_or(2);
        seconds += (r.count + warmup + 1) * r.medianMs / 1000.0;
    }
    return seconds;
}

QString sweepCellsCsv(const SweepPlan &plan, const SweepSummary &summary)
{
    const StageInfo *stage = findStage(plan.spec.stage.key());
    QStringList header{QString::fromStdString(plan.spec.x.param), QString::fromStdString(plan.spec.y.param)};
    QStringList paramNames;
    if (stage)
        for (const ParamSpec &p : stage->params)
            paramNames << QString::fromStdString(p.name);
    header << QStringLiteral("status");
    for (const QString &n : paramNames)
        header << QStringLiteral("best_") + n;
    header << QStringLiteral("median_ms") << QStringLiteral("tflops") << QStringLiteral("pct_of_cublas")
           << QStringLiteral("registers") << QStringLiteral("spill_bytes") << QStringLiteral("occupancy")
           << QStringLiteral("limiter") << QStringLiteral("host") << QStringLiteral("gpu")
           << QStringLiteral("answered") << QStringLiteral("valid") << QStringLiteral("wrong_results")
           << QStringLiteral("reason");
    QStringList lines{header.join(QLatin1Char(','))};
    for (const SweepCellSummary &c : summary.cells) {
        QStringList row{QString::number(c.x), QString::number(c.y)};
        const QString status = c.invalid()             ? QStringLiteral("invalid")
                               : c.best                ? QStringLiteral("ok")
                               : c.answeredPoints == 0 ? QStringLiteral("pending")
                                                       : c.failureKind;
        row << csvField(status);
        for (const QString &n : paramNames)
            row << (c.best ? QString::number(c.best->params.value(n)) : QString());
        if (c.best) {
            row << QString::number(c.best->medianMs, 'g', 6) << QString::number(c.best->tflops, 'f', 3)
                << (c.pctOfCublas ? QString::number(*c.pctOfCublas, 'f', 1) : QString())
                << QString::number(c.best->registers)
                << QString::number(c.best->spillStoreBytes + c.best->spillLoadBytes)
                << (c.best->occupancy >= 0 ? QString::number(c.best->occupancy, 'f', 3) : QString())
                << csvField(protocol::valueName(c.best->occupancyLimiter)) << csvField(c.best->host)
                << csvField(c.best->gpuName);
        } else {
            for (int i = 0; i < 9; ++i)
                row << QString();
        }
        row << QString::number(c.answeredPoints) << QString::number(c.validPoints)
            << QString::number(c.wrongResults) << csvField(c.invalid() ? c.invalidReason : c.failureMessage);
        lines << row.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QJsonObject sweepCellsJson(const SweepPlan &plan, const SweepSummary &summary)
{
    QJsonArray cells;
    for (const SweepCellSummary &c : summary.cells) {
        QJsonObject o{{QString::fromStdString(plan.spec.x.param), c.x},
                      {QString::fromStdString(plan.spec.y.param), c.y},
                      {"answered", c.answeredPoints},
                      {"valid", c.validPoints},
                      {"wrong_results", c.wrongResults}};
        if (c.invalid())
            o["invalid"] = c.invalidReason;
        if (c.best) {
            o["best"] = toJson(*c.best);
            if (c.pctOfCublas)
                o["pct_of_cublas"] = *c.pctOfCublas;
        } else if (!c.failureKind.isEmpty()) {
            o["failure"] = QJsonObject{{"kind", c.failureKind}, {"message", c.failureMessage}};
        }
        cells.append(o);
    }
    QJsonObject root{{"format", "gemmscope-sweep-cells"},
                     {"version", 1},
                     {"spec", sweepSpecToJson(plan.spec)},
                     {"gpus", QJsonArray::fromStringList(summary.gpus)},
                     {"cells", cells}};
    if (summary.bestCell >= 0)
        root["best_cell"] = summary.bestCell;
    return root;
}

} // namespace gemmscope
