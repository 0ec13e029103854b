// The runner's hardware-counter report (the `counters` object of a result, docs/protocol.md) and
// the profiler's behaviour where it cannot read counters. Runs without a GPU; tests/cuda/
// tst_runner_gpu.cpp checks real counter values on one, and tensorCoreSharedMemoryMatchesTheModel
// here runs the tensor-core presets through gemmscope-runner ($GEMMSCOPE_RUNNER) on a GPU.
#include "../support/runner_process.h"
#include "access_model.h"
#include "counter_profiler.h"
#include "counter_report.h"
#include "gpu_device.h"
#include "mapping_model.h"
#include "runner_error.h"
#include "stage_catalog.h"

#include <QJsonDocument>
#include <QTest>
#include <algorithm>
#include <cuda_runtime_api.h>

using namespace gemmscope;
using namespace gemmscope::runner;

namespace {

const std::string kRead = "dram__bytes_read.sum", kWrite = "dram__bytes_write.sum", kL2 = "lts__t_bytes.sum",
                  kFfma = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
// The hierarchical roofline's L1/shared level (both names checked on the H200 with ncu --query-metrics).
const std::string kL1 = "l1tex__t_bytes.sum", kShared = "sm__sass_data_bytes_mem_shared.sum";

// Numerator and denominator of each access ratio, in the report's order.
const std::vector<std::pair<std::string, std::string>> kAccessRatios{
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_ld.sum"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__inst_executed_op_shared_st.sum"}};

CounterReading reading(double read, double write, double l2, double ffma, int kernels = 1)
{
    CounterReading r;
    r.values = {{kRead, read}, {kWrite, write}, {kL2, l2}, {kFfma, ffma}};
    r.kernels = kernels;
    return r;
}

bool gpuPresent()
{
    int count = 0;
    const bool present = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    (void)cudaGetLastError();
    return present;
}

// The `counters` object as the runner sends it: the typed report through the protocol's codec.
QJsonObject countersJson(const CounterReading &reading, const ProblemSize &size)
{
    return protocol::toJson(countersOf(reading, size));
}
QJsonObject countersErrorJson(const QString &sentence)
{
    return protocol::toJson(countersError(sentence));
}

} // namespace

class TestRunnerCounters : public QObject {
    Q_OBJECT

private slots:
    void profilerAsksForTheReportsMetrics()
    {
        // The names the report reads must be the ones the profiler is asked for.
        const std::vector<std::string> &metrics = counterMetrics();
        for (const std::string &name : {kRead, kWrite, kL2, kFfma, kL1, kShared})
            QVERIFY2(std::find(metrics.begin(), metrics.end(), name) != metrics.end(), name.c_str());
        for (const auto &[num, den] : kAccessRatios) {
            QVERIFY2(std::find(metrics.begin(), metrics.end(), num) != metrics.end(), num.c_str());
            QVERIFY2(std::find(metrics.begin(), metrics.end(), den) != metrics.end(), den.c_str());
        }
        QCOMPARE(metrics.size(), size_t(14));
    }

