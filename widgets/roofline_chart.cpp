#include "roofline_chart.h"

#include "chart_interaction.h"
#include "chart_layout.h"
#include "chart_text.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "roofline_joins.h"
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
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <qcustomplot.h>
#include <set>
#include <tuple>

namespace gemmscope {

using roofline_scene::levelName;
using roofline_scene::tf32Instruction;

namespace {

constexpr double kHitRadiusPx = 9;
const QString kMeasuredKey = QStringLiteral("measured");
const char *const kWorklogCheckTip = "Show the worklog's published results: its steps as timed on a Tesla "
                                     "T4, against the T4's roofs.";
const QColor kLiveColor(0xe3, 0x1a, 0x1c);
// Each level's run marker: the DRAM one is the diamond; L2 a triangle, L1/shared one upside down.
QCPScatterStyle::ScatterShape levelShape(MemoryLevel level)
{
    return level == MemoryLevel::L2 ? QCPScatterStyle::ssTriangle : QCPScatterStyle::ssTriangleInverted;
}

constexpr MemoryLevel kLevels[] = {MemoryLevel::L2, MemoryLevel::L1Shared};

QString upperKey(const std::string &key)
{
    return QString::fromStdString(key).toUpper();
}

} // namespace

namespace {

ProblemSize sizeOf(const RunRecord &run)
{
    ProblemSize size; // the worklog's benchmark when the run does not say
    if (run.m > 0 && run.n > 0 && run.k > 0)
        size = ProblemSize{run.m, run.n, run.k};
    return size;
}

// The intensity the roofline uses: the kernel's load traffic, or the compulsory traffic for
// kernels whose tiling the model does not know (cuBLAS).
double plottedIntensity(const TrafficEstimate &t)
{
    return t.intensity > 0 ? t.intensity : t.compulsoryIntensity;
}

bool usesTensorCores(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    return stage && stage->precision == Precision::Tf32;
}

QString roofPercentText(double tflops, double intensity, const QString &roofLabel, double peak, double bw)
{
    return QStringLiteral("%1% of the %2 roof at this intensity (attainable %3)")
        .arg(roofline::percentOfRoof(tflops, intensity, peak, bw), 0, 'f', 1)
        .arg(roofLabel, formatTflops(roofline::roofAt(intensity, peak, bw)));
}

// A configuration as the chart models it once: its stage, size and parameters (the runs of one,
// and the panel's settings when they are one of them).
QString configurationKey(const RunRecord &run)
{
    // Written for every run of a session in each rebuild: the numbers go through a buffer on the
    // stack, not a QString each (a tenth of the rebuild at 10,000 runs).
    QString key;
    key.reserve(run.stageKey().size() + 24 + run.params.size() * 16);
    const auto appendNumber = [&key](qint64 value) {
        char digits[24];
        const auto end = std::to_chars(std::begin(digits), std::end(digits), value).ptr;
        key += QLatin1StringView(digits, end - digits);
    };
    key += run.stageKey();
    for (const qint64 extent : {qint64(run.m), qint64(run.n), qint64(run.k)}) {
        key += QLatin1Char('|');
        appendNumber(extent);
    }
    for (auto it = run.params.cbegin(); it != run.params.cend(); ++it) {
        key += QLatin1Char('|');
        key += it.key();
        key += QLatin1Char('=');
        appendNumber(it.value());
    }
    return key;
}

QString fmtIntensity(double ai)
{
    return QString::number(ai, 'g', 4) + QStringLiteral(" FLOP/B");
}

// Whether a device name ("NVIDIA H200", "NVIDIA T4 (published)") is the GPU of a datasheet.
// Whether `device` names the spec's key as a word ("NVIDIA H200" is "h200"). Without a regular
// expression: compiling one per run and GPU made a 50,000-run session take minutes to draw.
bool deviceIs(const QString &device, const GpuSpec &spec)
{
    const QString key = QString::fromStdString(spec.key);
    const auto isWordChar = [](QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); };
    for (qsizetype at = device.indexOf(key, 0, Qt::CaseInsensitive); at >= 0;
         at = device.indexOf(key, at + 1, Qt::CaseInsensitive)) {
        const bool startsWord = at == 0 || !isWordChar(device[at - 1]);
        const qsizetype end = at + key.size();
        const bool endsWord = end >= device.size() || !isWordChar(device[end]);
        if (startsWord && endsWord)
            return true;
    }
    return false;
}

} // namespace

std::optional<double> measuredIntensity(const RunRecord &run)
{
    if (!run.counters || !run.counters->dramIntensity || *run.counters->dramIntensity <= 0)
        return std::nullopt;
    return run.counters->dramIntensity;
}

std::optional<double> measuredIntensity(const RunRecord &run, MemoryLevel level)
{
    if (!run.counters)
        return std::nullopt;
    const std::optional<double> ai =
        level == MemoryLevel::L2 ? run.counters->l2Intensity : run.counters->l1Intensity;
    if (!ai || !(*ai > 0))
        return std::nullopt;
    return ai;
}

