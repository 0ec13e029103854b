#include "runtime_chart.h"
#include "runtime_chart_style.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "chart_row_bars.h"
#include "chart_text.h"
#include "flow_legend.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "run_color.h"
#include "stage_catalog.h"
#include "turn_queue.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <qcustomplot.h>
#include <utility>

namespace gemmscope {

using namespace runtime_chart_style;

RuntimeChart::RuntimeChart(QWidget *parent)
    : PlotChart(parent), m_groupCombo(new QComboBox(this)), m_viewCombo(new QComboBox(this)),
      m_logCheck(new QCheckBox(tr("Log scale"), this))
{
    QHBoxLayout *controls = layOutControlsAbovePlot(QStringLiteral("runtimePlot"));
    m_groupCombo->setObjectName(QStringLiteral("runtimeGroupCombo"));
    m_groupCombo->setToolTip(tr("Which runs to plot: one GPU and problem size at a time keeps the bars "
                                "comparable; \"All runs\" mixes them (a log scale then)."));
    m_groupCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_groupCombo->setMinimumContentsLength(12);
    m_viewCombo->setObjectName(QStringLiteral("runtimeViewCombo"));
    m_viewCombo->addItems({tr("Median time (ms)"), tr("TFLOP/s"), tr("Speedup vs naive")});
    m_logCheck->setObjectName(QStringLiteral("runtimeLogCheck"));
    controls->addWidget(m_groupCombo);
    controls->addWidget(m_viewCombo);
    controls->addWidget(m_logCheck);
    controls->addStretch(1);
    useFlowLegend(m_plot); // under the bars, its entries in as few rows as they fit
    placeLegendBeside(m_plot, font());
    m_legendColumn = qobject_cast<QCPLayoutGrid *>(m_plot->legend->layout());
    // Bars lie along the left axis, in ladder order from the top; values run along the bottom.
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->setTickLabelFont(QFont(font().family(), 8));
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLabelFont(QFont(font().family(), 8));
    connectInteraction(
        [this](const QPointF &pixel) {
            return ChartInteraction::Hit{runIdAt(pixel), tooltipAt(pixel)};
        },
        [this](QMenu &menu) { fillContextMenu(menu); });
    // Value labels that would overprint a neighbour hide (the tooltip still gives the value). A
    // replot from inside afterReplot is ignored by QCustomPlot, so the new frame is queued.
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (hideCrowdedLabels())
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_groupCombo, &QComboBox::activated, this,
            [this](int index) { setGroupFilter(m_groupCombo->itemData(index).toString()); });
    connect(m_viewCombo, &QComboBox::activated, this, [this](int index) {
        if (index == ViewSpeedup) {
            setMode(Mode::Speedup);
            return;
        }
        m_valueMode = index == ViewTflops ? RuntimeValue::Tflops : RuntimeValue::Milliseconds;
        m_mode = Mode::Runtime;
        rebuild();
    });
    connect(m_logCheck, &QCheckBox::toggled, this, &RuntimeChart::setLogScale);
    updateGroupCombo();
    rebuild();
}

void RuntimeChart::fillContextMenu(QMenu &menu)
{
    addLegendToggle(menu);
    QAction *log = menu.addAction(tr("Log scale"));
    log->setCheckable(true);
    log->setChecked(m_logScale);
    connect(log, &QAction::toggled, this, &RuntimeChart::setLogScale);
    menu.addSeparator();
    for (int i = 0; i < m_viewCombo->count(); ++i) {
        QAction *view = menu.addAction(m_viewCombo->itemText(i));
        view->setCheckable(true);
        view->setChecked(i == m_viewCombo->currentIndex());
        connect(view, &QAction::triggered, this, [this, i] {
            m_viewCombo->setCurrentIndex(i);
            emit m_viewCombo->activated(i);
        });
    }
}

void RuntimeChart::setGroupFilter(const QString &groupKey)
{
    m_groupChosen = true;
    if (groupKey == m_groupKey)
        return;
    m_groupKey = groupKey;
    syncControls();
    rebuild();
}

std::optional<RunGroup> RuntimeChart::chosenGroup() const
{
    if (m_groupKey.isEmpty())
        return std::nullopt;
    for (const RunGroup &group : runGroups(m_runs))
        if (group.key() == m_groupKey)
            return group;
    return std::nullopt;
}

