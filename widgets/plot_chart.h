// What the run charts (runtime, roofline) share, written once: the QCustomPlot, the
// selected run, the legend the user asked for, the print layout Export renders, the "Show legend"
// entry of the context menu and the refit on resize. Hit-testing, tooltips and the rest of the
// context menu are ChartInteraction's; what is drawn is each chart's rebuild().
#pragma once

#include "chart_interaction.h"
#include "run_view.h"

#include <QRect>
#include <QSize>
#include <QString>
#include <QWidget>
#include <functional>
#include <optional>

class QCustomPlot;
class QHBoxLayout;
class QMenu;
class QResizeEvent;
class QShowEvent;

namespace gemmscope {

class PlotChart : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit PlotChart(QWidget *parent = nullptr); // makes the plot first among its children

    void setSelectedRun(const QString &runId); // empty clears the highlight
    void setSelectedRun(const QString &runId, const RunRecord *) override { setSelectedRun(runId); }
    QString selectedRun() const { return m_selectedRunId; }
    void runsAboutToChange() override; // lets go of the shared list (followRuns takes it again)
    void setLegendVisible(bool on);    // shown only where the plot is wide enough even when on
    bool legendShown() const;

    // The print layout: a fixed size, the full title, the legend, no selection highlight, no hover
    // hint; .png, .pdf or .svg. The error sentence, or nothing on success.
    std::optional<QString> exportTo(const QString &path) override;
    static constexpr QSize kPrintSize{1200, 800};

    QCustomPlot *customPlot() const { return m_plot; }
    QRect printAxisRect() const { return m_printAxisRect; } // where the last export drew the axes
    QString fullTitle() const { return m_fullTitle; }
    ChartInteraction *interaction() const { return m_interaction; }
    // How many times the chart was drawn again from all its runs: a run added, changed or removed
    // (RunView::runAdded...) and a new selection update their own marks instead (the tests count).
    int rebuildCount() const { return m_rebuilds; }
    // The runs the chart draws: the very list it was given, shared, not a copy (the tests check).
    const QList<RunRecord> &sharedRuns() const { return m_sharedRuns; }

signals:
    void runClicked(const QString &runId);

protected:
    // Draws everything again from the chart's data (and m_printing, m_selectedRunId).
    virtual void rebuild() = 0;
    // The selected run changed (m_selectedRunId): by default everything is drawn again.
    virtual void showSelection() { rebuild(); }
    // Elided title, legend visibility (m_legendWanted or printing) and tick labels for the width.
    virtual void fitToWidth() = 0;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    // One queued replot (QCustomPlot coalesces them into one a frame); while the chart is not
    // shown (another workspace), none until it is.
    void requestReplot();
    void addLegendToggle(QMenu &menu); // the context menu's "Show legend"
    // The chart's frame, from its constructor: a row of controls (returned, for the chart to fill)
    // above the plot, which gets `plotName` and a bold title row.
    QHBoxLayout *layOutControlsAbovePlot(const QString &plotName);
    // Hit-testing and tooltips by `hitTest`, the chart's own context-menu entries by `menu`, a click
    // on a run as runClicked, and fitToWidth() before every replot (the plot gets its size after
    // this widget does).
    // The session's runs, shared with the session's own list (Qt's implicit sharing): a chart holds
    // no copy of its records (a copy was ~110 MB a chart at 100,000 runs, and most of the time a
    // new session took to show). adoptRuns() takes a whole list; followRuns() one change of it,
    // answering false, having adopted `runs` whole, when the chart was not one change behind (the
    // caller then redraws all). runsAboutToChange() lets go of the list before the session changes
    // it, so that the change copies no record (a shared list is copied whole at its first write).
    enum class RunChange { Added, Changed, Removed };
    void adoptRuns(const QList<RunRecord> &runs);
    bool followRuns(const QList<RunRecord> &runs, RunChange change, qsizetype index);
    void connectInteraction(std::function<ChartInteraction::Hit(const QPointF &)> hitTest,
                            std::function<void(QMenu &)> menu);

    QCustomPlot *m_plot;
    ChartInteraction *m_interaction = nullptr;
    QString m_fullTitle;
    QString m_selectedRunId;
    bool m_legendWanted = true;
    bool m_printing = false; // while exportTo renders the print layout
    int m_rebuilds = 0;      // each chart's rebuild() counts itself
    bool m_replotWhenShown = false;
    QRect m_printAxisRect;

private:
    QList<RunRecord> m_sharedRuns; // read through m_runs: a write would copy every record
    qsizetype m_runCount = 0;      // the runs the chart follows, also while it let go of the list

protected:
    const QList<RunRecord> &m_runs = m_sharedRuns;
};

} // namespace gemmscope
