#include "runtime_chart.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "chart_row_bars.h"
#include "chart_text.h"
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

namespace {

constexpr double kBarWidth = 0.7;
constexpr double kRowRangePad = 0.3; // rows of room over the first and under the last
constexpr int kValueLabelGapPx = 7;  // from the end of a bar or its whisker to its value
constexpr double kSpeedupBarWidth = 0.42;
const QColor kPublishedColor(0x7f, 0x7f, 0x7f);
const QColor kMeasuredColor(0x1f, 0x77, 0xb4);
const QColor kSelectionColor(0x10, 0x10, 0x10);
// Values spread wider than this are unreadable on a linear axis (the T4's 956 ms beside cuBLAS at
// 0.4 ms): the scale turns logarithmic unless the user chose one.
constexpr double kLogSpan = 20;
// Beyond this many bars a label (and a failure mark) per bar is unreadable and, in a 50,000-run
// session, took most of a minute to lay out and draw: every stride-th bar is labelled instead.
constexpr int kMaxLabelledBars = 400;

// View combo entries, in order.
enum ViewEntry { ViewMs, ViewTflops, ViewSpeedup };

QString speedupText(double s)
{
    return QStringLiteral("x%1").arg(s, 0, 'f', s < 10 ? 2 : 1);
}

// The GPU the measured runs came from, for the title ("this GPU" means nothing in an export).
QString measuredGpuName(const QList<RunRecord> &runs)
{
    for (auto it = runs.crbegin(); it != runs.crend(); ++it)
        if (it->origin != QLatin1String("worklog") && !it->gpuName.isEmpty())
            return it->gpuName;
    return QString();
}

} // namespace

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
    m_viewCombo->addItems({tr("Runtime (ms)"), tr("TFLOP/s"), tr("Speedup vs naive")});
    m_logCheck->setObjectName(QStringLiteral("runtimeLogCheck"));
    controls->addWidget(m_groupCombo);
    controls->addWidget(m_viewCombo);
    controls->addWidget(m_logCheck);
    controls->addStretch(1);
    placeLegendBeside(m_plot, font());
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

QList<RunRecord> RuntimeChart::plottedRuns() const
{
    if (m_groupKey.isEmpty())
        return m_runs;
    for (const RunGroup &group : runGroups(m_runs))
        if (group.key() == m_groupKey)
            return runsInGroup(m_runs, group);
    return m_runs;
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
    qsizetype longest = 0;
    for (const RunGroup &group : groups) {
        m_groupCombo->addItem(group.label(), group.key());
        longest = std::max(longest, group.label().size());
    }
    // As wide as its longest entry asks (up to 40 characters), not stretched: "All runs" took 730 px
    // of a 1920 window (review of 2026-12-03).
    m_groupCombo->setMinimumContentsLength(
        int(std::clamp<qsizetype>(std::max(longest, m_groupCombo->itemText(0).size()), 12, 40)));
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

void RuntimeChart::fitToWidth()
{
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

void RuntimeChart::setKeyTicks()
{
    auto ticker = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker)
        return;
    // Every row named while rows are as tall as a label; every n-th where they are not (the
    // tooltip names the others). The axis rect has its height from the last layout.
    // Full names ("8 __restrict__ and #pragma unroll") where the widest takes at most a third of
    // the chart (the print layout, a wide window); the short ones, explained by the legend's
    // groups and the tooltips, elsewhere.
    if (m_widestLong < 0) { // measured once per distinct name: 10,000 names took 30 ms a replot
        m_widestLong = 0;
        for (const QString &label : std::as_const(m_keyLongLabels))
            m_widestLong = std::max(m_widestLong, longLabelWidth(label));
    }
    // The viewport's width, not the widget's: an export lays the plot out at the print size in the
    // same widget, and took the window's narrow choice with it.
    const bool useLong =
        m_keyLongLabels.size() == m_keyLabels.size() && m_widestLong * 3 <= m_plot->viewport().width();
    const QStringList &labels = useLong ? m_keyLongLabels : m_keyLabels;
    const int count = int(m_keyLabels.size());
    const double rowPx = count > 0 ? double(m_plot->axisRect()->height()) / count : 0;
    const int labelPx = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
    int stride = rowPx > 0 ? std::max(1, int(std::ceil((labelPx - 1) / rowPx))) : 1;
    stride = std::max<int>(stride, int((count + kMaxLabelledBars - 1) / kMaxLabelledBars));
    if (stride == m_tickStride && useLong == m_tickLong &&
        ticker->ticks().size() == (count + stride - 1) / stride)
        return;
    m_tickStride = stride;
    m_tickLong = useLong;
    ticker->clear();
    for (int i = 0; i < count; i += stride)
        ticker->addTick(i, labels[i]);
}

QCPAxis *RuntimeChart::keyAxis() const
{
    return m_plot->yAxis;
}

QCPAxis *RuntimeChart::valueAxis() const
{
    return m_plot->xAxis;
}

double RuntimeChart::barBasePixel() const
{
    return valueAxis()->scaleType() == QCPAxis::stLogarithmic ? m_plot->axisRect()->left()
                                                              : valueAxis()->coordToPixel(0);
}

QRectF RuntimeChart::barRect(double key, double value, double width, double base) const
{
    QCPAxis *keys = keyAxis(), *values = valueAxis();
    const double top = keys->coordToPixel(key - width / 2);
    const double bottom = keys->coordToPixel(key + width / 2);
    const double end = values->coordToPixel(value);
    return QRectF(QPointF(std::min(base, end), std::min(top, bottom)),
                  QPointF(std::max(base, end), std::max(top, bottom)));
}

QList<QRectF> RuntimeChart::barRects() const
{
    QList<QRectF> rects;
    const double base = barBasePixel();
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        auto *bars = qobject_cast<QCPBars *>(m_plot->plottable(i));
        if (!bars || !bars->visible())
            continue;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            rects << barRect(it->key, it->value, bars->width(), base);
    }
    return rects;
}