QList<RunRecord> RuntimeChart::plottedRuns() const
{
    const std::optional<RunGroup> group = chosenGroup();
    return group ? runsInGroup(m_runs, *group) : m_runs;
}

std::function<bool(const RunRecord &)> RuntimeChart::plottedFilter() const
{
    if (const std::optional<RunGroup> group = chosenGroup())
        return [group = *group](const RunRecord &run) { return inGroup(run, group); };
    return {};
}

void RuntimeChart::updateGroupCombo()
{
    const QList<RunGroup> groups = runGroups(m_runs);
    m_groups = groups;
    const bool known = std::any_of(groups.cbegin(), groups.cend(),
                                   [this](const RunGroup &g) { return g.key() == m_groupKey; });
    if (!m_groupChosen || (!m_groupKey.isEmpty() && !known)) {
        // Follow the latest measured GPU and size while several are in the session.
        m_groupChosen = false;
        const std::optional<RunGroup> latest = latestGroup(m_runs);
        m_groupKey = groups.size() > 1 && latest ? latest->key() : QString();
    }
    const QSignalBlocker block(m_groupCombo);
    m_groupCombo->clear();
    m_groupCombo->addItem(groups.size() > 1 ? tr("All runs (%1 GPU/size groups)").arg(groups.size())
                                            : tr("All runs"),
                          QString());
    // As wide as its widest entry asks (up to 40 characters), not stretched: "All runs" took 730 px
    // of a 1920 window. Counted in the 'x's the combo measures its contents in: a GPU's name in
    // capitals ("NVIDIA GeForce RTX 4090 Laptop GPU, 6144³") is wider than its count of 'x's.
    const QFontMetrics metrics = m_groupCombo->fontMetrics();
    int widest = metrics.horizontalAdvance(m_groupCombo->itemText(0));
    for (const RunGroup &group : groups) {
        m_groupCombo->addItem(group.label(), group.key());
        widest = std::max(widest, metrics.horizontalAdvance(group.label()));
    }
    const int perCharacter = std::max(1, metrics.horizontalAdvance(QLatin1Char('x')));
    m_groupCombo->setMinimumContentsLength(std::clamp((widest + perCharacter - 1) / perCharacter, 12, 40));
    syncControls();
}

void RuntimeChart::syncControls()
{
    const QSignalBlocker blockGroup(m_groupCombo);
    const QSignalBlocker blockView(m_viewCombo);
    const QSignalBlocker blockLog(m_logCheck);
    m_groupCombo->setCurrentIndex(std::max(0, m_groupCombo->findData(m_groupKey)));
    m_viewCombo->setCurrentIndex(m_mode == Mode::Speedup               ? ViewSpeedup
                                 : m_valueMode == RuntimeValue::Tflops ? ViewTflops
                                                                       : ViewMs);
    m_logCheck->setChecked(m_logScale);
}

int RuntimeChart::keyNameGlyphsPx() const
{
    // Rows as high as the names' glyphs (not their line, 2-3 px of leading and descent more): at
    // 1280x800 27 rows of 11.5 px each had a name and a value on every other row only.
    return QFontMetrics(m_plot->yAxis->tickLabelFont()).tightBoundingRect(QStringLiteral("0Mgjy")).height() +
           1;
}

void RuntimeChart::placeLegendForSize()
{
    QCPLegend *legend = m_plot->legend;
    const QRect viewport = m_plot->viewport(); // the print size while exporting
    bool below = viewport.width() >= kLegendBelowMinWidth && viewport.height() >= kLegendBelowMinHeight;
    // Under the bars only while the rows keep a name's height with it there, or would not beside it
    // either: two legend lines under 27 rows at 1600x1000 took the height that named every row, and
    // the chart named every other one. Judged from the last layout's rows, the legend's lines
    // reckoned in where it is beside (it is laid out once more after a move).
    const int rows = int(m_mode == Mode::Runtime ? m_slots.size() : m_speedups.size());
    const bool beside = legendIsBeside(m_plot);
    if (below && rows > 0 && m_plot->axisRect()->height() > 0) {
        const int glyphsPx = keyNameGlyphsPx();
        const int legendBelowPx =
            beside ? 2 * (QFontMetrics(legend->font()).height() + 4) : int(legend->outerRect().height());
        const int besideHeight = m_plot->axisRect()->height() + (beside ? 0 : legendBelowPx);
        const auto named = [&](int height) {
            return runtime_scene::tickStride(rows, double(height) / rows, glyphsPx) == 1;
        };
        below = named(besideHeight - legendBelowPx) || !named(besideHeight);
    }
    auto *holder = qobject_cast<QCPLayoutGrid *>(legend->layout());
    if (!m_legendColumn || !holder || below == !beside)
        return;
    holder->take(legend);
    holder->simplify(); // the emptied cell's row goes (the column keeps its blank stretch)
    if (below) {
        QCPLayoutGrid *grid = m_plot->plotLayout();
        const int row = grid->rowCount();
        grid->addElement(row, 0, legend);
        grid->setRowStretchFactor(row, 0.001);
    } else {
        m_legendColumn->insertRow(0);
        m_legendColumn->addElement(0, 0, legend);
        m_legendColumn->setRowStretchFactor(0, 0.001);
    }
    legend->setProperty("gemmscopeBeside", !below); // fitTitleAndLegend wraps it in columns below
}