QString countersUnavailableReason(const QList<RunRecord> &runs)
{
    for (const RunRecord &run : runs)
        if (run.counters && run.counters->hasError())
            return run.counters->error;
    return QStringLiteral("the runner reported no DRAM counters for these runs");
}

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
    m_modelCheck->setToolTip(tr("Also draw every run at the traffic model's predicted arithmetic intensity, "
                                "dotted to the one its hardware counters measured. Off: each run once, at "
                                "its measured intensity (the selected run's model point stays)."));
    // Named: alone, "Auto (H200)" did not say what it chooses (review of 2026-12-03).
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
    // replots per finished run, 10-14 ms of the UI thread on the H200 host, 2026-12-02.)
    connect(m_plot, &QCustomPlot::afterLayout, this, &RooflineChart::placePointLabels);
    connect(m_gpuCombo, &QComboBox::activated, this,
            [this](int index) { setGpu(m_gpuCombo->itemData(index).toString()); });
    connect(m_worklogCheck, &QCheckBox::toggled, this, &RooflineChart::setShowWorklogT4);
    connect(m_modelCheck, &QCheckBox::toggled, this, &RooflineChart::setShowModelIntensity);
    rebuild();
}

void RooflineChart::fillContextMenu(QMenu &menu)
{
    addLegendToggle(menu);
    QAction *worklog = menu.addAction(m_worklogCheck->text());
    worklog->setCheckable(true);
    worklog->setChecked(m_showWorklog);
    connect(worklog, &QAction::toggled, this, &RooflineChart::setShowWorklogT4);
    if (m_modelCheck->isVisible() || m_showModel) {
        QAction *model = menu.addAction(tr("Model's intensity of every run"));
        model->setCheckable(true);
        model->setChecked(m_showModel);
        connect(model, &QAction::toggled, this, &RooflineChart::setShowModelIntensity);
    }
    for (MemoryLevel level : kLevels) {
        if (!levelAvailable(level))
            continue;
        QAction *toggle = menu.addAction(tr("%1 roof and intensities").arg(levelName(level)));
        toggle->setCheckable(true);
        toggle->setChecked(levelShown(level));
        connect(toggle, &QAction::toggled, this, [this, level](bool on) { setLevelShown(level, on); });
    }
    QAction *reset = menu.addAction(tr("Reset view"));
    connect(reset, &QAction::triggered, this, [this] { rebuild(); });
    QMenu *gpus = menu.addMenu(tr("GPU"));
    for (int i = 0; i < m_gpuCombo->count(); ++i) {
        QAction *gpu = gpus->addAction(m_gpuCombo->itemText(i));
        gpu->setCheckable(true);
        gpu->setChecked(m_gpuCombo->itemData(i).toString() == m_gpuKey);
        const QString key = m_gpuCombo->itemData(i).toString();
        connect(gpu, &QAction::triggered, this, [this, key] { setGpu(key); });
    }
}

void RooflineChart::fitToWidth()
{
    fitTitleAndLegend(m_plot, m_fullTitle, m_legendWanted || m_printing);
}

void RooflineChart::syncControls()
{
    const QSignalBlocker blockGpu(m_gpuCombo);
    const QSignalBlocker blockWorklog(m_worklogCheck);
    m_gpuCombo->setCurrentIndex(std::max(0, m_gpuCombo->findData(m_gpuKey)));
    // "Auto" names what it resolved to, so the user sees which roofs are drawn.
    const GpuSpec *spec = m_gpuKey == kMeasuredKey ? datasheetSpec() : nullptr;
    const int autoIndex = m_gpuCombo->findData(kMeasuredKey);
    if (autoIndex >= 0)
        m_gpuCombo->setItemText(autoIndex, m_gpuKey == kMeasuredKey && spec
                                               ? tr("Auto (%1)").arg(upperKey(spec->key))
                                               : tr("Auto"));
    // Never narrower than its text: beside the counters' level switches it was squeezed to "Auto ("
    // (H200 ladder with counters, window 1600x1000, 2026-12-02). QComboBox keeps the minimum it
    // worked out for its first texts, so the minimum is set here.
    m_gpuCombo->setMinimumWidth(m_gpuCombo->sizeHint().width());
    m_worklogCheck->setChecked(m_showWorklog);
    {
        const QSignalBlocker blockModel(m_modelCheck);
        m_modelCheck->setChecked(m_showModel);
        m_modelCheck->setVisible(m_drawn.anyMeasured); // nothing to hide or show without counters
    }
    for (MemoryLevel level : kLevels) {
        QCheckBox *check = m_levelChecks[int(level)];
        const QSignalBlocker blockLevel(check);
        check->setChecked(levelShown(level));
        check->setVisible(levelAvailable(level));
    }
    // On the T4 the session's published rows are drawn already: the overlay would repeat them.
    const GpuSpec *chosen = datasheetSpec();
    const bool publishedShown = chosen && chosen->key == "t4" &&
                                std::any_of(m_points.cbegin(), m_points.cend(), [](const ChartPoint &p) {
                                    return p.kind == PointKind::WorklogT4 && !p.runId.isEmpty();
                                });
    m_worklogCheck->setEnabled(!publishedShown);
    m_worklogCheck->setToolTip(publishedShown
                                   ? tr("Off: the T4's published runs of this session are drawn already.")
                                   : tr(kWorklogCheckTip));
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
    adoptRuns(m_runs, runs);
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
    m_live = Live{stage, params, size};
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
    const double ridge = spec.ridgeIntensity();
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
    m_runTips.clear();
    m_labels.clear();
    m_ridgeLabels.clear();
    m_ridgeTexts.clear();
    m_graphRoles.clear();
    m_liveGraph = nullptr;
    m_selectedGraph = nullptr;
    m_selectedModelGraph = nullptr;
    m_layout.clear();
    m_countersNote = nullptr;
    m_plot->legend->clearItems(); // the key entries that belong to no plottable

    const GpuSpec *spec = datasheetSpec();
    m_drawn = DrawnRuns{};
    m_drawn.spec = spec;
    m_drawn.l2Drawn = levelDrawn(MemoryLevel::L2);
    m_drawn.l1SharedDrawn = levelDrawn(MemoryLevel::L1Shared);
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
    m_drawn.published = std::any_of(m_points.cbegin(), m_points.cend(),
                                    [](const ChartPoint &p) { return p.kind == PointKind::WorklogT4; });
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
        hint->setColor(Qt::gray);
    }

    const auto [x, y] = defaultView();
    m_plot->xAxis->setRange(x);
    m_plot->yAxis->setRange(y);
    if (m_printing) {
        // SVG has no clipping here: the print layout draws each roof only inside the view.
        for (const Roof &r : std::as_const(m_roofs)) {
            roofline_scene::RoofSpec spec;
            spec.peakTflops = r.peakTflops;
            spec.bandwidthGBs = r.bandwidthGBs;
            spec.level = r.level;
            QVector<double> keys, values;
            for (const QPointF &at : roofline_scene::clippedLine(spec, x.lower, x.upper, y.lower).points) {
                keys << at.x();
                values << at.y();
            }
            r.graph->setData(keys, values, true);
        }
    }
    addPointLabels(0);
    syncControls();
    fitToWidth();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool RooflineChart::liveUsesTensorCores() const
{
    return m_live && stageInfo(m_live->stage).precision == Precision::Tf32;
}