    // The L1/shared intensity divides the nominal FLOPs by the L1 (global, local) and shared bytes
    // together: one SRAM, one roof. Null where neither moved a byte.
    void reportDerivesTheL1SharedIntensity()
    {
        CounterReading r = reading(3.1e9, 2.4e8, 5.5e10, 4.5e11);
        r.values.emplace_back(kL1, 6.0e10);
        r.values.emplace_back(kShared, 9.0e11);
        const ProblemSize size{7680, 7680, 7680};
        const double flops = 2.0 * 7680.0 * 7680.0 * 7680.0;
        const QJsonObject c = countersJson(r, size);
        QCOMPARE(c.value(QStringLiteral("l1_bytes")).toDouble(), 6.0e10);
        QCOMPARE(c.value(QStringLiteral("shared_bytes")).toDouble(), 9.0e11);
        QCOMPARE(c.value(QStringLiteral("l1_intensity")).toDouble(), flops / (6.0e10 + 9.0e11));
        // Beside the L2 and DRAM ones, unchanged.
        QCOMPARE(c.value(QStringLiteral("l2_intensity")).toDouble(), flops / 5.5e10);
        QCOMPARE(c.value(QStringLiteral("dram_intensity")).toDouble(), flops / (3.1e9 + 2.4e8));
        const QJsonObject raw = c.value(QStringLiteral("metrics")).toObject();
        QCOMPARE(raw.value(QString::fromStdString(kL1)).toDouble(), 6.0e10);
        QCOMPARE(raw.value(QString::fromStdString(kShared)).toDouble(), 9.0e11);
        // Only global traffic (the naive kernel): the L1 bytes alone.
        CounterReading naive = reading(1e9, 1e8, 4e10, 1e9);
        naive.values.emplace_back(kL1, 2.0e11);
        QCOMPARE(countersJson(naive, size).value(QStringLiteral("l1_intensity")).toDouble(), flops / 2.0e11);
        // Neither moved a byte: null, not infinity.
        CounterReading none = reading(1, 1, 1, 1);
        none.values.emplace_back(kL1, 0.0);
        none.values.emplace_back(kShared, 0.0);
        QVERIFY(countersJson(none, size).value(QStringLiteral("l1_intensity")).isNull());
        // A reading without them (recorded before they were read): absent, not 0 bytes.
        const QJsonObject before = countersJson(reading(1, 1, 1, 1), size);
        for (const char *field : {"l1_bytes", "shared_bytes", "l1_intensity"})
            QVERIFY2(!before.contains(QLatin1String(field)), field);
        // Through the protocol's codec and back, the typed report is the same.
        protocol::Counters typed;
        QVERIFY(protocol::fromJson(c, typed));
        QCOMPARE(typed, countersOf(r, size));
        QCOMPARE(*typed.l1Intensity, flops / (6.0e10 + 9.0e11));
    }

    // The access model's quantities as kernel-wide ratios, under the model's own names (the
    // columns of gemmscope-model's CSV); a ratio with nothing to divide by is null.
    void reportDerivesAccessRatios()
    {
        CounterReading r = reading(1e6, 1e5, 1e7, 1e9);
        const double values[] = {6672, 1000, 1600, 100, 2000, 1000, 1050, 1000};
        for (std::size_t i = 0; i < kAccessRatios.size(); ++i) {
            r.values.emplace_back(kAccessRatios[i].first, values[2 * i]);
            r.values.emplace_back(kAccessRatios[i].second, values[2 * i + 1]);
        }
        const QJsonObject access =
            countersJson(r, ProblemSize{64, 64, 64}).value(QStringLiteral("access")).toObject();
        QCOMPARE(access.value(QStringLiteral("global_ld_sectors_per_request")).toDouble(), 6.672);
        QCOMPARE(access.value(QStringLiteral("global_st_sectors_per_request")).toDouble(), 16.0);
        QCOMPARE(access.value(QStringLiteral("shared_ld_wavefronts_per_request")).toDouble(), 2.0);
        QCOMPARE(access.value(QStringLiteral("shared_st_wavefronts_per_request")).toDouble(), 1.05);

        // The naive kernel: no shared memory, so no shared ratio (not 0, not NaN).
        const QJsonObject none = countersJson(reading(1, 1, 1, 1), ProblemSize{4, 4, 4})
                                     .value(QStringLiteral("access"))
                                     .toObject();
        QCOMPARE(none.size(), 4);
        for (auto it = none.begin(); it != none.end(); ++it)
            QVERIFY2(it.value().isNull(), qPrintable(it.key()));
    }