QList<QRectF> RuntimeChart::barRectsInRows(int first, int last, double base) const
{
    QList<QRectF> rects;
    for (int row = std::max(0, first); row <= last && row < m_slots.size(); ++row)
        if (m_slots[row].plotted)
            rects << barRect(row, m_slots[row].value, kBarWidth, base);
    if (m_selectionBar && !m_selectionBar->data()->isEmpty()) {
        const auto it = m_selectionBar->data()->constBegin();
        if (it->key >= first && it->key <= last)
            rects << barRect(it->key, it->value, m_selectionBar->width(), base);
    }
    return rects;
}

bool RuntimeChart::hideCrowdedLabels()
{
    if (m_valueLabels.isEmpty())
        return false;
    // A value label never sits over another label or over a bar (the speedup chart's neighbouring
    // bar, a row too low for its text): it hides, and the tooltip still gives the value.
    // Above the plot a little (no line there), never onto the axis line under it.
    const QRectF bounds = QRectF(m_plot->axisRect()->rect()).adjusted(-1, -3, 1, -1);
    // The speedup chart's few bars all; the runtime chart's through the rows a label spans (every
    // label against 10,000 bars took longer than the replot).
    const QList<QRectF> allBars = m_mode == Mode::Runtime ? QList<QRectF>() : barRects();
    const double base = barBasePixel();
    const auto hitsBar = [&](const QRectF &inner) {
        if (m_mode == Mode::Runtime)
            return runtimeBarMeets(inner, base);
        return std::any_of(allBars.cbegin(), allBars.cend(),
                           [&](const QRectF &bar) { return bar.intersects(inner); });
    };
    QList<QRectF> kept;
    for (QCPItemText *marker : std::as_const(m_failureMarkers))
        if (marker->visible())
            kept << labelRect(marker);
    bool changed = false;
    for (int i = 0; i < m_valueLabels.size(); ++i) {
        QCPItemText *label = m_valueLabels[i];
        const QRectF rect = labelRect(label);
        const QRectF inner = rect.adjusted(0.5, 0.5, -0.5, -0.5);
        const auto hits = [&](const QRectF &r) { return r.intersects(inner); };
        // Where only every n-th row is named, only its values are shown: a value beside no name
        // would be read as the named row's.
        const bool named = m_tickStride <= 1 || m_valueLabelRows.value(i) % m_tickStride == 0;
        const bool free = named && bounds.contains(rect) && std::none_of(kept.cbegin(), kept.cend(), hits) &&
                          !hitsBar(inner);
        changed = changed || label->visible() != free;
        label->setVisible(free);
        if (free)
            kept << rect;
    }
    return changed;
}

bool RuntimeChart::runtimeBarMeets(const QRectF &rect, double base) const
{
    // With 10,000 thin rows a label spans hundreds of them. Every bar starts at one base, so of the
    // rows the rect spans wholly only the longest (or shortest) bar can reach it: found from the
    // values, one pixel worked out, where measuring each bar (a logarithm each) for each label took
    // a third of a replot (2026-12-02). The rows at the rect's top and bottom edges are measured as
    // drawn, the selection's bar with them (its row's, a little taller: it reaches no farther).
    const auto anyDrawn = [&](long long first, long long last) {
        const QList<QRectF> bars = barRectsInRows(int(first), int(last), base);
        return std::any_of(bars.cbegin(), bars.cend(),
                           [&](const QRectF &bar) { return bar.intersects(rect); });
    };
    const double a = keyAxis()->pixelToCoord(rect.top()), b = keyAxis()->pixelToCoord(rect.bottom());
    const double top = std::min(a, b), bottom = std::max(a, b);
    const auto first = static_cast<long long>(std::floor(top)) - 1,
               last = static_cast<long long>(std::ceil(bottom)) + 1;
    // The rows whose whole bar lies within the rect's height.
    const auto firstInside = std::max(0LL, static_cast<long long>(std::ceil(top + kBarWidth / 2 + 1e-9)));
    const auto lastInside = std::min(static_cast<long long>(m_slots.size()) - 1,
                                     static_cast<long long>(std::floor(bottom - kBarWidth / 2 - 1e-9)));
    if (firstInside > lastInside)
        return anyDrawn(first, last);
    if (anyDrawn(first, firstInside - 1) || anyDrawn(lastInside + 1, last))
        return true;
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    for (long long row = firstInside; row <= lastInside; ++row)
        if (const RuntimeSlot &slot = m_slots[row]; slot.plotted) {
            lowest = std::min(lowest, slot.value);
            highest = std::max(highest, slot.value);
        }
    if (lowest > highest)
        return false; // no bar drawn there
    const double one = valueAxis()->coordToPixel(lowest), other = valueAxis()->coordToPixel(highest);
    if (base <= rect.left())
        return std::max(one, other) > rect.left();
    if (base >= rect.right())
        return std::min(one, other) < rect.right();
    return anyDrawn(firstInside, lastInside); // a rect across the bars' base: rare, measured
}

