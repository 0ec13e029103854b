// What the runtime chart's source files share: its bars' sizes and colours, when it turns
// logarithmic and stops labelling every bar, and how a value is written beside a bar.
#pragma once

#include "run_record.h"
#include "runtime_marks.h"

#include <QColor>
#include <QList>
#include <QString>
#include <qcustomplot.h>

namespace gemmscope::runtime_chart_style {

inline constexpr double kBarWidth = 0.7;
inline constexpr double kSelectionBarWidth = kBarWidth + 0.12; // the selected run's frame, around its bar
inline constexpr double kRowRangePad = 0.3; // rows of room over the first and under the last
inline constexpr int kValueLabelGapPx = 7;  // from the end of a bar or its whisker to its value
inline constexpr int kReferenceGapPx = 3;   // the cuBLAS line's gap either side of a text it would cross
inline constexpr double kSpeedupBarWidth = 0.42;
inline const QColor kPublishedColor(0x7f, 0x7f, 0x7f);
inline const QColor kMeasuredColor(0x1f, 0x77, 0xb4);
inline const QColor kSelectionColor(0x10, 0x10, 0x10);
using runtime_scene::kMaxLabelledBars;

// View combo entries, in order.
enum ViewEntry { ViewMs, ViewTflops, ViewSpeedup };

// The GPU the measured runs came from, for the title ("this GPU" means nothing in an export).
inline QString measuredGpuName(const QList<RunRecord> &runs)
{
    for (auto it = runs.crbegin(); it != runs.crend(); ++it)
        if (it->origin != QLatin1String("worklog") && !it->gpuName.isEmpty())
            return it->gpuName;
    return QString();
}

inline QCPItemText *barValueLabel(QCustomPlot *plot, double key, double value, const QString &text,
                                  const QColor &color, const QFont &font)
{
    auto *label = new QCPItemText(plot);
    label->position->setAxes(plot->xAxis, plot->yAxis);
    label->position->setCoords(value, key);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Clear of the whisker's end cap, which ends at the same value: at 3 px the cap and the first
    // digit read as one glyph ("⊣0.508 ms").
    label->setPadding(QMargins(kValueLabelGapPx, 0, 1, 0));
    label->setText(text);
    label->setColor(color);
    label->setFont(font);
    return label;
}

} // namespace gemmscope::runtime_chart_style
