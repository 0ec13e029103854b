// The roofline: log-log FLOP/s against arithmetic intensity, with the compute and DRAM
// roofs of a GPU (measured on this device, and the datasheet's as dashed lines), each run at its
// achieved throughput and *predicted* intensity (the traffic model), the counter-measured
// intensity where the runner collected it, a live hollow point for the current slider settings,
// and optionally the worklog's published T4 steps on the T4 roof.
// Hierarchical: where the L2 and shared-memory bandwidths were measured, their roofs too,
// and each run with counters at its measured L2 and L1/shared intensity, each level toggled.
#pragma once

#include "gpu_specs.h"
#include "plot_chart.h"
#include "roofline_label_scene.h"
#include "roofline_marker_layers.h"
#include "roofline_marks.h"
#include "roofline_points.h"
#include "roofline_roofs.h"
#include "roofline_tips.h"
#include "run_record.h"
#include "stage_catalog.h"
#include "traffic_model.h"

#include <QColor>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QWidget>
#include <optional>
#include <tuple>
#include <utility>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPGraph;
class QCPRange;
class QCPItemLine;
class QCPItemPixmap;
class QCPItemText;
class QCPItemTracer;
class QMenu;
class QMouseEvent;
class QResizeEvent;

namespace gemmscope {

class KeyLegendItem;  // a legend entry drawn by a function (chart_layout.h)
class RooflineJoins;  // the dotted joins of every run, one item
class SwatchListText; // a run's label, or a list of a crowd's runs with a swatch a line

class RooflineChart : public PlotChart {
    Q_OBJECT
public:
    // One roof drawn on the chart.
    struct Roof {
        QString label; // "H200 datasheet", "measured on NVIDIA H200", "H200 TF32 tensor cores"
        double peakTflops = 0;
        double bandwidthGBs = 0;
        bool measured = false;
        QCPGraph *graph = nullptr;
        QCPItemTracer *ridge = nullptr; // sits at (peak / bandwidth, peak)
        roofline_scene::Polyline line;  // what the graph draws
        QPointF ridgeAt;                // (peak / bandwidth, peak): the ridge's dot
        // A memory level's roof: only its diagonal, up to where it meets the highest compute roof
        // (the compute roof itself is drawn once, with the DRAM roof). Empty: a DRAM roof.
        std::optional<MemoryLevel> level;
    };
    using PointKind = roofline_scene::PointKind;
    using ChartPoint = roofline_scene::ChartPoint;

    explicit RooflineChart(QWidget *parent = nullptr);

    void setRuns(const QList<RunRecord> &runs) override;
    // A run that finishes adds its own points (its disc, diamond, join and label); the other runs'
    // marks, the roofs and the texts stay. What changes more (a drawn run measured again, the first
    // TF32 run, another GPU) draws the chart again.
    void runAdded(const QList<RunRecord> &runs, qsizetype index) override;
    void runChanged(const QList<RunRecord> &runs, qsizetype index) override;
    void runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId) override;
    // "t4", "a100", "h100", "h200", "b200" (case-insensitive) or "measured" (the datasheet of the GPU
    // the ceilings were measured on). Returns false, changing nothing, for an unknown key.
    bool setGpu(const QString &key);
    QString gpu() const { return m_gpuKey; }
    static QStringList gpuKeys(); // the keys setGpu accepts, in menu order

    // `tf32Tflops`: the TF32 tensor-core peak the runner measured (0: none), with `tf32Kernel` (the
    // ceilings event's tf32_kernel: "wgmma.m64n256k8.tf32" on Hopper, "mma.sync.m16n8k8.tf32"
    // elsewhere); drawn as its own roof, labelled by what measured it, when a TF32 run or stage is
    // on the chart.
    // `l2GBs`, `sharedGBs`: the L2 and shared-memory read bandwidths the runner measured (0: none);
    // each draws its level's roof and its runs' markers while the level is shown.
    void setMeasuredCeilings(double fmaTflops, double dramGBs, const QString &label, double tf32Tflops = 0,
                             const QString &tf32Kernel = {}, double l2GBs = 0, double sharedGBs = 0);
    void clearMeasuredCeilings();
    void setPredicted(StageId stage, const ParamValues &params, const ProblemSize &size);
    void clearPredicted();
    void setShowWorklogT4(bool on);
    bool showWorklogT4() const { return m_showWorklog; }
    QComboBox *gpuCombo() const { return m_gpuCombo; }
    QCheckBox *worklogCheck() const { return m_worklogCheck; }
    // A level is available where its bandwidth was measured on the GPU whose roofs are drawn; it is
    // drawn (roof and markers) when also shown. Shown by default; the choice outlives ceilings that
    // come and go (the window may keep it in its settings: levelsChanged).
    bool levelAvailable(MemoryLevel level) const;
    bool levelShown(MemoryLevel level) const { return m_levelShown[int(level)]; }
    bool levelDrawn(MemoryLevel level) const { return levelAvailable(level) && levelShown(level); }
    void setLevelShown(MemoryLevel level, bool on);
    QCheckBox *levelCheck(MemoryLevel level) const { return m_levelChecks[int(level)]; }

