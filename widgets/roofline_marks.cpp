#include "roofline_marks.h"

#include "chart_text.h"
#include "run_color.h"
#include "runtime_series.h"
#include "stage_catalog.h"

#include <charconv>

namespace gemmscope {

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

namespace roofline_scene {

namespace {

ProblemSize sizeOf(const RunRecord &run)
{
    ProblemSize size; // the worklog's benchmark when the run does not say
    if (run.m > 0 && run.n > 0 && run.k > 0)
        size = ProblemSize{run.m, run.n, run.k};
    return size;
}

// Each run's marks listed alike: a disc at the model's intensity, a 9 px diamond at the measured one,
// an 8 px triangle a level, an 8 px square a published row (radius: half the box, pen included).
Mark markAt(MarkRole role, double intensity, double tflops)
{
    const double radius = role == MarkRole::RunMeasured ? 9 / 2.0 + 0.6 + 0.5
                          : role == MarkRole::RunLevel  ? 8 / 2.0 + 0.6 + 0.5
                          : role == MarkRole::Published ? 8 / 2.0 + 0.75 + 0.5
                                                        : 8 / 2.0 + 0.5 + 0.5;
    return Mark{role, intensity, tflops, radius};
}

} // namespace

bool deviceIs(const QString &device, const GpuSpec &spec)
{
    // Without a regular expression: compiling one per run and GPU made a 50,000-run session take
    // minutes to draw.
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

bool usesTensorCores(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    return stage && stage->precision == Precision::Tf32;
}

QString configurationKey(const RunRecord &run)
{
    // Written for every run of a session in each drawing: the numbers go through a buffer on the
    // stack, not a QString each (a tenth of the drawing at 10,000 runs).
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

double plottedIntensity(const TrafficEstimate &t)
{
    return t.intensity > 0 ? t.intensity : t.compulsoryIntensity;
}

bool RunMarker::onChosenGpu(const RunRecord &run)
{
    // A run that does not name its device is drawn on any roof (nothing says it does not belong).
    if (!m_options.datasheet || run.gpuName.isEmpty())
        return true;
    auto it = m_onChosen.find(run.gpuName);
    if (it == m_onChosen.end())
        it = m_onChosen.insert(run.gpuName, deviceIs(run.gpuName, *m_options.datasheet));
    return *it;
}

const RunMarker::Modelled &RunMarker::model(const RunRecord &run, const StageInfo &stage)
{
    const QString key = configurationKey(run);
    auto config = m_modelled.find(key);
    if (config == m_modelled.end()) {
        Modelled m;
        m.stageTitle = QString::fromStdString(stage.title);
        // A run from a file the catalog refuses (a zero tile, an overflowing size) is listed in the
        // table with its reason but never given to the traffic model.
        m.refused = !catalogRefusal(run).isEmpty();
        if (!m.refused) {
            m.traffic = estimateTraffic(stage.id, paramValuesOf(run), sizeOf(run));
            m.formula = QString::fromStdString(m.traffic.formula);
        }
        config = m_modelled.insert(key, m);
    }
    return *config;
}

bool RunMarker::modelled(const RunRecord &configuration) const
{
    const auto config = m_modelled.constFind(configurationKey(configuration));
    return config != m_modelled.cend() && !config->refused;
}

QStringList RunMarker::chosenDevices() const
{
    QStringList names;
    for (auto it = m_onChosen.cbegin(); it != m_onChosen.cend(); ++it)
        if (it.value())
            names << it.key();
    return names;
}

std::optional<RunMarks> RunMarker::marksOf(const RunRecord &run)
{
    const bool onT4 = m_options.datasheet && m_options.datasheet->key == "t4";
    // Only runs measured on the chosen GPU; the worklog's published rows belong on the T4 roof.
    const bool published = run.origin == QLatin1String("worklog");
    if (run.status != RunStatus::Ok || (published && !onT4) || !onChosenGpu(run))
        return std::nullopt;
    const StageInfo *stage = findStage(run.stage.key());
    const double tflops = run.tflops > 0 ? run.tflops : tflopsAt(run, run.medianMs);
    if (!stage || tflops <= 0)
        return std::nullopt;
    const Modelled &config = model(run, *stage);
    if (config.refused)
        return std::nullopt;
    m_anyModelled = true;
    const double predicted = plottedIntensity(config.traffic);
    if (predicted <= 0)
        return std::nullopt;
    RunMarks r;
    r.published = published;
    r.tensor = stage->precision == Precision::Tf32;
    r.tflops = tflops;
    r.predicted = predicted;
    r.formula = config.formula;
    r.measured = measuredIntensity(run);
    r.stageTitle = config.stageTitle;
    if (published) {
        r.label = shortRunLabel(run);
        r.color = kWorklogColor;
        r.marks << RunMark{markAt(MarkRole::Published, predicted, tflops), std::nullopt, true};
        return r;
    }
    if (m_options.l2Drawn)
        r.l2 = measuredIntensity(run, MemoryLevel::L2);
    if (m_options.l1SharedDrawn)
        r.l1Shared = measuredIntensity(run, MemoryLevel::L1Shared);
    // The runtime chart's shade of the stage's colour for each preset: 5a and 5b, or 8 and 8/BK8,
    // are told apart without hovering. Once per preset: finding it walks the catalog's presets.
    // By preset key, then stage: a key of both written for every run was a tenth of the drawing.
    QList<PresetShade> &shades = m_colorByPreset[run.presetKey];
    auto shade = std::find_if(shades.cbegin(), shades.cend(),
                              [&run](const PresetShade &s) { return s.stage == run.stage; });
    if (shade == shades.cend()) {
        const QColor c = runColor(run);
        shades.append({run.stage, c, run.stageKey() + QLatin1Char('/') + c.name()});
        shade = shades.cend() - 1;
    }
    r.color = shade->color;
    r.colorKey = shade->colorKey;
    r.label = shortRunLabel(run) + comparabilityMark(run);
    // Each run drawn once: its disc only where counters measured nothing, or the model's
    // intensities are asked for; listed still (its tooltip, the table's selection).
    r.marks << RunMark{markAt(MarkRole::RunModel, predicted, tflops), std::nullopt,
                       !r.measured || m_options.showModel};
    if (r.measured)
        r.marks << RunMark{markAt(MarkRole::RunMeasured, *r.measured, tflops), std::nullopt, true};
    for (const auto &[level, ai] :
         {std::pair(MemoryLevel::L2, r.l2), std::pair(MemoryLevel::L1Shared, r.l1Shared)})
        if (ai)
            r.marks << RunMark{markAt(MarkRole::RunLevel, *ai, tflops), level, true};
    return r;
}

QList<KeyEntry> keyEntries(const KeyInputs &in)
{
    QList<KeyEntry> entries;
    if (in.anyModel)
        entries << KeyEntry{
            in.showModel || !in.anyMeasured
                ? QStringLiteral("run at the model's AI (colour:\nstage; above a roof: caches helped)")
                : QStringLiteral("run without counters,\nat the model's AI"),
            MarkRole::RunModel, std::nullopt};
    if (in.anyMeasured)
        entries << KeyEntry{in.showModel
                                ? QStringLiteral("measured AI (counters),\ndotted to the model's")
                                : QStringLiteral("run at its measured AI\n(counters; colour: stage)"),
                            MarkRole::RunMeasured, std::nullopt};
    for (const auto &[level, drawn] :
         {std::pair(MemoryLevel::L2, in.anyL2), std::pair(MemoryLevel::L1Shared, in.anyL1Shared)})
        if (drawn)
            entries << KeyEntry{QStringLiteral("measured %1 AI (counters)").arg(levelName(level)),
                                MarkRole::RunLevel, level};
    if (in.selection)
        entries << KeyEntry{QStringLiteral("selected run"), MarkRole::SelectionRing, std::nullopt};
    return entries;
}

QString chartTitle(const TitleInputs &in)
{
    QString gpuName = in.gpuName.isEmpty() ? QStringLiteral("no GPU chosen") : in.gpuName;
    // The runs' own name for their GPU where they share one ("NVIDIA H200", as the runtime chart's
    // title says, not the datasheet's "NVIDIA H200 SXM": the legend names the datasheet).
    if (in.drawn > 0 && !in.published && in.runDevices.size() == 1)
        gpuName = in.runDevices.first();
    QString what;
    if (in.published && in.drawn > 0)
        what = QStringLiteral("%1 published worklog run(s)").arg(in.drawn);
    else if (in.drawn > 0)
        what = QStringLiteral("%1 run%2 measured on it")
                   .arg(in.drawn)
                   .arg(in.drawn == 1 ? QString() : QStringLiteral("s"));
    else
        what = QStringLiteral("no run measured on it");
    if (in.worklogOverlay)
        what += QStringLiteral(", the worklog's T4 results");
    return QStringLiteral("Roofline: %1 — %2").arg(gpuName, what);
}

} // namespace roofline_scene
} // namespace gemmscope
