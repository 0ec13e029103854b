#include "sweep_record.h"

#include "file_read.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <unistd.h>

namespace gemmscope {

namespace {

const QLatin1String kJournalFormat("gemmscope-sweep");
constexpr int kJournalVersion = 1;

QJsonObject paramsJson(const ParamValues &params)
{
    QJsonObject o;
    for (const auto &[name, value] : params)
        o.insert(QString::fromStdString(name), value);
    return o;
}

bool paramsFrom(const QJsonValue &value, ParamValues &out)
{
    if (!value.isObject() && !value.isUndefined())
        return false;
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isDouble())
            return false;
        out[it.key().toStdString()] = it.value().toInt();
    }
    return true;
}

QJsonArray intsJson(const std::vector<int> &values)
{
    QJsonArray a;
    for (int v : values)
        a.append(v);
    return a;
}

} // namespace

QString SweepData::title() const
{
    if (spec.kind == SweepKind::Sizes) {
        QStringList names;
        for (const SizeSeries &s : spec.series)
            names << QString::fromStdString(s.label.empty() ? s.stage.str() : s.label);
        const auto text = [](const ProblemSize &z) {
            return QStringLiteral("%1x%2x%3").arg(z.m).arg(z.n).arg(z.k);
        };
        return QStringLiteral("sizes: %1; %2 … %3")
            .arg(names.join(QStringLiteral(", ")), spec.sizes.empty() ? QString() : text(spec.sizes.front()),
                 spec.sizes.empty() ? QString() : text(spec.sizes.back()));
    }
    return QStringLiteral("%1: %2 x %3, %4x%5x%6")
        .arg(QString::fromStdString(spec.stage.str()), QString::fromStdString(spec.x.param),
             QString::fromStdString(spec.y.param))
        .arg(spec.size.m)
        .arg(spec.size.n)
        .arg(spec.size.k);
}

QString newSweepId()
{
    return QStringLiteral("sweep-%1-%2")
        .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")))
        .arg(QRandomGenerator::global()->bounded(0x1000, 0xFFFF), 0, 16);
}

static QJsonObject sizeJson(const ProblemSize &size)
{
    return QJsonObject{{"m", double(size.m)}, {"n", double(size.n)}, {"k", double(size.k)}};
}

static ProblemSize sizeFrom(const QJsonObject &o)
{
    return {qint64(o.value("m").toDouble()), qint64(o.value("n").toDouble()),
            qint64(o.value("k").toDouble())};
}

QJsonObject sweepSpecToJson(const SweepSpec &spec)
{
    if (spec.kind == SweepKind::Sizes) {
        QJsonArray series, sizes;
        for (const SizeSeries &s : spec.series)
            series.append(QJsonObject{{"stage", QString::fromStdString(s.stage.str())},
                                      {"params", paramsJson(s.params)},
                                      {"label", QString::fromStdString(s.label)}});
        for (const ProblemSize &z : spec.sizes)
            sizes.append(sizeJson(z));
        return QJsonObject{{"kind", "sizes"},
                           {"series", series},
                           {"sizes", sizes},
                           {"budget_ms", spec.budgetMs},
                           {"flush_l2", spec.flushL2}};
    }
    return QJsonObject{
        {"stage", QString::fromStdString(spec.stage.str())},
        {"x",
         QJsonObject{{"param", QString::fromStdString(spec.x.param)}, {"values", intsJson(spec.x.values)}}},
        {"y",
         QJsonObject{{"param", QString::fromStdString(spec.y.param)}, {"values", intsJson(spec.y.values)}}},
        {"rest", spec.rest == SweepRest::BestOverRest ? "best" : "fixed"},
        {"fixed", paramsJson(spec.fixed)},
        {"size",
         QJsonObject{{"m", double(spec.size.m)}, {"n", double(spec.size.n)}, {"k", double(spec.size.k)}}},
        {"budget_ms", spec.budgetMs},
        {"flush_l2", spec.flushL2},
    };
}