    QString viewName() const override { return tr("the roofline"); }

    // What is drawn, for the window and the tests.
    const QList<Roof> &roofs() const { return m_roofs; }
    const QList<ChartPoint> &points() const;       // with every tooltip written
    std::optional<QPointF> predictedPoint() const; // (intensity, TFLOP/s) of the live hollow point
    QCPItemText *countersNote() const { return m_countersNote; } // nullptr when counter data exists

    // In pixels, after a replot: every marker drawn (run discs and diamonds, ridge dots, the
    // selection ring, the current-settings circle) and every roof's segments, for the layout tests.
    QList<QRectF> markerRects() const;
    QList<QLineF> roofSegments() const;
    QList<QLineF> joinSegments() const; // the dotted model-to-measured joins drawn
    // Every text placed on the plot at the last placement: what it says, its box, the marker
    // centres it names (a ridge's dot; one run's marker, or each of several too close to tell
    // apart), and its leader where it sits away from them.
    struct LabelLayout {
        QString text;
        QRectF rect;
        QList<QPointF> anchors;
        std::optional<QLineF> leader;
        bool ridge = false;
        // A list's lines: each names the runs of one place (their marker centres), with its leader.
        struct Line {
            QStringList names;
            QList<QPointF> anchors;
            QLineF leader;
        };
        QList<Line> lines;
    };
    const QList<LabelLayout> &labelLayout() const { return m_layout; }

    // Each run is drawn once: at its measured intensity where counters exist, else at the model's.
    // With this on, the model's intensity of every run too, dotted to the measured one; off, only
    // the selected run's (two markers a run doubled the clutter of the full ladder).
    void setShowModelIntensity(bool on);
    bool showModelIntensity() const { return m_showModel; }
    QCheckBox *modelCheck() const { return m_modelCheck; }

    QString runIdAt(const QPointF &pixel) const;
    QString tooltipAt(const QPointF &pixel) const;
    std::optional<QPointF> pixelOfRun(const QString &runId) const;

signals:
    void levelsChanged(); // setLevelShown changed what is shown

private:
    // The worklog's T4 (its roof, its published runs and their labels), in both source files.
    static inline const QColor kWorklogColor{0x6d, 0x6d, 0x6d};
    void fitToWidth() override;
    void syncControls();
    void fillContextMenu(QMenu &menu);
    // Short step labels beside the run points from m_points[from] on; points that sit on each other
    // share one ("6,7").
    void addPointLabels(qsizetype from);
    void addLabelItem(const roofline_scene::PointLabel &label);
    QCPItemLine *addLeaderItem(); // a leader from a marker to its text, hidden until placed
    void placePointLabels();      // collision-free, in pixels, in each replot (roofline_label_scene.h)
    // A graph that draws a layer of markers (roofline_marker_layers.h keeps what it draws).
    QCPGraph *addMarkerGraph(roofline_scene::MarkRole role, const roofline_scene::MarkerSize &size);
    void removeMarkerGraph(QCPGraph *graph);
    void setMarkerPoint(QCPGraph *graph, double intensity, double tflops); // its only marker
    roofline_scene::CacheKey labelKey() const; // what the texts' places depend on, as data
    roofline_scene::Inputs labelInputs(const roofline_scene::CacheKey &key) const;
    void applyLabelLayout(const roofline_scene::Layout &layout);
    roofline_scene::PlotFrame plotFrame() const;      // the axis rect and ranges of the last layout
    const roofline_scene::PointSet &pointSet() const; // with the view of the chart's options now
    void addLegendKey();
    void placeCountersNote();       // the note that no run has counters: there exactly while that is so
    void refreshKey();              // the key and the counters note again, after a first point of a kind
    bool measuredRoofShown() const; // measured ceilings exist and belong to the chosen GPU
    bool runIsOnChosenGpu(const RunRecord &run) const;
    using ActiveRoof = roofline_scene::TipRoof;
    roofline_scene::TipRoofs tipRoofs() const; // what the run tooltips compare with
    const ChartPoint &pointWithTooltip(int index) const;
    void rebuild() override;
    void showSelection() override;
    bool inPlace() const;
    void addRunInPlace(qsizetype index);
    void updateSelectionRing();
    void updateTitle();
    bool liveUsesTensorCores() const;
    std::pair<QCPRange, QCPRange> defaultView() const;  // the view "Reset view" returns to
    void applyDefaultView();                            // sets it (and remembers it)
    void clipRoofsToView();                             // the print layout's roofs end at its axes
    void fitDefaultViewToWidth();                       // the default view follows the plot's width
    void addRoof(const roofline_scene::RoofSpec &spec); // draws it as the roofs' scene says
    double levelBandwidth(MemoryLevel level) const;
    void addRunPoints(const ActiveRoof &roof);
    bool addRunPoint(qsizetype index); // the points of m_runs[index]: whether it is drawn
    QCPGraph *markGraph(const roofline_scene::RunMark &mark, const roofline_scene::RunMarks &run);
    void addWorklogPoints();
    void addLivePoint(const ActiveRoof &roof);
    bool liveWasRun() const;          // a drawn run has the panel's configuration
    bool syncLiveShown();             // the circle hidden where liveWasRun; true where that changed
    void setLiveKeyShown(bool shown); // the circle's legend entry, drawn whole (its own icon height)
    bool moveLivePoint();
    std::optional<ActiveRoof> activeRoof() const;
    // The roofs a TF32 (tensor-core) run is judged against: the datasheet's TF32 peak (what the
    // tensor cores can do, with wgmma on Hopper) and the peak measured on this device (with wgmma on
    // Hopper, mma.sync elsewhere: the label names it).
    std::optional<ActiveRoof> tensorDatasheetRoof() const;
    std::optional<ActiveRoof> tensorMeasuredRoof() const;
    const GpuSpec *datasheetSpec() const;
    int pointIndexAt(const QPointF &pixel) const;

