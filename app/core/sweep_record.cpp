#include "sweep_record.h"

#include "stage_catalog.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <tuple>
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
    // The stage as the catalog names it ("__restrict__ and #pragma unroll"), not by its key
    // ("final"): the Shown list read as keys to a new user.
    const auto stageName = [](const StageId &stage) {
        const StageInfo *info = findStage(stage.str());
        return QString::fromStdString(info ? info->title : stage.str());
    };
    if (spec.kind == SweepKind::Sizes) {
        QStringList names;
        for (const SizeSeries &s : spec.series)
            names << (s.label.empty() ? stageName(s.stage) : QString::fromStdString(s.label));
        return QStringLiteral("Sizes of %1: %2 … %3")
            .arg(names.join(QStringLiteral(", ")),
                 spec.sizes.empty() ? QString() : squareOrFullSizeText(spec.sizes.front()),
                 spec.sizes.empty() ? QString() : squareOrFullSizeText(spec.sizes.back()));
    }
    return QStringLiteral("%1: %2 × %3 at %4")
        .arg(stageName(spec.stage), QString::fromStdString(spec.x.param),
             QString::fromStdString(spec.y.param), squareOrFullSizeText(spec.size));
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

SweepSpec canonicalSweepSpec(SweepSpec spec)
{
    const auto sortUnique = [](auto &values, auto less) {
        std::sort(values.begin(), values.end(), less);
        values.erase(std::unique(values.begin(), values.end()), values.end());
    };
    sortUnique(spec.x.values, std::less<int>());
    sortUnique(spec.y.values, std::less<int>());
    sortUnique(spec.sizes, [](const ProblemSize &a, const ProblemSize &b) {
        return std::tie(a.m, a.n, a.k) < std::tie(b.m, b.n, b.k);
    });
    sortUnique(spec.series, [](const SizeSeries &a, const SizeSeries &b) {
        return std::make_tuple(a.label, a.stage.str(), a.params) <
               std::make_tuple(b.label, b.stage.str(), b.params);
    });
    if (spec.kind == SweepKind::Sizes) { // these mirror the first series and size
        if (!spec.series.empty())
            spec.stage = spec.series.front().stage;
        if (!spec.sizes.empty())
            spec.size = spec.sizes.front();
    }
    return spec;
}

bool isSameSweep(const SweepSpec &a, const SweepSpec &b)
{
    return canonicalSweepSpec(a) == canonicalSweepSpec(b);
}

QString sweepSpecHash(const SweepSpec &spec)
{
    const QByteArray text =
        QJsonDocument(sweepSpecToJson(canonicalSweepSpec(spec))).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex().left(24));
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
    return QString::fromStdString(
        sweepPointKey(run.stage, paramValuesOf(run), ProblemSize{run.m, run.n, run.k}));
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
        if (it->isOk() && it->stage == StageId::CublasFp32 && it->m == run.m && it->n == run.n &&
            it->k == run.k && gpuIdentity(*it) == gpu && it->medianMs > 0)
            return it->medianMs;
    return std::nullopt;
}

namespace {

QString strerrorText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// Opens `path` without following a symlink at its name and only if it is (or becomes) a regular
// file: a FIFO or a device planted at a journal's name is neither blocked on nor written into.
int openJournalFd(const QString &path, int flags, QString *why)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0644);
    if (fd < 0) {
        *why = errno == ELOOP   ? QStringLiteral("it is a symbolic link, which GemmScope does not follow")
               : errno == ENXIO ? QStringLiteral("it is not a regular file (a pipe or a device)")
                                : strerrorText();
        return -1;
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        *why = QStringLiteral("it is not a regular file (a folder, a pipe or a device)");
        return -1;
    }
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl >= 0)
        ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 0);
}

} // namespace

bool SweepJournal::open(const QString &path, bool truncate, QString *error)
{
    m_file.close();
    m_full = false;
    m_path = path;
    QString why;
    const int fd = openJournalFd(path, O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0), &why);
    if (fd < 0 || !m_file.open(fd, QIODevice::WriteOnly | QIODevice::Append, QFileDevice::AutoCloseHandle)) {
        if (fd >= 0) {
            why = m_file.errorString();
            ::close(fd);
        }
        if (error)
            *error = QStringLiteral("Could not write the sweep journal %1: %2.").arg(path, why);
        return false;
    }
    return true;
}

