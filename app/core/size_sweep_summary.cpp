#include "size_sweep_summary.h"

#include "csv_field.h"

#include "sweep_record.h"
#include "sweep_summary.h"

#include <QJsonArray>
#include <QSet>

namespace gemmscope {

QString seriesLabel(const SweepPlan &plan, int series)
{
    if (series < 0 || series >= int(plan.spec.series.size()))
        return {};
    const SizeSeries &s = plan.spec.series[std::size_t(series)];
    return QString::fromStdString(s.label.empty() ? s.stage.str() : s.label);
}

SizeSweepSummary summarizeSizeSweep(const SweepPlan &plan, const QList<RunRecord> &runs)
{
    return LiveSizeSweepSummary(plan, runs).summary();
}

namespace {

QString sizeKey(long long m, long long n, long long k)
{
    return QStringLiteral("%1x%2x%3").arg(m).arg(n).arg(k);
}

QString gpuLabel(const RunRecord &run)
{
    return run.host + QStringLiteral(": ") + run.gpuName;
}

} // namespace

LiveSizeSweepSummary::LiveSizeSweepSummary(const SweepPlan &plan, const QList<RunRecord> &runs)
    : m_plan(plan), m_baselines(runs)
{
    const qsizetype count = qsizetype(plan.cells.size());
    m_summary.points.reserve(count);
    m_planPoint.reserve(count);
    m_pointGpu.resize(count);
    for (const SweepCell &cell : plan.cells) {
        const int index = int(m_summary.points.size());
        const SweepPoint &p = plan.points[std::size_t(cell.points.front())];
        SizeSweepPoint out;
        out.series = cell.yIndex;
        out.sizeIndex = cell.xIndex;
        out.size = p.size;
        out.invalidReason = QString::fromStdString(cell.invalidReason);
        if (p.valid()) {
            ++m_summary.valid;
            m_pointsOfKey[QString::fromStdString(sweepPointKey(p.stage, p.params, p.size))].append(index);
            m_atSize[sizeKey(p.size.m, p.size.n, p.size.k)].append(index);
        }
        m_summary.points.push_back(out);
        m_planPoint.push_back(cell.points.front());
    }
    // Each point from the latest finished run of its key, against every baseline at once: linear
    // in the runs (one baseline per point would scan every run).
    const QHash<QString, const RunRecord *> finished = finishedRunsByKey(runs);
    for (auto it = finished.constBegin(); it != finished.constEnd(); ++it)
        for (const int point : m_pointsOfKey.value(it.key()))
            take(point, **it);
    for (const RunRecord &r : runs)
        m_provenance.add(r);
}

QList<int> LiveSizeSweepSummary::add(const RunRecord &run)
{
    m_provenance.add(run);
    QList<int> changed;
    if (!isFinishedRun(run))
        return changed;                         // its point runs again
    const bool baseline = m_baselines.add(run); // first: a cuBLAS point is 100 % of itself
    // Its point (two series of one configuration share it); then, for a baseline, the % of cuBLAS
    // of the points at its size on its GPU: one per series.
    const QList<int> points = m_pointsOfKey.value(sweepRunKey(run));
    for (const int point : points) {
        take(point, run);
        changed << point;
    }
    if (baseline)
        for (const int other : m_atSize.value(sizeKey(run.m, run.n, run.k)))
            if (SizeSweepPoint &p = m_summary.points[other]; p.run && !points.contains(other)) {
                setPercent(p);
                changed << other;
            }
    return changed;
}

void LiveSizeSweepSummary::take(int point, const RunRecord &run)
{
    if (m_pointGpu[point].isEmpty())
        ++m_summary.answered;
    else
        countGpu(m_pointGpu[point], -1); // a newer finished run of the point replaces it
    m_pointGpu[point] = gpuLabel(run);
    countGpu(m_pointGpu[point], +1);
    SizeSweepPoint &out = m_summary.points[point];
    out.run.reset();
    out.pctOfCublas.reset();
    out.waves.reset();
    out.waveStep = false;
    out.failureKind.clear();
    out.failureMessage.clear();
    if (run.isOk()) {
        const SweepPoint &p = m_plan.points[std::size_t(m_planPoint[point])];
        out.run = run;
        setPercent(out);
        out.waves = waveQuantization(launchBlocks(p.stage, p.params, p.size), run.smCount, run.blocksPerSm);
        out.waveStep = out.waves && out.waves->tailIsSmall();
    } else {
        out.failureKind = run.errorKind;
        out.failureMessage = run.errorMessage;
    }
}

void LiveSizeSweepSummary::setPercent(SizeSweepPoint &point) const
{
    point.pctOfCublas.reset();
    if (const auto base = m_baselines.msFor(*point.run); base && point.run->medianMs > 0)
        point.pctOfCublas = 100.0 * *base / point.run->medianMs;
}

void LiveSizeSweepSummary::countGpu(const QString &label, int delta)
{
    int &points = m_gpuPoints[label];
    const bool had = points > 0;
    points += delta;
    const bool has = points > 0;
    if (!has)
        m_gpuPoints.remove(label);
    if (had != has) { // a GPU came or went (rare): the sorted list again
        m_summary.gpus = m_gpuPoints.keys();
        m_summary.gpus.sort();
    }
}

QString sizeSweepWaveNote(const SweepPlan &plan, const SizeSweepPoint &p)
{
    return QStringLiteral("%1 at %2: %3")
        .arg(seriesLabel(plan, p.series), squareOrFullSizeText(p.size),
             QString::fromStdString(p.waves->sentence()));
}

QStringList sizeSweepWaveNotes(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    QStringList out;
    for (const SizeSweepPoint &p : summary.points)
        if (p.waveStep)
            out << sizeSweepWaveNote(plan, p);
    return out;
}

QString sizeSweepCsv(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    QStringList lines{QStringLiteral("series,stage,m,n,k,status,median_ms,tflops,pct_of_cublas,blocks,"
                                     "blocks_per_sm,sms,waves,wave_step,host,gpu,reason")};
    for (const SizeSweepPoint &p : summary.points) {
        const SizeSeries &series = plan.spec.series[std::size_t(p.series)];
        QStringList row{csvField(seriesLabel(plan, p.series)), QString::fromStdString(series.stage.str()),
                        QString::number(p.size.m), QString::number(p.size.n), QString::number(p.size.k)};
        row << csvField(!p.invalidReason.isEmpty() ? QStringLiteral("invalid")
                        : p.run                    ? QStringLiteral("ok")
                        : p.failureKind.isEmpty()  ? QStringLiteral("pending")
                                                   : p.failureKind);
        if (p.run) {
            row << QString::number(p.run->medianMs, 'g', 6) << QString::number(p.run->tflops, 'f', 3)
                << (p.pctOfCublas ? QString::number(*p.pctOfCublas, 'f', 1) : QString());
        } else {
            row << QString() << QString() << QString();
        }
        if (p.waves)
            row << QString::number(p.waves->blocks) << QString::number(p.waves->blocksPerWave / p.waves->sms)
                << QString::number(p.waves->sms) << QString::number(p.waves->waves, 'f', 3)
                << (p.waveStep ? QStringLiteral("yes") : QStringLiteral("no"));
        else
            row << QString() << QString() << QString() << QString() << QString();
        row << csvField(p.run ? p.run->host : QString()) << csvField(p.run ? p.run->gpuName : QString())
            << csvField(!p.invalidReason.isEmpty() ? p.invalidReason : p.failureMessage);
        lines << row.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QJsonObject sizeSweepJson(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    QJsonArray points;
    for (const SizeSweepPoint &p : summary.points) {
        QJsonObject o{
            {"series", seriesLabel(plan, p.series)},
            {"stage", QString::fromStdString(plan.spec.series[std::size_t(p.series)].stage.str())},
            {"size", QJsonObject{{"m", double(p.size.m)}, {"n", double(p.size.n)}, {"k", double(p.size.k)}}}};
        if (!p.invalidReason.isEmpty())
            o["invalid"] = p.invalidReason;
        if (p.run) {
            o["tflops"] = p.run->tflops;
            o["median_ms"] = p.run->medianMs;
            o["host"] = p.run->host;
            o["gpu"] = p.run->gpuName;
            if (p.pctOfCublas)
                o["pct_of_cublas"] = *p.pctOfCublas;
        } else if (!p.failureKind.isEmpty()) {
            o["failure"] = QJsonObject{{"kind", p.failureKind}, {"message", p.failureMessage}};
        }
        if (p.waves)
            o["waves"] = QJsonObject{{"blocks", double(p.waves->blocks)},
                                     {"blocks_per_wave", double(p.waves->blocksPerWave)},
                                     {"sms", p.waves->sms},
                                     {"waves", p.waves->waves},
                                     {"last_wave_sms", p.waves->lastWaveSms},
                                     {"step", p.waveStep},
                                     {"sentence", QString::fromStdString(p.waves->sentence())}};
        points.append(o);
    }
    return QJsonObject{{"format", "gemmscope-size-sweep"},
                       {"version", 1},
                       {"spec", sweepSpecToJson(plan.spec)},
                       {"gpus", QJsonArray::fromStringList(summary.gpus)},
                       {"answered", summary.answered},
                       {"valid", summary.valid},
                       {"points", points}};
}

} // namespace gemmscope