    void reportDerivesIntensities_data()
    {
        QTest::addColumn<qlonglong>("m");
        QTest::addColumn<qlonglong>("n");
        QTest::addColumn<qlonglong>("k");
        QTest::addColumn<double>("read");
        QTest::addColumn<double>("write");
        QTest::addColumn<double>("l2");
        QTest::addColumn<double>("ffma");
        QTest::addColumn<int>("kernels");
        // A compulsory-traffic kernel: A and B read once, C written once.
        QTest::newRow("compulsory 4096^3") << 4096LL << 4096LL << 4096LL << 2.0 * 4 * 4096 * 4096
                                           << 4.0 * 4096 * 4096 << 9.0e9 << 4096.0 * 4096 * 4096 << 1;
        QTest::newRow("non-square, two kernels")
            << 1000LL << 777LL << 333LL << 1.5e7 << 3.1e6 << 4.4e8 << 1000.0 * 777 * 333 << 2;
        QTest::newRow("large counts")
            << 7680LL << 7680LL << 7680LL << 3.1e10 << 2.4e8 << 5.5e11 << 7680.0 * 7680 * 7680 << 1;
    }
    void reportDerivesIntensities()
    {
        QFETCH(qlonglong, m);
        QFETCH(qlonglong, n);
        QFETCH(qlonglong, k);
        QFETCH(double, read);
        QFETCH(double, write);
        QFETCH(double, l2);
        QFETCH(double, ffma);
        QFETCH(int, kernels);
        const ProblemSize size{m, n, k};
        const QJsonObject c = countersJson(reading(read, write, l2, ffma, kernels), size);
        const double flops = 2.0 * double(m) * double(n) * double(k);
        QCOMPARE(c.value(QStringLiteral("flops")).toDouble(), flops);
        QCOMPARE(c.value(QStringLiteral("dram_read_bytes")).toDouble(), read);
        QCOMPARE(c.value(QStringLiteral("dram_write_bytes")).toDouble(), write);
        QCOMPARE(c.value(QStringLiteral("l2_bytes")).toDouble(), l2);
        QCOMPARE(c.value(QStringLiteral("ffma_thread_inst")).toDouble(), ffma);
        QCOMPARE(c.value(QStringLiteral("dram_intensity")).toDouble(), flops / (read + write));
        QCOMPARE(c.value(QStringLiteral("l2_intensity")).toDouble(), flops / l2);
        QCOMPARE(c.value(QStringLiteral("kernels")).toInt(), kernels);
        QVERIFY(!c.contains(QStringLiteral("error")));
        // The raw values, under CUPTI's names, survive the JSON round trip unchanged.
        const QJsonObject raw = QJsonDocument::fromJson(QJsonDocument(c).toJson())
                                    .object()
                                    .value(QStringLiteral("metrics"))
                                    .toObject();
        QCOMPARE(raw.size(), 4);
        QCOMPARE(raw.value(QString::fromStdString(kRead)).toDouble(), read);
        QCOMPARE(raw.value(QString::fromStdString(kFfma)).toDouble(), ffma);
    }

    void zeroBytesGiveNullIntensity()
    {
        // A problem that fits the L2 can read 0 bytes from DRAM: no intensity, not infinity.
        const QJsonObject c = countersJson(reading(0, 0, 0, 64), ProblemSize{4, 4, 4});
        QVERIFY(c.value(QStringLiteral("dram_intensity")).isNull());
        QVERIFY(c.value(QStringLiteral("l2_intensity")).isNull());
        QCOMPARE(c.value(QStringLiteral("flops")).toDouble(), 128.0);
        const QByteArray json = QJsonDocument(c).toJson(QJsonDocument::Compact);
        QVERIFY2(!json.contains("inf") && !json.contains("nan"), json.constData());
    }

    void missingMetricReadsAsZero()
    {
        CounterReading partial;
        partial.values = {{kRead, 100.0}};
        QCOMPARE(partial.value(kRead), 100.0);
        QCOMPARE(partial.value(kWrite), 0.0);
        const QJsonObject c = countersJson(partial, ProblemSize{10, 10, 10});
        QCOMPARE(c.value(QStringLiteral("dram_intensity")).toDouble(), 2000.0 / 100.0);
    }

    void errorReportCarriesOnlyTheSentence()
    {
        const QString why =
            QStringLiteral("Hardware counters need a permission this user does not have "
                           "(cuptiRangeProfilerEnable returned CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).");
        const QJsonObject c = countersErrorJson(why);
        QCOMPARE(c.size(), 1);
        QCOMPARE(c.value(QStringLiteral("error")).toString(), why);
    }