void RooflineChart::updateTitle()
{
    // The title names what is drawn: the GPU, and how many of its runs.
    const GpuSpec *spec = m_drawn.spec;
    const int drawn = m_drawn.count;
    QString gpuName = spec ? QString::fromStdString(spec->name)
                           : (m_measuredLabel.isEmpty() ? QStringLiteral("no GPU chosen") : m_measuredLabel);
    // The runs' own name for their GPU where they share one ("NVIDIA H200", as the runtime chart's
    // title says, not the datasheet's "NVIDIA H200 SXM": the legend names the datasheet).
    QStringList runGpus;
    for (auto it = m_drawn.onChosen.cbegin(); it != m_drawn.onChosen.cend(); ++it)
        if (it.value())
            runGpus << it.key();
    if (drawn > 0 && !m_drawn.published && runGpus.size() == 1)
        gpuName = runGpus.first();
    QString what;
    if (m_drawn.published && drawn > 0)
        what = QStringLiteral("%n published worklog run(s)")
                   .replace(QStringLiteral("%n"), QString::number(drawn));
    else if (drawn > 0)
        what = QStringLiteral("%1 run%2 measured on it")
                   .arg(drawn)
                   .arg(drawn == 1 ? QString() : QStringLiteral("s"));
    else
        what = QStringLiteral("no run measured on it");
    if (m_showWorklog && !m_drawn.published)
        what += QStringLiteral(", the worklog's T4 results");
    m_fullTitle = QStringLiteral("Roofline: %1 — %2").arg(gpuName, what);
}

std::pair<QCPRange, QCPRange> RooflineChart::defaultView() const
{
    QList<roofline_scene::RoofSpec> roofs;
    for (const Roof &r : std::as_const(m_roofs)) {
        roofs << roofline_scene::RoofSpec{};
        roofs.last().peakTflops = r.peakTflops;
        roofs.last().bandwidthGBs = r.bandwidthGBs;
    }
    QList<roofline_scene::ViewPoint> points;
    for (qsizetype i = 0; i < m_points.size(); ++i)
        // A run's hidden model disc is not kept in sight (the selected run's may lie outside: its
        // join runs off the edge).
        if (!hasMeasuredPoint(i) || m_showModel)
            points << roofline_scene::ViewPoint{m_points[i].intensity, m_points[i].tflops,
                                                m_points[i].kind == PointKind::Live};
    const roofline_scene::ViewRanges view = roofline_scene::defaultView(roofs, points);
    return {QCPRange(view.xLower, view.xUpper), QCPRange(view.yLower, view.yUpper)};
}

// Legend entries for what has no graph of its own: one entry for every run's disc (the colour is the
// stage, as in the runtime chart; the label is its worklog step), the ridge dots, the dotted join to
// the measured intensity, the selection ring.
void RooflineChart::addLegendKey()
{
    const auto marker = [](QCPScatterStyle style) {
        return [style](QCPPainter *p, const QRectF &icon) { style.drawShape(p, icon.center()); };
    };
    if (m_drawn.anyPredicted)
        addKeyItem(m_plot,
                   m_showModel || !m_drawn.anyMeasured
                       ? QStringLiteral("run at the model's AI (colour:\nstage; above a roof: caches helped)")
                       : QStringLiteral("run without counters,\nat the model's AI"),
                   marker(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x60, 0x60, 0x60),
                                          QColor(0xa0, 0xa0, 0xa0), 8)));
    // What the last rebuild drew, not a scan of every point (the key is written again as it changes).
    if (m_drawn.anyMeasured)
        addKeyItem(m_plot,
                   m_showModel ? QStringLiteral("measured AI (counters),\ndotted to the model's")
                               : QStringLiteral("run at its measured AI\n(counters; colour: stage)"),
                   marker(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(QColor(0x40, 0x40, 0x40), 1.2),
                                          QColor(0xa0, 0xa0, 0xa0), 9)));
    for (MemoryLevel level : kLevels)
        if (level == MemoryLevel::L2 ? m_drawn.anyL2 : m_drawn.anyL1Shared)
            addKeyItem(m_plot, QStringLiteral("measured %1 AI (counters)").arg(levelName(level)),
                       marker(QCPScatterStyle(levelShape(level), QPen(QColor(0x40, 0x40, 0x40), 1.2),
                                              QColor(0xa0, 0xa0, 0xa0), 8)));
    if (m_selectedGraph)
        addKeyItem(m_plot, QStringLiteral("selected run"),
                   marker(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 11)));
}

