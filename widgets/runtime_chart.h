// The runtime chart: one horizontal bar per run in ladder order (top to bottom, each named on the
// left axis, its value at its end) with p20-p80 whiskers, cuBLAS FP32 as a reference line, failed
// runs marked (never drawn as a time), a log value axis when the values spread more than 20x; and a
// second mode comparing the worklog's published T4 speedups over the naive kernel with this GPU's
// measured ones. The legend, under the plot (beside it where the chart is small), names the ladder's
// groups, not every stage.
#pragma once

#include "chart_layout.h"
#include "gapped_line.h"
#include "plot_chart.h"
#include "run_record.h"
#include "runtime_bar_frame.h"
#include "runtime_marks.h"
#include "runtime_scene.h"
#include "runtime_series.h"
#include "runtime_slot_rows.h"

#include <QHash>
#include <QList>
#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QCPLayoutGrid;
class QCustomPlot;
class QCPAxis;
class QCPBars;
class QCPErrorBars;
class QCPItemText;
class QMenu;
class QMouseEvent;
class QResizeEvent;

namespace gemmscope {

class RuntimeChart : public PlotChart {
    Q_OBJECT
public:
    enum class Mode { Runtime, Speedup };

    explicit RuntimeChart(QWidget *parent = nullptr);

    void setRuns(const QList<RunRecord> &runs) override;
    // In the runtime view a run's bar (or mark) is inserted, updated or removed in place: the other
    // runs' bars, whiskers and the texts stay; the speedup view is computed again (a row a step).
    // What depends on every row (scale, axis, legend, row names) follows once the event loop turns.
    void runAdded(const QList<RunRecord> &runs, qsizetype index) override;
    void runChanged(const QList<RunRecord> &runs, qsizetype index) override;
    void runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId) override;
    void setValueMode(RuntimeValue mode);
    void setLogScale(bool on);
    void setMode(Mode mode);
    // Which runs are plotted: one GPU + problem size group (RunGroup::key()), or every run for an
    // empty key. Until this is called the chart follows the latest measured group.
    void setGroupFilter(const QString &groupKey);

    Mode mode() const { return m_mode; }
    RuntimeValue valueMode() const { return m_valueMode; }
    bool logScale() const { return m_logScale; }
    QString groupFilter() const { return m_groupKey; }   // empty: every run
    QComboBox *viewCombo() const { return m_viewCombo; } // Runtime ms / TFLOP/s / Speedup vs naive
    QCheckBox *logCheck() const { return m_logCheck; }

    QString viewName() const override; // "the runtime chart" or "the speedup chart", by mode

    // What is drawn, for the window and the tests.
    QList<RuntimeSlot> runtimeSlotList() const { return m_slots.toList(); } // in row order
    bool settleDue() const { return m_settleDue; }          // what depends on every row, in a later turn
    int legendRowReads() const { return m_legendRowReads; } // how often the legend went over every row
    const QList<SpeedupRow> &speedupRows() const { return m_speedups; }
    QList<QCPBars *> runBars() const { return m_runBars; }        // runtime mode, one per stage group
    QList<QCPErrorBars *> whiskers() const { return m_whiskers; } // parallel to runBars()
    QCPBars *selectionBar() const { return m_selectionBar; }      // nullptr when nothing selected
    QList<QCPItemText *> failureMarkers() const { return m_failureMarkers; }
    // The cuBLAS FP32 line: it leaves a gap where it would cross a value or a failure mark.
    GappedStraightLine *referenceLine() const { return m_referenceLine; }
    QCPBars *publishedSpeedupBars() const { return m_publishedBars; } // speedup mode
    QCPBars *measuredSpeedupBars() const { return m_measuredBars; }
    // The bars lie along the key axis (left, ladder order from the top); values on the value axis.
    QCPAxis *keyAxis() const;
    QCPAxis *valueAxis() const;
    // The pixel rects of every bar drawn (after a replot), for the layout tests.
    QList<QRectF> barRects() const;

