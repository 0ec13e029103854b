// Test and benchmark helper: a size sweep of two curves (cuBLAS FP32 and the worklog-8 preset) at
// `sizes` square sizes growing from 64 by 8 (bench_journals' resume sweep), every point the catalog
// accepts answered as a GPU would, one run per point in the plan's order (the order a runner pool
// asks them in). A running sweep is replayed from it: the first runs as its start, the rest as its
// answers.
#pragma once

#include "stage_catalog.h"
#include "sweep_point_run.h"
#include "sweep_record.h"

inline gemmscope::SweepData longSizeSweep(int sizes)
{
    using namespace gemmscope;
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-long-sizes");
    sweep.created = QDateTime::currentDateTimeUtc();
    SweepSpec &spec = sweep.spec;
    spec.kind = SweepKind::Sizes;
    const Preset *worklog = findPreset("worklog-8");
    spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"}, {worklog->stage, worklog->params, worklog->key}};
    for (int i = 0; i < sizes; ++i)
        spec.sizes.push_back({64LL + 8 * i, 64LL + 8 * i, 64LL + 8 * i});
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    spec.maxPoints = std::max<std::size_t>(spec.maxPoints, spec.series.size() * spec.sizes.size());
    spec.budgetMs = 1;
    const SweepPlan plan = planSweep(spec);
    int n = 0;
    for (const SweepPoint &p : plan.points) {
        if (!p.valid())
            continue;
        RunRecord r;
        r.runId = QStringLiteral("r%1").arg(++n);
        test::setPointConfiguration(r, p);
        r.status = RunStatus::Ok;
        r.origin = QStringLiteral("measured");
        r.count = 20;
        r.tflops =
            (r.stage == StageId::CublasFp32 ? 50.0 : 35.0) * double(p.size.m) / double(p.size.m + 1024);
        r.medianMs = p.size.tflopsAt(1.0) / r.tflops;
        r.p20Ms = r.p80Ms = r.minMs = r.medianMs;
        r.gpuName = QStringLiteral("NVIDIA H200");
        r.gpuUuid = QStringLiteral("GPU-1");
        r.host = QStringLiteral("node-1");
        r.smCount = 132;
        r.blocksPerSm = r.stage == StageId::CublasFp32 ? 0 : 1; // a tile model for the kernel's waves
        r.timestamp = QDateTime(QDate(2026, 12, 1), QTime(0, 0)).addSecs(n);
        sweep.runs << r;
    }
    return sweep;
}
