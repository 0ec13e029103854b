// The runtime view's rows drawn one at a time: a run's bar and whisker (or its failure mark) added,
// moved and removed in place, the cuBLAS FP32 reference, the selection's frame, the value labels.
#include "chart_row_bars.h"
#include "chart_text.h"
#include "plot_theme.h"
#include "run_color.h"
#include "runtime_chart.h"
#include "runtime_chart_style.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

using namespace runtime_chart_style;

void RuntimeChart::addSlotMarks(int row)
{
    const RuntimeSlot &slot = m_slots[row];
    if (!slot.plotted)
        return; // its failure's mark: syncFailureMarks
    const bool published = slot.published;
    // One QCPBars per stage and preset shade: a stage's presets lie next to each other on the ladder,
    // and each bar wears its own shade of the stage's colour (run_color.h).
    const int shade = presetShade(*slot.run);
    const QString groupKey = slot.run->stageKey() + QLatin1Char('#') + QString::number(shade) +
                             (published ? QStringLiteral("|worklog") : QString());
    QCPBars *bars = m_barsByGroup.value(groupKey);
    if (!bars) {
        bars = new RowBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(stageTitleText(slot.run->stage) +
                      (published ? QStringLiteral(" (T4, worklog)") : QString()));
        bars->removeFromLegend(); // each bar is named on its axis; the legend names the groups
        bars->setWidth(kBarWidth);
        const QColor color = shadedStageColor(slot.run->stageKey(), shade);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(published ? QBrush(color, Qt::BDiagPattern) : QBrush(color.lighter(115)));
        auto *whisker = new RowWhiskers(m_plot->yAxis, m_plot->xAxis);
        whisker->removeFromLegend();
        whisker->setDataPlottable(bars);
        whisker->setPen(QPen(Qt::black, 1));
        whisker->setWhiskerWidth(6);
        whisker->setSymbolGap(0); // a bar has no scatter symbol to leave room for at its end
        m_barsByGroup.insert(groupKey, bars);
        m_runBars.append(bars);
        m_whiskers.append(whisker);
    }
    bars->addData(row, slot.value);
    // The whiskers are kept by index, parallel to the bars' data.
    const qsizetype at = bars->data()->findBegin(row, false) - bars->data()->constBegin();
    m_whiskers[m_runBars.indexOf(bars)]->data()->insert(
        at, QCPErrorBarsData(slot.value - slot.low, slot.high - slot.value));
}

void RuntimeChart::removeSlotMarks(int row)
{
    const RuntimeSlot &slot = m_slots[row];
    if (!slot.plotted)
        return; // its failure's mark: syncFailureMarks
    for (qsizetype b = 0; b < m_runBars.size(); ++b) {
        QCPBars *bars = m_runBars[b];
        const auto it = bars->data()->findBegin(row, false);
        if (it == bars->data()->constEnd() || it->key != row)
            continue;
        m_whiskers[b]->data()->remove(it - bars->data()->constBegin());
        bars->data()->remove(row);
        return;
    }
}

void RuntimeChart::shiftRows(int from, int by)
{
    // A run inserted into (or taken from) the ladder order moves the rows under it.
    for (QCPBars *bars : std::as_const(m_runBars))
        for (auto it = bars->data()->begin(); it != bars->data()->end(); ++it)
            if (it->key >= from)
                it->key += by;
}

void RuntimeChart::syncFailureMarks()
{
    // Each run with no time marked on its row, as runtime_marks.h says; the texts are reused.
    int selected = -1;
    if (!m_printing && !m_selectedRunId.isEmpty())
        selected = int(m_slots.rowOf(m_selectedRunId));
    const QList<runtime_scene::FailureMark> marks = runtime_scene::failureMarks(m_slots, selected);
    while (m_failureMarkers.size() > marks.size())
        m_plot->removeItem(m_failureMarkers.takeLast());
    while (m_failureMarkers.size() < marks.size()) {
        auto *marker = new QCPItemText(m_plot);
        marker->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        marker->position->setTypeY(QCPItemPosition::ptPlotCoords);
        marker->position->setAxes(m_plot->xAxis, m_plot->yAxis);
        marker->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        marker->setPadding(QMargins(4, 0, 2, 0));
        marker->setColor(wrongResultColor());
        marker->setFont(QFont(font().family(), 8, QFont::Bold));
        m_failureMarkers.append(marker);
    }
    for (qsizetype i = 0; i < marks.size(); ++i) {
        QCPItemText *marker = m_failureMarkers[i];
        marker->position->setCoords(0.0, marks[i].row);
        marker->setText(marks[i].text);
        marker->setProperty("runId", marks[i].runId);
        marker->setPen(marks[i].selected ? QPen(kSelectionColor, 2) : QPen(Qt::NoPen));
    }
}

