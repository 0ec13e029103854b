// Which marks a run puts on the roofline, free of QCustomPlot: whether it belongs on the chart (a
// finished run of the chosen GPU whose configuration the traffic model knows), and where its marks
// go: its disc at the model's arithmetic intensity, its diamond at the counter-measured one, a
// triangle at each memory level's, or a published worklog row's square.
#pragma once

#include "gpu_specs.h"
#include "roofline_roofs.h"
#include "roofline_scene.h"
#include "run_record.h"
#include "traffic_model.h"

#include <QHash>
#include <optional>

namespace gemmscope {

// The DRAM intensity the runner measured with hardware counters, or nullopt when the run carries none.
std::optional<double> measuredIntensity(const RunRecord &run);
// A run's counter-measured intensity at a level, or nullopt when the run carries none.
std::optional<double> measuredIntensity(const RunRecord &run, MemoryLevel level);
// Why no run on the chart has counter data, for the chart's note: the runner's own reason when it
// gave one, else a generic sentence.
QString countersUnavailableReason(const QList<RunRecord> &runs);

namespace roofline_scene {

// Whether `device` ("NVIDIA H200") names the spec's key ("h200") as a word.
bool deviceIs(const QString &device, const GpuSpec &spec);
bool usesTensorCores(const RunRecord &run); // a TF32 (tensor-core) stage
// A configuration as the chart models it once: its stage, size and parameters.
QString configurationKey(const RunRecord &run);
// The intensity the roofline uses: the kernel's load traffic, or the compulsory traffic for
// kernels whose tiling the model does not know (cuBLAS).
double plottedIntensity(const TrafficEstimate &traffic);

struct MarkOptions {
    const GpuSpec *datasheet = nullptr; // the chosen GPU's roofs; nullptr: any run is drawn
    bool showModel = false;             // every run's model disc too, not only where nothing was measured
    bool l2Drawn = false, l1SharedDrawn = false;
};

// One mark of a run. `drawn` false: listed (hover, selection) but not drawn (a model disc hidden
// behind its run's measured diamond).
struct RunMark {
    Mark mark;
    std::optional<MemoryLevel> level; // a RunLevel mark's level
    bool drawn = true;
};

// What a run puts on the chart.
struct RunMarks {
    QString label;          // its short step label ("3", "5a", "cuBLAS"), with its comparability mark
    QColor color;           // the preset's shade of the stage's colour
    QString colorKey;       // the runs drawn alike: stage and shade
    QString stageTitle;     // the stage's title
    bool published = false; // a worklog row, on the T4 roof
    bool tensor = false;    // a TF32 stage
    double tflops = 0;
    double predicted = 0; // the traffic model's intensity (FLOP/B)
    QString formula;      // how the model counted it
    std::optional<double> measured, l2, l1Shared;
    QList<RunMark> marks; // the model's (or published) first, then the measured, then the levels'
};

// The marks of the runs of one drawing of the chart: the catalog's verdict, the traffic model and a
// device's match are worked out once per configuration and device, not once per run.
class RunMarker {
public:
    void setOptions(const MarkOptions &options) { m_options = options; }
    const MarkOptions &options() const { return m_options; }
    // nullopt: not on this chart (not finished, another GPU's, refused by the catalog, no model).
    std::optional<RunMarks> marksOf(const RunRecord &run);
    bool anyModelled() const { return m_anyModelled; } // a run reached the traffic model
    // Whether a run of this configuration was modelled (the panel's settings were run).
    bool modelled(const RunRecord &configuration) const;
    // The names the runs gave the chosen GPU ("NVIDIA H200"), of those asked about so far.
    QStringList chosenDevices() const;

private:
    struct Modelled {
        bool refused = true;
        TrafficEstimate traffic;
        QString formula;
        QString stageTitle; // written once a configuration, not once a run
    };
    const Modelled &model(const RunRecord &run, const StageInfo &stage);
    bool onChosenGpu(const RunRecord &run);
    MarkOptions m_options;
    bool m_anyModelled = false;
    QHash<QString, Modelled> m_modelled; // by configuration
    QHash<QString, bool> m_onChosen;     // by device name
    struct PresetShade {
        StageId stage;
        QColor color;
        QString colorKey;
    };
    QHash<QString, QList<PresetShade>> m_colorByPreset; // by preset key: a stage's shade and its key
};

// What the legend's key explains: one entry a kind of run mark drawn (its colour is the stage's, so
// the key shows it in grey), and the selection's ring.
struct KeyInputs {
    bool anyModel = false, anyMeasured = false, anyL2 = false, anyL1Shared = false;
    bool showModel = false; // every run's model disc is drawn, dotted to its measured diamond
    bool selection = false; // the ring around the selected run
};
struct KeyEntry {
    QString text;
    MarkRole role = MarkRole::RunModel; // whose marker the entry shows
    std::optional<MemoryLevel> level;   // a RunLevel entry's level
    friend bool operator==(const KeyEntry &, const KeyEntry &) = default;
};
QList<KeyEntry> keyEntries(const KeyInputs &in);

// What the chart's title names: the GPU whose roofs are drawn and how many of its runs.
struct TitleInputs {
    QString gpuName;             // the chosen datasheet's name, else the ceilings' GPU; empty: none chosen
    QStringList runDevices;      // the names the drawn runs gave that GPU (RunMarker::chosenDevices)
    int drawn = 0;               // runs drawn
    bool published = false;      // they are the worklog's published rows (on the T4 roof)
    bool worklogOverlay = false; // the worklog's T4 results drawn beside them
};
QString chartTitle(const TitleInputs &in);

} // namespace roofline_scene
} // namespace gemmscope
