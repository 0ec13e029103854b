// The roofline chart: its state (ceilings, GPU, options), its roofs drawn from roofline_roofs.h, its
// view, and a run's change drawn in place where nothing else moves. Its marks: roofline_chart_points.cpp;
// its texts: roofline_chart_labels.cpp; its controls, title and key: roofline_chart_key.cpp.
#include "roofline_chart.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "chart_text.h"
#include "help_text_color.h"
#include "jargon_text.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "roofline_chart_style.h"
#include "roofline_joins.h"
#include "roofline_marks.h"
#include "roofline_math.h"
#include "run_color.h"
#include "runtime_series.h"
#include "traffic_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHash>
#include <QJsonObject>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <set>
#include <tuple>

namespace gemmscope {

using roofline_scene::levelName;
using roofline_scene::tf32Instruction;

using roofline_scene::deviceIs;
using roofline_scene::usesTensorCores;

RooflineChart::RooflineChart(QWidget *parent)
    : PlotChart(parent), m_gpuCombo(new QComboBox(this)),
      m_worklogCheck(new QCheckBox(tr("Worklog's T4 results"), this)),
      m_modelCheck(new QCheckBox(tr("Traffic model"), this)), m_levelChecks{
                                                                  new QCheckBox(tr("L2"), this),
                                                                  new QCheckBox(tr("L1/shared"), this)}
{
    QHBoxLayout *controls = layOutControlsAbovePlot(QStringLiteral("rooflinePlot"));
    m_gpuCombo->setObjectName(QStringLiteral("rooflineGpuCombo"));
    m_gpuCombo->setToolTip(tr("Whose roofs to draw. Auto: the ceilings measured on this GPU, else the "
                              "datasheet of the GPU the latest run ran on."));
    for (const QString &key : gpuKeys())
        m_gpuCombo->addItem(key == kMeasuredKey ? tr("Auto") : key.toUpper(), key);
    // Its size hint follows its texts ("Auto" becomes "Auto (H200)"); syncControls() keeps it
    // at least that wide.
    m_gpuCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_worklogCheck->setObjectName(QStringLiteral("rooflineWorklogCheck"));
    m_worklogCheck->setToolTip(tr(kWorklogCheckTip));
    m_modelCheck->setObjectName(QStringLiteral("rooflineModelCheck"));
    // What the traffic model is (the glossary's sentence), then what the tick does with it.
    m_modelCheck->setToolTip(
        QStringLiteral("<p>%1</p><p>%2</p>")
            .arg(jargon::trafficModel().toHtmlEscaped(),
                 tr("Ticked: every run is also drawn at the traffic model's predicted arithmetic intensity, "
                    "dotted to the one its hardware counters measured. Off: each run once, at its measured "
                    "intensity (the selected run's model point stays).")));
    // Named: alone, "Auto (H200)" did not say what it chooses.
    auto *gpuLabel = new QLabel(tr("Roofs:"), this);
    gpuLabel->setBuddy(m_gpuCombo);
    controls->addWidget(gpuLabel);
    controls->addWidget(m_gpuCombo);
    controls->addWidget(m_worklogCheck);
    controls->addWidget(m_modelCheck);
    // The levels' toggles appear only where their bandwidth was measured (syncControls).
    for (MemoryLevel level : kLevels) {
        QCheckBox *check = m_levelChecks[int(level)];
        check->setObjectName(level == MemoryLevel::L2 ? QStringLiteral("rooflineL2Check")
                                                      : QStringLiteral("rooflineL1SharedCheck"));
        check->setToolTip(tr("Show the %1 roof (its bandwidth measured on this GPU) and each run's %1 "
                             "arithmetic intensity from hardware counters.")
                              .arg(levelName(level)));
        check->setVisible(false);
        controls->addWidget(check);
        connect(check, &QCheckBox::toggled, this, [this, level](bool on) { setLevelShown(level, on); });
    }
    controls->addStretch(1);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        useLogTicks125(axis);
        axis->setTickLabelFont(QFont(font().family(), 8));
    }
    setBottomAxisTitle(m_plot, QStringLiteral("arithmetic intensity, AI (FLOP/byte of DRAM traffic)"));
    m_plot->yAxis->setLabel(QStringLiteral("TFLOP/s"));
    placeLegendBeside(m_plot, font());
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connectInteraction(
        [this](const QPointF &pixel) {
            const int index = pointIndexAt(pixel);
            return index < 0 ? ChartInteraction::Hit{}
                             : ChartInteraction::Hit{m_points[index].runId, pointWithTooltip(index).tooltip};
        },
        [this](QMenu &menu) { fillContextMenu(menu); });
    // Labels are placed in pixels: after every layout of the axes (resize, zoom, pan).
    // Placed once the axes are laid out and before anything is drawn, so one replot draws the labels
    // where they belong. (Placed after the replot, every change of place cost a second replot: two
    // replots per finished run, 10-14 ms of the UI thread on the H200 host.)
    connect(m_plot, &QCustomPlot::afterLayout, this, &RooflineChart::placePointLabels);
    connect(m_gpuCombo, &QComboBox::activated, this,
            [this](int index) { setGpu(m_gpuCombo->itemData(index).toString()); });
    connect(m_worklogCheck, &QCheckBox::toggled, this, &RooflineChart::setShowWorklogT4);
    connect(m_modelCheck, &QCheckBox::toggled, this, &RooflineChart::setShowModelIntensity);
    rebuild();
}

