#include "runtime_chart.h"

#include "chart_layout.h"
#include "chart_text.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "stage_catalog.h"

#include <QMap>
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

RuntimeChart::RuntimeChart(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setObjectName(QStringLiteral("runtimePlot"));
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), 11, QFont::Bold)));
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    placeLegendBesidePlot(m_plot);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &RuntimeChart::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &RuntimeChart::onMousePress);
    rebuild();
}

void RuntimeChart::setRuns(const QList<RunRecord> &runs)
{
    m_runs = runs;
    rebuild();
}

void RuntimeChart::setSelectedRun(const QString &runId)
{
    if (runId == m_selectedRunId)
        return;
    m_selectedRunId = runId;
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

std::optional<QString> RuntimeChart::exportTo(const QString &path)
{
    m_plot->replot(QCustomPlot::rpImmediateRefresh); // a queued replot may still be pending
    return exportPlot(m_plot, path);
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
    m_slots.clear();
    m_speedups.clear();
    if (m_mode == Mode::Runtime)
        buildRuntime();
    else
        buildSpeedup();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RuntimeChart::configureValueAxis(double lowest, double highest, const QString &label)
{
    QCPAxis *y = m_plot->yAxis;
    y->setLabel(label);
    if (m_logScale) {
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        y->setNumberFormat(QStringLiteral("gb"));
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
    m_slots = runtimeSlots(m_runs, m_valueMode);
    auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0));
    const QString gpu = measuredGpuName(m_runs);
    title->setText(gpu.isEmpty() ? QStringLiteral("Runtime per run")
                                 : QStringLiteral("Runtime per run on %1").arg(gpu));

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(m_slots.size() > 6 ? 60 : 0);
    m_plot->xAxis->setLabel(QString());
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
    for (int i = 0; i < m_slots.size(); ++i) {
        const RuntimeSlot &slot = m_slots[i];
        ticker->addTick(i, slot.label);
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
        if (slot.run.runId == m_selectedRunId && !m_selectedRunId.isEmpty()) {
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
        if (m_slots[int(marker->position->key())].run.runId == m_selectedRunId && !m_selectedRunId.isEmpty())
            marker->setPen(QPen(kSelectionColor, 2));

    if (const std::optional<RunRecord> cublas = cublasFp32Reference(m_runs)) {
        const double value =
            m_valueMode == RuntimeValue::Milliseconds
                ? cublas->medianMs
                : (cublas->tflops > 0 ? cublas->tflops : tflopsAt(*cublas, cublas->medianMs));
        m_referenceLine = new QCPItemStraightLine(m_plot);
        m_referenceLine->point1->setCoords(0, value);
        m_referenceLine->point2->setCoords(1, value);
        m_referenceLine->setPen(QPen(stageColor(QStringLiteral("cublas_fp32")), 1.5, Qt::DashLine));
        auto *label = new QCPItemText(m_plot);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.01, value);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setText(
            QStringLiteral("cuBLAS FP32: %1")
                .arg(m_valueMode == RuntimeValue::Milliseconds ? formatMs(value) : formatTflops(value)));
        label->setColor(stageColor(QStringLiteral("cublas_fp32")));
        lowest = lowest > 0 ? std::min(lowest, value) : value;
        highest = std::max(highest, value);
    }
    configureValueAxis(lowest, highest,
                       m_valueMode == RuntimeValue::Milliseconds
                           ? QStringLiteral("median time (ms), whiskers p20-p80")
                           : QStringLiteral("TFLOP/s at the median, whiskers at p80-p20 times"));
}

void RuntimeChart::buildSpeedup()
{
    m_speedups = speedupOverNaive(m_runs);
    auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0));
    const QString gpu = measuredGpuName(m_runs);
    title->setText(QStringLiteral("Speedup over the naive kernel: the worklog's T4 vs %1")
                       .arg(gpu.isEmpty() ? QStringLiteral("this GPU") : gpu));

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(0);
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
    };
    for (int i = 0; i < m_speedups.size(); ++i) {
        const SpeedupRow &row = m_speedups[i];
        ticker->addTick(i, row.label);
        m_publishedBars->addData(i, row.publishedSpeedup);
        addValueLabel(i - kSpeedupBarWidth / 2, row.publishedSpeedup, speedupText(row.publishedSpeedup),
                      kPublishedColor.darker(150));
        lowest = lowest > 0 ? std::min(lowest, row.publishedSpeedup) : row.publishedSpeedup;
        highest = std::max(highest, row.publishedSpeedup);
        if (row.measuredSpeedup) {
            m_measuredBars->addData(i, *row.measuredSpeedup);
            addValueLabel(i + kSpeedupBarWidth / 2, *row.measuredSpeedup, speedupText(*row.measuredSpeedup),
                          kMeasuredColor.darker(150));
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
        if (!row.measuredRunId.isEmpty() && row.measuredRunId == m_selectedRunId && row.measuredSpeedup) {
            m_selectionBar = new QCPBars(m_plot->xAxis, m_plot->yAxis);
            m_selectionBar->removeFromLegend();
            m_selectionBar->setWidth(kSpeedupBarWidth);
            m_selectionBar->setBrush(Qt::NoBrush);
            m_selectionBar->setPen(QPen(kSelectionColor, 2.5));
            m_selectionBar->addData(i + kSpeedupBarWidth / 2, *row.measuredSpeedup);
        }
    }
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
        if (const auto cublas = cublasFp32Reference(m_runs);
            cublas && slot.plotted && slot.run.medianMs > 0 && cublas->runId != slot.run.runId)
            text += QStringLiteral("\n%1% of cuBLAS FP32 (%2)")
                        .arg(100.0 * cublas->medianMs / slot.run.medianMs, 0, 'f', 1)
                        .arg(formatMs(cublas->medianMs));
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

void RuntimeChart::onMouseMove(QMouseEvent *event)
{
    const QString text = tooltipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void RuntimeChart::onMousePress(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QString runId = runIdAt(event->position());
    if (!runId.isEmpty())
        emit runClicked(runId);
}

} // namespace gemmscope