void RuntimeChart::updateReference()
{
    // The latest cuBLAS FP32 run of the plotted ones (the few cuBLAS runs, not every run, are copied).
    QList<RunRecord> cublasRuns;
    for (qsizetype row = 0; row < m_slots.size(); ++row)
        if (m_slots[row].run->stage == StageId::CublasFp32)
            cublasRuns << *m_slots[row].run;
    const std::optional<runtime_scene::ReferenceMark> reference =
        runtime_scene::referenceMark(cublasRuns, m_valueMode);
    if (!reference) {
        if (m_referenceLine)
            m_plot->removeItem(m_referenceLine);
        m_referenceLine = nullptr;
        m_referenceValue.reset();
        return;
    }
    const double value = reference->value;
    if (!m_referenceLine) {
        m_referenceLine = new GappedStraightLine(m_plot);
        m_referenceLine->setGaps([this](const QLineF &line) { return referenceGaps(line); });
        m_referenceLine->point1->setAxes(m_plot->xAxis, m_plot->yAxis);
        m_referenceLine->point2->setAxes(m_plot->xAxis, m_plot->yAxis);
        m_referenceLine->setPen(QPen(stageColor(stageKeyText(StageId::CublasFp32)), 1.5, Qt::DashLine));
    }
    m_referenceValue = value;
    m_referenceLine->point1->setCoords(value, 0);
    m_referenceLine->point2->setCoords(value, 1);
    m_referenceText = reference->text;
}

void RuntimeChart::updateSelectionMarks()
{
    int selected = -1;
    if (!m_printing && !m_selectedRunId.isEmpty())
        selected = int(m_slots.rowOf(m_selectedRunId));
    if (selected >= 0 && m_slots[selected].plotted) {
        if (!m_selectionBar) {
            m_selectionBar = new QCPBars(m_plot->yAxis, m_plot->xAxis);
            m_selectionBar->setName(QStringLiteral("selected"));
            m_selectionBar->removeFromLegend();
            m_selectionBar->setWidth(kSelectionBarWidth);
            m_selectionBar->setBrush(Qt::NoBrush);
            m_selectionBar->setPen(QPen(kSelectionColor, 2.5));
        }
        m_selectionBar->data()->clear();
        m_selectionBar->addData(selected, m_slots[selected].value);
    } else if (m_selectionBar) {
        m_plot->removePlottable(m_selectionBar);
        m_selectionBar = nullptr;
    }
    syncFailureMarks();
}

void RuntimeChart::placeValueLabels()
{
    if (m_mode != Mode::Runtime)
        return;
    // A value beside every named row (runtime_marks.h says which and what). Labels are reused: a
    // run arriving moves a few texts, it creates none.
    const QFont valueFont(font().family(), 8);
    qsizetype used = 0;
    m_valueLabels.clear();
    m_valueLabelRows.clear();
    m_valueLabelMarks.clear();
    for (const runtime_scene::ValueLabel &value :
         runtime_scene::valueLabels(m_slots, m_tickStride, m_valueMode)) {
        if (used == m_labelPool.size())
            m_labelPool << barValueLabel(m_plot, value.row, value.end, value.text, QColor(0x20, 0x20, 0x20),
                                         valueFont);
        QCPItemText *label = m_labelPool[used++];
        if (label->text() != value.text || label->position->coords() != QPointF(value.end, value.row)) {
            label->setText(value.text);
            label->position->setCoords(value.end, value.row);
            label->setVisible(true); // hideCrowdedLabels decides after the replot
        }
        m_valueLabels << label;
        m_valueLabelRows << value.row;
        m_valueLabelMarks << value;
    }
    for (qsizetype i = used; i < m_labelPool.size(); ++i)
        m_labelPool[i]->setVisible(false);
}

} // namespace gemmscope