bool SweepJournal::create(const QString &path, const SweepData &sweep, QString *error)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (!open(path, true, error))
        return false;
    SweepData header = sweep;
    header.runs.clear();
    // The header and the runs the sweep already has, forced to the disk once (an fsync per line
    // made resuming a 2,000-run sweep wait ~10 s before its first new run).
    QByteArray text =
        QJsonDocument(
            QJsonObject{{"format", kJournalFormat}, {"version", kJournalVersion}, {"sweep", toJson(header)}})
            .toJson(QJsonDocument::Compact) +
        '\n';
    for (const RunRecord &r : sweep.runs)
        text += QJsonDocument(QJsonObject{{"run", toJson(r)}}).toJson(QJsonDocument::Compact) + '\n';
    return writeText(text, error);
}

bool SweepJournal::openForAppend(const QString &path, QString *error)
{
    if (!open(path, false, error))
        return false;
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
    return writeText(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n', error);
}

bool SweepJournal::writeText(const QByteArray &line, QString *error)
{
    if (m_file.isOpen() && m_file.size() + line.size() > m_maxBytes) {
        m_full = true;
        if (error)
            *error = QStringLiteral("The sweep journal %1 reached its limit of %2 MiB, so the sweep stopped "
                                    "there; every run it holds is kept. Start the rest as a smaller sweep.")
                         .arg(m_path, megabytes(m_maxBytes));
        return false;
    }
    if (!m_file.isOpen() || m_file.write(line) != line.size() || !m_file.flush() ||
        ::fsync(m_file.handle()) != 0) {
        if (error)
            *error = QStringLiteral("Could not write to the sweep journal %1: %2.")
                         .arg(m_path, m_file.errorString());
        return false;
    }
    return true;
}

namespace {

// Reads a journal line by line; `headerOnly` stops after the header, `stop` wherever it says so.
std::optional<SweepData> readJournal(const QString &path, bool headerOnly, QString *error,
                                     QStringList *problems, const StopRequested &stop)
{
    const QString name = QFileInfo(path).fileName();
    const auto fail = [&](const QString &why) -> std::optional<SweepData> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QString why;
    const int fd = openJournalFd(path, O_RDONLY, &why);
    if (fd < 0)
        return fail(QStringLiteral("Could not read the sweep journal %1: %2.").arg(path, why));
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return fail(QStringLiteral("Could not read the sweep journal %1: %2.").arg(path, file.errorString()));
    }
    if (file.size() > kMaxJournalBytes)
        return fail(
            QStringLiteral("The sweep journal %1 is %2 MiB; GemmScope reads journals of at most %3 MiB.")
                .arg(path, megabytes(file.size()), megabytes(kMaxJournalBytes)));
    std::optional<SweepData> sweep;
    int lineNumber = 0;
    qint64 total = 0;
    while (!file.atEnd()) {
        // Before each line: a line takes microseconds, so a stop is obeyed at once however long
        // the journal is.
        if (stop && stop())
            return fail(QStringLiteral("Reading the sweep journal %1 was stopped.").arg(path));
        const QByteArray line = file.readLine().trimmed();
        ++lineNumber;
        total = file.pos();
        if (file.error() != QFileDevice::NoError)
            return fail(
                QStringLiteral("Could not read the sweep journal %1: %2.").arg(path, file.errorString()));
        if (total > kMaxJournalBytes)
            return fail(QStringLiteral("The sweep journal %1 grew past %2 MiB while it was read.")
                            .arg(path, megabytes(kMaxJournalBytes)));
        if (line.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!sweep) {
            const QJsonObject header = doc.object();
            if (header.value("format").toString() != kJournalFormat ||
                header.value("version").toInt() != kJournalVersion)
                return fail(QStringLiteral("%1 is not a GemmScope sweep journal (version %2).")
                                .arg(name)
                                .arg(kJournalVersion));
            QString bad;
            sweep = sweepFromJson(header.value("sweep").toObject(), &bad);
            if (!sweep)
                return fail(QStringLiteral("%1 has a damaged header: %2.").arg(name, bad));
            if (headerOnly)
                return sweep;
            continue;
        }
        QString bad;
        const std::optional<RunRecord> run =
            doc.isObject() ? fromJson(doc.object().value("run").toObject(), &bad) : std::nullopt;
        if (!run) {
            if (problems)
                *problems << QStringLiteral("Line %1 of %2 could not be read (%3); it was skipped.")
                                 .arg(lineNumber)
                                 .arg(name, bad.isEmpty() ? QStringLiteral("cut short") : bad);
            continue;
        }
        sweep->runs.append(*run);
    }
    if (!sweep)
        return fail(QStringLiteral("%1 is empty.").arg(name));
    return sweep;
}

} // namespace

std::optional<SweepData> SweepJournal::read(const QString &path, QString *error, QStringList *problems,
                                            const StopRequested &stop)
{
    return readJournal(path, false, error, problems, stop);
}

std::optional<SweepData> SweepJournal::readHeader(const QString &path, QString *error)
{
    return readJournal(path, true, error, nullptr, {});
}

} // namespace gemmscope
