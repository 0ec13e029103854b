#include "runtime_scene.h"

#include "chart_text.h"
#include "plot_theme.h"
#include "run_color.h"

#include <QMap>
#include <algorithm>

namespace gemmscope::runtime_scene {

QList<LegendEntry> legendEntries(const LegendInputs &in)
{
    QList<LegendEntry> entries;
    QMap<LadderGroup, QList<QPair<QPair<int, int>, QColor>>> stagesOf; // by (rank, shade)
    for (qsizetype i = 0; i < in.stagesDrawn.size(); ++i) {
        const QString &stage = in.stagesDrawn[i];
        const int shade = in.shadesDrawn.value(i, 0);
        stagesOf[ladderGroupOf(stage)]
            << qMakePair(qMakePair(stageRank(stage), shade), shadedStageColor(stage, shade));
    }
    for (auto it = stagesOf.begin(); it != stagesOf.end(); ++it) {
        std::stable_sort(it->begin(), it->end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        LegendEntry entry{ladderGroupName(it.key()), LegendIcon::Stripes, {}, {}};
        QStringList names;
        for (const auto &[rank, color] : std::as_const(*it))
            if (!entry.colors.contains(color)) {
                entry.colors << color;
                names << color.name();
            }
        entry.look = names.join(QLatin1Char(' '));
        entries << entry;
    }
    if (in.publishedDrawn)
        entries << LegendEntry{
            QStringLiteral("T4, published (worklog)"), LegendIcon::Hatched, {QColor(0x70, 0x70, 0x70)}, {}};
    if (in.publishedDrawn || !in.stagesDrawn.isEmpty())
        entries << LegendEntry{QStringLiteral("whisker: p20–p80"), LegendIcon::Whisker, {}, {}};
    if (!in.referenceText.isEmpty())
        entries << LegendEntry{in.referenceText, LegendIcon::Reference, {}, {}};
    // What " (noisy)" beside a number means, whenever one is there.
    if (in.anyNotSteady)
        entries << LegendEntry{
            QStringLiteral("(noisy) etc.: not steady"), LegendIcon::NotSteadyDot, {}, QStringLiteral("mark")};
    if (in.anyFailed)
        entries << LegendEntry{QStringLiteral("\u2715 failed: no time"), LegendIcon::Failed, {}, {}};
    if (in.selectionShown)
        entries << LegendEntry{QStringLiteral("selected run"), LegendIcon::Selection, {}, {}};
    return entries;
}

std::optional<ReferenceMark> referenceMark(const QList<RunRecord> &plotted, RuntimeValue mode)
{
    const std::optional<RunRecord> cublas = cublasFp32Reference(plotted);
    if (!cublas)
        return std::nullopt;
    const double value = mode == RuntimeValue::Milliseconds
                             ? cublas->medianMs
                             : (cublas->tflops > 0 ? cublas->tflops : tflopsAt(*cublas, cublas->medianMs));
    return ReferenceMark{
        value, QStringLiteral("cuBLAS FP32: %1")
                   .arg(mode == RuntimeValue::Milliseconds ? formatMs(value) : formatTflops(value))};
}

} // namespace gemmscope::runtime_scene
