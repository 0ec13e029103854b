#include "size_sweep_summary.h"

#include "sweep_record.h"

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
    SizeSweepSummary s;
    const QHash<QString, const RunRecord *> finished = finishedRunsByKey(runs);
    QSet<QString> gpus;
    for (const SweepCell &cell : plan.cells) {
        const SweepPoint &p = plan.points[std::size_t(cell.points.front())];
        SizeSweepPoint out;
        out.series = cell.yIndex;
        out.sizeIndex = cell.xIndex;
        out.size = p.size;
        out.invalidReason = QString::fromStdString(cell.invalidReason);
        if (p.valid()) {
            ++s.valid;
            if (const RunRecord *run =
                    finished.value(QString::fromStdString(sweepPointKey(p.stage, p.params, p.size)))) {
                ++s.answered;
                gpus.insert(run->host + QStringLiteral(": ") + run->gpuName);
                if (run->isOk()) {
                    out.run = *run;
                    if (const auto base = cublasMsOnSameGpu(runs, *run); base && run->medianMs > 0)
                        out.pctOfCublas = 100.0 * *base / run->medianMs;
                    out.waves = waveQuantization(launchBlocks(p.stage, p.params, p.size), run->smCount,
                                                 run->blocksPerSm);
                    out.waveStep = out.waves && out.waves->tailIsSmall();
                } else {
                    out.failureKind = run->errorKind;
                    out.failureMessage = run->errorMessage;
                }
            }
        }
        s.points.push_back(out);
    }
    s.gpus = QStringList(gpus.begin(), gpus.end());
    s.gpus.sort();
    return s;
}

QStringList sizeSweepWaveNotes(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    QStringList out;
    for (const SizeSweepPoint &p : summary.points)
        if (p.waveStep)
            out << QStringLiteral("%1 at %2x%3x%4: %5")
                       .arg(seriesLabel(plan, p.series))
                       .arg(p.size.m)
                       .arg(p.size.n)
                       .arg(p.size.k)
                       .arg(QString::fromStdString(p.waves->sentence()));
    return out;
}

QString sizeSweepCsv(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    QStringList lines{QStringLiteral("series,stage,m,n,k,status,median_ms,tflops,pct_of_cublas,blocks,"
                                     "blocks_per_sm,sms,waves,wave_step,host,gpu,reason")};
    auto field = [](QString text) {
        if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
            text.contains(QLatin1Char('\n')))
            text =
                QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
        return text;
    };
    for (const SizeSweepPoint &p : summary.points) {
        const SizeSeries &series = plan.spec.series[std::size_t(p.series)];
        QStringList row{field(seriesLabel(plan, p.series)), QString::fromStdString(series.stage.str()),
                        QString::number(p.size.m), QString::number(p.size.n), QString::number(p.size.k)};
        row << (!p.invalidReason.isEmpty() ? QStringLiteral("invalid")
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
        row << field(p.run ? p.run->host : QString()) << field(p.run ? p.run->gpuName : QString())
            << field(!p.invalidReason.isEmpty() ? p.invalidReason : p.failureMessage);
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
