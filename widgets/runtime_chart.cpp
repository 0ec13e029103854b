#include "runtime_chart.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "chart_text.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "stage_catalog.h"

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
#include <qcustomplot.h>

namespace gemmscope {

namespace {

constexpr double kBarWidth = 0.7;
constexpr double kSpeedupBarWidth = 0.38;
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

QString stageTitle(const QString &key)
{
    const StageInfo *stage = findStage(key.toStdString());
    return stage ? QString::fromStdString(stage->title) : key;
}

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
    controls->addWidget(m_groupCombo, 1);
    controls->addWidget(m_viewCombo);
    controls->addWidget(m_logCheck);
    placeLegendBelow(m_plot);
    m_plot->xAxis->setTickLabelFont(QFont(font().family(), 8));
    connectInteraction(
        [this](const QPointF &pixel) {
            return ChartInteraction::Hit{runIdAt(pixel), tooltipAt(pixel)};
        },
        [this](QMenu &menu) { fillContextMenu(menu); });
    // Value labels that would overprint a neighbour hide (the tooltip still gives the value). A
    // replot from inside afterReplot is ignored by QCustomPlot, so the new frame is queued.
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (!m_valueLabels.isEmpty() && hideOverlapping(m_plot, m_valueLabels))
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
    for (const RunGroup &group : groups)
        m_groupCombo->addItem(group.label(), group.key());
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
    // One horizontal label per bar while they fit; vertical (still one per bar) when they do not.
    const int count = m_mode == Mode::Runtime ? int(m_slots.size()) : int(m_speedups.size());
    if (count == 0)
        return;
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    int widest = 0;
    if (auto ticker = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>())
        for (const QString &text : ticker->ticks())
            widest = std::max(widest, metrics.horizontalAdvance(text));
    const double perBar = double(std::max(100, m_plot->viewport().width() - 70)) / count;
    m_plot->xAxis->setTickLabelRotation(perBar < widest + 6 ? -90 : 0);
}

void RuntimeChart::setRuns(const QList<RunRecord> &runs)
{
    m_runs = runs;
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
    m_plot->clearItems(); // first: tracers point at the graphs cleared next
    m_plot->clearPlottables();
    m_runBars.clear();
    m_whiskers.clear();
    m_failureMarkers.clear();
    m_selectionBar = nullptr;
    m_referenceLine = nullptr;
    m_publishedBars = nullptr;
    m_measuredBars = nullptr;
    m_valueLabels.clear();
    m_slots.clear();
    m_speedups.clear();
    if (!m_logChosen) {
        // Log only when groups are mixed and far apart; one group reads best on a linear axis.
        const QList<RunRecord> runs = plottedRuns();
        double lo = 0, hi = 0;
        for (const RunRecord &run : runs)
            if (run.status == RunStatus::Ok && run.medianMs > 0) {
                lo = lo > 0 ? std::min(lo, run.medianMs) : run.medianMs;
                hi = std::max(hi, run.medianMs);
            }
        const bool mixed = runGroups(runs).size() > 1;
        m_logScale = m_mode == Mode::Runtime && mixed && lo > 0 && hi / lo > kLogSpan;
    }
    if (m_mode == Mode::Runtime)
        buildRuntime();
    else
        buildSpeedup();
    syncControls();
    fitToWidth();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RuntimeChart::configureValueAxis(double lowest, double highest, const QString &label)
{
    QCPAxis *y = m_plot->yAxis;
    y->setLabel(label);
    if (m_logScale) {
        useLogTicks125(y);
        const double lo = lowest > 0 ? lowest / 2 : 0.1;
        y->setRange(lo, std::max(highest * 2, lo * 10));
    } else {
        y->setScaleType(QCPAxis::stLinear);
        y->setTicker(QSharedPointer<QCPAxisTicker>::create());
        y->setNumberFormat(QStringLiteral("g"));
        y->setRange(0, highest > 0 ? highest * 1.15 : 1);
    }
}

void RuntimeChart::buildRuntime()
{
    const QList<RunRecord> runs = plottedRuns();
    m_slots = runtimeSlots(runs, m_valueMode);
    const QString what =
        m_valueMode == RuntimeValue::Milliseconds ? QStringLiteral("Runtime") : QStringLiteral("Throughput");
    const QList<RunGroup> runGroupList = runGroups(runs);
    m_fullTitle = runGroupList.size() == 1 ? QStringLiteral("%1: %2").arg(what, runGroupList.first().label())
                                           : QStringLiteral("%1 per run").arg(what);

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(m_printing
                                ? QStringLiteral("worklog step / preset (+: past the worklog)")
                                : QStringLiteral("step / preset (+: past the worklog; hover for names)"));
    m_plot->xAxis->setRange(-0.6, std::max<qsizetype>(m_slots.size(), 1) - 0.4);

    if (m_slots.isEmpty()) {
        auto *hint = new QCPItemText(m_plot);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        hint->setText(QStringLiteral("No runs yet: run a stage or load a session."));
        hint->setColor(Qt::gray);
        configureValueAxis(0, 0, QString());
        return;
    }

    // One QCPBars per stage (and per published/measured origin) so the legend names stages.
    QMap<QString, QCPBars *> groups;
    double lowest = 0, highest = 0;
    const qsizetype stride = (m_slots.size() + kMaxLabelledBars - 1) / kMaxLabelledBars;
    for (int i = 0; i < m_slots.size(); ++i) {
        const RuntimeSlot &slot = m_slots[i];
        if (i % stride == 0)
            ticker->addTick(i, slot.label);
        if (!slot.plotted && stride > 1)
            continue; // no room for a mark per failure: the table lists them
        if (!slot.plotted) {
            auto *marker = new QCPItemText(m_plot);
            marker->position->setTypeX(QCPItemPosition::ptPlotCoords);
            marker->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            marker->position->setCoords(i, 1.0);
            marker->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            marker->setText(QStringLiteral("\u2715\n%1").arg(slot.failure));
            marker->setColor(wrongResultColor());
            marker->setFont(QFont(font().family(), 9, QFont::Bold));
            marker->setClipToAxisRect(false);
            m_failureMarkers.append(marker);
            continue;
        }
        const bool published = slot.run.origin == QLatin1String("worklog");
        const QString groupKey = slot.run.stage + (published ? QStringLiteral("|worklog") : QString());
        QCPBars *bars = groups.value(groupKey);
        if (!bars) {
            bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
            bars->setName(stageTitle(slot.run.stage) +
                          (published ? QStringLiteral(" (T4, worklog)") : QString()));
            bars->setWidth(kBarWidth);
            const QColor color = stageColor(slot.run.stage);
            bars->setPen(QPen(color.darker(130)));
            bars->setBrush(published ? QBrush(color, Qt::BDiagPattern) : QBrush(color.lighter(115)));
            auto *whisker = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
            whisker->removeFromLegend();
            whisker->setDataPlottable(bars);
            whisker->setPen(QPen(Qt::black, 1));
            whisker->setWhiskerWidth(8);
            groups.insert(groupKey, bars);
            m_runBars.append(bars);
            m_whiskers.append(whisker);
        }
        bars->addData(i, slot.value);
        m_whiskers[m_runBars.indexOf(bars)]->addData(slot.value - slot.low, slot.high - slot.value);
        lowest = lowest > 0 ? std::min(lowest, slot.low) : slot.low;
        highest = std::max(highest, slot.high);
        if (!m_printing && slot.run.runId == m_selectedRunId && !m_selectedRunId.isEmpty()) {
            m_selectionBar = new QCPBars(m_plot->xAxis, m_plot->yAxis);
            m_selectionBar->setName(QStringLiteral("selected"));
            m_selectionBar->removeFromLegend();
            m_selectionBar->setWidth(kBarWidth + 0.08);
            m_selectionBar->setBrush(Qt::NoBrush);
            m_selectionBar->setPen(QPen(kSelectionColor, 2.5));
            m_selectionBar->addData(i, slot.value);
        }
    }
    for (QCPItemText *marker : std::as_const(m_failureMarkers))
        if (!m_printing && m_slots[int(marker->position->key())].run.runId == m_selectedRunId &&
            !m_selectedRunId.isEmpty())
            marker->setPen(QPen(kSelectionColor, 2));

    if (const std::optional<RunRecord> cublas = cublasFp32Reference(runs)) {
        const double value =
            m_valueMode == RuntimeValue::Milliseconds
                ? cublas->medianMs
                : (cublas->tflops > 0 ? cublas->tflops : tflopsAt(*cublas, cublas->medianMs));
        m_referenceLine = new QCPItemStraightLine(m_plot);
        m_referenceLine->point1->setCoords(0, value);
        m_referenceLine->point2->setCoords(1, value);
        m_referenceLine->setPen(QPen(stageColor(QStringLiteral("cublas_fp32")), 1.5, Qt::DashLine));
        // At the right end, above the line: over the cuBLAS bars, the shortest ones, not the tall
        // naive bars on the left.
        auto *label = new QCPItemText(m_plot);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.995, value);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setFont(QFont(font().family(), 8));
        label->setBrush(QColor(255, 255, 255, 200));
        label->setPadding(QMargins(2, 0, 2, 1));
        label->setText(
            QStringLiteral("cuBLAS FP32 %1")
                .arg(m_valueMode == RuntimeValue::Milliseconds ? formatMs(value) : formatTflops(value)));
        label->setColor(stageColor(QStringLiteral("cublas_fp32")));
        lowest = lowest > 0 ? std::min(lowest, value) : value;
        highest = std::max(highest, value);
    }
    // Legend entries for what is not a stage's bars: the whiskers, the cuBLAS line, the failure mark.
    const auto keyGraph = [this](const QString &name, const QPen &pen) {
        QCPGraph *graph = m_plot->addGraph();
        graph->setName(name);
        graph->setPen(pen);
        return graph;
    };
    if (!m_runBars.isEmpty())
        keyGraph(QStringLiteral("whisker: p20–p80"), QPen(Qt::black, 1))
            ->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle, 0));
    if (m_referenceLine)
        keyGraph(QStringLiteral("cuBLAS FP32 (same GPU, size)"),
                 QPen(stageColor(QStringLiteral("cublas_fp32")), 1.5, Qt::DashLine));
    if (!m_failureMarkers.isEmpty())
        keyGraph(QStringLiteral("\u2715 failed: no time"), QPen(wrongResultColor(), 2));
    if (std::any_of(m_runBars.cbegin(), m_runBars.cend(),
                    [](QCPBars *b) { return b->brush().style() == Qt::BDiagPattern; })) {
        auto *hatch = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        hatch->setName(QStringLiteral("hatched: published"));
        hatch->setBrush(QBrush(Qt::darkGray, Qt::BDiagPattern));
        hatch->setPen(QPen(Qt::darkGray));
    }
    configureValueAxis(lowest, highest,
                       m_valueMode == RuntimeValue::Milliseconds
                           ? QStringLiteral("median ms, whiskers p20–p80")
                           : QStringLiteral("TFLOP/s at the median, whiskers at p80-p20 times"));
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

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(QStringLiteral("worklog step (same parameters as its preset)"));
    m_plot->xAxis->setRange(-0.6, std::max<qsizetype>(m_speedups.size(), 1) - 0.4);

    auto *group = new QCPBarsGroup(m_plot);
    m_publishedBars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_publishedBars->setName(QStringLiteral("T4, published in the worklog"));
    m_publishedBars->setBrush(QBrush(kPublishedColor.lighter(150)));
    m_publishedBars->setPen(QPen(kPublishedColor.darker(120)));
    m_measuredBars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_measuredBars->setName(gpu.isEmpty() ? QStringLiteral("this GPU, measured")
                                          : gpu + QStringLiteral(", measured"));
    m_measuredBars->setBrush(QBrush(kMeasuredColor.lighter(130)));
    m_measuredBars->setPen(QPen(kMeasuredColor.darker(120)));
    for (QCPBars *bars : {m_publishedBars, m_measuredBars}) {
        bars->setWidth(kSpeedupBarWidth);
        bars->setBarsGroup(group);
    }

    double lowest = 0, highest = 0;
    auto addValueLabel = [&](double key, double value, const QString &text, const QColor &color) {
        auto *label = new QCPItemText(m_plot);
        label->position->setCoords(key, value);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(text);
        label->setColor(color);
        label->setFont(QFont(font().family(), 8));
        label->setPadding(QMargins(0, 0, 0, 1));
        return label;
    };
    QList<QCPItemText *> publishedLabels, measuredLabels;
    for (int i = 0; i < m_speedups.size(); ++i) {
        const SpeedupRow &row = m_speedups[i];
        ticker->addTick(i, shortPresetLabel(row.presetKey).isEmpty() ? row.label
                                                                     : shortPresetLabel(row.presetKey));
        m_publishedBars->addData(i, row.publishedSpeedup);
        publishedLabels << addValueLabel(i - kSpeedupBarWidth / 2, row.publishedSpeedup,
                                         speedupText(row.publishedSpeedup), kPublishedColor.darker(150));
        lowest = lowest > 0 ? std::min(lowest, row.publishedSpeedup) : row.publishedSpeedup;
        highest = std::max(highest, row.publishedSpeedup);
        if (row.measuredSpeedup) {
            m_measuredBars->addData(i, *row.measuredSpeedup);
            measuredLabels << addValueLabel(i + kSpeedupBarWidth / 2, *row.measuredSpeedup,
                                            speedupText(*row.measuredSpeedup), kMeasuredColor.darker(150));
            lowest = std::min(lowest, *row.measuredSpeedup);
            highest = std::max(highest, *row.measuredSpeedup);
        } else {
            auto *missing = new QCPItemText(m_plot);
            missing->position->setTypeX(QCPItemPosition::ptPlotCoords);
            missing->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            missing->position->setCoords(i + kSpeedupBarWidth / 2, 0.98);
            missing->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            missing->setText(QStringLiteral("not run"));
            missing->setColor(Qt::gray);
            missing->setFont(QFont(font().family(), 7));
        }
        if (!m_printing && !row.measuredRunId.isEmpty() && row.measuredRunId == m_selectedRunId &&
            row.measuredSpeedup) {
            m_selectionBar = new QCPBars(m_plot->xAxis, m_plot->yAxis);
            m_selectionBar->removeFromLegend();
            m_selectionBar->setWidth(kSpeedupBarWidth);
            m_selectionBar->setBrush(Qt::NoBrush);
            m_selectionBar->setPen(QPen(kSelectionColor, 2.5));
            m_selectionBar->addData(i + kSpeedupBarWidth / 2, *row.measuredSpeedup);
        }
    }
    // The measured values first: where two would overprint, the published one gives way.
    m_valueLabels = measuredLabels + publishedLabels;
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
    const double key = m_plot->xAxis->pixelToCoord(pixel.x());
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
    // In the speedup panel only the measured (right-hand) bar belongs to a run.
    const double key = m_plot->xAxis->pixelToCoord(pixel.x());
    return key >= index && m_speedups[index].measuredSpeedup ? m_speedups[index].measuredRunId : QString();
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
        const StageInfo *stage = findStage(slot.run.stage.toStdString());
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
    if (m_mode == Mode::Runtime) {
        for (int i = 0; i < m_slots.size(); ++i) {
            if (m_slots[i].run.runId != runId)
                continue;
            const double y =
                m_slots[i].plotted ? m_plot->yAxis->coordToPixel(m_slots[i].value) : rect->bottom() - 5;
            return QPointF(m_plot->xAxis->coordToPixel(i),
                           std::clamp<double>(y + 3, rect->top(), rect->bottom() - 2));
        }
        return std::nullopt;
    }
    for (int i = 0; i < m_speedups.size(); ++i)
        if (m_speedups[i].measuredRunId == runId && m_speedups[i].measuredSpeedup)
            return QPointF(m_plot->xAxis->coordToPixel(i + kSpeedupBarWidth / 2), rect->bottom() - 3);
    return std::nullopt;
}

} // namespace gemmscope