void RooflineChart::fitToWidth()
{
    fitTitleAndLegend(m_plot, m_fullTitle, m_legendWanted || m_printing);
}

QStringList RooflineChart::gpuKeys()
{
    QStringList keys{kMeasuredKey};
    for (const GpuSpec &spec : knownGpus())
        keys << QString::fromStdString(spec.key);
    return keys;
}

void RooflineChart::setRuns(const QList<RunRecord> &runs)
{
    adoptRuns(runs);
    rebuild();
}

bool RooflineChart::setGpu(const QString &key)
{
    const QString lower = key.toLower();
    if (lower != kMeasuredKey && !findGpu(lower.toStdString()))
        return false;
    m_gpuKey = lower;
    rebuild();
    return true;
}

void RooflineChart::setMeasuredCeilings(double fmaTflops, double dramGBs, const QString &label,
                                        double tf32Tflops, const QString &tf32Kernel, double l2GBs,
                                        double sharedGBs)
{
    if (fmaTflops <= 0 || dramGBs <= 0) {
        clearMeasuredCeilings();
        return;
    }
    tf32Tflops = tf32Tflops > 0 ? tf32Tflops : 0;
    l2GBs = l2GBs > 0 ? l2GBs : 0;
    sharedGBs = sharedGBs > 0 ? sharedGBs : 0;
    if (m_measuredFma == fmaTflops && m_measuredDram == dramGBs && m_measuredLabel == label &&
        m_measuredTf32 == tf32Tflops && m_measuredTf32Kernel == tf32Kernel && m_measuredL2 == l2GBs &&
        m_measuredShared == sharedGBs)
        return; // the window says it again after every change of the session; nothing to redraw
    m_measuredL2 = l2GBs;
    m_measuredShared = sharedGBs;
    m_measuredFma = fmaTflops;
    m_measuredDram = dramGBs;
    m_measuredLabel = label;
    m_measuredTf32 = tf32Tflops;
    m_measuredTf32Kernel = tf32Kernel;
    rebuild();
}

void RooflineChart::clearMeasuredCeilings()
{
    if (!m_measuredFma && !m_measuredDram && m_measuredLabel.isEmpty())
        return;
    m_measuredFma.reset();
    m_measuredDram.reset();
    m_measuredLabel.clear();
    m_measuredTf32 = 0;
    m_measuredTf32Kernel.clear();
    m_measuredL2 = 0;
    m_measuredShared = 0;
    rebuild();
}

double RooflineChart::levelBandwidth(MemoryLevel level) const
{
    return level == MemoryLevel::L2 ? m_measuredL2 : m_measuredShared;
}

bool RooflineChart::levelAvailable(MemoryLevel level) const
{
    return measuredRoofShown() && levelBandwidth(level) > 0;
}

