#include "size_sweep_chart.h"

#include "empty_state.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "plot_export.h"
#include "run_color.h"
#include "run_record.h"
#include "size_axis_ticks.h"
#include "size_series_name.h"
#include "size_series_order.h"
#include "sweep_print_layout.h"

#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

constexpr double kHitRadiusPx = 9;

} // namespace

SizeSweepChart::SizeSweepChart(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("sizeSweepPlot"));
    m_plot->setMinimumSize(240, 140); // small: the window's minimum is every tab's
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setNumberFormat(QStringLiteral("f"));
    m_plot->xAxis->setNumberPrecision(0);
    m_plot->yAxis->setLabel(tr("TFLOP/s"));
    m_plot->legend->setVisible(true);
    m_plot->setAutoAddPlottableToLegend(false); // setData adds the first kLegendSeries itself
    placeLegendBelow(m_plot);
    // The legend at the application's font size, rows apart (placeLegendBelow's compact 7 pt rows
    // overprint each other and clip underscores).
    m_plot->legend->setFont(font());
    m_plot->legend->setRowSpacing(1);
    connect(m_plot, &QCustomPlot::beforeReplot, this, &SizeSweepChart::fitLegend);
    connect(m_plot, &QCustomPlot::afterLayout, this, &SizeSweepChart::fitSizeTicks);
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("sizeSweepNote"));
    m_note->setTextFormat(Qt::PlainText); // host and GPU names come from files and runners
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText); // host and GPU names come from files: data, never markup
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty = new EmptyState; // the look every empty pane has
    m_empty->setObjectName(QStringLiteral("sizeSweepEmptyState"));
    m_empty->setHeading(tr("Problem sizes: where each kernel reaches its plateau"));
    m_empty->textLabel()->setObjectName(QStringLiteral("sizeSweepEmpty"));
    m_empty->offerButton()->setObjectName(QStringLiteral("sizeSweepOpenDefault"));
    m_canvas = new QStackedWidget;
    m_canvas->addWidget(m_empty);
    m_canvas->addWidget(m_plot);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_note);
    m_interaction = new ChartInteraction(m_plot, [this](const QPointF &pixel) {
        const auto [point, tip] = pointAt(pixel);
        return ChartInteraction::Hit{point >= 0 ? QString::number(point) : QString(), tip};
    });
    clear(tr("No size sweep yet: choose stages or presets and sizes, then Start."));
}

double SizeSweepChart::sizeCoordinate(const ProblemSize &size)
{
    return double(std::max({size.m, size.n, size.k}));
}

void SizeSweepChart::clear(const QString &message)
{
    m_plan = {};
    m_summary = {};
    m_provenance.clear();
    m_curves.clear();
    m_steps = m_refused = nullptr;
    m_markedPoints.clear();
    m_seriesPlace.clear();
    m_top = m_bottom = 0;
    m_marked = 0;
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->xAxis->setLabel(tr("problem size (largest dimension, log 2)"));
    m_plot->xAxis->setRange(256, 16384);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    m_plot->xAxis->setTicker(ticker);
    m_sizeTicks.reset();
    m_sweptSizes.clear();
    m_plot->yAxis->setRange(0, 1);
    m_plot->legend->setVisible(false);
    // Text in the plot's place: empty axes would look like a measurement of nothing.
    m_empty->setText(message);
    m_canvas->setCurrentWidget(m_empty);
    m_note->clear();
    m_note->setVisible(false);
}

bool SizeSweepChart::showsPlot() const
{
    return m_canvas->currentWidget() == m_plot;
}

QString SizeSweepChart::emptyText() const
{
    return m_empty->text();
}

void SizeSweepChart::fitLegend()
{
    QCPLegend *legend = m_plot->legend;
    if (!legend->visible() || legend->itemCount() == 0)
        return;
    // The entries' widths (at most kLegendSeries + 3 of them, so trying every column count is a
    // constant cost); each item keeps room below its text, where an underscore is drawn.
    const QFontMetrics metrics(legend->font());
    const int extra = legend->iconSize().width() + legend->iconTextPadding() + 12;
    QList<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i))) {
            widths << metrics.horizontalAdvance(item->plottable()->name()) + extra;
            item->setMargins(QMargins(0, 0, 0, 2));
        }
    const int available = m_plot->viewport().width() - 16;
    const int columns = legendColumnsThatFit(widths, available, legend->columnSpacing());
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

