// What the tile map's files share (tile_map_view.cpp and the files that draw, key and hit-test it):
// its colours and the cell sizes at which it draws more. Internal to the tile map.
#pragma once

#include "layout_scheme.h"
#include "load_scheme.h"
#include "mapping_model.h"

#include <QColor>
#include <algorithm>

namespace gemmscope::tile_map {

inline constexpr double kKeyHeight = 22;           // the warp-colour key under the panels
inline constexpr double kWarpOutlineCellPx = 4;    // below this cell size warps are outlined and named
inline constexpr double kFragmentGridCellPx = 3;   // m16n8 tile outlines from this cell size
inline constexpr double kFragmentLabelCellPx = 26; // "l31 c3" fits a cell from here

inline QColor faded(const QColor &c)
{
    // Towards white, so the selected thread's cells stand out without losing the warp pattern.
    return QColor((c.red() + 2 * 255) / 3, (c.green() + 2 * 255) / 3, (c.blue() + 2 * 255) / 3);
}

inline bool isRegisterTiled(const KernelShape &s)
{
    // One output per thread has no micro-tile to lay out; tensor-core layouts have no
    // contiguous/strided counterpart to compare with.
    return !loadSchemeOf(s).onePerThread() && !layoutSchemeOf(s).tensorCore();
}

// What a colour stands for: the warp, or for wgmma the warpgroup (its unit of work).
inline int colourUnit(const KernelShape &s, int tid)
{
    return tid / layoutSchemeOf(s).colourUnitThreads();
}

// The PTX figures' register colours for the A and B fragments (a0..a3, b0, b1).
inline QColor registerColor(int reg)
{
    static const QColor colors[] = {QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xb07aa1)};
    return colors[std::clamp(reg, 0, 3)];
}

} // namespace gemmscope::tile_map
