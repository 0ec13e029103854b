// The `disassemble` job: a stage instantiation's PTX (from NVRTC) and SASS (from the toolkit's
// nvdisasm, where it is installed), both carrying source lines (-lineinfo). Like `compile` it
// needs no GPU. The SASS is of exactly the CUBIN the runner would load, built with -lineinfo
// (which changes no instruction; it only adds the line table).
#include "events.h"
#include "job_context.h"
#include "runner_error.h"
#include "runner_state.h"
#include "stage_compile.h"
#include "stage_program.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>

namespace gemmscope::runner {

namespace {

// nvdisasm from $GEMMSCOPE_NVDISASM, PATH, or the toolkit's usual place; empty when none.
QString findNvdisasm()
{
    const QString fromEnv = qEnvironmentVariable("GEMMSCOPE_NVDISASM");
    if (!fromEnv.isEmpty())
        return QFileInfo(fromEnv).isExecutable() ? fromEnv : QString();
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("nvdisasm"));
    if (!onPath.isEmpty())
        return onPath;
    const QString toolkit = QStringLiteral("/usr/local/cuda/bin/nvdisasm");
    return QFileInfo(toolkit).isExecutable() ? toolkit : QString();
}

struct Sass {
    QString text;
    QString tool;
    QString unavailable; // why there is no SASS, when text is empty
};

Sass disassemble(const QByteArray &cubin)
{
    Sass sass;
    sass.tool = findNvdisasm();
    if (sass.tool.isEmpty()) {
        sass.unavailable = QStringLiteral(
            "No SASS: nvdisasm is not installed with this CUDA Toolkit (set GEMMSCOPE_NVDISASM to its path). "
            "The PTX is shown instead.");
        return sass;
    }
    QTemporaryFile file(QDir::tempPath() + QStringLiteral("/gemmscope-XXXXXX.cubin"));
    if (!file.open() || file.write(cubin) != cubin.size() || !file.flush()) {
        sass.unavailable = QStringLiteral("No SASS: the CUBIN could not be written to a temporary file.");
        return sass;
    }
    QProcess nvdisasm;
    // -c: code sections only; -g: the source line of every instruction (from -lineinfo).
    nvdisasm.start(sass.tool, {QStringLiteral("-c"), QStringLiteral("-g"), file.fileName()});
    if (!nvdisasm.waitForFinished(60000) || nvdisasm.exitStatus() != QProcess::NormalExit ||
        nvdisasm.exitCode() != 0) {
        nvdisasm.kill();
        sass.unavailable = QStringLiteral("No SASS: %1 failed (%2).")
                               .arg(sass.tool, QString::fromUtf8(nvdisasm.readAllStandardError()).trimmed());
        return sass;
    }
    sass.text = QString::fromUtf8(nvdisasm.readAllStandardOutput());
    return sass;
}

} // namespace

void runDisassembleJob(RunnerState &state, const protocol::DisassembleJob &request, JobContext &job)
{
    const CompileTarget target = compileTarget(state, request);
    const CompiledKernel kernel =
        compileStage(state, *target.stage, target.params, target.arch, target.build, job, true);
    protocol::DisassemblyEvent event;
    event.id = job.id();
    event.stage = QString::fromStdString(target.stage->key);
    event.kernel = kernel.nameExpression;
    event.arch = QString::fromStdString(nvrtcArchitecture(*target.stage, target.arch)); // sm_90a for wgmma
    event.params = target.params;
    event.ptx = QString::fromUtf8(kernel.ptx);
    job.progress(QStringLiteral("disassemble"), 0, 1);
    const Sass sass = disassemble(kernel.cubin);
    job.progress(QStringLiteral("disassemble"), 1, 1);
    if (sass.text.isEmpty()) {
        event.sassUnavailable = sass.unavailable; // "sass": null
    } else {
        event.sass = sass.text;
        event.sassTool = sass.tool;
    }
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
