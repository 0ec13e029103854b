// Colours shared by every chart and diagram, so a stage or a warp has one colour everywhere.
#pragma once

#include <QColor>
#include <QString>

namespace gemmscope {

QColor stageColor(const QString &stageKey); // the catalog entry's colour; cuBLAS in greys
QColor warpColor(int warpIndex);            // a qualitative palette that cycles every 16 warps
QColor wrongResultColor();                  // runs that failed verification or errored

} // namespace gemmscope