void SizeSweepChart::fitSizeTicks()
{
    // After the layout, before the drawing: the axis' width is the one it is drawn at (a resize or
    // an export's print layout too). The labels' height is the same whichever are kept, so the
    // layout stands; only the ticks are set up again.
    const int width = m_plot->axisRect()->width();
    const QCPRange range = m_plot->xAxis->range();
    if (!m_sizeTicks ||
        (width == m_tickedWidth && range.lower == m_tickedRange.first && range.upper == m_tickedRange.second))
        return;
    m_tickedWidth = width;
    m_tickedRange = {range.lower, range.upper};
    m_sizeTicks->clear();
    for (const double size : sizeTicksThatFit(m_sweptSizes, range.lower, range.upper, width,
                                              QFontMetrics(m_plot->xAxis->tickLabelFont())))
        m_sizeTicks->addTick(size, sizeTickLabel(size));
    m_plot->axisRect()->update(QCPLayoutElement::upPreparation);
}

std::optional<QPointF> SizeSweepChart::coordinates(int point) const
{
    if (point < 0 || point >= m_summary.points.size())
        return std::nullopt;
    const SizeSweepPoint &p = m_summary.points[point];
    if (p.run)
        return QPointF(sizeCoordinate(p.size), p.run->tflops);
    if (!p.invalidReason.isEmpty())
        return QPointF(sizeCoordinate(p.size), 0);
    return std::nullopt;
}

