// Test and benchmark helper: a size sweep of `series` curves (the kernel presets in turn, each a
// series of its own) at two square sizes, every point the catalog accepts answered as a GPU would,
// one run per point (10,000 series must render in time linear in the series). The
// cuBLAS baseline of each size comes first, so a backward scan for it from any run walks them all.
#pragma once

#include "stage_catalog.h"
#include "sweep_point_run.h"
#include "sweep_record.h"

inline gemmscope::SweepData manySeriesSizeSweep(int series)
{
    using namespace gemmscope;
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-many-series");
    sweep.created = QDateTime::currentDateTimeUtc();
    SweepSpec &spec = sweep.spec;
    spec.kind = SweepKind::Sizes;
    std::vector<const Preset *> kernels;
    for (const Preset &p : presets())
        if (!stageInfo(p.stage).isLibrary)
            kernels.push_back(&p);
    for (int i = 0; i < series; ++i) {
        const Preset &p = *kernels[std::size_t(i) % kernels.size()];
        spec.series.push_back({p.stage, p.params, p.key + "#" + std::to_string(i)});
    }
    spec.sizes = {{2048, 2048, 2048}, {4096, 4096, 4096}};
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    spec.maxPoints = std::max<std::size_t>(spec.maxPoints, spec.series.size() * spec.sizes.size());
    const SweepPlan plan = planSweep(spec);
    RunRecord base;
    base.status = RunStatus::Ok;
    base.origin = QStringLiteral("measured");
    base.count = 10;
    base.gpuName = QStringLiteral("NVIDIA H200");
    base.gpuUuid = QStringLiteral("GPU-1");
    base.host = QStringLiteral("node");
    base.smCount = 132;
    for (const ProblemSize &z : spec.sizes) {
        RunRecord r = base;
        r.runId = QStringLiteral("cublas-%1").arg(z.m);
        r.stage = stageIdOf(QStringLiteral("cublas_fp32"));
        r.m = z.m;
        r.n = z.n;
        r.k = z.k;
        r.tflops = 50;
        r.medianMs = z.tflopsAt(1.0) / r.tflops;
        sweep.runs << r;
    }
    int n = 0;
    for (const SweepPoint &p : plan.points) {
        if (!p.valid())
            continue;
        RunRecord r = base;
        r.runId = QStringLiteral("r%1").arg(++n);
        test::setPointConfiguration(r, p);
        r.tflops = 10.0 + (n % 97) * 0.3;
        r.medianMs = p.size.tflopsAt(1.0) / r.tflops;
        r.blocksPerSm = 1;
        sweep.runs << r;
    }
    return sweep;
}