    // Without a driver the profiler stops at the CUDA context, before CUPTI, with the runner's
    // no_gpu error and without launching anything. On a GPU, a launch that runs no kernel has no
    // counters: an error sentence, never a reading and never an exception.
    void profilerWithoutKernelsOrGpu()
    {
        int launches = 0;
        const CounterProfiler profiler(counterMetrics());
        if (!gpuPresent()) {
            try {
                profiler.profile([&launches] { ++launches; });
                QFAIL("profiling without a GPU must throw the runner's no_gpu error");
            } catch (const RunnerError &error) {
                QCOMPARE(error.kind(), ErrorKind::NoGpu);
            }
            QCOMPARE(launches, 0);
            return;
        }
        const CounterOutcome outcome = profiler.profile([&launches] { ++launches; });
        QVERIFY(!outcome.reading);
        QVERIFY(!outcome.error.isEmpty());
        qInfo("empty launch: %s", qPrintable(outcome.error));
    }
    // The tensor-core stages' shared-memory behaviour against the access model, at 1536^3 (every
    // tile divides it), release build, through the real runner (GEMMSCOPE_RUNNER):
    //  tf32-mma: shared reads are 4 ldmatrix.x4 (4 wavefronts each: four 8x16-byte matrices,
    //    conflict-free with the +4 padding) and 16 32-bit B reads (1 each) per warp k-step, so
    //    wavefronts / shared ld instructions = 32 / 20 = 1.6 (tst_access_model works it out). Nsight
    //    counts LDSM among the shared loads; if this GPU's counters did not, the ratio would be the
    //    B reads' 1.0 and the instruction count 80 % of the model's: the failure message says so.
    //  tf32-wgmma-tma (sm_90 only): the kernel issues no LSU shared-memory instruction (TMA writes
    //    the tiles, wgmma reads them through descriptors); the launch's shared loads and stores are
    //    the B transpose's alone (73,728 each). A few more are allowed for mbarrier operations, should
    //    a GPU count them there: at most one per warp and k tile.
    void tensorCoreSharedMemoryMatchesTheModel_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("tf32-mma") << QStringLiteral("tf32-mma");
        QTest::newRow("tf32-wgmma-tma") << QStringLiteral("tf32-wgmma-tma");
    }
    void tensorCoreSharedMemoryMatchesTheModel()
    {
        QFETCH(QString, preset);
        if (!gpuPresent())
            QSKIP("no GPU: the tensor-core counters need one");
        if (RunnerProcess::program().isEmpty())
            QSKIP("GEMMSCOPE_RUNNER does not name gemmscope-runner");
        const Preset *p = findPreset(preset.toStdString());
        QVERIFY(p);
        RunnerProcess runner;
        const QJsonObject ready = runner.start();
        QCOMPARE(ready.value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        const int arch = runner::parseArch(
            ready.value(QStringLiteral("gpu")).toObject().value(QStringLiteral("arch")).toString());
        if (arch < stageInfo(p->stage).minArch || (stageInfo(p->stage).archSpecific && arch != 90))
            QSKIP(qPrintable(QStringLiteral("%1 needs sm_%2 (this GPU: sm_%3)")
                                 .arg(preset)
                                 .arg(stageInfo(p->stage).minArch)
                                 .arg(arch)));
        constexpr long long side = 1536;
        QJsonObject params;
        for (const auto &[k, v] : p->params)
            params.insert(QString::fromStdString(k), v);
        runner.send(
            QJsonObject{{QStringLiteral("type"), QStringLiteral("run")},
                        {QStringLiteral("id"), QStringLiteral("t")},
                        {QStringLiteral("stage"), QString::fromStdString(stageInfo(p->stage).key)},
                        {QStringLiteral("params"), params},
                        {QStringLiteral("size"),
                         QJsonObject{{"m", double(side)}, {"n", double(side)}, {"k", double(side)}}},
                        {QStringLiteral("timing"),
                         QJsonObject{{"warmup", 1}, {"budget_ms", 0}, {"min_reps", 2}, {"max_reps", 2}}},
                        {QStringLiteral("counters"), true}});
        const QJsonObject answer =
            runner.waitFor(QStringLiteral("t"), {QStringLiteral("result"), QStringLiteral("error")});
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        const QJsonObject counters = answer.value(QStringLiteral("counters")).toObject();
        if (counters.value(QStringLiteral("error")).isString())
            QSKIP(qPrintable(QStringLiteral("counters unavailable: ") +
                             counters.value(QStringLiteral("error")).toString()));
        const QJsonObject metrics = counters.value(QStringLiteral("metrics")).toObject();
        const double ldInst =
            metrics.value(QStringLiteral("smsp__inst_executed_op_shared_ld.sum")).toDouble(-1);
        const double stInst =
            metrics.value(QStringLiteral("smsp__inst_executed_op_shared_st.sum")).toDouble(-1);
        const double ldWavefronts =
            metrics.value(QStringLiteral("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"))
                .toDouble(-1);

        const KernelShape shape = *kernelShape(p->stage, p->params).shape;
        const ProblemSize size{side, side, side};
        const std::optional<KernelInstructionCounts> counts = kernelInstructionCounts(shape, size);
        const std::optional<AccessSummary> launch = summarizeLaunch(shape, size);
        QVERIFY(counts && launch);
        qInfo(
            "%s: shared ld %.0f (model %lld), st %.0f (model %lld), ld wavefronts %.0f (model %lld, %.3f per "
            "instruction; measured %.3f)",
            qPrintable(preset), ldInst, counts->sharedLoads, stInst, counts->sharedStores, ldWavefronts,
            launch->sharedLoads.sectors, launch->sharedLoads.perRequest(),
            ldInst > 0 ? ldWavefronts / ldInst : 0.0);
        if (shape.loads == TileLoadScheme::TmaSwizzled128) {
            // The kernel's own share is 0: what remains is the transpose's, plus at most one
            // instruction per warp and k tile (mbarrier waits, if counted as shared accesses).
            const double blocks = double(side / shape.bm) * double(side / shape.bn);
            const double slack = blocks * shape.warps() * double(side / shape.bk);
            const double transpose = double(counts->transpose.sharedLoads);
            QVERIFY2(ldInst >= transpose && ldInst <= transpose + slack,
                     qPrintable(QStringLiteral("shared ld instructions %1: the transpose issues %2, the TMA "
                                               "kernel should add none (at most %3 for barriers)")
                                    .arg(ldInst)
                                    .arg(transpose)
                                    .arg(slack)));
            QVERIFY2(stInst >= transpose && stInst <= transpose + slack,
                     qPrintable(QStringLiteral("shared st instructions %1: the transpose issues %2, the TMA "
                                               "kernel should add none (at most %3 for barriers)")
                                    .arg(stInst)
                                    .arg(transpose)
                                    .arg(slack)));
            return;
        }
        // The bank check is the wavefront total: conflict-free ldmatrix.x4 (4 each) and B reads (1
        // each), 32 per warp and k-step. The per-instruction ratio is not: on the H200 the
        // instruction counter read 1.40 x the issued LDSM + LDS: it also counts the
        // never-true `@!PT LDS RZ, [RZ]` placeholders ptxas puts among the cp.async copies. Logged only.
        QCOMPARE(launch->sharedLoads.perRequest(), 1.6);
        const double modelWavefronts = double(launch->sharedLoads.sectors);
        QVERIFY2(std::abs(ldWavefronts - modelWavefronts) <= 0.01 * modelWavefronts,
                 qPrintable(QStringLiteral("shared ld wavefronts %1, model %2 (ldmatrix.x4 x 4 + 32-bit B "
                                           "reads x 1, conflict-free)")
                                .arg(ldWavefronts)
                                .arg(modelWavefronts)));
        qInfo("%s: shared-load instructions counted / issued by the model: %.3f", qPrintable(preset),
              ldInst / double(counts->sharedLoads));
    }
};

QTEST_GUILESS_MAIN(TestRunnerCounters)
#include "tst_runner_counters.moc"