void SizeSweepChart::setData(const SweepPlan &plan, const SizeSweepSummary &summary,
                             const QString &provenance)
{
    m_plan = plan;
    m_summary = summary;
    // Points of its own: a running sweep's summary changes point by point, and while the two
    // shared them the first change would copy every point (at a drawing, not here at the start).
    m_summary.points.detach();
    m_provenance = provenance;
    m_marked = 0;
    m_markedPoints.clear();
    m_top = m_bottom = 0;
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->legend->setVisible(true);
    m_canvas->setCurrentWidget(m_plot);
    m_note->setVisible(true);
    const bool square = std::all_of(plan.spec.sizes.begin(), plan.spec.sizes.end(),
                                    [](const ProblemSize &z) { return z.m == z.n && z.n == z.k; });
    m_plot->xAxis->setLabel(square ? tr("problem size M = N = K (log 2)")
                                   : tr("problem size: largest dimension (log 2); hover for M x N x K"));
    double lo = 1e300, hi = 0;
    for (const ProblemSize &z : plan.spec.sizes) {
        lo = std::min(lo, sizeCoordinate(z));
        hi = std::max(hi, sizeCoordinate(z));
    }
    // Each curve in its preset's colour in the Ladder (run_color.h): a stage's presets in its shades.
    // Two series of one stage also take another dash pattern: shades of a hue are close on a line.
    QHash<QString, int> stageUses;
    const std::size_t seriesCount = plan.spec.series.size();
    m_curves.clear();
    m_curves.reserve(qsizetype(seriesCount));
    for (std::size_t si = 0; si < seriesCount; ++si) {
        const QString stage = QString::fromStdString(plan.spec.series[si].stage.str());
        QCPGraph *g = m_plot->addGraph();
        // The table's short stage label, with the stage's name while the legend has room for it.
        g->setName(sizeSeriesName(plan, int(si),
                                  seriesCount <= std::size_t(kLegendLongNames) ? SeriesNaming::WithStageName
                                                                               : SeriesNaming::Short));
        const int use = stageUses[stage]++;
        const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
        const SizeSeries &series = plan.spec.series[si];
        g->setPen(QPen(presetColor(series.stage, QString::fromStdString(series.label)),
                       seriesCount > std::size_t(kLegendSeries) ? 1 : 2, styles[use % 4]));
        if (plan.spec.sizes.size() <= std::size_t(kSizesWithCircles))
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        m_curves << g;
    }
    // The legend in ladder order, the order the form's list of series has (size_series_order.h);
    // the curves stay in the plan's, which the points index.
    const std::vector<int> legendOrder = seriesInLadderOrder(plan.spec.series);
    for (std::size_t i = 0; i < std::min(seriesCount, std::size_t(kLegendSeries)); ++i)
        m_curves[legendOrder[i]]->addToLegend();
    m_seriesPlace.assign(seriesCount, 0);
    for (std::size_t i = 0; i < seriesCount; ++i)
        m_seriesPlace[std::size_t(legendOrder[i])] = int(i);
    // One pass over the points (series-major), each to its series' curve: linear in the points.
    for (const SizeSweepPoint &p : summary.points)
        if (p.run && p.series >= 0 && p.series < m_curves.size()) {
            m_curves[p.series]->addData(sizeCoordinate(p.size), p.run->tflops);
            m_top = std::max(m_top, p.run->tflops);
            if (p.run->tflops > 0)
                m_bottom = m_bottom > 0 ? std::min(m_bottom, p.run->tflops) : p.run->tflops;
        }
    if (seriesCount > std::size_t(kLegendSeries)) { // one entry for the curves the legend leaves out
        QCPGraph *more = m_plot->addGraph();
        more->setName(
            tr("… and %L1 more series (hover a curve for its name)").arg(seriesCount - kLegendSeries));
        more->setPen(QPen(QColor(0x88, 0x88, 0x88), 1, Qt::DotLine));
        more->addToLegend();
    }
    // The marks: last wave barely started, and sizes the catalog refuses.
    m_steps = m_plot->addGraph();
    m_steps->setName(tr("last wave barely started (wave quantization, see below)"));
    m_steps->setLineStyle(QCPGraph::lsNone);
    m_steps->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted,
                                             QPen(QColor(0xd6, 0x27, 0x28), 1.5), QBrush(Qt::NoBrush), 13));
    m_refused = m_plot->addGraph();
    m_refused->setName(tr("refused by the stage's rules (hover for why)"));
    m_refused->setLineStyle(QCPGraph::lsNone);
    m_refused->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0x99, 0x99, 0x99), 1.5),
                                               QBrush(Qt::NoBrush), 8));
    // Collected, then added at once (one sort): added one by one out of key order, each point
    // would shift the ones after it.
    QVector<double> stepKeys, stepValues, refusedKeys;
    for (int i = 0; i < summary.points.size(); ++i) {
        const SizeSweepPoint &p = summary.points[i];
        if (p.run && p.waveStep) {
            stepKeys << sizeCoordinate(p.size);
            stepValues << p.run->tflops;
            m_markedPoints << i;
            ++m_marked;
        }
        if (!p.invalidReason.isEmpty())
            refusedKeys << sizeCoordinate(p.size);
    }
    m_steps->addData(stepKeys, stepValues);
    m_refused->addData(refusedKeys, QVector<double>(refusedKeys.size(), 0.0));
    if (m_steps->dataCount() > 0)
        m_steps->addToLegend();
    if (m_refused->dataCount() > 0)
        m_refused->addToLegend();
    if (lo > hi)
        lo = 256, hi = 16384;
    m_plot->xAxis->setRange(lo / 1.3, hi * 1.3);
    // A labelled tick at every swept size (QCPAxisTickerLog would label every other power of two,
    // and none of the 1.5x sizes the note names), as many as the plot's width holds: fitSizeTicks.
    m_sweptSizes.clear();
    for (const ProblemSize &z : plan.spec.sizes)
        m_sweptSizes.push_back(sizeCoordinate(z));
    std::sort(m_sweptSizes.begin(), m_sweptSizes.end());
    m_sweptSizes.erase(std::unique(m_sweptSizes.begin(), m_sweptSizes.end()), m_sweptSizes.end());
    m_sizeTicks.reset(new QCPAxisTickerText);
    m_tickedWidth = -1;
    m_plot->xAxis->setTicker(m_sizeTicks);
    setTop(m_top);
    writeNote();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool SizeSweepChart::updatePoints(const SizeSweepSummary &summary, const QList<int> &changed,
                                  const QString &provenance)
{
    if (!showsPlot() || summary.points.size() != m_summary.points.size())
        return false;
    // A point drawn before keeps its place (a new baseline changes its % of cuBLAS only); one that
    // moved would have to be found among its curve's points: drawn whole instead (rare: a running
    // sweep runs each point until it finishes, once).
    for (const int i : changed) {
        const SizeSweepPoint &was = m_summary.points[i], &now = summary.points[i];
        if (was.run && !(now.run && now.run->tflops == was.run->tflops && now.waveStep == was.waveStep))
            return false;
    }
    for (const int i : changed) {
        const bool drawn = m_summary.points[i].run.has_value();
        const SizeSweepPoint &now = (m_summary.points[i] = summary.points[i]);
        if (drawn || !now.run || now.series < 0 || now.series >= m_curves.size())
            continue;
        // Sizes answer mostly in order: each lands at (or near) the end of its curve.
        m_curves[now.series]->addData(sizeCoordinate(now.size), now.run->tflops);
        m_top = std::max(m_top, now.run->tflops);
        if (now.run->tflops > 0)
            m_bottom = m_bottom > 0 ? std::min(m_bottom, now.run->tflops) : now.run->tflops;
        if (now.waveStep)
            markStep(i);
    }
    m_summary.answered = summary.answered;
    m_summary.valid = summary.valid;
    m_summary.gpus = summary.gpus;
    m_provenance = provenance;
    setTop(m_top);
    writeNote();
    m_plot->replot(QCustomPlot::rpQueuedReplot); // at most once per turn of the event loop
    return true;
}