void RuntimeChart::fitToWidth()
{
    placeLegendForSize();
    fitTitleAndLegend(m_plot, m_fullTitle, m_legendWanted || m_printing);
    setKeyTicks();
    placeValueLabels();
    fitValueRange();
    // Crowded value labels hide before the frame is drawn, where the axes are laid out already:
    // found only after it, they cost a second replot each time a run arrived.
    if (m_mode == Mode::Runtime && m_plot->axisRect()->width() > 0)
        hideCrowdedLabels();
}

int RuntimeChart::longLabelWidth(const QString &label)
{
    auto it = m_labelWidths.constFind(label);
    if (it == m_labelWidths.cend())
        it = m_labelWidths.insert(label,
                                  QFontMetrics(m_plot->yAxis->tickLabelFont()).horizontalAdvance(label));
    return *it;
}

int RuntimeChart::keyNamesWidth() const
{
    // The viewport's width, not the widget's: an export lays the plot out at the print size in the
    // same widget, and took the window's narrow choice with it. A legend beside the bars keeps its
    // column of it.
    const QCPLegend *legend = m_plot->legend;
    const int beside =
        legend->visible() && legendIsBeside(m_plot) ? legend->minimumOuterSizeHint().width() : 0;
    return std::max(0, m_plot->viewport().width() - beside);
}

void RuntimeChart::setKeyTicks()
{
    auto ticker = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker)
        return;
    // Every row named while rows are as tall as a label; every n-th where they are not (the
    // tooltip names the others). The axis rect has its height from the last layout.
    // Each row by its code and stage name ("8 — __restrict__ and #pragma unroll"), the name cut
    // short with "…" to a third of the chart's width; by its code alone only where that leaves no
    // readable part of a name (the legend's groups and the tooltips explain the codes).
    if (m_widestLong < 0) { // measured once per distinct name: 10,000 names took 30 ms a replot
        m_widestLong = 0;
        for (const QString &label : std::as_const(m_keyLongLabels))
            m_widestLong = std::max(m_widestLong, longLabelWidth(label));
    }
    const bool haveLong = m_keyLongLabels.size() == m_keyLabels.size();
    const int budget = haveLong ? runtime_scene::keyNameBudget(keyNamesWidth()) : 0;
    const int count = int(m_keyLabels.size());
    const double rowPx = count > 0 ? double(m_plot->axisRect()->height()) / count : 0;
    const QFontMetrics metrics(m_plot->yAxis->tickLabelFont());
    const int stride = runtime_scene::tickStride(count, rowPx, keyNameGlyphsPx());
    // All the full names fit: the budget's exact value changes nothing.
    const int effectiveBudget = haveLong && m_widestLong <= budget ? std::numeric_limits<int>::max() : budget;
    if (stride == m_tickStride && effectiveBudget == m_tickBudget &&
        ticker->ticks().size() == (count + stride - 1) / stride)
        return;
    m_tickStride = stride;
    m_tickBudget = effectiveBudget;
    QList<QPair<int, QString>> ticks;
    bool named = haveLong;
    for (int i = 0; i < count && named; i += stride) {
        const QString name =
            effectiveBudget == std::numeric_limits<int>::max()
                ? m_keyLongLabels[i]
                : runtime_scene::fittedName(m_keyLabels[i], m_keyLongLabels[i], budget, metrics);
        named = !name.isEmpty();
        ticks << qMakePair(i, name);
    }
    ticker->clear();
    for (int i = 0; i < count; i += stride)
        ticker->addTick(i, named ? ticks[i / stride].second : m_keyLabels[i]);
}