void RuntimeChart::setRuns(const QList<RunRecord> &runs)
{
    adoptRuns(m_runs, runs);
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
    m_publishedBars = nullptr;
    m_measuredBars = nullptr;
    m_valueLabels.clear();
    m_valueLabelRows.clear();
    m_labelPool.clear();
    m_slots.clear();
    m_speedups.clear();
    m_keyLabels.clear();
    m_keyLongLabels.clear();
    m_widestLong = -1;
    m_tickStride = 0;
    if (m_mode == Mode::Runtime)
        m_slots.assign(runtimeSlots(plottedRuns(), m_valueMode));
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
    // Log once the plotted values spread more than kLogSpan: on a linear axis the H200's 0.36 ms
    // cuBLAS TF32 bar is a pixel beside the naive kernel's 25 ms (and the T4's 956 ms).
    if (m_mode != Mode::Runtime)
        return false;
    double lo = 0, hi = 0;
    for (qsizetype row = 0; row < m_slots.size(); ++row)
        if (const RuntimeSlot &slot = m_slots[row]; slot.plotted && slot.value > 0) {
            lo = lo > 0 ? std::min(lo, slot.value) : slot.value;
            hi = std::max(hi, slot.value);
        }
    return lo > 0 && hi / lo > kLogSpan;
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
    for (QCPItemText *label : std::as_const(m_valueLabels))
        if (label->position->value() >= 0 && label->position->typeX() == QCPItemPosition::ptPlotCoords &&
            label->position->key() >= m_highest * 0.5)
            widest = std::max(widest, metrics.horizontalAdvance(label->text()) + 8);
    const double width = std::max(60, m_plot->axisRect()->width());
    const double share = std::clamp(1.0 - widest / width, 0.5, 0.95); // of the axis left for the bars
    QCPAxis *axis = valueAxis();
    if (m_logScale) {
        const double lo = m_lowest > 0 ? m_lowest / 1.6 : 0.1;
        const double hi = std::max(m_highest, lo * 2);
        axis->setRange(lo, lo * std::pow(hi / lo, 1.0 / share) * 1.05);
    } else {
        axis->setRange(0, m_highest > 0 ? m_highest / share * 1.03 : 1);
    }
}

