#include "run_color.h"

#include "plot_theme.h"
#include "stage_catalog.h"

#include <algorithm>
#include <array>

namespace gemmscope {

int presetShade(const RunRecord &run)
{
    if (run.presetKey.isEmpty())
        return 0;
    int index = 0;
    for (const Preset &preset : presets()) {
        if (stageKeyText(preset.stage) != run.stageKey())
            continue;
        if (QString::fromStdString(preset.key) == run.presetKey)
            return index;
        ++index;
    }
    return 0;
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
    return shadedStageColor(run.stageKey(), presetShade(run));
}

} // namespace gemmscope
