// Test helper: `profile` events for the profile views and their analysis — the real H200 probe of
// a 32x32-tiled SGEMM (tests/data/profile/probe_sgemm_h200.json, made from the raw print in
// notes/probe-h200-pcsampling.txt: 4096^3, a sample every 2^10 cycles) and small hand-made ones
// whose expectations are worked out by hand in the tests.
#pragma once

#include "events.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>
#include <limits>

namespace gemmscope::test {

// A fixture from tests/data/profile/ (or an absolute path); stops the test when it cannot be read.
inline protocol::ProfileEvent loadProfileFixture(const QString &name)
{
    const QString path =
        name.startsWith(QLatin1Char('/')) ? name : QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/profile/") + name;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QString error;
    protocol::ProfileEvent event;
    if (!protocol::fromJson(QJsonDocument::fromJson(file.readAll()).object(), event, &error))
        qFatal("%s: %s", qPrintable(path), qPrintable(error));
    return event;
}

inline protocol::ProfileInstruction instruction(const QString &function, long long pc, const QString &sass,
                                                const QString &file, int line, QMap<QString, double> stalls,
                                                QMap<QString, double> metrics = {})
{
    protocol::ProfileInstruction i;
    i.function = function;
    i.pc = pc;
    i.sass = sass;
    i.file = file;
    i.line = line;
    i.stalls = std::move(stalls);
    i.metrics = std::move(metrics);
    return i;
}

// 100 usable samples: k.cuh line 5 holds 60 (two instructions: MIO 40, selected 10, not selected
// 10), line 7 holds 30 (long scoreboard 25, barrier 5), one instruction without a line holds 10
// (selected); a transpose kernel's instruction holds only unusable counts (NaN, -5, infinity).
// Its memory instructions: an LDS with a 4-way conflict, a coalesced LDG, an STG at 4x the
// ideal sectors, an STS never executed and an LDS without an ideal.
inline protocol::ProfileEvent handMadeProfile()
{
    using M = QMap<QString, double>;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    protocol::ProfileEvent p;
    p.id = QStringLiteral("hand");
    p.stage = QStringLiteral("coalesced");
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    p.instructions = {
        instruction("gemm", 0x10, "LDS R4, [R2]", "k.cuh", 5, M{{"mio_throttle", 30}, {"selected", 10}},
                    M{{"inst_executed", 100},
                      {"inst_executed_op_shared_ld", 100},
                      {"l1tex_pipe_lsu_wavefronts_mem_shared", 400},
                      {"l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 100}}),
        instruction("gemm", 0x20, "FFMA R8, R4, R5, R8", "k.cuh", 5,
                    M{{"mio_throttle", 10}, {"not_selected", 10}}, M{{"inst_executed", 100}}),
        instruction("gemm", 0x30, "LDG.E R6, desc[UR4][R2.64]", "k.cuh", 7,
                    M{{"long_scoreboard", 25}, {"barrier", 5}},
                    M{{"inst_executed", 50},
                      {"inst_executed_op_global_ld", 50},
                      {"sectors_mem_global", 200},
                      {"sectors_mem_global_ideal", 200}}),
        instruction("gemm", 0x40, "EXIT", "", 0, M{{"selected", 10}}),
        instruction("gemm", 0x50, "STG.E desc[UR4][R2.64], R8", "k.cuh", 9, M{},
                    M{{"inst_executed", 10},
                      {"inst_executed_op_global_st", 10},
                      {"sectors_mem_global", 160},
                      {"sectors_mem_global_ideal", 40}}),
        instruction("gemm", 0x60, "STS [R3], R6", "k.cuh", 7, M{},
                    M{{"inst_executed", 0}, {"inst_executed_op_shared_st", 0}}),
        instruction("gemm", 0x70, "LDS.128 R12, [R3+0x10]", "k.cuh", 5, M{},
                    M{{"inst_executed", 20}, {"l1tex_pipe_lsu_wavefronts_mem_shared", 80}}),
        instruction("transpose", 0x0, "BAR.SYNC 0x0", "t.cuh", 3,
                    M{{"barrier", nan}, {"wait", -5}, {"misc", inf}}),
    };
    p.limiters = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 24.6},
                  {"sm__inst_issued.avg.pct_of_peak_sustained_active", 71.2}};
    return p;
}

} // namespace gemmscope::test