    // The run under a pixel of the plot (empty if none), and the tooltip shown there.
    QString runIdAt(const QPointF &pixel) const;
    QString tooltipAt(const QPointF &pixel) const;
    // The pixel at the centre of a run's bar (or marker), for tests and keyboard navigation.
    std::optional<QPointF> pixelOfRun(const QString &runId) const;

private:
    void rebuild() override;
    void showSelection() override;
    bool inPlace() const; // whether a change of one run is drawn in place (the runtime view, on screen)
    bool isPlotted(const RunRecord &run) const; // in the chosen GPU/size group
    // The group selector (or the followed group) changes with a run of `group` (published: a
    // worklog figure).
    bool groupsChangeWith(const RunGroup &group, bool published) const;
    bool wantsLogScale() const;
    void addSlotMarks(int row); // the bar and whisker, or the failure mark, of m_slots[row]
    void removeSlotMarks(int row);
    void shiftRows(int from, int by);
    void updateReference();
    void updateSelectionMarks();
    void syncFailureMarks(); // the texts of runtime_scene::failureMarks
    void updateValueAxis();
    void placeValueLabels();         // a value beside each named row, from a pool of labels
    void settleLater(StageId stage); // settle() once the event loop turns
    void settle();
    runtime_scene::BarFrame barFrame() const; // the axis rect and ranges of the last layout
    void updateGroupCombo();
    void syncControls();
    void fitToWidth() override; // elided title, tick label orientation and legend visibility for this width
    // The legend under the bars where the plot is at least this wide and high, else in a column
    // beside them. Beside, its ~240 px left the stages' names a third of the rest: in the Ladder's
    // runtime pane at 1280x800 and 1440x900 (plots of 620x364 and 700x414) twelve and six names
    // were cut short ("6 — Coalesced cooperative loads: la…"); under the bars its entries flow in
    // two rows, ~40 px of the height, and the full ladder's rows stay as high as a name (10.5 px at
    // 1280x800). At 1920x1080 the column's few entries stood over a blank as high as the chart. The
    // smallest charts (the parameter panel shown) keep it beside: under them its rows would take
    // the height every row needs to be named.
    static constexpr int kLegendBelowMinWidth = 560, kLegendBelowMinHeight = 350;
    void placeLegendForSize();
    int keyNameGlyphsPx() const;             // how high a row must be to carry a name on the key axis
    QCPLayoutGrid *m_legendColumn = nullptr; // the column beside the bars that holds it there
    // The GPU/size group the chart shows, where one is chosen or followed (none: every run).
    std::optional<RunGroup> chosenGroup() const;
    QList<RunRecord> plottedRuns() const;
    // Which runs have a row: those of the chosen GPU/size group (none: every run).
    std::function<bool(const RunRecord &)> plottedFilter() const;
    void fillContextMenu(QMenu &menu);
    void buildRuntime();
    void buildSpeedup();
    void configureValueAxis(double lowest, double highest, const QString &label);
    int slotIndexAt(const QPointF &pixel) const;
    void addLegendKey();
    // What the legend reads of the rows: all of them again, or what it read last — where only the
    // selection's frame came or went (a first selection in a 100,000-run session read every row
    // again for that one entry: 38 ms of the first switch to Counters).
    enum class LegendRows { Read, AsLastRead };
    void refreshLegend(LegendRows rows = LegendRows::Read); // its entries again, where one changed
    struct LegendEntry {
        QString text;
        KeyLegendItem::IconPainter icon;
        QString look; // what the icon shows, to tell whether an entry changed
    };
    QList<LegendEntry> legendEntries(LegendRows rows = LegendRows::Read) const; // runtime_scene.h says which
    KeyLegendItem::IconPainter legendIcon(const runtime_scene::LegendEntry &entry) const;
    void setKeyTicks();       // one tick label per bar, or per n-th bar where rows are lower than a label
    void fitValueRange();     // room right of the longest bar for its label, at this width
    bool hideCrowdedLabels(); // after a replot: value labels over another label or a bar hide
    QList<QRectF> referenceGaps(const QLineF &line) const; // the texts shown on `line`, which it leaves out
    int keyNamesWidth() const; // the width the names and bars share: the legend's column apart

    QComboBox *m_groupCombo;
    QComboBox *m_viewCombo;
    QCheckBox *m_logCheck;
    QString m_groupKey;
    bool m_groupChosen = false; // the user (or a caller) picked a group: stop following the latest
    bool m_logChosen = false;   // the user picked the scale: stop choosing it from the data
    QList<RunGroup> m_groups;   // the selector's, from the last updateGroupCombo
    RuntimeValue m_valueMode = RuntimeValue::Milliseconds;
    bool m_logScale = false;
    Mode m_mode = Mode::Runtime;

    RuntimeSlotRows m_slots;
    QList<SpeedupRow> m_speedups;
    QList<QCPBars *> m_runBars;
    QList<QCPErrorBars *> m_whiskers;
    QHash<QString, QCPBars *> m_barsByGroup;          // stage, "|worklog" for published rows
    bool m_settleDue = false, m_referenceDue = false; // rows changed in place: settle() queued
    bool m_markFailures = true;                       // a mark per failed run (not in sessions of thousands)
    QList<QCPItemText *> m_labelPool;                 // value labels to reuse; those not in use are hidden
    QCPBars *m_selectionBar = nullptr;
    QList<QCPItemText *> m_failureMarkers; // as runtime_scene::failureMarks says, in its order
    GappedStraightLine *m_referenceLine = nullptr;
    std::optional<double> m_referenceValue; // where m_referenceLine stands
    QString m_referenceText;                // what the legend calls the reference line
    QCPBars *m_publishedBars = nullptr;
    QCPBars *m_measuredBars = nullptr;
    QList<QCPItemText *> m_valueLabels; // bar values (speedup: measured first, they win a collision)
    QList<int> m_valueLabelRows;        // the row of each value label
    QList<runtime_scene::ValueLabel> m_valueLabelMarks; // what each value label says, and where
    QStringList m_keyLabels;                            // the key axis' label of each row
    QStringList m_keyLongLabels;                        // the same with the stage's name, where there is room
    int m_tickBudget = -1; // the key axis names' room when last named (INT_MAX: every full name fit)
    int m_widestLong = -1; // the widest of m_keyLongLabels in pixels; -1: to measure
    QHash<QString, int> m_labelWidths; // by name
    int longLabelWidth(const QString &label);
    double m_lowest = 0, m_highest = 0; // what the value axis must show
    QString m_valueLabelBase;           // its title, before "(log scale)"
    int m_tickStride = 1;
    QString m_legendLook; // what the legend shows: each entry's text and look
    mutable std::optional<runtime_scene::LegendInputs> m_legendRowsRead; // the rows' part, as last read
    mutable int m_legendRowReads = 0;
};

} // namespace gemmscope