    QComboBox *m_gpuCombo;
    QCheckBox *m_worklogCheck;
    QCheckBox *m_modelCheck;
    bool m_showModel = false;
    QList<LabelLayout> m_layout;
    QCPGraph *m_selectedModelGraph = nullptr; // the selected run's model disc, where hidden otherwise
    QCheckBox *m_levelChecks[2];
    bool m_levelShown[2] = {true, true};
    double m_measuredL2 = 0, m_measuredShared = 0; // GB/s; 0: not measured
    QString m_gpuKey = QStringLiteral("measured");
    std::optional<double> m_measuredFma, m_measuredDram;
    double m_measuredTf32 = 0;
    QString m_measuredTf32Kernel; // the ceilings event's tf32_kernel
    QString m_measuredLabel;
    std::optional<roofline_scene::LiveSettings> m_live;
    bool m_showWorklog = false;

    QList<Roof> m_roofs;
    mutable roofline_scene::PointSet m_points; // run points' tooltips are written on demand
    ActiveRoof m_tipRoof;                      // the roof the run tooltips compare with
    QCPGraph *m_liveGraph = nullptr;
    KeyLegendItem *m_liveKey = nullptr; // the circle's legend entry, while it is drawn
    QCPItemText *m_countersNote = nullptr;
    QCPItemText *m_unnamedNote = nullptr;       // how many runs have no label (roofline_label_scene.h)
    QList<roofline_scene::PointLabel> m_labels; // the runs' short labels (roofline_points.h says which)
    struct LabelItems {
        SwatchListText *item;             // a swatch a line where it names a crowd
        QCPItemLine *leader;              // to the marker, when the label had to sit away from it
        QList<QCPItemLine *> lineLeaders; // a list's: one a line, to the marker it names
    };
    QList<LabelItems> m_labelItems;          // parallel to m_labels
    QList<QCPItemPixmap *> m_sharedMarks;    // runs on one spot: their marker split, a slice a colour
    roofline_scene::LabelScene m_labelScene; // where the texts went, and for what
    roofline_scene::JoinSet m_joinSet;       // what m_drawn.joins draws
    roofline_scene::MarkerLayers m_markers;  // what the marker graphs draw
    QHash<const QCPGraph *, roofline_scene::MarkerLayers::Id> m_layerOf; // each marker graph's layer
    QString m_countersNoteText;                                          // what m_countersNote says
    // What the last rebuild drew the runs with, kept so that a run arriving adds only its points.
    struct DrawnRuns {
        const GpuSpec *spec = nullptr; // the chosen datasheet
        bool tensorRuns = false;       // a TF32 run on the chosen GPU
        bool tensorRoofs = false;      // the TF32 roofs are drawn (a TF32 run or the live stage)
        bool published = false;        // the session's published worklog rows are drawn
        int count = 0;                 // runs drawn
        bool anyRun = false, anyCounters = false, anyPredicted = false, anyMeasured = false;
        bool anyL2 = false, anyL1Shared = false;               // a marker of that level drawn
        QHash<QString, QCPGraph *> l2ByStage, l1SharedByStage; // by stage and preset shade
        QSet<QString> ids;                                     // of the runs drawn
        QCPGraph *publishedGraph = nullptr;
        QHash<QString, QCPGraph *> byStage, measuredByStage; // by stage and preset shade
        RooflineJoins *joins = nullptr;
        roofline_scene::RunMarker marker;            // which marks each run puts on the chart
        bool l2Drawn = false, l1SharedDrawn = false; // levelDrawn, as the rebuild found it
    };
    DrawnRuns m_drawn;
    QList<QCPItemText *> m_ridgeLabels;
    QList<roofline_scene::RidgeText> m_ridgeTexts;       // what m_ridgeLabels name, for their placing
    QCPGraph *m_selectedGraph = nullptr;                 // the selection ring
    std::optional<std::pair<double, double>> m_defaultX; // the x range the default view last set
};

} // namespace gemmscope
