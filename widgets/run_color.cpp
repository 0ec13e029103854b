#include "run_color.h"

#include "plot_theme.h"
#include "stage_catalog.h"

#include <QHash>
#include <algorithm>
#include <array>

namespace gemmscope {

int presetShade(const RunRecord &run)
{
    return presetShade(run.stage, run.presetKey);
}

int presetShade(const StageId &stage, const QString &presetKey)
{
    // A preset's place among its stage's presets, by preset key, made once: a search wrote each
    // catalog key as text for every run drawn.
    static const QHash<QString, std::pair<StageId, int>> shades = [] {
        QHash<QString, std::pair<StageId, int>> out;
        QHash<QString, int> countOfStage;
        for (const Preset &preset : presets())
            if (const QString key = QString::fromStdString(preset.key); !out.contains(key))
                out.insert(key, {preset.stage, countOfStage[stageKeyText(preset.stage)]++});
        return out;
    }();
    if (presetKey.isEmpty())
        return 0;
    const auto found = shades.constFind(presetKey);
    return found != shades.cend() && found->first == stage ? found->second : 0;
}

QColor shadedStageColor(const QString &stageKey, int shade)
{
    const QColor base = stageColor(stageKey);
    if (shade <= 0)
        return base;
    // Lighter, darker, much lighter, much darker: each neighbour differs from the one before by a
    // step the eye tells at a bar's size, and every shade keeps the stage's hue.
    static constexpr std::array<double, 4> kLightness{0.17, -0.15, 0.30, -0.27};
    float h = 0, s = 0, l = 0, a = 1;
    base.getHslF(&h, &s, &l, &a);
    const double shifted = std::clamp(l + kLightness[std::size_t(shade - 1) % kLightness.size()], 0.16, 0.88);
    return QColor::fromHslF(h, s, float(shifted), a);
}

QColor runColor(const RunRecord &run)
{
    return presetColor(run.stage, run.presetKey);
}

QColor presetColor(const StageId &stage, const QString &presetKey)
{
    return shadedStageColor(stageKeyText(stage), presetShade(stage, presetKey));
}

} // namespace gemmscope
