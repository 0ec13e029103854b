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

// Hand-made, shaped like a profile of step 3 (coalesced, 64x64x8, 4x4) for the views' tests and
// screenshots — not a measurement: the inner product (coalesced.cuh:35) holds most samples, its
// shared reads (:30, :32) wait on the MIO queue, the barriers (:25, :37) and the loads
// (common.cuh:30, filling tiles at cooperative_load.cuh:18 and :22) the rest.
inline protocol::ProfileEvent coalescedShapedProfile()
{
    using M = QMap<QString, double>;
    protocol::ProfileEvent p;
    p.id = QStringLiteral("shaped");
    p.stage = QStringLiteral("coalesced");
    p.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    p.samplingPeriod = 10;
    const QString f = QStringLiteral("gemmscope::coalesced<64, 64, 8, 4, 4>");
    const QString k = QStringLiteral("coalesced.cuh");
    long long pc = 0x400;
    const auto add = [&](const QString &sass, const QString &file, int line, M stalls, M metrics = {}) {
        p.instructions.append(instruction(f, pc, sass, file, line, std::move(stalls), std::move(metrics)));
        pc += 0x10;
    };
    add("LDG.E R4, desc[UR6][R2.64]", "common.cuh", 30, M{{"long_scoreboard", 52000}, {"selected", 900}},
        M{{"inst_executed", 2097152},
          {"inst_executed_op_global_ld", 2097152},
          {"sectors_mem_global", 8388608},
          {"sectors_mem_global_ideal", 8388608}});
    add("LDG.E R5, desc[UR6][R8.64]", "common.cuh", 30, M{{"long_scoreboard", 47000}, {"lg_throttle", 1200}},
        M{{"inst_executed", 2097152},
          {"inst_executed_op_global_ld", 2097152},
          {"sectors_mem_global", 8388608},
          {"sectors_mem_global_ideal", 8388608}});
    add("STS [R9], R4", "cooperative_load.cuh", 18, M{{"short_scoreboard", 3000}, {"selected", 800}},
        M{{"inst_executed", 2097152},
          {"inst_executed_op_shared_st", 2097152},
          {"l1tex_pipe_lsu_wavefronts_mem_shared", 2097152},
          {"l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 2097152}});
    add("STS [R10], R5", "cooperative_load.cuh", 22, M{{"short_scoreboard", 2800}, {"selected", 800}},
        M{{"inst_executed", 2097152},
          {"inst_executed_op_shared_st", 2097152},
          {"l1tex_pipe_lsu_wavefronts_mem_shared", 2097152},
          {"l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 2097152}});
    add("BAR.SYNC.DEFER_BLOCKING 0x0", k, 25, M{{"barrier", 61000}, {"selected", 700}});
    for (int i = 0; i < 4; ++i)
        add(QStringLiteral("LDS R%1, [R12+%2]").arg(20 + i).arg(i * 32, 0, 16), k, 30,
            M{{"mio_throttle", 31000.0 - i * 900}, {"short_scoreboard", 6000}, {"selected", 1000}},
            M{{"inst_executed", 4194304},
              {"inst_executed_op_shared_ld", 4194304},
              {"l1tex_pipe_lsu_wavefronts_mem_shared", 4194304},
              {"l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 4194304}});
    add("LDS.128 R24, [R13]", k, 32,
        M{{"mio_throttle", 22000}, {"short_scoreboard", 4000}, {"selected", 1000}},
        M{{"inst_executed", 4194304},
          {"inst_executed_op_shared_ld", 4194304},
          {"l1tex_pipe_lsu_wavefronts_mem_shared", 33554432},
          {"l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 16777216}});
    for (int i = 0; i < 16; ++i)
        add(QStringLiteral("FFMA R%1, R%2, R%3, R%1").arg(40 + i).arg(20 + i / 4).arg(24 + i % 4), k, 35,
            M{{"not_selected", 9000.0 + 40 * i},
              {"selected", 6000},
              {"wait", 2500},
              {"math_pipe_throttle", 1200},
              {"short_scoreboard", i < 4 ? 7000.0 : 300.0}},
            M{{"inst_executed", 33554432}});
    add("BAR.SYNC.DEFER_BLOCKING 0x0", k, 37, M{{"barrier", 18000}, {"selected", 700}});
    add("BRA 0x400", k, 23, M{{"branch_resolving", 900}, {"selected", 700}});
    add("STG.E desc[UR6][R30.64], R40", k, 45, M{{"drain", 1500}, {"selected", 100}},
        M{{"inst_executed", 262144},
          {"inst_executed_op_global_st", 262144},
          {"sectors_mem_global", 4194304},
          {"sectors_mem_global_ideal", 1048576}});
    p.totalSamples = 0;
    for (const protocol::ProfileInstruction &i : std::as_const(p.instructions))
        *p.totalSamples += i.samples();
    p.limiters = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 48.2},
                  {"sm__inst_issued.avg.pct_of_peak_sustained_active", 58.9},
                  {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", 41.0},
                  {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", 0.0},
                  {"l1tex__throughput.avg.pct_of_peak_sustained_active", 77.5},
                  {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 31.0},
                  {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 12.4},
                  {"smsp__inst_executed.sum", 1.45e9},
                  {"smsp__inst_executed_pipe_fma.sum", 5.4e8},
                  {"smsp__inst_executed_pipe_alu.sum", 2.1e8},
                  {"smsp__inst_executed_pipe_lsu.sum", 3.9e8},
                  {"smsp__inst_executed_pipe_uniform.sum", 0.6e8},
                  {"smsp__sass_inst_executed_op_shared.sum", 3.5e8},
                  {"smsp__sass_inst_executed_op_global.sum", 0.4e8}};
    return p;
}

// Hand-made, shaped like a cuBLAS SGEMM profile at the same size (no line table, limiters only
// where cuBLAS is known to lead): for the Why-not-cuBLAS view's tests and screenshots.
inline protocol::ProfileEvent cublasShapedProfile()
{
    using M = QMap<QString, double>;
    protocol::ProfileEvent p;
    p.id = QStringLiteral("cublas");
    p.stage = QStringLiteral("cublas_fp32");
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    const QString f =
        QStringLiteral("sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma");
    p.instructions = {
        instruction(f, 0x900, "", "", 0, M{{"not_selected", 41000}, {"selected", 52000}, {"wait", 9000}}),
        instruction(f, 0x980, "", "", 0, M{{"short_scoreboard", 8000}, {"mio_throttle", 3000}}),
        instruction(f, 0xa00, "", "", 0, M{{"barrier", 4000}, {"long_scoreboard", 2500}})};
    p.limiters = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 24.7},
                  {"sm__inst_issued.avg.pct_of_peak_sustained_active", 91.3},
                  {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", 84.0},
                  {"l1tex__throughput.avg.pct_of_peak_sustained_active", 52.0},
                  {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 18.0},
                  {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 9.5},
                  {"smsp__inst_executed.sum", 1.1e9},
                  {"smsp__inst_executed_pipe_fma.sum", 8.6e8},
                  {"smsp__inst_executed_pipe_alu.sum", 0.7e8},
                  {"smsp__inst_executed_pipe_lsu.sum", 1.2e8},
                  {"smsp__inst_executed_pipe_uniform.sum", 0.3e8},
                  {"smsp__sass_inst_executed_op_shared.sum", 1.1e8},
                  {"smsp__sass_inst_executed_op_global.sum", 0.1e8}};
    p.limitersError =
        QStringLiteral("CUPTI does not know sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active "
                       "on this GPU; it was left out.");
    p.instructionsError =
        QStringLiteral("Per-instruction metrics need GemmScope's own kernels: cuBLAS's are not "
                       "instrumented.");
    return p;
}

} // namespace gemmscope::test
