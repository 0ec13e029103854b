#include "sweep_file.h"

#include "json_text.h"
#include "size_sweep_summary.h"

#include <QJsonArray>
#include <QObject>

namespace gemmscope {

namespace {

std::optional<SweepData> refuse(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return std::nullopt;
}

// Every run of `list` (a list of run objects, `where` names it in a refusal), or nothing.
std::optional<QList<RunRecord>> runsOf(const QJsonArray &list, const QString &where, QString *error)
{
    QList<RunRecord> runs;
    runs.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i) {
        QString why;
        const std::optional<RunRecord> run = fromJson(list.at(i).toObject(), &why);
        if (!run) {
            if (error)
                *error = QObject::tr("Run %1 of its %2 cannot be read: %3.").arg(i + 1).arg(where, why);
            return std::nullopt;
        }
        runs.append(*run);
    }
    return runs;
}

// The size-sweep view's export keeps each point's figures, not its run: a run made of them, with
// the parameters the plan gives that series at that size.
std::optional<QList<RunRecord>> runsOfSizePoints(const SweepPlan &plan, const QJsonArray &points,
                                                 const QString &date, QString *error)
{
    QHash<QString, const SweepPoint *> byLabelAndSize;
    for (const SweepPoint &p : plan.points)
        byLabelAndSize.insert(QStringLiteral("%1@%2x%3x%4")
                                  .arg(seriesLabel(plan, plan.cells[std::size_t(p.cell)].y))
                                  .arg(p.size.m)
                                  .arg(p.size.n)
                                  .arg(p.size.k),
                              &p);
    QList<RunRecord> runs;
    int number = 0;
    for (const QJsonValue &value : points) {
        ++number;
        const QJsonObject o = value.toObject();
        const QJsonObject size = o.value("size").toObject();
        const QString key = QStringLiteral("%1@%2x%3x%4")
                                .arg(o.value("series").toString())
                                .arg(size.value("m").toInteger())
                                .arg(size.value("n").toInteger())
                                .arg(size.value("k").toInteger());
        const SweepPoint *point = byLabelAndSize.value(key);
        if (!point) {
            if (error)
                *error = QObject::tr("Point %1 (%2) is not in its plan.").arg(number).arg(key);
            return std::nullopt;
        }
        const double tflops = o.value("tflops").toDouble(), medianMs = o.value("median_ms").toDouble();
        const QJsonObject failure = o.value("failure").toObject();
        if (!(tflops > 0 && medianMs > 0) && failure.isEmpty())
            continue; // not answered, or refused by the catalog: the plan says so again
        RunRecord run;
        run.runId = QStringLiteral("point%1").arg(number);
        run.stage = point->stage;
        for (const auto &[name, v] : point->params)
            run.params.insert(QString::fromStdString(name), v);
        run.m = point->size.m;
        run.n = point->size.n;
        run.k = point->size.k;
        run.origin = QStringLiteral("recorded");
        run.host = o.value("host").toString();
        run.gpuName = o.value("gpu").toString();
        run.timestamp = QDateTime::fromString(date, Qt::ISODate);
        if (failure.isEmpty()) {
            run.status = RunStatus::Ok;
            run.tflops = tflops;
            run.medianMs = run.p20Ms = run.p80Ms = run.minMs = medianMs;
        } else {
            run.status = RunStatus::Failed;
            run.errorKind = failure.value("kind").toString();
            run.errorMessage = failure.value("message").toString();
        }
        runs.append(run);
    }
    return runs;
}

} // namespace

std::optional<SweepData> sweepFromFileJson(FileKind kind, const QByteArray &bytes, QString *error,
                                           QStringList *notices)
{
    QString why;
    const std::optional<QJsonObject> root = parseJsonObject(bytes, &why);
    if (!root)
        return refuse(error, why);
    if (exactInt(root->value("version")).value_or(1) != 1)
        return refuse(error, QObject::tr("It has sweep format version %1; this GemmScope reads version 1.")
                                 .arg(describeJsonValue(root->value("version"))));
    SweepData sweep;
    const std::optional<SweepSpec> spec = sweepSpecFromJson(root->value("spec").toObject(), &why);
    if (!spec)
        return refuse(error, QObject::tr("Its sweep plan cannot be read: %1.").arg(why));
    sweep.spec = *spec;
    sweep.id = newSweepId();
    const QString date = root->value("date").toString();
    sweep.created = QDateTime::fromString(date, Qt::ISODate);
    if (!sweep.created.isValid())
        sweep.created = QDateTime::currentDateTimeUtc();
    std::optional<QList<RunRecord>> runs;
    if (kind == FileKind::BenchSweep || kind == FileKind::BenchSizeSweep) {
        if (!root->value("runs").isArray())
            return refuse(error, QObject::tr("It has no list of runs."));
        runs = runsOf(root->value("runs").toArray(), QObject::tr("runs"), error);
    } else if (kind == FileKind::SweepCells) {
        QJsonArray best;
        for (const QJsonValue &cell : root->value("cells").toArray())
            if (cell.toObject().contains("best"))
                best.append(cell.toObject().value("best"));
        runs = runsOf(best, QObject::tr("cells' best runs"), error);
        if (notices)
            *notices << QObject::tr("An exported sweep keeps only the best run of each cell, and no cuBLAS "
                                    "run: its cells show TFLOP/s, not % of cuBLAS.");
    } else if (kind == FileKind::SizeSweepSummary) {
        runs = runsOfSizePoints(planSweep(sweep.spec), root->value("points").toArray(), date, error);
        if (notices)
            *notices << QObject::tr("An exported size sweep keeps each point's median time and TFLOP/s, "
                                    "not its runs: the points show those figures only.");
    } else {
        return refuse(error, QObject::tr("It is not a sweep file."));
    }
    if (!runs)
        return std::nullopt;
    sweep.runs = *runs;
    return sweep;
}

} // namespace gemmscope