void RooflineChart::setLevelShown(MemoryLevel level, bool on)
{
    if (m_levelShown[int(level)] == on)
        return;
    m_levelShown[int(level)] = on;
    rebuild();
    emit levelsChanged();
}

void RooflineChart::setPredicted(StageId stage, const ParamValues &params, const ProblemSize &size)
{
    m_live = roofline_scene::LiveSettings{stage, params, size};
    if (!moveLivePoint())
        rebuild();
}

void RooflineChart::clearPredicted()
{
    m_live.reset();
    rebuild();
}

void RooflineChart::setShowModelIntensity(bool on)
{
    if (on == m_showModel)
        return;
    m_showModel = on;
    rebuild();
}

void RooflineChart::setShowWorklogT4(bool on)
{
    if (on == m_showWorklog)
        return;
    m_showWorklog = on;
    rebuild();
}

const GpuSpec *RooflineChart::datasheetSpec() const
{
    if (m_gpuKey != kMeasuredKey)
        return findGpu(m_gpuKey.toStdString());
    // "measured": the datasheet of the GPU the ceilings came from, matched by name ("NVIDIA H200");
    // before any ceilings exist, the GPU the latest measured run ran on.
    QString device = m_measuredLabel;
    for (auto it = m_runs.crbegin(); device.isEmpty() && it != m_runs.crend(); ++it)
        if (it->origin != QLatin1String("worklog"))
            device = it->gpuName;
    if (device.isEmpty())
        return nullptr;
    for (const GpuSpec &spec : knownGpus())
        if (deviceIs(device, spec))
            return &spec;
    return nullptr;
}

bool RooflineChart::measuredRoofShown() const
{
    if (!m_measuredFma || !m_measuredDram)
        return false;
    const GpuSpec *spec = datasheetSpec();
    return !spec || m_measuredLabel.isEmpty() || deviceIs(m_measuredLabel, *spec);
}

bool RooflineChart::runIsOnChosenGpu(const RunRecord &run) const
{
    const GpuSpec *spec = datasheetSpec();
    // A run that does not name its device is drawn on any roof (nothing says it does not belong).
    return !spec || run.gpuName.isEmpty() || deviceIs(run.gpuName, *spec);
}

std::optional<RooflineChart::ActiveRoof> RooflineChart::activeRoof() const
{
    // Runs were measured on this device, so they are judged against its measured ceilings first.
    if (measuredRoofShown())
        return ActiveRoof{QStringLiteral("measured"), *m_measuredFma, *m_measuredDram};
    if (const GpuSpec *spec = datasheetSpec())
        return ActiveRoof{upperKey(spec->key) + QStringLiteral(" datasheet"), spec->fp32Tflops,
                          spec->dramGBs};
    return std::nullopt;
}

std::optional<RooflineChart::ActiveRoof> RooflineChart::tensorDatasheetRoof() const
{
    const GpuSpec *spec = datasheetSpec();
    if (!spec || spec->tf32Tflops <= 0)
        return std::nullopt;
    return ActiveRoof{upperKey(spec->key) + QStringLiteral(" datasheet TF32"), spec->tf32Tflops,
                      spec->dramGBs};
}

std::optional<RooflineChart::ActiveRoof> RooflineChart::tensorMeasuredRoof() const
{
    if (!measuredRoofShown() || m_measuredTf32 <= 0)
        return std::nullopt;
    const QString instruction = tf32Instruction(m_measuredTf32Kernel);
    return ActiveRoof{(instruction.isEmpty() ? QString() : instruction + QLatin1Char(' ')) +
                          QStringLiteral("TF32, measured"),
                      m_measuredTf32, *m_measuredDram};
}