namespace {

QCPItemText *barValueLabel(QCustomPlot *plot, double key, double value, const QString &text,
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

} // namespace

void RuntimeChart::buildRuntime()
{
    const QList<RunRecord> runs = plottedRuns();
    const QString what =
        m_valueMode == RuntimeValue::Milliseconds ? QStringLiteral("Runtime") : QStringLiteral("Throughput");
    const QList<RunGroup> runGroupList = runGroups(runs);
    m_fullTitle = runGroupList.size() == 1 ? QStringLiteral("%1: %2").arg(what, runGroupList.first().label())
                                           : QStringLiteral("%1 per run").arg(what);

    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->yAxis->setLabel(QString());
    m_markFailures = m_slots.size() <= kMaxLabelledBars;
    for (int i = 0; i < m_slots.size(); ++i) {
        m_keyLabels << m_slots[i].label;
        m_keyLongLabels << longLabel(m_slots[i]);
        addSlotMarks(i);
    }
    updateReference();
    updateSelectionMarks();
    updateValueAxis();
    addLegendKey();
}

qsizetype RuntimeSlotRows::rowOf(const QString &runId) const
{
    const qsizetype at = m_storeOf.value(runId, -1);
    return at < 0 ? -1 : m_rows.indexOf(at); // integers: microseconds for 10,000 rows
}

void RuntimeSlotRows::insert(qsizetype row, RuntimeSlot slot)
{
    m_storeOf.insert(slot.run.runId, m_store.size());
    m_store.append(std::move(slot));
    m_rows.insert(row, m_store.size() - 1);
}

void RuntimeSlotRows::removeAt(qsizetype row)
{
    m_storeOf.remove(m_store[m_rows[row]].run.runId);
    m_store[m_rows[row]] = RuntimeSlot{}; // its place stays, empty, until the next rebuild
    m_rows.removeAt(row);
}

void RuntimeSlotRows::clear()
{
    m_store.clear();
    m_rows.clear();
    m_storeOf.clear();
}

void RuntimeSlotRows::assign(QList<RuntimeSlot> ladder)
{
    m_store.clear();
    m_store.reserve(ladder.size() + ladder.size() / 2 + 256); // room for the runs that arrive
    m_store.append(std::move(ladder));
    m_rows.reserve(m_store.capacity());
    m_rows.resize(m_store.size());
    std::iota(m_rows.begin(), m_rows.end(), 0);
    m_storeOf.clear();
    m_storeOf.reserve(m_store.size());
    for (qsizetype i = 0; i < m_store.size(); ++i)
        if (!m_storeOf.contains(m_store[i].run.runId)) // the first row, should a file repeat an id
            m_storeOf.insert(m_store[i].run.runId, i);
}

QList<RuntimeSlot> RuntimeSlotRows::toList() const
{
    QList<RuntimeSlot> list;
    list.reserve(m_rows.size());
    for (const qsizetype at : m_rows)
        list << m_store[at];
    return list;
}

QString RuntimeChart::longLabel(const RuntimeSlot &slot)
{
    const StageInfo *stage = findStage(slot.run.stage.key());
    if (stage && stage->isLibrary && slot.label == shortPresetLabel(slot.run.presetKey))
        return QString::fromStdString(stage->title); // "cuBLAS SGEMM (FP32)": its code says it again
    return stage ? QStringLiteral("%1  %2").arg(slot.label, runStageTitleText(slot.run)) : slot.label;
}

void RuntimeChart::addSlotMarks(int row)
{
    const RuntimeSlot &slot = m_slots[row];
    if (!slot.plotted) {
        if (!m_markFailures)
            return; // no room for a mark per failure: the table lists them
        auto *marker = new QCPItemText(m_plot);
        marker->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        marker->position->setTypeY(QCPItemPosition::ptPlotCoords);
        marker->position->setAxes(m_plot->xAxis, m_plot->yAxis);
        marker->position->setCoords(0.0, row);
        marker->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        marker->setPadding(QMargins(4, 0, 2, 0));
        marker->setText(QStringLiteral("\u2715 %1: no time").arg(slot.failure));
        marker->setColor(wrongResultColor());
        marker->setFont(QFont(font().family(), 8, QFont::Bold));
        marker->setProperty("runId", slot.run.runId);
        m_failureMarkers.append(marker);
        return;
    }
    const bool published = slot.run.origin == QLatin1String("worklog");
    // One QCPBars per stage and preset shade: a stage's presets lie next to each other on the ladder,
    // and each bar wears its own shade of the stage's colour (run_color.h).
    const int shade = presetShade(slot.run);
    const QString groupKey = slot.run.stageKey() + QLatin1Char('#') + QString::number(shade) +
                             (published ? QStringLiteral("|worklog") : QString());
    QCPBars *bars = m_barsByGroup.value(groupKey);
    if (!bars) {
        bars = new RowBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(stageTitleText(slot.run.stage) +
                      (published ? QStringLiteral(" (T4, worklog)") : QString()));
        bars->removeFromLegend(); // each bar is named on its axis; the legend names the groups
        bars->setWidth(kBarWidth);
        const QColor color = shadedStageColor(slot.run.stageKey(), shade);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(published ? QBrush(color, Qt::BDiagPattern) : QBrush(color.lighter(115)));
        bars->setProperty("stage", slot.run.stageKey());
        bars->setProperty("published", published);
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
    if (!slot.plotted) {
        for (qsizetype i = 0; i < m_failureMarkers.size(); ++i)
            if (qRound(m_failureMarkers[i]->position->value()) == row) {
                m_plot->removeItem(m_failureMarkers.takeAt(i));
                break;
            }
        return;
    }
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
    for (QCPItemText *marker : std::as_const(m_failureMarkers))
        if (const double row = marker->position->value(); row >= from)
            marker->position->setCoords(0.0, row + by);
}

void RuntimeChart::updateReference()
{
    // The latest cuBLAS FP32 run of the plotted ones (the few cuBLAS runs, not every run, are copied).
    QList<RunRecord> cublasRuns;
    for (qsizetype row = 0; row < m_slots.size(); ++row)
        if (m_slots[row].run.stage == StageId::CublasFp32)
            cublasRuns << m_slots[row].run;
    const std::optional<RunRecord> cublas = cublasFp32Reference(cublasRuns);
    if (!cublas) {
        if (m_referenceLine)
            m_plot->removeItem(m_referenceLine);
        m_referenceLine = nullptr;
        return;
    }
    const double value = m_valueMode == RuntimeValue::Milliseconds
                             ? cublas->medianMs
                             : (cublas->tflops > 0 ? cublas->tflops : tflopsAt(*cublas, cublas->medianMs));
    if (!m_referenceLine) {
        m_referenceLine = new QCPItemStraightLine(m_plot);
        m_referenceLine->point1->setAxes(m_plot->xAxis, m_plot->yAxis);
        m_referenceLine->point2->setAxes(m_plot->xAxis, m_plot->yAxis);
        m_referenceLine->setPen(QPen(stageColor(stageKeyText(StageId::CublasFp32)), 1.5, Qt::DashLine));
    }
    m_referenceLine->point1->setCoords(value, 0);
    m_referenceLine->point2->setCoords(value, 1);
    m_referenceLine->setProperty(
        "referenceText",
        QStringLiteral("cuBLAS FP32: %1")
            .arg(m_valueMode == RuntimeValue::Milliseconds ? formatMs(value) : formatTflops(value)));
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
            m_selectionBar->setWidth(kBarWidth + 0.12);
            m_selectionBar->setBrush(Qt::NoBrush);
            m_selectionBar->setPen(QPen(kSelectionColor, 2.5));
        }
        m_selectionBar->data()->clear();
        m_selectionBar->addData(selected, m_slots[selected].value);
    } else if (m_selectionBar) {
        m_plot->removePlottable(m_selectionBar);
        m_selectionBar = nullptr;
    }
    for (QCPItemText *marker : std::as_const(m_failureMarkers))
        marker->setPen(qRound(marker->position->value()) == selected ? QPen(kSelectionColor, 2)
                                                                     : QPen(Qt::NoPen));
}

