// Two runs as a session file stores them, every field set: a finished one and a wrong one; and a
// profile of one instruction. The session, store and codec tests write and read them back.
#pragma once

#include "events.h"
#include "run_record.h"

#include <QDateTime>
#include <QTimeZone>

namespace gemmscope::test {

inline RunRecord okRun(const QString &id, double ms)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.presetKey = QStringLiteral("worklog-3");
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = 1024, r.n = 2048, r.k = 512;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = ms, r.p20Ms = ms * 0.99, r.p80Ms = ms * 1.02, r.minMs = ms * 0.98;
    r.count = 17;
    r.flushL2 = true;
    r.tflops = 2.0 * 1024 * 2048 * 512 / (ms * 1e9);
    r.relError = 3.5e-7;
    r.tolerance = 1e-5;
    r.registers = 64, r.staticSmemBytes = 4096, r.occupancy = 0.5;
    r.occupancyLimiter = OccupancyLimiter::Registers;
    r.gpuName = QStringLiteral("NVIDIA H200"), r.gpuArch = QStringLiteral("sm_90");
    r.smClockMHz = 1980;
    r.timestamp = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5, 600), Qt::UTC);
    return r;
}

inline RunRecord failedRun(const QString &id)
{
    RunRecord r = okRun(id, 1);
    r.status = RunStatus::Failed;
    r.medianMs = r.p20Ms = r.p80Ms = r.minMs = r.tflops = 0;
    r.count = 0;
    r.errorKind = QStringLiteral("wrong_result");
    r.errorMessage = QStringLiteral("The result differs from cuBLAS.");
    r.relError = 0.3;
    return r;
}

inline protocol::ProfileEvent profileOf(const QString &stage)
{
    protocol::ProfileEvent p;
    p.id = QStringLiteral("p-") + stage;
    p.stage = stage;
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    p.gpu.arch = p.arch = QStringLiteral("sm_90");
    p.samplingPeriod = 10;
    p.totalSamples = 1234;
    protocol::ProfileInstruction i;
    i.function = QStringLiteral("k");
    i.pc = 16;
    i.sass = QStringLiteral("LDS.128 R4, [R2+0x10]");
    i.stalls = {{"mio_throttle", 1000}, {"selected", 234}};
    p.instructions = {i};
    p.timestamp = QStringLiteral("2026-12-01T21:10:00Z");
    return p;
}

} // namespace gemmscope::test