void RooflineChart::addRoof(const roofline_scene::RoofSpec &spec)
{
    Roof roof;
    roof.label = spec.label;
    roof.peakTflops = spec.peakTflops;
    roof.bandwidthGBs = spec.bandwidthGBs;
    roof.measured = spec.measured;
    roof.level = spec.level;
    const QPen pen(spec.color, spec.penWidth, spec.penStyle);
    roof.graph = m_plot->addGraph();
    roof.graph->setName(spec.legendName);
    roof.graph->setPen(pen);
    if (!spec.measured)
        roof.graph->setLayer(QStringLiteral("grid")); // under the measured roofs and the runs
    QVector<double> keys, values;
    for (const QPointF &at : spec.line.points) {
        keys << at.x();
        values << at.y();
    }
    roof.graph->setData(keys, values, true);
    roof.line = spec.line;
    const double ridge = spec.ridgeIntensity();
    roof.ridgeAt = QPointF(ridge, spec.peakTflops);
    roof.ridge = new QCPItemTracer(m_plot);
    roof.ridge->setGraph(roof.graph);
    roof.ridge->setGraphKey(ridge);
    roof.ridge->setStyle(QCPItemTracer::tsCircle);
    roof.ridge->setSize(spec.ridgeDotSize);
    roof.ridge->setPen(pen.color());
    roof.ridge->setBrush(pen.color());
    roof.ridge->updatePosition();
    auto *text = new QCPItemText(m_plot);
    text->position->setCoords(ridge, spec.peakTflops); // placed beside the dot where nothing else is
    auto *leader = new QCPItemLine(m_plot);
    leader->setPen(QPen(pen.color(), 0.8));
    leader->setVisible(false);
    text->setProperty("leader", QVariant::fromValue<QObject *>(leader));
    text->setBrush(QColor(255, 255, 255, 240)); // the dotted grid read as struck through the label at 200
    text->setText(spec.ridgeText);
    text->setColor(pen.color());
    text->setFont(QFont(font().family(), 8));
    m_ridgeLabels.append(text);
    // A level's name goes beside its line, where it runs through the view's empty left part, not at
    // its ridge among the compute roofs' own ridges.
    m_ridgeTexts.append(roofline_scene::RidgeText{spec.ridgeText, ridge, spec.peakTflops, spec.ridgeLabelled,
                                                  spec.level ? spec.bandwidthGBs : 0});
    m_roofs.append(roof);
}

void RooflineChart::rebuild()
{
    ++m_rebuilds;
    m_labelScene.forget();
    m_plot->clearItems(); // first: tracers point at the graphs cleared next
    m_plot->clearPlottables();
    m_roofs.clear();
    m_points.clear();
    m_labels.clear();
    m_labelItems.clear();
    m_sharedMarks.clear();
    m_ridgeLabels.clear();
    m_ridgeTexts.clear();
    m_markers.clear();
    m_layerOf.clear();
    m_joinSet.clear();
    m_liveGraph = nullptr;
    m_liveKey = nullptr; // the legend's items go below
    m_selectedGraph = nullptr;
    m_selectedModelGraph = nullptr;
    m_layout.clear();
    m_countersNote = nullptr;
    m_countersNoteText.clear();
    m_unnamedNote = nullptr;
    m_plot->legend->clearItems(); // the key entries that belong to no plottable

    const GpuSpec *spec = datasheetSpec();
    m_drawn = DrawnRuns{};
    m_drawn.spec = spec;
    m_drawn.l2Drawn = levelDrawn(MemoryLevel::L2);
    m_drawn.l1SharedDrawn = levelDrawn(MemoryLevel::L1Shared);
    m_drawn.marker.setOptions({spec, m_showModel, m_drawn.l2Drawn, m_drawn.l1SharedDrawn});
    m_drawn.tensorRuns = std::any_of(m_runs.cbegin(), m_runs.cend(), [this](const RunRecord &r) {
        return usesTensorCores(r) && runIsOnChosenGpu(r);
    });
    const bool tensorRun = m_drawn.tensorRuns || liveUsesTensorCores();
    m_drawn.tensorRoofs = tensorRun;
    const bool onT4 = spec && spec->key == "t4";
    const roofline_scene::Ceilings ceilings{m_measuredFma.value_or(0), m_measuredDram.value_or(0),
                                            m_measuredLabel,           m_measuredTf32,
                                            m_measuredTf32Kernel,      m_measuredL2,
                                            m_measuredShared};
    const roofline_scene::RoofOptions options{
        spec, measuredRoofShown(), tensorRun, m_showWorklog && !onT4, m_drawn.l2Drawn, m_drawn.l1SharedDrawn};
    for (const roofline_scene::RoofSpec &roof : roofline_scene::roofsFor(ceilings, options))
        addRoof(roof);
    // "AI" named where the legend uses it ("run at its measured AI").
    setBottomAxisTitle(
        m_plot, std::any_of(m_roofs.cbegin(), m_roofs.cend(), [](const Roof &r) { return r.level; })
                    ? QStringLiteral("arithmetic intensity, AI (FLOP/byte of DRAM, L2 or L1/shared traffic)")
                    : QStringLiteral("arithmetic intensity, AI (FLOP/byte of DRAM traffic)"));

    const std::optional<ActiveRoof> roof = activeRoof();
    addRunPoints(roof.value_or(ActiveRoof{}));
    // On the T4 roof the session's published rows are the worklog's steps: the overlay would repeat them.
    m_drawn.published = m_points.any(PointKind::WorklogT4);
    if (m_showWorklog && !m_drawn.published)
        addWorklogPoints();
    addLivePoint(roof.value_or(ActiveRoof{}));
    updateSelectionRing();
    addLegendKey();
    updateTitle();

    if (m_roofs.isEmpty()) {
        auto *hint = new QCPItemText(m_plot);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.08);
        hint->setText(QStringLiteral("No roof: measure this GPU's ceilings or choose a GPU."));
        hint->setColor(chartHintColor());
    }

    applyDefaultView();
    addPointLabels(0);
    syncControls();
    fitToWidth();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool RooflineChart::liveUsesTensorCores() const
{
    return m_live && roofline_scene::liveUsesTensorCores(*m_live);
}