void RuntimeChart::updateValueAxis()
{
    double lowest = 0, highest = 0;
    for (qsizetype row = 0; row < m_slots.size(); ++row)
        if (const RuntimeSlot &slot = m_slots[row]; slot.plotted) {
            lowest = lowest > 0 ? std::min(lowest, slot.low) : slot.low;
            highest = std::max(highest, slot.high);
        }
    if (m_referenceLine) {
        const double value = m_referenceLine->point1->coords().x();
        lowest = lowest > 0 ? std::min(lowest, value) : value;
        highest = std::max(highest, value);
    }
    // A little more than the rows: a value label a pixel taller than its row stays off the axis
    // line under the last one ("0.363 ms" stood on it at 1280x800).
    m_plot->yAxis->setRange(-0.5 - kRowRangePad, std::max<qsizetype>(m_slots.size(), 1) - 0.5 + kRowRangePad);
    configureValueAxis(lowest, highest,
                       m_valueMode == RuntimeValue::Milliseconds
                           ? QStringLiteral("median ms, whiskers p20–p80")
                           : QStringLiteral("TFLOP/s at the median, whiskers at p80–p20 times"));
}

void RuntimeChart::placeValueLabels()
{
    if (m_mode != Mode::Runtime)
        return;
    // A value beside every named row (setKeyTicks): a value beside no name would be read as the
    // named row's. Labels are reused: a run arriving moves a few texts, it creates none.
    const int stride =
        std::max({1, m_tickStride, int((m_slots.size() + kMaxLabelledBars - 1) / kMaxLabelledBars)});
    const QFont valueFont(font().family(), 8);
    qsizetype used = 0;
    m_valueLabels.clear();
    m_valueLabelRows.clear();
    for (int row = 0; row < m_slots.size(); row += stride) {
        const RuntimeSlot &slot = m_slots[row];
        if (!slot.plotted)
            continue;
        // A run not comparable with a steady burst says so beside its number (issue 22).
        const QString text =
            (m_valueMode == RuntimeValue::Milliseconds ? formatMs(slot.value) : formatTflops(slot.value)) +
            comparabilityMark(slot.run);
        const double end = std::max(slot.value, slot.high);
        if (used == m_labelPool.size())
            m_labelPool << barValueLabel(m_plot, row, end, text, QColor(0x20, 0x20, 0x20), valueFont);
        QCPItemText *label = m_labelPool[used++];
        if (label->text() != text || label->position->coords() != QPointF(end, row)) {
            label->setText(text);
            label->position->setCoords(end, row);
            label->setVisible(true); // hideCrowdedLabels decides after the replot
        }
        m_valueLabels << label;
        m_valueLabelRows << row;
    }
    for (qsizetype i = used; i < m_labelPool.size(); ++i)
        m_labelPool[i]->setVisible(false);
}

bool RuntimeChart::inPlace() const
{
    return m_mode == Mode::Runtime && !m_printing;
}

