#include "stage_program.h"

#include "custom_stage.h"
#include "runner_error.h"
#include "values.h"

#include <QStringList>

namespace gemmscope::runner {

namespace {

void registerKernel(const QString &key, const protocol::KernelSource &kernel)
{
    const std::string text = kernel.sourceText.toStdString();
    const QString fileName = kernel.fileName.isEmpty() ? QStringLiteral("kernel.cuh") : kernel.fileName;
    if (const QString textKey = QString::fromStdString(customStageKey(text)); textKey != key)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("The kernel %1 sent with stage \"%2\" is not that stage's text (its "
                                         "text is stage \"%3\"); the request is inconsistent.")
                              .arg(fileName, key, textKey));
    const CustomStageParse parsed =
        registerCustomKernel({text, fileName.toStdString(), kernel.derivedFrom.toStdString()});
    if (!parsed.stage)
        throw RunnerError(ErrorKind::InvalidConfig, QString::fromStdString(describeSourceProblems(
                                                        fileName.toStdString(), parsed.problems)));
}

} // namespace

const StageInfo &requireStage(const QString &key, const std::optional<protocol::KernelSource> &kernel)
{
    if (kernel)
        registerKernel(key, *kernel);
    if (const StageInfo *stage = findStage(key.toStdString()))
        return *stage;
    if (isCustomStageKey(key.toStdString()))
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("Stage \"%1\" is a user's kernel this runner has not seen: the request "
                           "must carry its source (\"kernel\").")
                .arg(key));
    QStringList known;
    for (const StageInfo &s : stages())
        known << QString::fromStdString(s.key);
    throw RunnerError(ErrorKind::InvalidConfig, QStringLiteral("Unknown stage \"%1\"; the catalog knows: %2.")
                                                    .arg(key, known.join(QStringLiteral(", "))));
}

void requireValidConfig(const StageInfo &stage, const ParamValues &params, const ProblemSize &size, int arch)
{
    QStringList reasons;
    for (const std::string &reason : violations(stage.id, params, size))
        reasons << QString::fromStdString(reason);
    if (arch > 0)
        if (const std::string why = archViolation(stage, arch); !why.empty())
            reasons << QString::fromStdString(why);
    if (reasons.isEmpty())
        return;
    for (QString &r : reasons)
        if (!r.endsWith(QLatin1Char('.')))
            r += QLatin1Char('.');
    throw RunnerError(ErrorKind::InvalidConfig, reasons.join(QLatin1Char(' ')));
}

StageBuild stageBuild(const QString &name)
{
    switch (name.isEmpty() ? protocol::BuildKind::Release : protocol::buildKindFromName(name)) {
    case protocol::BuildKind::Release:
        return StageBuild::Release;
    case protocol::BuildKind::ScalarShared:
        return StageBuild::ScalarShared;
    case protocol::BuildKind::Unknown:
        break;
    }
    throw RunnerError(ErrorKind::InvalidConfig,
                      QStringLiteral("Unknown build \"%1\"; known: %2.")
                          .arg(name, protocol::buildKindNames().join(QStringLiteral(", "))));
}

NvrtcProgram transposeProgram(int arch)
{
    NvrtcProgram program;
    program.programName = QStringLiteral("transpose_b.cu");
    program.mainSource = QByteArray("#include \"transpose.cuh\"\n");
    program.nameExpression = QStringLiteral("gemmscope::transpose_b");
    program.arch = arch;
    return program;
}

NvrtcProgram stageProgram(const StageInfo &stage, const ParamValues &params, int arch, StageBuild build,
                          bool withLineInfo)
{
    NvrtcProgram program;
    if (stage.isCustom) {
        // Checked again here: a stage registered from a StageInfo never went through the parser.
        if (const auto problems = sourceProblems(stage.sourceText); !problems.empty())
            throw RunnerError(ErrorKind::InvalidConfig,
                              QString::fromStdString(describeSourceProblems(stage.sourceFile, problems)));
        program.programName = QString::fromStdString(stage.sourceFile);
        program.mainSource = QByteArray::fromStdString(stage.sourceText);
        program.userSource = true;
    } else {
        program.programName = QString::fromStdString(stage.key) + QStringLiteral(".cu");
        program.mainSource = QByteArray("#include \"") + QByteArray::fromStdString(stage.sourceFile) + "\"\n";
    }
    program.nameExpression = QString::fromStdString(kernelNameExpression(stage.id, params));
    program.arch = arch;
    program.archSpecific = stage.archSpecific;
    for (const std::string &option : stage.compileOptions)
        program.extraOptions << QString::fromStdString(option);
    if (build == StageBuild::TraceOwner)
        program.extraOptions << QStringLiteral("-DGEMMSCOPE_TRACE_OWNER=1");
    if (build == StageBuild::ScalarShared)
        program.extraOptions << QStringLiteral("-DGEMMSCOPE_SCALAR_SHARED=1");
    if (withLineInfo) {
        program.extraOptions << QStringLiteral("-lineinfo");
        program.needPtx = true;
    }
    return program;
}

} // namespace gemmscope::runner