void RooflineChart::applyDefaultView()
{
    const auto [x, y] = defaultView();
    m_plot->xAxis->setRange(x);
    m_plot->yAxis->setRange(y);
    m_defaultX = std::pair(x.lower, x.upper);
    if (m_printing)
        clipRoofsToView();
}

void RooflineChart::clipRoofsToView()
{
    // SVG has no clipping here: the print layout draws each roof only inside the view.
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    for (Roof &r : m_roofs) {
        roofline_scene::RoofSpec spec;
        spec.peakTflops = r.peakTflops;
        spec.bandwidthGBs = r.bandwidthGBs;
        spec.level = r.level;
        r.line = roofline_scene::clippedLine(spec, x.lower, x.upper, y.lower);
        QVector<double> keys, values;
        for (const QPointF &at : std::as_const(r.line.points)) {
            keys << at.x();
            values << at.y();
        }
        r.graph->setData(keys, values, true);
    }
}

void RooflineChart::fitDefaultViewToWidth()
{
    // The default view's right end leaves the crowd's names room in pixels: where the plot's width
    // changed (a resize, the print layout) and the view is still the default one (not zoomed or
    // panned), it follows, in this replot, before the texts are placed and the ticks drawn.
    const QCPRange shown = m_plot->xAxis->range();
    if (!m_defaultX || std::pair(shown.lower, shown.upper) != *m_defaultX)
        return;
    const QCPRange x = defaultView().first;
    if (std::pair(x.lower, x.upper) == *m_defaultX)
        return;
    m_plot->xAxis->setRange(x);
    m_defaultX = std::pair(x.lower, x.upper);
    if (m_printing)
        clipRoofsToView();
    m_plot->axisRect()->update(QCPLayoutElement::upPreparation); // the ticks of the new range
}

std::pair<QCPRange, QCPRange> RooflineChart::defaultView() const
{
    QList<roofline_scene::RoofSpec> roofs;
    for (const Roof &r : std::as_const(m_roofs)) {
        roofs << roofline_scene::RoofSpec{};
        roofs.last().peakTflops = r.peakTflops;
        roofs.last().bandwidthGBs = r.bandwidthGBs;
    }
    // The plot's width as last laid out (none before the first layout: the Ladder workspace's).
    const int width = m_plot->axisRect()->width();
    const roofline_scene::ViewRanges view =
        roofline_scene::defaultView(roofs, pointSet().viewPoints(), width > 50 ? width : 0);
    return {QCPRange(view.xLower, view.xUpper), QCPRange(view.yLower, view.yUpper)};
}

