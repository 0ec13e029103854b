#include "compile_job.h"

#include "occupancy_limiter.h"
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
    m_stage = stage;
    m_lastLog.clear();
    // The one request id of this one-shot runner.
    const QString id = QStringLiteral("compile");
    const protocol::KernelRequest kernel{.id = id,
                                         .stage = QString::fromStdString(info.key),
                                         .params = params,
                                         .arch = arch,
                                         .size = size,
                                         .build = {}}; // the default build
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

void CompileJob::handleEvent(const QJsonObject &json, const DecodedEvent &decoded)
{
    if (!m_runner || protocol::eventIdOf(json) != QLatin1String("compile"))
        return;
    if (const auto *disassembly = decoded.get<protocol::DisassemblyEvent>();
        disassembly && m_kind == Kind::Disassemble) {
        m_disassembly = *disassembly;
        releaseRunner(); // answered: the job is over, a new one may start while the runner exits
        emit finished(m_disassembly.kernel, tr("%1 for %2").arg(m_disassembly.kernel, m_disassembly.arch));
    } else if (const auto *compiled = decoded.get<protocol::CompiledInfo>();
               compiled && m_kind == Kind::Compile) {
        m_compiled = *compiled;
        m_lastLog = m_compiled.ptxasLog;
        releaseRunner();
        emit finished(m_compiled.kernel, summary(m_compiled));
    } else if (const auto *error = decoded.get<protocol::ErrorEvent>()) {
        m_lastLog = error->log;
        releaseRunner();
        emit failed(tr("%1 did not compile: %2").arg(m_stageTitle, error->message));
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

QString CompileJob::builtArchitecture(StageId stage, const QString &arch)
{
    const StageInfo &info = stageInfo(stage);
    bool ok = false;
    const int number = arch.startsWith(QLatin1String("sm_")) ? arch.mid(3).toInt(&ok) : 0;
    if (!ok || info.isLibrary)
        return arch;
    return QString::fromStdString(nvrtcArchitecture(info, number));
}

QString CompileJob::smemText(int staticBytes, int dynamicBytes)
{
    const int total = staticBytes + dynamicBytes;
    const QString amount = total < 1024 ? tr("%1 B").arg(total) : tr("%1 KiB").arg(total / 1024.0, 0, 'f', 1);
    if (dynamicBytes <= 0)
        return total < 1024 ? amount : tr("%1 (%2 B)").arg(amount).arg(total);
    return tr("%1 (%2 B static + %3 B dynamic)").arg(amount).arg(staticBytes).arg(dynamicBytes);
}

QString CompileJob::limiterText(const protocol::OccupancyInfo &occupancy)
{
    // The calculator's sentence names every resource that binds ("shared memory (197696 bytes per
    // block) and registers (168 per thread)"): quote it rather than the one `limiter` word.
    static const QString by = QStringLiteral(", limited by ");
    const bool calculators =
        occupancy.limiter != OccupancyLimiter::None && occupancy.limiter != OccupancyLimiter::Requested;
    if (const qsizetype at = occupancy.explanation.lastIndexOf(by); calculators && at >= 0)
        return tr("limited by %1").arg(occupancy.explanation.mid(at + by.size()));
    if (occupancy.limiter == OccupancyLimiter::None)
        return tr("as the CUDA runtime computes it");
    return tr("limited by %1").arg(limiterWords(occupancy.limiter));
}

QString CompileJob::summary(const protocol::CompiledInfo &c)
{
    const QString spills =
        c.spillStoreBytes + c.spillLoadBytes == 0
            ? tr("no spills")
            : tr("spills %1 B stored, %2 B loaded").arg(c.spillStoreBytes).arg(c.spillLoadBytes);
    // The architecture as built: "sm_90a" for the stages that use wgmma and TMA.
    QString text = tr("%1: %2 registers per thread, %3, %4 shared memory per block")
                       .arg(c.arch)
                       .arg(c.registers)
                       .arg(spills, smemText(c.staticSmemBytes, c.dynamicSmemBytes));
    if (c.occupancy)
        text += tr("; %n block(s) per SM, %1 % occupancy (%2)", nullptr, c.occupancy->blocksPerSm)
                    .arg(c.occupancy->fraction * 100, 0, 'f', 0)
                    .arg(limiterText(*c.occupancy));
    else if (!c.occupancyNote.isEmpty())
        text += QStringLiteral("; ") + c.occupancyNote;
    else
        text += tr("; no occupancy: GemmScope has no datasheet for this architecture");
    return text;
}

} // namespace gemmscope