void RuntimeChart::runAdded(const QList<RunRecord> &runs, qsizetype index)
{
    if (!followRuns(m_runs, runs, RunChange::Added, index) || !inPlace() || groupsChangeWith(runs[index])) {
        updateGroupCombo();
        rebuild();
        return;
    }
    if (!isPlotted(runs[index]))
        return;
    // After every run of its rank or a lower one: runs of one rank keep the session's order, and
    // the session adds at its end.
    const RunRecord &run = runs[index];
    const std::pair<int, int> rank = ladderRank(run);
    qsizetype low = 0, high = m_slots.size(); // the first row of a higher rank
    while (low < high) {
        const qsizetype middle = (low + high) / 2;
        if (rank < ladderRank(m_slots[middle].run))
            high = middle;
        else
            low = middle + 1;
    }
    const int row = int(low);
    if (index != runs.size() - 1 || (m_slots.size() + 1 <= kMaxLabelledBars) != m_markFailures) {
        rebuild(); // inserted before other runs of its rank, or failures get marks no longer
        return;
    }
    shiftRows(row, 1);
    m_slots.insert(row, runtimeSlotOf(run, m_valueMode));
    m_keyLabels.insert(row, m_slots[row].label);
    m_keyLongLabels.insert(row, longLabel(m_slots[row]));
    if (m_widestLong >= 0)
        m_widestLong = std::max(m_widestLong, longLabelWidth(m_keyLongLabels[row]));
    addSlotMarks(row);
    settleLater(run);
}

void RuntimeChart::runChanged(const QList<RunRecord> &runs, qsizetype index)
{
    const bool followed = followRuns(m_runs, runs, RunChange::Changed, index);
    const RunRecord &run = runs[index];
    if (!followed || !inPlace() || groupsChangeWith(run)) {
        updateGroupCombo();
        rebuild();
        return;
    }
    const int row = int(m_slots.rowOf(run.runId));
    const bool plotted = isPlotted(run);
    if (row < 0 && !plotted)
        return; // not in the chosen group before or after
    if (row < 0 || !plotted || ladderRank(m_slots[row].run) != ladderRank(run)) {
        rebuild(); // it joins or leaves the chosen group, or moves on the ladder
        return;
    }
    RuntimeSlot slot = runtimeSlotOf(run, m_valueMode);
    const RuntimeSlot &old = m_slots[row];
    // Queued to running, a preliminary median: where failures get no mark (thousands of runs) or
    // the mark says the same, nothing drawn changes.
    const bool sameMarks = old.plotted == slot.plotted && old.value == slot.value && old.low == slot.low &&
                           old.high == slot.high && (old.failure == slot.failure || !m_markFailures) &&
                           old.run.origin == slot.run.origin && old.label == slot.label;
    if (sameMarks) {
        m_slots[row] = std::move(slot);
        return;
    }
    removeSlotMarks(row);
    m_slots[row] = std::move(slot);
    m_keyLabels[row] = m_slots[row].label;
    if (const QString longName = longLabel(m_slots[row]); longName != m_keyLongLabels[row]) {
        m_keyLongLabels[row] = longName;
        m_widestLong = -1;
    }
    addSlotMarks(row);
    settleLater(run);
}