void RooflineChart::addRunPoints(const ActiveRoof &roof)
{
    m_tipRoof = roof;
    m_points.reserve(m_runs.size() * 2 + 16);
    m_runTips.reserve(m_runs.size() * 2);
    for (qsizetype i = 0; i < m_runs.size(); ++i)
        addRunPoint(i);
    placeCountersNote();
}

void RooflineChart::placeCountersNote()
{
    const bool wanted = m_drawn.anyRun && !m_drawn.anyCounters;
    if (!wanted && m_countersNote) {
        m_plot->removeItem(m_countersNote);
        m_countersNote = nullptr;
    }
    if (!wanted || m_countersNote)
        return;
    m_countersNote = new QCPItemText(m_plot);
    m_countersNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_countersNote->position->setCoords(0.99, 0.99);
    m_countersNote->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_countersNote->setText(QStringLiteral("measured intensity: hardware counters not available\n(%1)")
                                .arg(countersUnavailableReason(m_runs)));
    m_countersNote->setTextAlignment(Qt::AlignRight);
    m_countersNote->setColor(Qt::darkGray);
    m_countersNote->setFont(QFont(font().family(), 8));
}

void RooflineChart::refreshKey()
{
    // The key's entries follow the roofs' legend items: they are removed and written again.
    for (int i = m_plot->legend->itemCount() - 1; i >= 0; --i)
        if (dynamic_cast<KeyLegendItem *>(m_plot->legend->item(i)))
            m_plot->legend->removeItem(i);
    addLegendKey();
    placeCountersNote();
}

