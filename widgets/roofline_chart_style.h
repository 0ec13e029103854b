// What the roofline chart's source files share: the key of "Auto", how a level's run markers look.
#pragma once

#include "roofline_roofs.h"

#include <qcustomplot.h>

namespace gemmscope {

inline const QString kMeasuredKey = QStringLiteral("measured"); // the GPU key of "Auto"
inline const char *const kWorklogCheckTip = "Show the worklog's published results: its steps as timed on a "
                                            "Tesla T4, against the T4's roofs.";

inline QString upperKey(const std::string &key)
{
    return QString::fromStdString(key).toUpper();
}

inline constexpr MemoryLevel kLevels[] = {MemoryLevel::L2, MemoryLevel::L1Shared};

// Each level's run marker: the DRAM one is the diamond; L2 a triangle, L1/shared one upside down.
inline QCPScatterStyle::ScatterShape levelShape(MemoryLevel level)
{
    return level == MemoryLevel::L2 ? QCPScatterStyle::ssTriangle : QCPScatterStyle::ssTriangleInverted;
}

} // namespace gemmscope
