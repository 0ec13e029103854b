#include "compile_job.h"

#include "runner_locator.h"

#include <QJsonDocument>
#include <QProcess>

namespace gemmscope {

CompileJob::CompileJob(Kind kind, QObject *parent) : QObject(parent), m_kind(kind) {}

CompileJob::~CompileJob()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

bool CompileJob::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool CompileJob::start(StageId stage, const ParamValues &params, const ProblemSize &size, const QString &arch,
                       QString *whyNot)
{
    const StageInfo &info = stageInfo(stage);
    if (info.isLibrary) {
        *whyNot = tr("%1 is a library call: there is no kernel of GemmScope's to compile.")
                      .arg(QString::fromStdString(info.title));
        return false;
    }
    if (isRunning()) {
        *whyNot = tr("A compile is already running.");
        return false;
    }
    const RunnerLocation runner = locateRunner();
    if (!runner.found()) {
        *whyNot = tr("The runner is not there to compile with: %1").arg(runner.whyNot);
        return false;
    }
    m_stageTitle = QString::fromStdString(info.title);
    const bool disassemble = m_kind == Kind::Disassemble;
    QJsonObject request{
        {QStringLiteral("type"), disassemble ? QStringLiteral("disassemble") : QStringLiteral("compile")},
        {QStringLiteral("id"), QStringLiteral("compile")},
        {QStringLiteral("stage"), QString::fromStdString(info.key)},
        {QStringLiteral("arch"), arch}};
    QJsonObject p;
    for (const auto &[name, value] : params)
        p.insert(QString::fromStdString(name), value);
    request.insert(QStringLiteral("params"), p);
    request.insert(QStringLiteral("size"), QJsonObject{{QStringLiteral("m"), qint64(size.m)},
                                                       {QStringLiteral("n"), qint64(size.n)},
                                                       {QStringLiteral("k"), qint64(size.k)}});
    m_buffer.clear();
    m_answered = false;
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &CompileJob::readLines);
    connect(m_process, &QProcess::finished, this, &CompileJob::processEnded);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            processEnded();
    });
    m_process->start(runner.path, {});
    // EOF after the request: the runner answers it, then exits (docs/protocol.md).
    m_process->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    m_process->closeWriteChannel();
    return true;
}

void CompileJob::readLines()
{
    m_buffer += m_process->readAllStandardOutput();
    for (int nl = m_buffer.indexOf('\n'); nl >= 0 && !m_answered; nl = m_buffer.indexOf('\n')) {
        const QJsonObject event = QJsonDocument::fromJson(m_buffer.left(nl)).object();
        m_buffer.remove(0, nl + 1);
        if (event.value(QStringLiteral("id")).toString() != QLatin1String("compile"))
            continue;
        const QString kind = event.value(QStringLiteral("event")).toString();
        if (kind == QLatin1String(m_kind == Kind::Disassemble ? "disassembly" : "compiled")) {
            releaseProcess(); // answered: the job is over, a new one may start while the runner exits
            emit finished(event, m_kind == Kind::Disassemble
                                     ? tr("%1 for %2")
                                           .arg(event.value(QStringLiteral("kernel")).toString(),
                                                event.value(QStringLiteral("arch")).toString())
                                     : summary(event));
        } else if (kind == QLatin1String("error")) {
            releaseProcess();
            emit failed(tr("%1 did not compile: %2")
                            .arg(m_stageTitle, event.value(QStringLiteral("message")).toString()));
        }
    }
}

void CompileJob::releaseProcess()
{
    m_answered = true;
    QProcess *process = m_process;
    m_process = nullptr;
    process->disconnect(this);
    // The runner exits by itself after answering (EOF on its stdin); it is deleted when it has.
    if (process->state() == QProcess::NotRunning)
        process->deleteLater();
    else
        connect(process, &QProcess::finished, process, &QObject::deleteLater);
}

void CompileJob::processEnded()
{
    if (!m_process)
        return;
    readLines();
    if (!m_process) // the answer was in the last output: released there
        return;
    const QString why = m_process->error() == QProcess::FailedToStart
                            ? m_process->errorString()
                            : tr("exit code %1").arg(m_process->exitCode());
    m_answered = true;
    m_process->deleteLater();
    m_process = nullptr;
    emit failed(tr("The runner ended without compiling (%1).").arg(why));
}

QString CompileJob::summary(const QJsonObject &c)
{
    const int spillStores = c.value(QStringLiteral("spill_store_bytes")).toInt();
    const int spillLoads = c.value(QStringLiteral("spill_load_bytes")).toInt();
    const QString spills = spillStores + spillLoads == 0
                               ? tr("no spills")
                               : tr("spills %1 B stored, %2 B loaded").arg(spillStores).arg(spillLoads);
    QString text = tr("%1: %2 registers per thread, %3, %4 B shared memory per block")
                       .arg(c.value(QStringLiteral("arch")).toString())
                       .arg(c.value(QStringLiteral("registers")).toInt())
                       .arg(spills)
                       .arg(c.value(QStringLiteral("static_smem_bytes")).toInt());
    const QJsonObject occupancy = c.value(QStringLiteral("occupancy")).toObject();
    if (!occupancy.isEmpty())
        text += tr("; %1 blocks per SM, %2 % occupancy (limited by %3)")
                    .arg(occupancy.value(QStringLiteral("blocks_per_sm")).toInt())
                    .arg(occupancy.value(QStringLiteral("fraction")).toDouble() * 100, 0, 'f', 0)
                    .arg(occupancy.value(QStringLiteral("limiter"))
                             .toString()
                             .replace(QLatin1Char('_'), QLatin1Char(' ')));
    else
        text += tr("; no occupancy: GemmScope has no datasheet for this architecture");
    return text;
}

} // namespace gemmscope