bool RooflineChart::addRunPoint(qsizetype index)
{
    const RunRecord &run = m_runs[index];
    DrawnRuns &d = m_drawn;
    const bool onT4 = d.spec && d.spec->key == "t4";
    // Only runs measured on the chosen GPU; the worklog's published rows belong on the T4 roof.
    const bool published = run.origin == QLatin1String("worklog");
    if (run.status != RunStatus::Ok || (published && !onT4))
        return false;
    // The chosen GPU's answer once per device name, not per run.
    if (d.spec && !run.gpuName.isEmpty()) {
        auto it = d.onChosen.find(run.gpuName);
        if (it == d.onChosen.end())
            it = d.onChosen.insert(run.gpuName, deviceIs(run.gpuName, *d.spec));
        if (!*it)
            return false;
    }
    const StageInfo *stage = findStage(run.stage.key());
    const double tflops = run.tflops > 0 ? run.tflops : tflopsAt(run, run.medianMs);
    if (!stage || tflops <= 0)
        return false;
    // The catalog's verdict and the traffic model once per configuration, not once per run.
    const QString configKey = configurationKey(run);
    auto config = d.modelled.find(configKey);
    if (config == d.modelled.end()) {
        Modelled m;
        // A run from a file the catalog refuses (a zero tile, an overflowing size) is listed in the
        // table with its reason but never given to the traffic model.
        m.refused = !catalogRefusal(run).isEmpty();
        if (!m.refused) {
            m.traffic = estimateTraffic(stage->id, paramValuesOf(run), sizeOf(run));
            m.formula = QString::fromStdString(m.traffic.formula);
        }
        config = d.modelled.insert(configKey, m);
    }
    if (config->refused)
        return false;
    d.anyRun = true;
    const double predicted = plottedIntensity(config->traffic);
    if (predicted <= 0)
        return false;
    const std::optional<double> measured = measuredIntensity(run);
    d.anyCounters = d.anyCounters || measured.has_value();
    RunTip tip{
        index, predicted, config->formula, measured, tflops, published, stage->precision == Precision::Tf32,
        {},    {}};
    if (!published && d.l2Drawn)
        tip.l2 = measuredIntensity(run, MemoryLevel::L2);
    if (!published && d.l1SharedDrawn)
        tip.l1Shared = measuredIntensity(run, MemoryLevel::L1Shared);
    const QString tooltip; // written when shown: runTooltip()
    ++d.count;
    d.ids.insert(run.runId);
    // Points closer than ~0.1 % on both log axes are one marker (a pixel is ~0.5 %): in a long
    // session many runs of one configuration fall on the same spot, and each marker costs a drawn
    // ellipse in every replot and export. Every run stays in m_points for hover and click.
    const auto firstMarker = [&d](QCPGraph *graph, double x, double y) {
        return d.markers
            .insert({graph, qint64(std::llround(std::log10(x) * 2000)),
                     qint64(std::llround(std::log10(y) * 2000))})
            .second;
    };
    if (published) {
        if (!d.publishedGraph) {
            d.publishedGraph = m_plot->addGraph();
            m_graphRoles.insert(d.publishedGraph, roofline_scene::MarkRole::Published);
            d.publishedGraph->setName(QStringLiteral("T4, published (worklog)"));
            d.publishedGraph->setLineStyle(QCPGraph::lsNone);
            d.publishedGraph->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(kWorklogColor, 1.5), Qt::white, 8));
        }
        if (firstMarker(d.publishedGraph, predicted, tflops))
            d.publishedGraph->addData(predicted, tflops);
        m_runTips.insert(int(m_points.size()), tip);
        m_points.append(
            {PointKind::WorklogT4, run.runId, predicted, tflops, tooltip, shortRunLabel(run), kWorklogColor});
        return true;
    }

    // One graph a stage's preset, in the runtime chart's shade of the stage's colour: 5a and 5b, or
    // 8 and 8/BK8, are told apart without hovering (issue 19).
    // The shade once per preset: finding it walks the catalog's presets.
    const QString presetKey = run.stageKey() + QLatin1Char('/') + run.presetKey;
    auto shade = d.colorByPreset.constFind(presetKey);
    if (shade == d.colorByPreset.cend()) {
        const QColor c = runColor(run);
        shade = d.colorByPreset.insert(presetKey, {c, run.stageKey() + QLatin1Char('/') + c.name()});
    }
    const QColor color = shade->first;
    const QString &colorKey = shade->second;
    QCPGraph *&graph = d.byStage[colorKey];
    if (!graph) {
        graph = m_plot->addGraph();
        graph->setName(QString::fromStdString(stage->title));
        graph->removeFromLegend(); // one key entry explains the discs; the colours match the runtime chart
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(120), color, 8));
    }
    // Each run once (issue 19): its disc only where counters measured nothing, or the model's
    // intensities are asked for. The point stays in m_points (its tooltip, the table's selection).
    if ((!measured || m_showModel) && firstMarker(graph, predicted, tflops))
        graph->addData(predicted, tflops);
    m_runTips.insert(int(m_points.size()), tip);
    m_points.append({PointKind::RunPredicted, run.runId, predicted, tflops, tooltip,
                     shortRunLabel(run) + comparabilityMark(run), color});
    d.anyPredicted = d.anyPredicted || !measured || m_showModel;

    if (measured) {
        // In the stage's colour (as its predicted disc and its bar in the runtime chart), so a
        // diamond is told from its neighbours without hovering.
        QCPGraph *&diamonds = d.measuredByStage[colorKey];
        if (!diamonds) {
            diamonds = m_plot->addGraph();
            m_graphRoles.insert(diamonds, roofline_scene::MarkRole::RunMeasured);
            diamonds->setName(QString::fromStdString(stage->title) + QStringLiteral(", measured AI"));
            diamonds->removeFromLegend(); // one key entry explains the diamonds
            diamonds->setLineStyle(QCPGraph::lsNone);
            diamonds->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(color.darker(160), 1.2), color, 9));
        }
        if (*measured > 0 && firstMarker(diamonds, *measured, tflops))
            diamonds->addData(*measured, tflops);
        if (!d.joins) {
            d.joins = new RooflineJoins(m_plot);
            d.joins->setShowAll(m_showModel);
        }
        d.joins->add(predicted, *measured, tflops, color);
        m_runTips.insert(int(m_points.size()), tip);
        m_points.append({PointKind::RunMeasured, run.runId, *measured, tflops, tooltip,
                         shortRunLabel(run) + comparabilityMark(run), color});
        d.anyMeasured = true;
    }
    // One marker a level, in the stage's colour, the shape telling the level; unlabelled (the run's
    // label sits at its DRAM point; hover names it).
    for (MemoryLevel level : kLevels) {
        const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared;
        if (!ai)
            continue;
        QCPGraph *&markers = (level == MemoryLevel::L2 ? d.l2ByStage : d.l1SharedByStage)[colorKey];
        if (!markers) {
            markers = m_plot->addGraph();
            m_graphRoles.insert(markers, roofline_scene::MarkRole::RunLevel);
            markers->setName(QString::fromStdString(stage->title) + QStringLiteral(", measured ") +
                             levelName(level) + QStringLiteral(" AI"));
            markers->removeFromLegend(); // one key entry explains each level's markers
            markers->setLineStyle(QCPGraph::lsNone);
            markers->setScatterStyle(
                QCPScatterStyle(levelShape(level), QPen(color.darker(160), 1.2), color, 8));
        }
        if (firstMarker(markers, *ai, tflops))
            markers->addData(*ai, tflops);
        m_runTips.insert(int(m_points.size()), tip);
        m_points.append({level == MemoryLevel::L2 ? PointKind::RunMeasuredL2 : PointKind::RunMeasuredL1Shared,
                         run.runId, *ai, tflops, tooltip, QString()});
        (level == MemoryLevel::L2 ? d.anyL2 : d.anyL1Shared) = true;
    }
    return true;
}