QCPAxis *RuntimeChart::keyAxis() const
{
    return m_plot->yAxis;
}

QCPAxis *RuntimeChart::valueAxis() const
{
    return m_plot->xAxis;
}

void RuntimeChart::setRuns(const QList<RunRecord> &runs)
{
    adoptRuns(runs);
    updateGroupCombo();
    rebuild();
}

void RuntimeChart::setValueMode(RuntimeValue mode)
{
    if (mode == m_valueMode)
        return;
    m_valueMode = mode;
    rebuild();
}

void RuntimeChart::setLogScale(bool on)
{
    m_logChosen = true;
    if (on == m_logScale)
        return;
    m_logScale = on;
    rebuild();
}

void RuntimeChart::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
}

QString RuntimeChart::viewName() const
{
    return m_mode == Mode::Speedup ? tr("the speedup chart") : tr("the runtime chart");
}

void RuntimeChart::rebuild()
{
    ++m_rebuilds;
    m_settleDue = m_referenceDue = false;
    m_plot->clearItems(); // first: tracers point at the graphs cleared next
    m_plot->clearPlottables();
    m_plot->legend->clearItems(); // the key entries that belong to no plottable
    m_runBars.clear();
    m_whiskers.clear();
    m_barsByGroup.clear();
    m_failureMarkers.clear();
    m_selectionBar = nullptr;
    m_referenceLine = nullptr;
    m_referenceValue.reset();
    m_publishedBars = nullptr;
    m_measuredBars = nullptr;
    m_valueLabels.clear();
    m_valueLabelRows.clear();
    m_valueLabelMarks.clear();
    m_labelPool.clear();
    m_slots.clear();
    m_speedups.clear();
    m_keyLabels.clear();
    m_keyLongLabels.clear();
    m_widestLong = -1;
    m_tickStride = 0;
    if (m_mode == Mode::Runtime)
        m_slots.assign(runtimeSlots(m_runs, m_valueMode, plottedFilter()));
    if (!m_logChosen)
        m_logScale = wantsLogScale();
    if (m_mode == Mode::Runtime)
        buildRuntime();
    else
        buildSpeedup();
    syncControls();
    fitToWidth();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool RuntimeChart::wantsLogScale() const
{
    return m_mode == Mode::Runtime && runtime_scene::wantsLogScale(m_slots);
}

void RuntimeChart::configureValueAxis(double lowest, double highest, const QString &label)
{
    QCPAxis *axis = valueAxis();
    m_lowest = lowest;
    m_highest = highest;
    // The scale is named on the axis: a log axis read as linear halves every difference.
    axis->setLabel(m_logScale ? label + QStringLiteral(" (log scale)") : label);
    if (m_logScale) {
        if (axis->scaleType() != QCPAxis::stLogarithmic || !axis->ticker().dynamicCast<LogTicker125>())
            useLogTicks125(axis);
    } else if (axis->scaleType() != QCPAxis::stLinear || axis->ticker().dynamicCast<QCPAxisTickerLog>()) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setNumberFormat(QStringLiteral("g"));
    }
    fitValueRange();
}

void RuntimeChart::fitValueRange()
{
    // The axis ends where the longest bar's label ends (at this width), so no label is cut off.
    int widest = 0;
    const QFontMetrics metrics(QFont(font().family(), 8));
    for (const runtime_scene::ValueLabel &label : std::as_const(m_valueLabelMarks))
        if (label.row >= 0 && label.end >= m_highest * 0.5)
            widest = std::max(widest, metrics.horizontalAdvance(label.text) + 8);
    const runtime_scene::ValueRange range =
        runtime_scene::valueRange({m_lowest, m_highest}, widest, m_plot->axisRect()->width(), m_logScale);
    valueAxis()->setRange(range.lower, range.upper);
}

