#include "plot_theme.h"

#include "stage_catalog.h"

#include <array>

namespace gemmscope {

QColor stageColor(const QString &stageKey)
{
    if (const StageInfo *stage = findStage(stageKey.toStdString()))
        return QColor::fromRgb(QRgb(stage->color));
    return QColor(0x8c, 0x56, 0x4b); // a run recorded with a stage this build does not know
}

QColor warpColor(int warpIndex)
{
    // Tableau 20, alternating dark and light so neighbouring warps differ clearly.
    static const std::array<QColor, 16> palette = {
        QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
        QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
        QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
        QColor(0x17, 0xbe, 0xcf), QColor(0xae, 0xc7, 0xe8), QColor(0xff, 0xbb, 0x78),
        QColor(0x98, 0xdf, 0x8a), QColor(0xff, 0x98, 0x96), QColor(0xc5, 0xb0, 0xd5),
        QColor(0xc4, 0x9c, 0x94),
    };
    return palette[std::size_t(((warpIndex % 16) + 16) % 16)];
}

QColor wrongResultColor()
{
    return QColor(0xd6, 0x27, 0x28);
}

} // namespace gemmscope
