#include "compile_job.h"

#include "requests.h"
#include "runner_locator.h"
#include "runner_transport.h"

namespace gemmscope {

CompileJob::CompileJob(Kind kind, QObject *parent) : QObject(parent), m_kind(kind) {}

CompileJob::~CompileJob() = default; // the runner, a child, is killed with its transport

bool CompileJob::isRunning() const
{
    return m_runner && m_runner->isRunning();
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
    // The one request id of this one-shot runner.
    const QString id = QStringLiteral("compile");
    const protocol::KernelRequest kernel{
        .id = id, .stage = QString::fromStdString(info.key), .params = params, .arch = arch, .size = size};
    const QJsonObject request = m_kind == Kind::Disassemble
                                    ? protocol::toJson(protocol::DisassembleJob{kernel})
                                    : protocol::toJson(protocol::CompileJob{kernel});
    m_runner = new RunnerTransport(this);
    connect(m_runner, &RunnerTransport::eventReceived, this, &CompileJob::handleEvent);
    connect(m_runner, &RunnerTransport::ended, this, &CompileJob::runnerEnded);
    RunnerCommand command;
    command.program = command.label = runner.path;
    m_runner->start(command);
    if (!m_runner) // it could not start, and said so in failed()
        return true;
    m_runner->watchSilence(
        kSilenceLimitMs, protocol::ErrorKind::RunnerTimeout,
        tr("The runner sent nothing for %1 s, so it was stopped.").arg(kSilenceLimitMs / 1000));
    // EOF after the request: the runner answers it, then exits (docs/protocol.md).
    m_runner->send(request);
    m_runner->closeInput();
    return true;
}

void CompileJob::handleEvent(const QJsonObject &event)
{
    if (!m_runner || protocol::eventIdOf(event) != QLatin1String("compile"))
        return;
    const std::optional<protocol::EventType> type = protocol::eventTypeOf(event);
    if (m_kind == Kind::Disassemble && type == protocol::EventType::Disassembly) {
        protocol::fromJson(event, m_disassembly);
        releaseRunner(); // answered: the job is over, a new one may start while the runner exits
        emit finished(m_disassembly.kernel, tr("%1 for %2").arg(m_disassembly.kernel, m_disassembly.arch));
    } else if (m_kind == Kind::Compile && type == protocol::EventType::Compiled) {
        protocol::CompiledInfo compiled;
        protocol::fromJson(event, compiled);
        releaseRunner();
        emit finished(compiled.kernel, summary(compiled));
    } else if (type == protocol::EventType::Error) {
        protocol::ErrorEvent error;
        protocol::fromJson(event, error);
        releaseRunner();
        emit failed(tr("%1 did not compile: %2").arg(m_stageTitle, error.message));
    }
}

void CompileJob::releaseRunner()
{
    RunnerTransport *runner = m_runner;
    m_runner = nullptr;
    runner->disconnect(this);
    runner->stopWatching();
    // The runner exits by itself after answering (EOF on its stdin); it is deleted when it has.
    if (runner->isRunning())
        connect(runner, &RunnerTransport::ended, runner, &QObject::deleteLater);
    else
        runner->deleteLater();
}

void CompileJob::runnerEnded(const RunnerEnd &end)
{
    if (!m_runner) // answered before it ended: released then
        return;
    m_runner->deleteLater();
    m_runner = nullptr;
    emit failed(tr("The runner ended without compiling. %1").arg(end.message));
}

QString CompileJob::summary(const protocol::CompiledInfo &c)
{
    const QString spills =
        c.spillStoreBytes + c.spillLoadBytes == 0
            ? tr("no spills")
            : tr("spills %1 B stored, %2 B loaded").arg(c.spillStoreBytes).arg(c.spillLoadBytes);
    QString text = tr("%1: %2 registers per thread, %3, %4 B shared memory per block")
                       .arg(c.arch)
                       .arg(c.registers)
                       .arg(spills)
                       .arg(c.staticSmemBytes);
    if (c.occupancy)
        text += tr("; %1 blocks per SM, %2 % occupancy (limited by %3)")
                    .arg(c.occupancy->blocksPerSm)
                    .arg(c.occupancy->fraction * 100, 0, 'f', 0)
                    .arg(QString(c.occupancy->limiter).replace(QLatin1Char('_'), QLatin1Char(' ')));
    else
        text += tr("; no occupancy: GemmScope has no datasheet for this architecture");
    return text;
}

} // namespace gemmscope