void RuntimeChart::buildRuntime()
{
    const QList<RunRecord> runs = plottedRuns();
    const QString what = m_valueMode == RuntimeValue::Milliseconds ? QStringLiteral("Median time")
                                                                   : QStringLiteral("Throughput");
    const QList<RunGroup> runGroupList = runGroups(runs);
    m_fullTitle = runGroupList.size() == 1 ? QStringLiteral("%1: %2").arg(what, runGroupList.first().label())
                                           : QStringLiteral("%1 per run").arg(what);

    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->yAxis->setLabel(QString());
    m_markFailures = runtime_scene::failuresMarked(m_slots.size());
    for (int i = 0; i < m_slots.size(); ++i) {
        m_keyLabels << m_slots[i].label;
        m_keyLongLabels << runtime_scene::longLabel(m_slots[i]);
        addSlotMarks(i);
    }
    updateReference();
    updateSelectionMarks();
    updateValueAxis();
    addLegendKey();
}

void RuntimeChart::updateValueAxis()
{
    const runtime_scene::ValueExtent extent = runtime_scene::valueExtent(m_slots, m_referenceValue);
    // A little more than the rows: a value label a pixel taller than its row stays off the axis
    // line under the last one ("0.363 ms" stood on it at 1280x800).
    m_plot->yAxis->setRange(-0.5 - kRowRangePad, std::max<qsizetype>(m_slots.size(), 1) - 0.5 + kRowRangePad);
    configureValueAxis(extent.lowest, extent.highest,
                       m_valueMode == RuntimeValue::Milliseconds
                           ? QStringLiteral("Median time (ms), whiskers p20–p80")
                           : QStringLiteral("TFLOP/s at the median, whiskers at p80–p20 times"));
}

bool RuntimeChart::inPlace() const
{
    return m_mode == Mode::Runtime && !m_printing;
}

void RuntimeChart::runAdded(const QList<RunRecord> &runs, qsizetype index)
{
    if (!followRuns(runs, RunChange::Added, index) || !inPlace() ||
        groupsChangeWith(runGroupOf(runs[index]), runs[index].origin == QLatin1String("worklog"))) {
        updateGroupCombo();
        rebuild();
        return;
    }
    m_slots.follow(m_runs);
    if (!isPlotted(runs[index]))
        return;
    // After every run of its rank or a lower one: runs of one rank keep the session's order, and
    // the session adds at its end.
    const RunRecord &run = runs[index];
    const std::pair<int, int> rank = ladderRank(run);
    qsizetype low = 0, high = m_slots.size(); // the first row of a higher rank
    while (low < high) {
        const qsizetype middle = (low + high) / 2;
        if (rank < m_slots[middle].rank)
            high = middle;
        else
            low = middle + 1;
    }
    const int row = int(low);
    if (index != runs.size() - 1 || runtime_scene::failuresMarked(m_slots.size() + 1) != m_markFailures) {
        rebuild(); // inserted before other runs of its rank, or failures get marks no longer
        return;
    }
    shiftRows(row, 1);
    m_slots.insert(row, runtimeSlotOf(m_runs[index], m_valueMode, index, rank));
    m_keyLabels.insert(row, m_slots[row].label);
    m_keyLongLabels.insert(row, runtime_scene::longLabel(m_slots[row]));
    if (m_widestLong >= 0)
        m_widestLong = std::max(m_widestLong, longLabelWidth(m_keyLongLabels[row]));
    addSlotMarks(row);
    syncFailureMarks();
    settleLater(run.stage);
}

void RuntimeChart::runChanged(const QList<RunRecord> &runs, qsizetype index)
{
    const bool followed = followRuns(runs, RunChange::Changed, index);
    const RunRecord &run = m_runs[index];
    if (!followed || !inPlace() ||
        groupsChangeWith(runGroupOf(run), run.origin == QLatin1String("worklog"))) {
        updateGroupCombo();
        rebuild();
        return;
    }
    m_slots.follow(m_runs);
    const int row = int(m_slots.rowOf(run.runId));
    const bool plotted = isPlotted(run);
    if (row < 0 && !plotted)
        return; // not in the chosen group before or after
    if (row < 0 || !plotted || m_slots[row].rank != ladderRank(run)) {
        rebuild(); // it joins or leaves the chosen group, or moves on the ladder
        return;
    }
    RuntimeSlot slot = runtimeSlotOf(run, m_valueMode, index);
    const RuntimeSlot &old = m_slots[row];
    // Queued to running, a preliminary median: where failures get no mark (thousands of runs) or
    // the mark says the same, nothing drawn changes.
    const bool sameMarks = old.plotted == slot.plotted && old.value == slot.value && old.low == slot.low &&
                           old.high == slot.high && (old.failure == slot.failure || !m_markFailures) &&
                           old.published == slot.published && old.label == slot.label;
    if (sameMarks) {
        m_slots[row] = std::move(slot);
        m_legendRowsRead.reset(); // its conditions may have changed: a steadiness mark to explain
        return;
    }
    removeSlotMarks(row);
    m_slots[row] = std::move(slot);
    m_keyLabels[row] = m_slots[row].label;
    if (const QString longName = runtime_scene::longLabel(m_slots[row]); longName != m_keyLongLabels[row]) {
        m_keyLongLabels[row] = longName;
        m_widestLong = -1;
    }
    addSlotMarks(row);
    syncFailureMarks();
    settleLater(run.stage);
}