std::optional<SweepSpec> sweepSpecFromJson(const QJsonObject &json, QString *error)
{
    auto fail = [&](const QString &why) -> std::optional<SweepSpec> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    SweepSpec spec;
    if (json.value("kind").toString() == QLatin1String("sizes")) {
        spec.kind = SweepKind::Sizes;
        for (const QJsonValue &v : json.value("series").toArray()) {
            const QJsonObject o = v.toObject();
            SizeSeries s;
            const QString stage = o.value("stage").toString();
            if (stage.isEmpty() || !findStage(stage.toStdString()))
                return fail(QStringLiteral("the size sweep names no known stage (\"%1\")").arg(stage));
            s.stage = StageId(stage.toStdString());
            if (!paramsFrom(o.value("params"), s.params))
                return fail(QStringLiteral("the size sweep's parameters of %1 are not numbers").arg(stage));
            s.label = o.value("label").toString().toStdString();
            spec.series.push_back(std::move(s));
        }
        for (const QJsonValue &v : json.value("sizes").toArray()) {
            const ProblemSize z = sizeFrom(v.toObject());
            if (z.m < 1 || z.n < 1 || z.k < 1)
                return fail(QStringLiteral("the size sweep has a size that is not usable"));
            spec.sizes.push_back(z);
        }
        if (spec.series.empty() || spec.sizes.empty())
            return fail(QStringLiteral("the size sweep has no stage or no size"));
        spec.stage = spec.series.front().stage;
        spec.size = spec.sizes.front();
        spec.budgetMs = json.value("budget_ms").toInt(30);
        spec.flushL2 = json.value("flush_l2").toBool();
        return spec;
    }
    const QString stage = json.value("stage").toString();
    if (stage.isEmpty() || !findStage(stage.toStdString()))
        return fail(QStringLiteral("the sweep names no known stage (\"%1\")").arg(stage));
    spec.stage = StageId(stage.toStdString());
    for (auto [name, axis] : {std::pair{"x", &spec.x}, std::pair{"y", &spec.y}}) {
        const QJsonObject a = json.value(QLatin1String(name)).toObject();
        axis->param = a.value("param").toString().toStdString();
        if (axis->param.empty())
            return fail(QStringLiteral("the sweep's %1 axis names no parameter").arg(QLatin1String(name)));
        for (const QJsonValue &v : a.value("values").toArray()) {
            if (!v.isDouble())
                return fail(QStringLiteral("the sweep's %1 axis has a value that is not a number")
                                .arg(QLatin1String(name)));
            axis->values.push_back(v.toInt());
        }
    }
    spec.rest =
        json.value("rest").toString() == QLatin1String("best") ? SweepRest::BestOverRest : SweepRest::Fixed;
    if (!paramsFrom(json.value("fixed"), spec.fixed))
        return fail(QStringLiteral("the sweep's fixed parameters are not numbers"));
    const QJsonObject size = json.value("size").toObject();
    spec.size = {qint64(size.value("m").toDouble()), qint64(size.value("n").toDouble()),
                 qint64(size.value("k").toDouble())};
    if (spec.size.m < 1 || spec.size.n < 1 || spec.size.k < 1)
        return fail(QStringLiteral("the sweep has no usable problem size"));
    spec.budgetMs = json.value("budget_ms").toInt(30);
    spec.flushL2 = json.value("flush_l2").toBool();
    return spec;
}

QJsonObject toJson(const SweepData &sweep)
{
    QJsonArray runs;
    for (const RunRecord &r : sweep.runs)
        runs.append(toJson(r));
    return QJsonObject{{"id", sweep.id},
                       {"created", sweep.created.toUTC().toString(Qt::ISODate)},
                       {"spec", sweepSpecToJson(sweep.spec)},
                       {"runs", runs}};
}

std::optional<SweepData> sweepFromJson(const QJsonObject &json, QString *error)
{
    SweepData sweep;
    sweep.id = json.value("id").toString();
    if (sweep.id.isEmpty()) {
        if (error)
            *error = QStringLiteral("a sweep has no id");
        return std::nullopt;
    }
    const std::optional<SweepSpec> spec = sweepSpecFromJson(json.value("spec").toObject(), error);
    if (!spec)
        return std::nullopt;
    sweep.spec = *spec;
    sweep.created = QDateTime::fromString(json.value("created").toString(), Qt::ISODate);
    for (const QJsonValue &v : json.value("runs").toArray()) {
        QString why;
        const std::optional<RunRecord> run = fromJson(v.toObject(), &why);
        if (!run) {
            if (error)
                *error = QStringLiteral("a run of sweep %1 is damaged: %2").arg(sweep.id, why);
            return std::nullopt;
        }
        sweep.runs.append(*run);
    }
    return sweep;
}

bool isFinishedRun(const RunRecord &run)
{
    if (run.status == RunStatus::Ok)
        return true;
    if (run.status != RunStatus::Failed)
        return false;
    using protocol::ErrorKind;
    for (ErrorKind kind :
         {ErrorKind::InvalidConfig, ErrorKind::CompileError, ErrorKind::OutOfResources,
          ErrorKind::LaunchError, ErrorKind::DeviceFault, ErrorKind::OutOfMemory, ErrorKind::WrongResult})
        if (run.errorKind == protocol::errorKindName(kind))
            return true;
    return false;
}

QString sweepRunKey(const RunRecord &run)
{
    return QString::fromStdString(sweepPointKey(StageId(run.stage.toStdString()), paramValuesOf(run),
                                                ProblemSize{run.m, run.n, run.k}));
}

