#include "kernel_option.h"

#include "custom_stage.h"
#include "file_read.h"

#include <QFileInfo>
#include <QStringList>

namespace gemmscope::bench {

std::optional<KernelTarget> registerKernelFile(const QString &path, QString *error)
{
    const FileBytes file = readRegularFile(path, qint64(kMaxKernelSourceBytes));
    if (!file.bytes) {
        *error = QStringLiteral("--kernel: ") + file.error;
        return std::nullopt;
    }
    const QString fileName = QFileInfo(path).fileName();
    const CustomStageParse parsed =
        registerCustomKernel({file.bytes->toStdString(), fileName.toStdString(), {}});
    if (!parsed.stage) {
        *error = QString::fromStdString(describeSourceProblems(fileName.toStdString(), parsed.problems));
        return std::nullopt;
    }
    return KernelTarget{QString::fromStdString(parsed.stage->key),
                        QString::fromStdString(parsed.stage->title), defaultParams(parsed.stage->id),
                        parsed.stage->precision};
}

std::optional<ParamValues> kernelParams(const StageInfo &stage, const QString &text, const ProblemSize &size,
                                        QString *error)
{
    ParamValues params = defaultParams(stage.id);
    for (const QString &pair : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList kv = pair.split(QLatin1Char('='));
        bool ok = false;
        const int value = kv.size() == 2 ? kv[1].trimmed().toInt(&ok) : 0;
        if (!ok) {
            *error =
                QStringLiteral("--params takes NAME=value pairs of whole numbers separated by commas, not "
                               "\"%1\".")
                    .arg(pair);
            return std::nullopt;
        }
        params[kv[0].trimmed().toStdString()] = value;
    }
    if (const std::vector<std::string> reasons = violations(stage.id, params, size); !reasons.empty()) {
        QStringList sentences;
        for (const std::string &r : reasons)
            sentences << QString::fromStdString(r);
        *error = QStringLiteral("--params %1: %2")
                     .arg(QString::fromStdString(formatParams(params)), sentences.join(QLatin1Char(' ')));
        return std::nullopt;
    }
    return params;
}

} // namespace gemmscope::bench
