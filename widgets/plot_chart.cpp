#include "plot_chart.h"

#include "plot_export.h"
#include "turn_queue.h"

#include <QAction>
#include <QHBoxLayout>
#include <QMenu>
#include <QVBoxLayout>
#include <qcustomplot.h>
#include <utility>

namespace gemmscope {

PlotChart::PlotChart(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    // A replot draws into QCustomPlot's buffers and asks Qt for a paint (update()), which Qt merges
    // with the window's other dirty regions in one later paint event. QCustomPlot's default,
    // repaint() at once, painted the window's dirty regions inside the replot: one event of 14-21 ms
    // of the UI thread per finished run on the H200 host with a big session.
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_printing)
            m_printAxisRect = m_plot->axisRect()->rect();
    });
}

void PlotChart::setSelectedRun(const QString &runId)
{
    if (runId == m_selectedRunId)
        return;
    m_selectedRunId = runId;
    showSelection();
}

void PlotChart::setLegendVisible(bool on)
{
    m_legendWanted = on;
    fitToWidth();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotChart::legendShown() const
{
    return m_plot->legend->visible();
}

std::optional<QString> PlotChart::exportTo(const QString &path)
{
    m_printing = true;
    rebuild();
    const std::optional<QString> error = exportPlotAt(m_plot, path, kPrintSize, [this] { fitToWidth(); });
    m_printing = false;
    rebuild();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    return error;
}

void PlotChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitToWidth();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotChart::adoptRuns(const QList<RunRecord> &runs)
{
    m_sharedRuns = runs;
    m_runCount = runs.size();
}

void PlotChart::runsAboutToChange()
{
    m_sharedRuns = QList<RunRecord>();
}

bool PlotChart::followRuns(const QList<RunRecord> &runs, RunChange change, qsizetype index)
{
    const qsizetype before = change == RunChange::Added     ? runs.size() - 1
                             : change == RunChange::Removed ? runs.size() + 1
                                                            : runs.size();
    const bool oneBehind = m_runCount == before && index >= 0 && index <= runs.size() &&
                           (change == RunChange::Removed || index < runs.size());
    adoptRuns(runs);
    return oneBehind;
}

void PlotChart::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_replotWhenShown, false))
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotChart::requestReplot()
{
    if (!isVisible()) {
        m_replotWhenShown = true;
        return;
    }
    TurnQueue::instance()->addReplot(m_plot);
}

void PlotChart::addLegendToggle(QMenu &menu)
{
    QAction *legend = menu.addAction(tr("Show legend"));
    legend->setCheckable(true);
    legend->setChecked(m_legendWanted);
    connect(legend, &QAction::toggled, this, &PlotChart::setLegendVisible);
}

QHBoxLayout *PlotChart::layOutControlsAbovePlot(const QString &plotName)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(2, 0, 2, 0);
    layout->addLayout(controls);
    layout->addWidget(m_plot, 1);
    m_plot->setObjectName(plotName);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), 10, QFont::Bold)));
    return controls;
}

void PlotChart::connectInteraction(std::function<ChartInteraction::Hit(const QPointF &)> hitTest,
                                   std::function<void(QMenu &)> menu)
{
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { fitToWidth(); });
    m_interaction = new ChartInteraction(m_plot, std::move(hitTest));
    m_interaction->setMenuBuilder([menu = std::move(menu)](QMenu &m, const QPointF &) { menu(m); });
    connect(m_interaction, &ChartInteraction::clicked, this, &PlotChart::runClicked);
}

} // namespace gemmscope