void SizeSweepChart::markStep(int point)
{
    const SizeSweepPoint &p = m_summary.points[point];
    m_steps->addData(sizeCoordinate(p.size), p.run->tflops);
    m_markedPoints.insert(std::lower_bound(m_markedPoints.begin(), m_markedPoints.end(), point), point);
    ++m_marked;
    if (m_steps->dataCount() == 1) { // its legend entry, before the refused sizes' as setData has it
        const bool refusedShown = m_refused->removeFromLegend();
        m_steps->addToLegend();
        if (refusedShown)
            m_refused->addToLegend();
    }
}

void SizeSweepChart::setTop(double top)
{
    // Tensor-core curves at 400 TFLOP/s pressed the FP32 ones at 5-60 into the bottom tenth of a
    // linear axis: where the curves span more than 10x, a log axis gives each its shape. The
    // refused sizes' crosses sit on the axis either way (at its bottom on a log one).
    QCPAxis *axis = m_plot->yAxis;
    const bool log = top > 0 && m_bottom > 0 && top / m_bottom > kLogSpread;
    if (log != (axis->scaleType() == QCPAxis::stLogarithmic)) {
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (log) {
            QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
            ticker->setSubTickCount(8);
            axis->setTicker(ticker);
            axis->setNumberFormat(QStringLiteral("gb"));
        } else {
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
            axis->setNumberFormat(QStringLiteral("gb"));
        }
        axis->setLabel(log ? tr("TFLOP/s (log scale)") : tr("TFLOP/s"));
    }
    if (log)
        axis->setRange(m_bottom / 1.6, top * 1.4);
    else
        axis->setRange(top > 0 ? -0.03 * top : -0.03, top > 0 ? top * 1.1 : 1);
    if (m_refused) {
        const double onAxis = log ? axis->range().lower * 1.05 : 0.0;
        for (auto it = m_refused->data()->begin(); it != m_refused->data()->end(); ++it)
            it->value = onAxis;
    }
}

void SizeSweepChart::writeNote()
{
    // What the marks mean, then the first marked sizes: at most kNotedSteps, whatever the sweep's size.
    QStringList lines;
    lines << tr("%1 of %2 runs answered%3. Hover a point for its numbers.")
                 .arg(m_summary.answered)
                 .arg(m_summary.valid)
                 .arg(!m_provenance.isEmpty()    ? QStringLiteral(", ") + m_provenance
                      : m_summary.gpus.isEmpty() ? QString()
                                                 : tr(" on ") + m_summary.gpus.join(QStringLiteral(", ")));
    if (!m_markedPoints.isEmpty()) {
        lines << tr("▽ Wave quantization: a launch runs its thread blocks in waves of (SMs × resident blocks "
                    "per SM). Just past a whole number of waves the last wave holds only a few blocks, most "
                    "SMs idle through it, and TFLOP/s steps down:");
        // The first marked sizes in the legend's order: its series in ladder order, then by size
        // (a partial sort: the work stays linear in the marked points however many there are).
        const auto place = [this](int point) {
            const int series = m_summary.points[point].series;
            return std::pair(series >= 0 && std::size_t(series) < m_seriesPlace.size()
                                 ? m_seriesPlace[std::size_t(series)]
                                 : int(m_seriesPlace.size()),
                             point);
        };
        std::vector<int> noted(std::size_t(std::min<qsizetype>(m_markedPoints.size(), kNotedSteps)));
        std::partial_sort_copy(m_markedPoints.cbegin(), m_markedPoints.cend(), noted.begin(), noted.end(),
                               [&place](int a, int b) { return place(a) < place(b); });
        for (const int point : noted) {
            // The series by the legend's short name ("+wgmma"), not its preset's key.
            const SizeSweepPoint &p = m_summary.points[point];
            lines << QStringLiteral("   ▽ %1 at %2: %3")
                         .arg(sizeSeriesName(m_plan, p.series, SeriesNaming::Short),
                              squareOrFullSizeText(p.size), QString::fromStdString(p.waves->sentence()));
        }
        if (m_markedPoints.size() > kNotedSteps)
            lines << tr("   … and %L1 more marked sizes (hover a ▽, or export the points as CSV)")
                         .arg(m_markedPoints.size() - kNotedSteps);
    } else if (m_summary.answered > 0) {
        lines << tr("No size ends with a nearly empty last wave (▽ would mark it: waves = tiles / (SMs × "
                    "resident blocks per SM) just above a whole number). cuBLAS has no tile count to model.");
    }
    m_note->setText(lines.join(QLatin1Char('\n')));
}