QHash<QString, const RunRecord *> finishedRunsByKey(const QList<RunRecord> &runs)
{
    QHash<QString, const RunRecord *> out;
    for (const RunRecord &r : runs)
        if (isFinishedRun(r))
            out.insert(sweepRunKey(r), &r);
    return out;
}

QList<int> unfinishedPoints(const SweepPlan &plan, const QList<RunRecord> &runs)
{
    const QHash<QString, const RunRecord *> finished = finishedRunsByKey(runs);
    QList<int> out;
    for (std::size_t i = 0; i < plan.points.size(); ++i) {
        const SweepPoint &p = plan.points[i];
        if (p.valid() && !finished.contains(QString::fromStdString(sweepPointKey(p.stage, p.params, p.size))))
            out << int(i);
    }
    return out;
}

QString gpuIdentity(const RunRecord &run)
{
    return run.gpuUuid.isEmpty() ? run.host + QLatin1Char('/') + run.gpuName : run.gpuUuid;
}

std::optional<double> cublasMsOnSameGpu(const QList<RunRecord> &runs, const RunRecord &run)
{
    const QString gpu = gpuIdentity(run);
    for (auto it = runs.crbegin(); it != runs.crend(); ++it)
        if (it->isOk() && it->stage == QLatin1String("cublas_fp32") && it->m == run.m && it->n == run.n &&
            it->k == run.k && gpuIdentity(*it) == gpu && it->medianMs > 0)
            return it->medianMs;
    return std::nullopt;
}

bool SweepJournal::create(const QString &path, const SweepData &sweep, QString *error)
{
    m_file.close();
    QDir().mkpath(QFileInfo(path).absolutePath());
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error)
            *error =
                QStringLiteral("Could not write the sweep journal %1: %2.").arg(path, m_file.errorString());
        return false;
    }
    SweepData header = sweep;
    header.runs.clear();
    if (!writeLine(
            QJsonObject{{"format", kJournalFormat}, {"version", kJournalVersion}, {"sweep", toJson(header)}},
            error))
        return false;
    for (const RunRecord &r : sweep.runs)
        if (!append(r, error))
            return false;
    return true;
}

bool SweepJournal::openForAppend(const QString &path, QString *error)
{
    m_file.close();
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append)) {
        if (error)
            *error = QStringLiteral("Could not append to the sweep journal %1: %2.")
                         .arg(path, m_file.errorString());
        return false;
    }
    // A crash may have left a line without its end: start on a fresh line.
    if (m_file.size() > 0)
        m_file.write("\n");
    return true;
}

bool SweepJournal::append(const RunRecord &run, QString *error)
{
    return writeLine(QJsonObject{{"run", toJson(run)}}, error);
}

bool SweepJournal::writeLine(const QJsonObject &object, QString *error)
{
    const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
    if (!m_file.isOpen() || m_file.write(line) != line.size() || !m_file.flush() ||
        ::fsync(m_file.handle()) != 0) {
        if (error)
            *error = QStringLiteral("Could not write to the sweep journal %1: %2.")
                         .arg(m_file.fileName(), m_file.errorString());
        return false;
    }
    return true;
}

std::optional<SweepData> SweepJournal::read(const QString &path, QString *error, QStringList *problems)
{
    const FileBytes file = readRegularFile(path);
    if (!file.bytes) {
        if (error)
            *error = file.error;
        return std::nullopt;
    }
    const QList<QByteArray> lines = file.bytes->split('\n');
    std::optional<SweepData> sweep;
    int lineNumber = 0;
    for (const QByteArray &raw : lines) {
        ++lineNumber;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!sweep) {
            const QJsonObject header = doc.object();
            if (header.value("format").toString() != kJournalFormat ||
                header.value("version").toInt() != kJournalVersion) {
                if (error)
                    *error = QStringLiteral("%1 is not a GemmScope sweep journal (version %2).")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(kJournalVersion);
                return std::nullopt;
            }
            QString why;
            sweep = sweepFromJson(header.value("sweep").toObject(), &why);
            if (!sweep) {
                if (error)
                    *error =
                        QStringLiteral("%1 has a damaged header: %2.").arg(QFileInfo(path).fileName(), why);
                return std::nullopt;
            }
            continue;
        }
        QString why;
        const std::optional<RunRecord> run =
            doc.isObject() ? fromJson(doc.object().value("run").toObject(), &why) : std::nullopt;
        if (!run) {
            if (problems)
                *problems << QStringLiteral("Line %1 of %2 could not be read (%3); it was skipped.")
                                 .arg(lineNumber)
                                 .arg(QFileInfo(path).fileName(),
                                      why.isEmpty() ? QStringLiteral("cut short") : why);
            continue;
        }
        sweep->runs.append(*run);
    }
    if (!sweep && error)
        *error = QStringLiteral("%1 is empty.").arg(QFileInfo(path).fileName());
    return sweep;
}

} // namespace gemmscope