void RuntimeChart::runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId)
{
    if (!followRuns(runs, RunChange::Removed, index) || !inPlace()) {
        updateGroupCombo();
        rebuild();
        return;
    }
    m_slots.follow(m_runs, index);
    const int row = int(m_slots.rowOf(runId));
    if (row < 0)
        return;
    // The run has left the list: what its slot kept of it.
    const RunGroup group = m_slots[row].group;
    const StageId stage = m_slots[row].stage;
    const bool lastOfGroup =
        !group.gpu.isEmpty() && group.m > 0 &&
        std::none_of(m_runs.cbegin(), m_runs.cend(), [&](const RunRecord &r) {
            return r.gpuName == group.gpu && r.m == group.m && r.n == group.n && r.k == group.k;
        });
    if (lastOfGroup || groupsChangeWith(group, m_slots[row].published) ||
        runtime_scene::failuresMarked(m_slots.size() - 1) != m_markFailures) {
        updateGroupCombo();
        rebuild();
        return;
    }
    removeSlotMarks(row);
    m_slots.removeAt(row);
    m_keyLabels.removeAt(row);
    m_keyLongLabels.removeAt(row);
    m_widestLong = -1;
    shiftRows(row + 1, -1);
    syncFailureMarks();
    settleLater(stage);
}

bool RuntimeChart::isPlotted(const RunRecord &run) const
{
    if (m_groupKey.isEmpty())
        return true;
    for (const RunGroup &group : std::as_const(m_groups))
        if (group.key() == m_groupKey)
            return inGroup(run, group);
    return true;
}

bool RuntimeChart::groupsChangeWith(const RunGroup &group, bool published) const
{
    // A new GPU or size (the selector lists it), or one run less of one; a run of another group
    // while the chart follows the latest: the whole chart changes.
    if (group.gpu.isEmpty() || group.m <= 0)
        return false; // belongs to every group
    const QString key = group.key();
    if (std::none_of(m_groups.cbegin(), m_groups.cend(), [&](const RunGroup &g) { return g.key() == key; }))
        return true;
    return !m_groupChosen && m_groups.size() > 1 && !published && key != m_groupKey;
}

void RuntimeChart::settleLater(StageId stage)
{
    // What depends on every row (the scale, the axis, the legend, the names) once for all the changes
    // of one turn of the event loop: a ladder queues its 23 runs at once, a sweep hundreds.
    m_referenceDue = m_referenceDue || stage == StageId::CublasFp32;
    if (std::exchange(m_settleDue, true))
        return;
    inALaterTurn(this, [this] {
        if (m_settleDue) // not drawn again from all runs meanwhile
            settle();
    });
}

void RuntimeChart::settle()
{
    m_settleDue = false;
    if (!m_logChosen && wantsLogScale() != m_logScale) {
        rebuild();
        return;
    }
    if (std::exchange(m_referenceDue, false))
        updateReference();
    updateSelectionMarks();
    updateValueAxis();
    refreshLegend();
    m_tickStride = 0; // the rows moved: their names too
    fitToWidth();
    requestReplot();
}

void RuntimeChart::showSelection()
{
    if (!inPlace()) {
        rebuild();
        return;
    }
    const bool hadBar = m_selectionBar;
    updateSelectionMarks();
    if (hadBar != bool(m_selectionBar))
        refreshLegend(LegendRows::AsLastRead); // the rows are as the last settle or rebuild read them
    requestReplot();
}

} // namespace gemmscope
