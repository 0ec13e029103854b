#include "size_sweep_chart.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "plot_export.h"
#include "plot_theme.h"

#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

constexpr double kHitRadiusPx = 9;

QString sizeText(const ProblemSize &z)
{
    return QStringLiteral("%1x%2x%3").arg(z.m).arg(z.n).arg(z.k);
}

} // namespace

SizeSweepChart::SizeSweepChart(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("sizeSweepPlot"));
    m_plot->setMinimumSize(320, 240);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setNumberFormat(QStringLiteral("f"));
    m_plot->xAxis->setNumberPrecision(0);
    m_plot->yAxis->setLabel(tr("TFLOP/s"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("sizeSweepNote"));
    m_note->setTextFormat(Qt::PlainText); // host and GPU names come from files and runners
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 1);
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
    m_marked = 0;
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->xAxis->setLabel(tr("problem size (largest dimension, log 2)"));
    m_plot->xAxis->setRange(256, 16384);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    m_plot->xAxis->setTicker(ticker);
    m_plot->yAxis->setRange(0, 1);
    m_plot->legend->setVisible(false);
    m_note->setText(message);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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

void SizeSweepChart::setData(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    m_plan = plan;
    m_summary = summary;
    m_marked = 0;
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->legend->setVisible(true);
    const bool square = std::all_of(plan.spec.sizes.begin(), plan.spec.sizes.end(),
                                    [](const ProblemSize &z) { return z.m == z.n && z.n == z.k; });
    m_plot->xAxis->setLabel(square ? tr("problem size M = N = K (log 2)")
                                   : tr("problem size: largest dimension (log 2); hover for M x N x K"));
    double lo = 1e300, hi = 0, top = 0;
    for (const ProblemSize &z : plan.spec.sizes) {
        lo = std::min(lo, sizeCoordinate(z));
        hi = std::max(hi, sizeCoordinate(z));
    }
    QHash<QString, int> stageUses; // two presets of one stage: same colour, another dash pattern
    for (std::size_t si = 0; si < plan.spec.series.size(); ++si) {
        const QString stage = QString::fromStdString(plan.spec.series[si].stage.str());
        QCPGraph *g = m_plot->addGraph();
        g->setName(seriesLabel(plan, int(si)));
        const int use = stageUses[stage]++;
        const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
        g->setPen(QPen(stageColor(stage), 2, styles[use % 4]));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        for (const SizeSweepPoint &p : summary.points)
            if (p.series == int(si) && p.run) {
                g->addData(sizeCoordinate(p.size), p.run->tflops);
                top = std::max(top, p.run->tflops);
            }
    }
    // The marks: last wave barely started, and sizes the catalog refuses.
    QCPGraph *steps = m_plot->addGraph();
    steps->setName(tr("last wave barely started (wave quantization, see below)"));
    steps->setLineStyle(QCPGraph::lsNone);
    steps->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted,
                                           QPen(QColor(0xd6, 0x27, 0x28), 1.5), QBrush(Qt::NoBrush), 13));
    QCPGraph *refused = m_plot->addGraph();
    refused->setName(tr("refused by the catalog (hover for why)"));
    refused->setLineStyle(QCPGraph::lsNone);
    refused->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0x99, 0x99, 0x99), 1.5),
                                             QBrush(Qt::NoBrush), 8));
    for (const SizeSweepPoint &p : summary.points) {
        if (p.run && p.waveStep) {
            steps->addData(sizeCoordinate(p.size), p.run->tflops);
            ++m_marked;
        }
        if (!p.invalidReason.isEmpty())
            refused->addData(sizeCoordinate(p.size), 0);
    }
    if (steps->dataCount() == 0)
        steps->removeFromLegend();
    if (refused->dataCount() == 0)
        refused->removeFromLegend();
    if (lo > hi)
        lo = 256, hi = 16384;
    m_plot->xAxis->setRange(lo / 1.3, hi * 1.3);
    // A labelled tick at every power of two (QCPAxisTickerLog would label every other one).
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    for (double v = 1; v <= hi * 1.3; v *= 2)
        if (v >= lo / 1.3)
            ticks->addTick(v, v >= 1024 && std::fmod(v, 1024) == 0 ? QStringLiteral("%1K").arg(v / 1024)
                                                                   : QString::number(v));
    m_plot->xAxis->setTicker(ticks);
    m_plot->yAxis->setRange(top > 0 ? -0.03 * top : -0.03, top > 0 ? top * 1.1 : 1);

    // The note: what the marks mean, then each marked size.
    QStringList lines;
    const QStringList notes = sizeSweepWaveNotes(plan, summary);
    lines << tr("%1 of %2 runs answered%3. Hover a point for its numbers.")
                 .arg(summary.answered)
                 .arg(summary.valid)
                 .arg(summary.gpus.isEmpty() ? QString()
                                             : tr(" on ") + summary.gpus.join(QStringLiteral(", ")));
    if (!notes.isEmpty()) {
        lines << tr("▽ Wave quantization: a launch runs its thread blocks in waves of (SMs × resident blocks "
                    "per SM). Just past a whole number of waves the last wave holds only a few blocks, most "
                    "SMs idle through it, and TFLOP/s steps down:");
        for (const QString &n : notes)
            lines << QStringLiteral("   ▽ ") + n;
    } else if (summary.answered > 0) {
        lines << tr("No size ends with a nearly empty last wave (▽ would mark it: waves = tiles / (SMs × "
                    "resident blocks per SM) just above a whole number). cuBLAS has no tile count to model.");
    }
    m_note->setText(lines.join(QLatin1Char('\n')));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString SizeSweepChart::noteText() const
{
    return m_note->text();
}

QString SizeSweepChart::tooltip(int point) const
{
    const SizeSweepPoint &p = m_summary.points[point];
    QStringList lines{QStringLiteral("%1 at %2").arg(seriesLabel(m_plan, p.series), sizeText(p.size))};
    if (!p.invalidReason.isEmpty()) {
        lines << tr("Refused by the catalog, never run: %1").arg(p.invalidReason);
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

std::optional<QString> SizeSweepChart::exportTo(const QString &path)
{
    return exportPlot(m_plot, path);
}

} // namespace gemmscope