QString SizeSweepChart::noteText() const
{
    return m_note->text();
}

QString SizeSweepChart::tooltip(int point) const
{
    const SizeSweepPoint &p = m_summary.points[point];
    QStringList lines{QStringLiteral("%1 at %2")
                          .arg(sizeSeriesName(m_plan, p.series, SeriesNaming::WithStageName),
                               squareOrFullSizeText(p.size))};
    if (!p.invalidReason.isEmpty()) {
        lines << tr("Refused by the stage's rules, never run: %1").arg(p.invalidReason);
        return lines.join(QLatin1Char('\n'));
    }
    if (p.run) {
        const RunRecord &r = *p.run;
        lines << tr("%1 TFLOP/s, median %2 ms (p20 %3, p80 %4, %5 repetitions)")
                     .arg(r.tflops, 0, 'f', 2)
                     .arg(r.medianMs, 0, 'f', 4)
                     .arg(r.p20Ms, 0, 'f', 4)
                     .arg(r.p80Ms, 0, 'f', 4)
                     .arg(r.count);
        if (p.pctOfCublas)
            lines << tr("%1 % of cuBLAS FP32 at this size on the same GPU").arg(*p.pctOfCublas, 0, 'f', 1);
        if (p.waves)
            lines << tr("%1 blocks, %2 per SM at once on %3 SMs: %4")
                         .arg(p.waves->blocks)
                         .arg(p.waves->blocksPerWave / p.waves->sms)
                         .arg(p.waves->sms)
                         .arg(QString::fromStdString(p.waves->sentence()));
        if (p.waveStep)
            lines << tr("▽ The last wave barely started: its SMs idle most of it, so only %1 % of the "
                        "launch's SM time does work.")
                         .arg(100 * p.waves->waveEfficiency(), 0, 'f', 0);
        lines << tr("on %1 %2").arg(r.host, r.gpuName);
    } else if (!p.failureKind.isEmpty()) {
        lines << tr("Failed (%1): %2").arg(p.failureKind, p.failureMessage);
    }
    return lines.join(QLatin1Char('\n'));
}

std::optional<QPointF> SizeSweepChart::pointPixel(int point) const
{
    const auto c = coordinates(point);
    if (!c)
        return std::nullopt;
    return QPointF(m_plot->xAxis->coordToPixel(c->x()), m_plot->yAxis->coordToPixel(c->y()));
}

std::pair<int, QString> SizeSweepChart::pointAt(const QPointF &pixel) const
{
    int best = -1;
    double bestDist = kHitRadiusPx;
    for (int i = 0; i < m_summary.points.size(); ++i) {
        const auto at = pointPixel(i);
        if (!at)
            continue;
        const double d = std::hypot(at->x() - pixel.x(), at->y() - pixel.y());
        if (d <= bestDist) {
            bestDist = d;
            best = i;
        }
    }
    return {best, best >= 0 ? tooltip(best) : QString()};
}

std::optional<QString> SizeSweepChart::exportTo(const QString &path, const QString &title)
{
    if (!showsPlot())
        return tr("There is no size sweep to export: the problem-size plot shows none yet (choose one in "
                  "its list, or run one).");
    QString note = m_note->text(); // on paper nothing can be hovered
    note.remove(tr(" Hover a point for its numbers."));
    note.replace(tr(" (hover a ▽, or export the points as CSV)"), QString());
    return exportSweepPlot(m_plot, path, title, note, [this] { fitLegend(); });
}

} // namespace gemmscope