bool RooflineChart::inPlace() const
{
    // A change the marks of one run can show: the roofs, the legend, the counters note and the title's
    // GPU stay as they are (anything else draws the chart again).
    return !m_printing && datasheetSpec() == m_drawn.spec;
}

void RooflineChart::runAdded(const QList<RunRecord> &runs, qsizetype index)
{
    if (!followRuns(runs, RunChange::Added, index) || index != runs.size() - 1 ||
        !inPlace()) { // the session adds at its end
        rebuild();
        return;
    }
    addRunInPlace(index);
}

void RooflineChart::runChanged(const QList<RunRecord> &runs, qsizetype index)
{
    const bool followed = followRuns(runs, RunChange::Changed, index);
    if (!followed || m_drawn.ids.contains(runs[index].runId) || !inPlace()) {
        rebuild(); // a drawn run moves (it was measured again)
        return;
    }
    addRunInPlace(index); // a queued or running run that finished, or one still not drawn
}

void RooflineChart::runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId)
{
    if (!followRuns(runs, RunChange::Removed, index) || m_drawn.ids.contains(runId) || !inPlace()) {
        rebuild();
        return;
    }
    // A run never drawn (cancelled while queued): only the later runs' places in m_runs move.
    m_points.runRemoved(index);
}

void RooflineChart::addRunInPlace(qsizetype index)
{
    const RunRecord &run = m_runs[index];
    if ((usesTensorCores(run) && !m_drawn.tensorRoofs && runIsOnChosenGpu(run)) ||
        (run.origin == QLatin1String("worklog") && run.status == RunStatus::Ok)) {
        // The tensor cores' roofs come in with the first TF32 run; a published worklog row changes
        // the title and replaces the worklog overlay on the T4 roof.
        rebuild();
        return;
    }
    const qsizetype before = m_points.size();
    const auto kinds = [this] {
        return std::tuple(m_drawn.anyRun && !m_drawn.anyCounters, m_drawn.anyPredicted, m_drawn.anyMeasured,
                          m_drawn.anyL2, m_drawn.anyL1Shared);
    };
    const auto kindsBefore = kinds();
    const bool drawn = addRunPoint(index);
    // A first point of a kind brings a legend entry; the first counters take the note away. The
    // key changes, nothing drawn moves: a full rebuild here redrew a 10,000-run session's every
    // point, 55-280 ms of UI thread when a ladder's first run finished.
    const bool keyChanged = kinds() != kindsBefore;
    if (keyChanged)
        refreshKey();
    if (!drawn) {
        if (keyChanged)
            requestReplot();
        return;
    }
    m_drawn.tensorRuns = m_drawn.tensorRuns || (usesTensorCores(run) && runIsOnChosenGpu(run));
    syncLiveShown(); // the panel's settings just ran: their circle gives way to the run
    addPointLabels(before);
    if (run.runId == m_selectedRunId)
        updateSelectionRing();
    updateTitle();
    // The view the user zoomed or panned to stays, unless the new point lies outside it.
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    for (qsizetype i = before; i < m_points.size(); ++i)
        if (!x.contains(m_points[i].intensity) || !y.contains(m_points[i].tflops)) {
            applyDefaultView();
            break;
        }
    fitToWidth();
    requestReplot();
}

void RooflineChart::showSelection()
{
    if (m_printing) {
        rebuild();
        return;
    }
    const bool hadRing = m_selectedGraph;
    updateSelectionRing();
    if (hadRing != bool(m_selectedGraph)) {
        // Only the legend's "selected run" entry comes or goes: the key is written again and the
        // runs' marks stay. Drawing the chart again here redrew every point of a 10,000-run session
        // when its first run was selected (~150 ms on a 2-core machine).
        refreshKey();
        fitToWidth();
    }
    requestReplot();
}

} // namespace gemmscope
