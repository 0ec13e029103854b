// What a size sweep's runs say, point by point: for each series (a stage or preset, or cuBLAS) and
// size, the finished run (TFLOP/s, % of cuBLAS FP32 at that size on the same GPU when the sweep
// has it), the catalog's sentence for a size the stage refuses, and the launch's wave
// quantization (tiles / (SMs x resident blocks per SM), from the run's `compiled` occupancy and
// its GPU's SM count) with the sizes where the last wave barely started marked. The chart, the
// CSV/JSON export and gemmscope-bench --size-sweep all read this.
#pragma once

#include "run_record.h"
#include "sweep_plan.h"
#include "sweep_summary.h"
#include "wave_quantization.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVector>
#include <optional>

namespace gemmscope {

struct SizeSweepPoint {
    int series = 0, sizeIndex = 0;
    ProblemSize size;
    QString invalidReason;             // the catalog refuses this size for the stage: never run
    std::optional<RunRecord> run;      // the finished, correct run
    std::optional<double> pctOfCublas; // against cuBLAS FP32 at this size on the same GPU
    QString failureKind, failureMessage;
    std::optional<WaveQuantization> waves; // known for a catalog stage with blocks per SM and SMs
    bool waveStep = false;                 // the last wave barely started (WaveQuantization::tailIsSmall)
    double tflops() const { return run ? run->tflops : 0; }
};

struct SizeSweepSummary {
    QVector<SizeSweepPoint> points; // series-major, as the plan's cells
    int answered = 0, valid = 0;
    QStringList gpus; // "host: name"
};

SizeSweepSummary summarizeSizeSweep(const SweepPlan &plan, const QList<RunRecord> &runs);

// The same summary kept up to date as a running sweep's runs answer (the size view while it runs):
// a run changes its own point, and a cuBLAS baseline the % of cuBLAS of the points at its size, so
// the work per run is bounded by the number of series, never by the number of sizes.
class LiveSizeSweepSummary {
public:
    LiveSizeSweepSummary() = default;
    LiveSizeSweepSummary(const SweepPlan &plan, const QList<RunRecord> &runs); // summarizeSizeSweep
    const SizeSweepSummary &summary() const { return m_summary; }
    QString provenance() const { return m_provenance.text(); } // sweepProvenance of every run
    // A run answered after those it holds. The indices of the points it changed: none for a run
    // that finished no point of the plan (cancelled, its runner gone).
    QList<int> add(const RunRecord &run);

private:
    void take(int point, const RunRecord &run); // the point's finished run
    void setPercent(SizeSweepPoint &point) const;
    void countGpu(const QString &label, int delta);

    SweepPlan m_plan;
    SizeSweepSummary m_summary;
    QVector<int> m_planPoint;                 // each summary point's point of the plan
    QVector<QString> m_pointGpu;              // "host: name" of a point's finished run; empty: none
    QHash<QString, QList<int>> m_pointsOfKey; // sweepPointKey -> its summary points (valid ones)
    QHash<QString, QList<int>> m_atSize;      // "MxNxK" -> its summary points, one per series
    QHash<QString, int> m_gpuPoints;          // "host: name" -> points whose finished run it measured
    CublasBaselines m_baselines;
    SweepProvenance m_provenance;
};

QString seriesLabel(const SweepPlan &plan, int series);

// "worklog-8 at 4224x4224x4224: 8.05 waves: the last wave runs 7 of 132 SMs ...", for a marked point.
QString sizeSweepWaveNote(const SweepPlan &plan, const SizeSweepPoint &point);
// One line per marked size.
QStringList sizeSweepWaveNotes(const SweepPlan &plan, const SizeSweepSummary &summary);

// One row per point: series, stage, size, status, TFLOP/s, % of cuBLAS, waves, ...
QString sizeSweepCsv(const SweepPlan &plan, const SizeSweepSummary &summary);
QJsonObject sizeSweepJson(const SweepPlan &plan, const SizeSweepSummary &summary);

} // namespace gemmscope