void RooflineChart::updateSelectionRing()
{
    // The ring sits on the run's shown marker: its diamond where counters measured it (with the
    // model's disc and the dotted join beside it while the model's intensities are hidden), else its
    // disc.
    qsizetype selected = -1;
    if (!m_printing && !m_selectedRunId.isEmpty())
        for (qsizetype i = 0; i < m_points.size(); ++i)
            if (m_points[i].kind == PointKind::RunPredicted && m_points[i].runId == m_selectedRunId) {
                selected = i;
                break;
            }
    if (selected < 0) {
        if (m_selectedGraph)
            m_plot->removeGraph(m_selectedGraph);
        if (m_selectedModelGraph)
            m_plot->removeGraph(m_selectedModelGraph);
        m_selectedGraph = nullptr;
        m_selectedModelGraph = nullptr;
        if (m_drawn.joins)
            m_drawn.joins->setHighlighted(std::nullopt);
        return;
    }
    if (!m_selectedGraph) {
        m_selectedGraph = m_plot->addGraph();
        m_selectedGraph->removeFromLegend();
        m_selectedGraph->setLineStyle(QCPGraph::lsNone);
        m_selectedGraph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 16));
        m_selectedModelGraph = m_plot->addGraph();
        m_selectedModelGraph->removeFromLegend();
        m_selectedModelGraph->setName(QStringLiteral("the selected run at the model's AI"));
        m_selectedModelGraph->setLineStyle(QCPGraph::lsNone);
    }
    const ChartPoint &model = m_points[selected];
    const bool diamond = hasMeasuredPoint(selected);
    const ChartPoint &shown = diamond ? m_points[selected + 1] : model;
    m_selectedGraph->data()->clear();
    m_selectedGraph->addData(shown.intensity, shown.tflops);
    m_selectedModelGraph->data()->clear();
    const RunRecord *run = nullptr;
    if (const auto tip = m_runTips.constFind(int(selected)); tip != m_runTips.cend())
        run = &m_runs[tip->run];
    if (diamond && !m_showModel && run) {
        const QColor color = runColor(*run);
        m_selectedModelGraph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(120), color, 8));
        m_selectedModelGraph->addData(model.intensity, model.tflops);
        if (m_drawn.joins)
            m_drawn.joins->setHighlighted(std::tuple(model.intensity, shown.intensity, model.tflops, color));
    } else if (m_drawn.joins) {
        m_drawn.joins->setHighlighted(std::nullopt);
    }
}

bool RooflineChart::hasMeasuredPoint(qsizetype index) const
{
    return m_points[index].kind == PointKind::RunPredicted && index + 1 < m_points.size() &&
           m_points[index + 1].kind == PointKind::RunMeasured &&
           m_points[index + 1].runId == m_points[index].runId;
}

bool RooflineChart::pointDrawn(qsizetype index) const
{
    // A run's disc is hidden behind its diamond's measurement unless the model is asked for or the
    // run is selected.
    if (m_points[index].kind == PointKind::Live)
        return m_liveGraph && m_liveGraph->visible();
    return !hasMeasuredPoint(index) || m_showModel ||
           (!m_printing && m_points[index].runId == m_selectedRunId);
}

bool RooflineChart::inPlace() const
{
    // A change the marks of one run can show: the roofs, the legend, the counters note and the title's
    // GPU stay as they are (anything else draws the chart again).
    return !m_printing && datasheetSpec() == m_drawn.spec;
}

void RooflineChart::runAdded(const QList<RunRecord> &runs, qsizetype index)
{
    if (!followRuns(m_runs, runs, RunChange::Added, index) || index != runs.size() - 1 ||
        !inPlace()) { // the session adds at its end
        rebuild();
        return;
    }
    addRunInPlace(index);
}

void RooflineChart::runChanged(const QList<RunRecord> &runs, qsizetype index)
{
    const bool followed = followRuns(m_runs, runs, RunChange::Changed, index);
    if (!followed || m_drawn.ids.contains(runs[index].runId) || !inPlace()) {
        rebuild(); // a drawn run moves (it was measured again)
        return;
    }
    addRunInPlace(index); // a queued or running run that finished, or one still not drawn
}

void RooflineChart::runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId)
{
    if (!followRuns(m_runs, runs, RunChange::Removed, index) || m_drawn.ids.contains(runId) || !inPlace()) {
        rebuild();
        return;
    }
    // A run never drawn (cancelled while queued): only the later runs' places in m_runs move.
    for (RunTip &tip : m_runTips)
        if (tip.run > index)
            --tip.run;
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
    // point, 55-280 ms of UI thread when a ladder's first run finished (2026-12-02).
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
            const auto [defaultX, defaultY] = defaultView();
            m_plot->xAxis->setRange(defaultX);
            m_plot->yAxis->setRange(defaultY);
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

void RooflineChart::addWorklogPoints()
{
    const GpuSpec *t4 = findGpu("t4");
    QCPGraph *graph = m_plot->addGraph();
    m_graphRoles.insert(graph, roofline_scene::MarkRole::Published);
    graph->setName(QStringLiteral("worklog steps (T4, published)"));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(kWorklogColor, 1.5), Qt::white, 8));
    const ProblemSize worklogSize; // the default is the worklog's 8192 x 4096 x 6144
    for (const Preset &preset : presets()) {
        if (!preset.worklogT4Ms)
            continue;
        const TrafficEstimate traffic = estimateTraffic(preset.stage, preset.params, worklogSize);
        const double ai = plottedIntensity(traffic);
        const double tflops = roofline::tflopsFor(roofline::kWorklogFlops, *preset.worklogT4Ms);
        if (ai <= 0 || tflops <= 0)
            continue;
        graph->addData(ai, tflops);
        QStringList lines{
            QString::fromStdString(preset.title) + QStringLiteral(" (worklog, T4)"),
            QStringLiteral("AI predicted: %1  (%2)")
                .arg(fmtIntensity(ai), QString::fromStdString(traffic.formula)),
            QStringLiteral("published %1 -> %2").arg(formatMs(*preset.worklogT4Ms), formatGflops(tflops))};
        if (t4)
            lines << roofPercentText(tflops, ai, QStringLiteral("T4 datasheet"), t4->fp32Tflops, t4->dramGBs);
        m_points.append({PointKind::WorklogT4, QString(), ai, tflops, lines.join(QLatin1Char('\n')),
                         shortPresetLabel(QString::fromStdString(preset.key))});
    }
}