void RuntimeChart::runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId)
{
    if (!followRuns(m_runs, runs, RunChange::Removed, index) || !inPlace()) {
        updateGroupCombo();
        rebuild();
        return;
    }
    const int row = int(m_slots.rowOf(runId));
    if (row < 0)
        return;
    const RunRecord run = m_slots[row].run;
    const RunGroup group = runGroupOf(run);
    const bool lastOfGroup =
        !group.gpu.isEmpty() && group.m > 0 &&
        std::none_of(m_runs.cbegin(), m_runs.cend(), [&](const RunRecord &r) {
            return r.gpuName == group.gpu && r.m == group.m && r.n == group.n && r.k == group.k;
        });
    if (lastOfGroup || groupsChangeWith(run) || (m_slots.size() - 1 <= kMaxLabelledBars) != m_markFailures) {
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
    settleLater(run);
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

bool RuntimeChart::groupsChangeWith(const RunRecord &run) const
{
    // A new GPU or size (the selector lists it), or one run less of one; a run of another group
    // while the chart follows the latest: the whole chart changes.
    const RunGroup group = runGroupOf(run);
    if (group.gpu.isEmpty() || group.m <= 0)
        return false; // belongs to every group
    const QString key = group.key();
    if (std::none_of(m_groups.cbegin(), m_groups.cend(), [&](const RunGroup &g) { return g.key() == key; }))
        return true;
    return !m_groupChosen && m_groups.size() > 1 && run.origin != QLatin1String("worklog") &&
           key != m_groupKey;
}

void RuntimeChart::settleLater(const RunRecord &run)
{
    // What depends on every row (the scale, the axis, the legend, the names) once for all the changes
    // of one turn of the event loop: a ladder queues its 23 runs at once, a sweep hundreds.
    m_referenceDue = m_referenceDue || run.stage == StageId::CublasFp32;
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
        refreshLegend();
    requestReplot();
}

void RuntimeChart::refreshLegend()
{
    // Laid out again only when an entry changes: new entries are measured again at the replot, a
    // millisecond at every run.
    if (legendLook() == m_legendLook)
        return;
    m_plot->legend->clearItems(); // every entry is a key item here (the bars are named on the axis)
    addLegendKey();
}

QString RuntimeChart::legendLook() const
{
    QStringList look;
    for (const LegendEntry &entry : legendEntries())
        look << entry.text + QLatin1Char('|') + entry.look;
    return look.join(QLatin1Char('\n'));
}

// The legend: the ladder's groups (each with its stages' colours), the published hatch, the
// whiskers, the cuBLAS line and the failure mark — a handful of entries whatever the run count.
void RuntimeChart::addLegendKey()
{
    for (const LegendEntry &entry : legendEntries())
        addKeyItem(m_plot, entry.text, entry.icon);
    m_legendLook = legendLook();
}

QList<RuntimeChart::LegendEntry> RuntimeChart::legendEntries() const
{
    QList<LegendEntry> entries;
    // From the bars, one plottable a stage (not from every run: a run arriving looks at the legend).
    QMap<LadderGroup, QList<QPair<int, QColor>>> stagesOf;
    bool hatched = false, anyBar = false;
    for (QCPBars *bars : std::as_const(m_runBars)) {
        if (bars->dataCount() == 0)
            continue;
        anyBar = true;
        if (bars->property("published").toBool()) {
            hatched = true;
            continue;
        }
        const QString stage = bars->property("stage").toString();
        stagesOf[ladderGroupOf(stage)] << qMakePair(stageRank(stage), stageColor(stage));
    }
    for (auto it = stagesOf.begin(); it != stagesOf.end(); ++it) {
        std::stable_sort(it->begin(), it->end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        QList<QColor> colors;
        QStringList names;
        for (const auto &[rank, color] : std::as_const(*it))
            if (!colors.contains(color)) {
                colors << color;
                names << color.name();
            }
        entries << LegendEntry{ladderGroupName(it.key()), stripesIcon(colors), names.join(QLatin1Char(' '))};
    }
    if (hatched)
        entries << LegendEntry{QStringLiteral("T4, published (worklog)"),
                               stripesIcon({QColor(0x70, 0x70, 0x70)}, Qt::BDiagPattern), QString()};
    if (anyBar)
        entries << LegendEntry{QStringLiteral("whisker: p20–p80"),
                               [](QCPPainter *p, const QRectF &icon) {
                                   const double y = icon.center().y();
                                   p->setPen(QPen(Qt::black, 1));
                                   p->drawLine(QPointF(icon.left() + 2, y), QPointF(icon.right() - 2, y));
                                   p->drawLine(QPointF(icon.left() + 2, icon.top() + 2),
                                               QPointF(icon.left() + 2, icon.bottom() - 2));
                                   p->drawLine(QPointF(icon.right() - 2, icon.top() + 2),
                                               QPointF(icon.right() - 2, icon.bottom() - 2));
                               },
                               QString()};
    if (m_referenceLine) {
        const QPen pen = m_referenceLine->pen();
        entries << LegendEntry{m_referenceLine->property("referenceText").toString(),
                               [pen](QCPPainter *p, const QRectF &icon) {
                                   p->setPen(pen);
                                   p->drawLine(QPointF(icon.center().x(), icon.top()),
                                               QPointF(icon.center().x(), icon.bottom()));
                               },
                               QString()};
    }
    // Issue 22: what " (noisy)" beside a number means, whenever one is there.
    bool anyMarked = false;
    for (qsizetype row = 0; m_mode == Mode::Runtime && row < m_slots.size() && !anyMarked; ++row)
        anyMarked = m_slots[row].plotted && !comparabilityMark(m_slots[row].run).isEmpty();
    if (anyMarked)
        entries << LegendEntry{QStringLiteral("(noisy) etc.: not steady"),
                               [](QCPPainter *p, const QRectF &icon) {
                                   p->setPen(Qt::NoPen);
                                   p->setBrush(QColor(0x20, 0x20, 0x20));
                                   p->drawEllipse(icon.center(), 1.8, 1.8);
                               },
                               QStringLiteral("mark")};
    if (!m_failureMarkers.isEmpty())
        entries << LegendEntry{
            QStringLiteral("\u2715 failed: no time"),
            [](QCPPainter *p, const QRectF &icon) {
                p->setPen(QPen(wrongResultColor(), 2));
                p->drawLine(icon.center() + QPointF(-4, -4), icon.center() + QPointF(4, 4));
                p->drawLine(icon.center() + QPointF(-4, 4), icon.center() + QPointF(4, -4));
            },
            QString()};
    if (!m_printing && m_selectionBar)
        entries << LegendEntry{QStringLiteral("selected run"),
                               [](QCPPainter *p, const QRectF &icon) {
                                   p->setPen(QPen(kSelectionColor, 2));
                                   p->setBrush(Qt::NoBrush);
                                   p->drawRect(icon.adjusted(2, 2, -2, -2));
                               },
                               QString()};
    return entries;
}

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
    m_plot->yAxis->setLabel(QStringLiteral("worklog step"));
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

    double lowest = 0, highest = 0;
    const QFont valueFont(font().family(), 8);
    QList<QCPItemText *> rowLabels;
    for (int i = 0; i < m_speedups.size(); ++i) {
        const SpeedupRow &row = m_speedups[i];
        m_keyLabels << (shortPresetLabel(row.presetKey).isEmpty() ? row.label
                                                                  : shortPresetLabel(row.presetKey));
        m_keyLongLabels << (row.title.isEmpty() ? row.label : row.title);
        m_publishedBars->addData(i, row.publishedSpeedup);
        lowest = lowest > 0 ? std::min(lowest, row.publishedSpeedup) : row.publishedSpeedup;
        highest = std::max(highest, row.publishedSpeedup);
        double end = row.publishedSpeedup;
        QString text = QStringLiteral("not run");
        if (row.measuredSpeedup) {
            m_measuredBars->addData(i, *row.measuredSpeedup);
            lowest = std::min(lowest, *row.measuredSpeedup);
            highest = std::max(highest, *row.measuredSpeedup);
            end = std::max(end, *row.measuredSpeedup);
            text = speedupText(*row.measuredSpeedup);
        }
        m_valueLabelRows << i;
        rowLabels << barValueLabel(m_plot, i, end,
                                   QStringLiteral("%1  (T4 %2)").arg(text, speedupText(row.publishedSpeedup)),
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
    configureValueAxis(lowest, highest, QStringLiteral("speedup over step 0 (naive), x"));
    if (m_speedups.isEmpty()) {
        auto *hint = new QCPItemText(m_plot);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        hint->setText(QStringLiteral("The catalog has no presets with published T4 times."));
        hint->setColor(Qt::gray);
    }
}

int RuntimeChart::slotIndexAt(const QPointF &pixel) const
{
    if (!m_plot->axisRect()->rect().contains(pixel.toPoint()))
        return -1;
    const double key = keyAxis()->pixelToCoord(pixel.y());
    const int index = qRound(key);
    const int count = m_mode == Mode::Runtime ? int(m_slots.size()) : int(m_speedups.size());
    if (index < 0 || index >= count || std::abs(key - index) > 0.45)
        return -1;
    return index;
}

QString RuntimeChart::runIdAt(const QPointF &pixel) const
{
    const int index = slotIndexAt(pixel);
    if (index < 0)
        return QString();
    if (m_mode == Mode::Runtime)
        return m_slots[index].run.origin == QLatin1String("worklog") ? QString() : m_slots[index].run.runId;
    // In the speedup panel a row is its measured run.
    return m_speedups[index].measuredSpeedup ? m_speedups[index].measuredRunId : QString();
}

QString RuntimeChart::tooltipAt(const QPointF &pixel) const
{
    const int index = slotIndexAt(pixel);
    if (index < 0)
        return QString();
    if (m_mode == Mode::Runtime) {
        const RuntimeSlot &slot = m_slots[index];
        QString text = runTooltip(slot.run);
        if (const auto cublas = cublasFp32Reference(plottedRuns());
            cublas && slot.plotted && slot.run.medianMs > 0 && cublas->runId != slot.run.runId)
            text += QStringLiteral("\n%1% of cuBLAS FP32 (%2)")
                        .arg(100.0 * cublas->medianMs / slot.run.medianMs, 0, 'f', 1)
                        .arg(formatMs(cublas->medianMs));
        // A tensor-core stage is measured against the tensor-core library too.
        const StageInfo *stage = findStage(slot.run.stage.key());
        if (const auto tf32 = cublasTf32Reference(plottedRuns());
            tf32 && stage && stage->precision == Precision::Tf32 && slot.plotted && slot.run.medianMs > 0 &&
            tf32->runId != slot.run.runId)
            text += QStringLiteral("\n%1% of cuBLAS TF32 (%2)")
                        .arg(100.0 * tf32->medianMs / slot.run.medianMs, 0, 'f', 1)
                        .arg(formatMs(tf32->medianMs));
        return text;
    }
    const SpeedupRow &row = m_speedups[index];
    const Preset *preset = findPreset(row.presetKey.toStdString());
    QString text = row.title;
    if (preset && preset->worklogT4Ms)
        text += QStringLiteral("\nworklog T4: %1, %2 over step 0")
                    .arg(formatMs(*preset->worklogT4Ms), speedupText(row.publishedSpeedup));
    if (row.measuredSpeedup)
        text += QStringLiteral("\nmeasured: %1 over step 0 (run %2)")
                    .arg(speedupText(*row.measuredSpeedup), row.measuredRunId);
    else
        text += QStringLiteral("\nmeasured: %1").arg(row.note);
    return text;
}

std::optional<QPointF> RuntimeChart::pixelOfRun(const QString &runId) const
{
    const QCPAxisRect *rect = m_plot->axisRect();
    // Just inside the bar's start: every bar, however short, covers it.
    const double x = rect->left() + 4;
    if (m_mode == Mode::Runtime) {
        if (const qsizetype row = m_slots.rowOf(runId); row >= 0)
            return QPointF(x, keyAxis()->coordToPixel(double(row)));
        return std::nullopt;
    }
    for (int i = 0; i < m_speedups.size(); ++i)
        if (m_speedups[i].measuredRunId == runId && m_speedups[i].measuredSpeedup)
            return QPointF(x, keyAxis()->coordToPixel(i));
    return std::nullopt;
}

} // namespace gemmscope
