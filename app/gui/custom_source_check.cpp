#include "custom_source_check.h"

#include <QString>

namespace gemmscope {

#if GEMMSCOPE_CUSTOM_STAGE_PARSER
SourceCheck customSourceCheck()
{
    return [](const CustomKernelSource &source) {
        QList<KernelProblem> problems;
        const QString file = QString::fromStdString(source.fileName);
        const auto add = [&](const std::vector<SourceProblem> &found) {
            for (const SourceProblem &p : found) {
                const KernelProblem problem{.file = file,
                                            .line = p.line,
                                            .message = QString::fromStdString(p.message),
                                            .severity = KernelProblem::Severity::Error};
                if (!problems.contains(problem))
                    problems.append(problem);
            }
        };
        add(sourceProblems(source.text));
        add(parseCustomStage(source).problems);
        return problems;
    };
}
#else
SourceCheck customSourceCheck()
{
    return {};
}
#endif

} // namespace gemmscope