std::optional<RooflineChart::ChartPoint> RooflineChart::livePoint(const ActiveRoof &fp32Roof) const
{
    if (!m_live)
        return std::nullopt;
    // A TF32 stage is capped by the tensor cores' roof: the datasheet's (what the hardware can do at
    // best), else the one measured here (wgmma on Hopper, mma.sync elsewhere).
    std::optional<ActiveRoof> tensor;
    if (stageInfo(m_live->stage).precision == Precision::Tf32)
        tensor = tensorDatasheetRoof() ? tensorDatasheetRoof() : tensorMeasuredRoof();
    const ActiveRoof roof = tensor ? *tensor : fp32Roof;
    const TrafficEstimate traffic = estimateTraffic(m_live->stage, m_live->params, m_live->size);
    const double ai = plottedIntensity(traffic);
    if (ai <= 0)
        return std::nullopt;
    // Without a run the model predicts only where the roof caps this configuration.
    const double attainable =
        roof.peakTflops > 0 ? roofline::roofAt(ai, roof.peakTflops, roof.bandwidthGBs) : 1.0;
    QStringList lines{QStringLiteral("%1, current settings (not run)")
                          .arg(QString::fromStdString(stageInfo(m_live->stage).title)),
                      QString::fromStdString(formatParams(m_live->params)),
                      QStringLiteral("AI predicted: %1  (%2)")
                          .arg(fmtIntensity(ai), QString::fromStdString(traffic.formula))};
    if (roof.peakTflops > 0)
        lines << QStringLiteral("attainable under the %1 roof: %2").arg(roof.label, formatGflops(attainable));
    return ChartPoint{PointKind::Live, QString(), ai, attainable, lines.join(QLatin1Char('\n')), QString()};
}

bool RooflineChart::liveWasRun() const
{
    // Keyed as addRunPoint keys the runs it models.
    if (!m_live)
        return false;
    RunRecord live;
    live.stage = m_live->stage;
    live.m = m_live->size.m;
    live.n = m_live->size.n;
    live.k = m_live->size.k;
    for (const auto &[name, value] : m_live->params)
        live.params.insert(QString::fromStdString(name), value);
    const auto config = m_drawn.modelled.constFind(configurationKey(live));
    return config != m_drawn.modelled.cend() && !config->refused;
}

void RooflineChart::addLivePoint(const ActiveRoof &fp32Roof)
{
    const std::optional<ChartPoint> live = livePoint(fp32Roof);
    if (!live)
        return;
    m_liveGraph = m_plot->addGraph();
    // What the hollow circle is: the panel's settings where the traffic model puts them (no reuse
    // in the caches), at the roof's bound there, not a run. "Predicted" read as a forecast of the
    // run's speed, which the run's own diamond contradicted (review of 2026-12-03).
    m_liveGraph->setName(QStringLiteral("panel's settings (Alt+0),\nnot run: at the model's AI"));
    m_liveGraph->setLineStyle(QCPGraph::lsNone);
    m_liveGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kLiveColor, 2), Qt::NoBrush, 13));
    m_liveGraph->addData(live->intensity, live->tflops);
    m_points.append(*live);
    syncLiveShown();
}

bool RooflineChart::syncLiveShown()
{
    // Settings that a drawn run ran are that run's marker: a circle "not run" at the model's AI
    // beside the run's own diamond contradicted it (two reviews of 2026-12-03: the panel on step 3
    // put a circle on the FP32 ridge, 4x the run's speed). Hidden, not removed: a slider tick off
    // those settings shows it again without a rebuild.
    if (!m_liveGraph)
        return false;
    const bool shown = !liveWasRun();
    if (m_liveGraph->visible() == shown)
        return false;
    m_liveGraph->setVisible(shown);
    if (shown)
        m_liveGraph->addToLegend();
    else
        m_liveGraph->removeFromLegend();
    return true;
}

bool RooflineChart::moveLivePoint()
{
    // A slider tick moves the hollow circle and nothing else; false where more changes (it appears
    // or goes, or a TF32 stage brings the tensor cores' roofs).
    if (m_printing || !m_liveGraph || (m_drawn.tensorRuns || liveUsesTensorCores()) != m_drawn.tensorRoofs)
        return false;
    const std::optional<ChartPoint> live = livePoint(activeRoof().value_or(ActiveRoof{}));
    if (!live)
        return false;
    m_liveGraph->data()->clear();
    m_liveGraph->addData(live->intensity, live->tflops);
    syncLiveShown();
    for (qsizetype i = m_points.size() - 1; i >= 0; --i)
        if (m_points[i].kind == PointKind::Live) {
            m_points[i] = *live;
            break;
        }
    if (!m_plot->xAxis->range().contains(live->intensity) || !m_plot->yAxis->range().contains(live->tflops)) {
        const auto [x, y] = defaultView();
        m_plot->xAxis->setRange(x);
        m_plot->yAxis->setRange(y);
    }
    requestReplot();
    return true;
}

