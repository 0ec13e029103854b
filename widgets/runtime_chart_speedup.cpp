// The runtime chart's second mode: the worklog's published T4 speedups over the naive kernel beside
// this GPU's measured ones.
#include "chart_layout.h"
#include "chart_text.h"
#include "help_text_color.h"
#include "plot_theme.h"
#include "runtime_chart.h"
#include "runtime_chart_style.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

using namespace runtime_chart_style;

void RuntimeChart::buildSpeedup()
{
    const QList<RunRecord> runs = plottedRuns();
    m_speedups = speedupOverNaive(runs);
    const QString gpu = measuredGpuName(runs);
    const QList<RunGroup> groupList = runGroups(runs);
    // The title names the runs the selector chose: their GPU and size (or "no measured run").
    QString measuredWhat = gpu.isEmpty() ? QStringLiteral("no measured run") : gpu;
    for (const RunGroup &g : groupList)
        if (!m_groupKey.isEmpty() && g.key() == m_groupKey)
            measuredWhat = g.label();
    m_fullTitle = QStringLiteral("Speedup over naive: T4 (worklog) vs %1").arg(measuredWhat);

    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->yAxis->setLabel(QStringLiteral("stage"));
    m_plot->yAxis->setRange(-0.5 - kRowRangePad,
                            std::max<qsizetype>(m_speedups.size(), 1) - 0.5 + kRowRangePad);

    // One row a step: the worklog's T4 speedup as a wide pale bar, this GPU's as a narrow one on
    // it, and one label right of the longer of the two (never over a bar).
    m_publishedBars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_publishedBars->setName(QStringLiteral("T4, published in the worklog"));
    m_publishedBars->setBrush(QBrush(kPublishedColor.lighter(160)));
    m_publishedBars->setPen(QPen(kPublishedColor));
    m_publishedBars->setWidth(kBarWidth + 0.1);
    m_measuredBars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_measuredBars->setName(gpu.isEmpty() ? QStringLiteral("this GPU, measured")
                                          : gpu + QStringLiteral(", measured"));
    m_measuredBars->setBrush(QBrush(kMeasuredColor.lighter(130)));
    m_measuredBars->setPen(QPen(kMeasuredColor.darker(120)));
    m_measuredBars->setWidth(kSpeedupBarWidth);

    const runtime_scene::SpeedupMarks marks = runtime_scene::speedupMarks(m_speedups);
    m_keyLabels = marks.keyLabels;
    m_keyLongLabels = marks.longLabels;
    const QFont valueFont(font().family(), 8);
    QList<QCPItemText *> rowLabels;
    for (int i = 0; i < m_speedups.size(); ++i) {
        const SpeedupRow &row = m_speedups[i];
        m_publishedBars->addData(i, row.publishedSpeedup);
        if (row.measuredSpeedup)
            m_measuredBars->addData(i, *row.measuredSpeedup);
        m_valueLabelRows << i;
        m_valueLabelMarks << marks.labels[i];
        rowLabels << barValueLabel(m_plot, i, marks.labels[i].end, marks.labels[i].text,
                                   kMeasuredColor.darker(160), valueFont);
        if (!m_printing && !row.measuredRunId.isEmpty() && row.measuredRunId == m_selectedRunId &&
            row.measuredSpeedup) {
            m_selectionBar = new QCPBars(m_plot->yAxis, m_plot->xAxis);
            m_selectionBar->removeFromLegend();
            m_selectionBar->setWidth(kSpeedupBarWidth + 0.08);
            m_selectionBar->setBrush(Qt::NoBrush);
            m_selectionBar->setPen(QPen(kSelectionColor, 2.5));
            m_selectionBar->addData(i, *row.measuredSpeedup);
        }
    }
    m_valueLabels = rowLabels;
    configureValueAxis(marks.extent.lowest, marks.extent.highest,
                       QStringLiteral("speedup over stage 0 (naive), x"));
    if (m_speedups.isEmpty()) {
        auto *hint = new QCPItemText(m_plot);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        hint->setText(QStringLiteral("The catalog has no presets with published T4 times."));
        hint->setColor(chartHintColor());
    }
}

} // namespace gemmscope
