#include "chart_text.h"

#include "trust_mark.h"

#include "plain_text.h"
#include "stage_catalog.h"
#include "stage_names.h"

#include <QStringList>
#include <cmath>

namespace gemmscope {

namespace {

// Three significant digits without scientific notation for the ranges a GEMM lives in.
QString threeDigits(double v)
{
    if (v == 0 || !std::isfinite(v))
        return QString::number(v);
    const double magnitude = std::floor(std::log10(std::abs(v)));
    const int decimals = std::max(0, 2 - int(magnitude));
    return QString::number(v, 'f', decimals);
}

} // namespace

QString formatMs(double ms)
{
    return threeDigits(ms) + QStringLiteral(" ms");
}

QString formatTflops(double tflops)
{
    return threeDigits(tflops) + QStringLiteral(" TFLOP/s");
}

QString formatGflops(double tflops)
{
    return threeDigits(tflops * 1e3) + QStringLiteral(" GFLOP/s");
}

QString formatRunSize(const RunRecord &run)
{
    return run.sizeText();
}

QString runTitle(const RunRecord &run)
{
    QString title = runNameText(run); // as the tables' Stage and Stage name columns: one name
    if (run.origin == QLatin1String("worklog"))
        return title + QStringLiteral(", published T4 figure");
    if (!run.runId.isEmpty())
        title += QStringLiteral(", run %1").arg(run.runId);
    return title;
}

QString comparabilityMark(const RunRecord &run)
{
    if (!run.isOk() || !run.conditions)
        return {};
    const TrustMark mark = trustOf(run);
    if (mark.level == TrustLevel::Throttled || mark.level == TrustLevel::Noisy)
        return QStringLiteral(" (%1)").arg(mark.word);
    if (run.conditions->regime == protocol::TimingRegime::Sustained)
        return QStringLiteral(" (sustained)");
    return {};
}

QString runTooltip(const RunRecord &run)
{
    QStringList lines{runTitle(run)};
    const QString params = formatRunParams(run);
    if (!params.isEmpty())
        lines << params;
    if (run.m > 0)
        lines << QStringLiteral("Problem size, M x N x K: %1").arg(formatRunSize(run));
    if (run.status == RunStatus::Ok) {
        if (run.origin == QLatin1String("worklog"))
            lines << QStringLiteral("%1, published in the worklog (one number: no spread, no repetitions)")
                         .arg(formatMs(run.medianMs));
        else if (run.count <= 0)
            lines << QStringLiteral("median %1 (no spread recorded)").arg(formatMs(run.medianMs));
        else
            lines << QStringLiteral("median %1 (p20 %2, p80 %3, %4 timed)")
                         .arg(formatMs(run.medianMs), formatMs(run.p20Ms), formatMs(run.p80Ms))
                         .arg(run.count);
        lines << formatTflops(run.tflops);
        lines << trustOf(run).reason; // how steady the GPU was, or why that is unknown
        if (run.relError)
            lines << QStringLiteral("relative error %1 (tolerance %2)")
                         .arg(*run.relError, 0, 'g', 2)
                         .arg(run.tolerance, 0, 'g', 2);
    } else if (run.status == RunStatus::Failed) {
        lines << QStringLiteral("failed (%1): %2").arg(run.errorKind, run.errorMessage);
    } else {
        lines << (run.status == RunStatus::Queued ? QStringLiteral("queued") : QStringLiteral("running"));
    }
    if (!run.gpuName.isEmpty())
        lines << QStringLiteral("on %1 (%2)").arg(run.gpuName, run.origin);
    return lines.join(QLatin1Char('\n'));
}

QString plainTooltip(const QString &text)
{
    return plainTextAsHtml(text);
}

} // namespace gemmscope