std::optional<QPointF> RooflineChart::predictedPoint() const
{
    if (!m_liveGraph || !m_liveGraph->visible() || m_liveGraph->data()->isEmpty())
        return std::nullopt;
    const auto it = m_liveGraph->data()->constBegin();
    return QPointF(it->key, it->value);
}

QString RooflineChart::runTooltip(const RunTip &tip) const
{
    const RunRecord &run = m_runs[tip.run];
    QStringList lines{runTitle(run)};
    if (!run.params.isEmpty())
        lines << formatRunParams(run);
    lines << QStringLiteral("AI predicted: %1  (%2)").arg(fmtIntensity(tip.predicted), tip.formula);
    lines << (tip.measured
                  ? QStringLiteral("AI measured: %1 (DRAM counters)").arg(fmtIntensity(*tip.measured))
                  : QStringLiteral("AI measured: hardware counters not available"));
    for (MemoryLevel level : kLevels)
        if (const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared)
            lines << QStringLiteral("AI measured at %1: %2 (counters)")
                         .arg(levelName(level), fmtIntensity(*ai));
    lines << QStringLiteral("achieved %1 (%2)").arg(formatGflops(tip.tflops), formatMs(run.medianMs));
    const double intensity = tip.measured.value_or(tip.predicted);
    // A TF32 run is judged against the tensor cores' roofs, never the FP32 one it can pass.
    const auto datasheetTf32 = tip.tensor ? tensorDatasheetRoof() : std::nullopt;
    const auto measuredTf32 = tip.tensor ? tensorMeasuredRoof() : std::nullopt;
    if (measuredTf32)
        lines << roofPercentText(tip.tflops, intensity, measuredTf32->label, measuredTf32->peakTflops,
                                 measuredTf32->bandwidthGBs);
    if (datasheetTf32)
        lines << roofPercentText(tip.tflops, intensity, datasheetTf32->label, datasheetTf32->peakTflops,
                                 datasheetTf32->bandwidthGBs);
    if (!tip.tensor && m_tipRoof.peakTflops > 0)
        lines << roofPercentText(tip.tflops, intensity, m_tipRoof.label, m_tipRoof.peakTflops,
                                 m_tipRoof.bandwidthGBs);
    // At each level, against that level's roof capped by the compute roof the run is judged by.
    const double levelPeak =
        tip.tensor ? (measuredTf32 ? measuredTf32->peakTflops : 0) : m_measuredFma.value_or(0);
    for (MemoryLevel level : kLevels)
        if (const std::optional<double> ai = level == MemoryLevel::L2 ? tip.l2 : tip.l1Shared;
            ai && levelPeak > 0)
            lines << roofPercentText(tip.tflops, *ai, levelName(level) + QStringLiteral(", measured"),
                                     levelPeak, levelBandwidth(level))
                         .replace(QStringLiteral("at this intensity"),
                                  QStringLiteral("at its %1 intensity").arg(levelName(level)));
    if (tip.tensor && !datasheetTf32 && !measuredTf32)
        lines << QStringLiteral("no TF32 roof for this GPU: measure its ceilings (sm_80 or newer)");
    if (tip.published)
        lines[0] = runTitle(run) + QStringLiteral(" — published in the worklog, not measured here");
    return lines.join(QLatin1Char('\n'));
}

const RooflineChart::ChartPoint &RooflineChart::pointWithTooltip(int index) const
{
    ChartPoint &point = m_points[index];
    if (point.tooltip.isEmpty())
        if (const auto tip = m_runTips.constFind(index); tip != m_runTips.cend())
            point.tooltip = runTooltip(*tip);
    return point;
}

const QList<RooflineChart::ChartPoint> &RooflineChart::points() const
{
    for (int i = 0; i < m_points.size(); ++i)
        pointWithTooltip(i);
    return m_points;
}

int RooflineChart::pointIndexAt(const QPointF &pixel) const
{
    int best = -1;
    double bestDistance = kHitRadiusPx;
    for (int i = 0; i < m_points.size(); ++i) {
        if (!pointDrawn(i))
            continue;
        const QPointF at(m_plot->xAxis->coordToPixel(m_points[i].intensity),
                         m_plot->yAxis->coordToPixel(m_points[i].tflops));
        const double distance = QLineF(at, pixel).length();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

QString RooflineChart::runIdAt(const QPointF &pixel) const
{
    const int index = pointIndexAt(pixel);
    return index < 0 ? QString() : m_points[index].runId;
}

QString RooflineChart::tooltipAt(const QPointF &pixel) const
{
    const int index = pointIndexAt(pixel);
    return index < 0 ? QString() : pointWithTooltip(index).tooltip;
}

std::optional<QPointF> RooflineChart::pixelOfRun(const QString &runId) const
{
    // Where it is drawn: its diamond where counters measured it and its disc is hidden.
    for (qsizetype i = 0; i < m_points.size(); ++i)
        if (m_points[i].kind == PointKind::RunPredicted && m_points[i].runId == runId) {
            const ChartPoint &p = pointDrawn(i) ? m_points[i] : m_points[i + 1];
            return QPointF(m_plot->xAxis->coordToPixel(p.intensity), m_plot->yAxis->coordToPixel(p.tflops));
        }
    return std::nullopt;
}

} // namespace gemmscope
