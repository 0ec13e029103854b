// gemmscope-runner on a real GPU: every stage correct against cuBLAS, device-fault recovery by
// restart, the CUBIN cache, measured ceilings, hardware counters (measured arithmetic intensity),
// and the owner trace against the mapping model.
// Without a GPU every test skips with the runner's own no_gpu sentence.
#include "../support/runner_process.h"
#include "access_model.h"
#include "ceilings.h"
#include "gpu_device.h"
#include "gpu_specs.h"
#include "mapping_model.h"
#include "stage_catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;

namespace {

QJsonObject paramsJson(const ParamValues &params)
{
    QJsonObject o;
    for (const auto &[k, v] : params)
        o.insert(QString::fromStdString(k), v);
    return o;
}

QJsonObject runRequest(const QString &id, const Preset &preset, long long m, long long n, long long k)
{
    QJsonObject r{{QStringLiteral("type"), QStringLiteral("run")},
                  {QStringLiteral("id"), id},
                  {QStringLiteral("stage"), QString::fromStdString(stageInfo(preset.stage).key)},
                  {QStringLiteral("size"), QJsonObject{{"m", double(m)}, {"n", double(n)}, {"k", double(k)}}},
                  {QStringLiteral("timing"),
                   QJsonObject{{"warmup", 1}, {"budget_ms", 0}, {"min_reps", 2}, {"max_reps", 2}}}};
    if (!preset.params.empty())
        r.insert(QStringLiteral("params"), paramsJson(preset.params));
    return r;
}

const QStringList kFinal{QStringLiteral("result"), QStringLiteral("error"), QStringLiteral("ceilings"),
                         QStringLiteral("owner_map")};

} // namespace

class TestRunnerGpu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        startRunner();
        GEMMSCOPE_REQUIRE_GPU_RUNNER(m_ready);
    }
    // One runner serves all tests (CUDA start-up costs a second); a failed test may leave it dead.
    void init()
    {
        if (m_runner->process.state() != QProcess::Running)
            startRunner();
    }

    void everyPresetMatchesCublas_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qlonglong>("m");
        QTest::addColumn<qlonglong>("n");
        QTest::addColumn<qlonglong>("k");
        for (const Preset &p : presets())
            for (const auto &[m, n, k] :
                 {std::tuple{512LL, 384LL, 256LL}, {1000LL, 777LL, 333LL}, {1LL, 1LL, 1LL}})
                QTest::addRow("%s/%lldx%lldx%lld", p.key.c_str(), m, n, k)
                    << QString::fromStdString(p.key) << m << n << k;
    }
    void everyPresetMatchesCublas()
    {
        QFETCH(QString, preset);
        QFETCH(qlonglong, m);
        QFETCH(qlonglong, n);
        QFETCH(qlonglong, k);
        const Preset *p = findPreset(preset.toStdString());
        m_runner->send(runRequest(QStringLiteral("v"), *p, m, n, k));
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("v"), kFinal);
        if (answer.value(QStringLiteral("kind")).toString() == QStringLiteral("invalid_config")) {
            // The catalog may refuse a shape, but then with its reason and before running anything.
            const auto reasons = violations(p->stage, p->params, ProblemSize{m, n, k});
            QVERIFY2(!reasons.empty(), qPrintable(answer.value(QStringLiteral("message")).toString()));
            return;
        }
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        const QJsonObject verify = answer.value(QStringLiteral("verify")).toObject();
        QVERIFY(verify.value(QStringLiteral("passed")).toBool());
        QVERIFY(verify.value(QStringLiteral("rel_error")).toDouble() <=
                verify.value(QStringLiteral("tolerance")).toDouble());
        QVERIFY(
            answer.value(QStringLiteral("timing")).toObject().value(QStringLiteral("median_ms")).toDouble() >
            0);
    }

    // The TMA stage's ragged edges are the copy engine's zero fill and, when K is not a multiple of
    // 4, a copy of A with padded rows: shapes beyond its preset, at sizes no tile divides.
    void tmaShapesMatchCublas_data()
    {
        QTest::addColumn<int>("bm");
        QTest::addColumn<int>("bn");
        QTest::addColumn<int>("stages");
        QTest::addColumn<qlonglong>("m");
        QTest::addColumn<qlonglong>("n");
        QTest::addColumn<qlonglong>("k");
        QTest::newRow("64x64, 2 stages, 129x65x37") << 64 << 64 << 2 << 129LL << 65LL << 37LL;
        QTest::newRow("128x256, 3 stages, 1000x777x333") << 128 << 256 << 3 << 1000LL << 777LL << 333LL;
        QTest::newRow("256x64, 5 stages, 1000x777x333") << 256 << 64 << 5 << 1000LL << 777LL << 333LL;
        QTest::newRow("64x256, 5 stages, 257x513x100") << 64 << 256 << 5 << 257LL << 513LL << 100LL;
        QTest::newRow("128x128, 4 stages, 1x1x1") << 128 << 128 << 4 << 1LL << 1LL << 1LL;
    }
    void tmaShapesMatchCublas()
    {
        QFETCH(int, bm);
        QFETCH(int, bn);
        QFETCH(int, stages);
        QFETCH(qlonglong, m);
        QFETCH(qlonglong, n);
        QFETCH(qlonglong, k);
        const Preset shape{
            "tma",  "tma",       StageId("wgmma_tma_tf32"), {{"BM", bm}, {"BN", bn}, {"STAGES", stages}},
            "test", std::nullopt};
        m_runner->send(runRequest(QStringLiteral("t"), shape, m, n, k));
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("t"), kFinal);
        const QString message = answer.value(QStringLiteral("message")).toString();
        if (answer.value(QStringLiteral("kind")).toString() == QStringLiteral("invalid_config") &&
            message.contains(QStringLiteral("sm_90a")))
            QSKIP(qPrintable(QStringLiteral("Not a Hopper GPU: ") + message));
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        const QJsonObject verify = answer.value(QStringLiteral("verify")).toObject();
        QVERIFY(verify.value(QStringLiteral("passed")).toBool());
        QVERIFY(verify.value(QStringLiteral("rel_error")).toDouble() <= 5e-3);
    }

    // The persistent stage reads row-major A and B through tensor maps: ragged edges are the copy
    // engine's zero fill, K or N not a multiple of 4 a copy with padded rows, and a block walks
    // several output tiles (more tiles than SMs) with its stages' phases running on across them.
    void persistentShapesMatchCublas_data()
    {
        QTest::addColumn<int>("bm");
        QTest::addColumn<int>("bn");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("aRounding");
        QTest::addColumn<qlonglong>("m");
        QTest::addColumn<qlonglong>("n");
        QTest::addColumn<qlonglong>("k");
        QTest::addColumn<int>("cluster");
        QTest::newRow("256x128, 1000x777x333 (N, K not multiples of 4)")
            << 256 << 128 << 4 << 0 << 1000LL << 777LL << 333LL << 1;
        QTest::newRow("256x128, smem rounding, 1000x777x333")
            << 256 << 128 << 4 << 1 << 1000LL << 777LL << 333LL << 1;
        QTest::newRow("256x128, 1x1x1") << 256 << 128 << 4 << 0 << 1LL << 1LL << 1LL << 1;
        QTest::newRow("256x128, K = 1") << 256 << 128 << 4 << 1 << 300LL << 200LL << 1LL << 1;
        QTest::newRow("256x128, one row") << 256 << 128 << 4 << 0 << 1LL << 4099LL << 70LL << 1;
        QTest::newRow("256x128, one column") << 256 << 128 << 4 << 1 << 3001LL << 1LL << 129LL << 1;
        QTest::newRow("256x128, 2 stages, k tiles odd")
            << 256 << 128 << 2 << 0 << 777LL << 515LL << 97LL << 1;
        QTest::newRow("64x64, 2 stages, many tiles a block")
            << 64 << 64 << 2 << 1 << 2049LL << 2047LL << 65LL << 1;
        QTest::newRow("128x128, 3 stages") << 128 << 128 << 3 << 0 << 1029LL << 1031LL << 1000LL << 1;
        QTest::newRow("256x64, 5 stages") << 256 << 64 << 5 << 1 << 513LL << 260LL << 2000LL << 1;
        QTest::newRow("64x256, 5 stages") << 64 << 256 << 5 << 0 << 257LL << 513LL << 100LL << 1;
        // Pairs of blocks sharing A's tile (2-block clusters, TMA multicast): N ending inside a pair
        // (the second block copies and multiplies but stores nothing), one tile, odd k tiles, and
        // every tile shape.
        QTest::newRow("pair, 256x128, 1000x777x333") << 256 << 128 << 4 << 0 << 1000LL << 777LL << 333LL << 2;
        QTest::newRow("pair, 256x128, smem rounding, 1000x777x333")
            << 256 << 128 << 4 << 1 << 1000LL << 777LL << 333LL << 2;
        QTest::newRow("pair, 256x128, 1x1x1") << 256 << 128 << 4 << 0 << 1LL << 1LL << 1LL << 2;
        QTest::newRow("pair, 256x128, K = 1") << 256 << 128 << 4 << 0 << 300LL << 200LL << 1LL << 2;
        QTest::newRow("pair, 256x128, one column") << 256 << 128 << 4 << 0 << 3001LL << 1LL << 129LL << 2;
        QTest::newRow("pair, 256x128, 2 stages, k tiles odd")
            << 256 << 128 << 2 << 0 << 777LL << 515LL << 97LL << 2;
        QTest::newRow("pair, 64x64, 2 stages, many tiles a block")
            << 64 << 64 << 2 << 1 << 2049LL << 2047LL << 65LL << 2;
        QTest::newRow("pair, 128x128, 3 stages") << 128 << 128 << 3 << 0 << 1029LL << 1031LL << 1000LL << 2;
        QTest::newRow("pair, 256x64, 5 stages") << 256 << 64 << 5 << 0 << 513LL << 260LL << 2000LL << 2;
        QTest::newRow("pair, 64x256, 5 stages") << 64 << 256 << 5 << 0 << 257LL << 513LL << 100LL << 2;
    }
    void persistentShapesMatchCublas()
    {
        QFETCH(int, bm);
        QFETCH(int, bn);
        QFETCH(int, stages);
        QFETCH(int, aRounding);
        QFETCH(qlonglong, m);
        QFETCH(qlonglong, n);
        QFETCH(qlonglong, k);
        QFETCH(int, cluster);
        const Preset shape{
            "persistent",
            "persistent",
            StageId("wgmma_persistent_tf32"),
            {{"BM", bm}, {"BN", bn}, {"STAGES", stages}, {"A_ROUNDING", aRounding}, {"CLUSTER", cluster}},
            "test",
            std::nullopt};
        m_runner->send(runRequest(QStringLiteral("p"), shape, m, n, k));
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("p"), kFinal);
        const QString message = answer.value(QStringLiteral("message")).toString();
        if (answer.value(QStringLiteral("kind")).toString() == QStringLiteral("invalid_config") &&
            message.contains(QStringLiteral("sm_90a")))
            QSKIP(qPrintable(QStringLiteral("Not a Hopper GPU: ") + message));
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        const QJsonObject verify = answer.value(QStringLiteral("verify")).toObject();
        QVERIFY(verify.value(QStringLiteral("passed")).toBool());
        QVERIFY(verify.value(QStringLiteral("rel_error")).toDouble() <= 5e-3);
    }

    // Rounding to nearest, both operands, whether the copy engine rounds A (tf32-persistent) or
    // the producer's warps do (tf32-persistent-smem): at K = 4096 the relative error is cuBLAS
    // TF32's, 2.6e-4 (a CPU model of these inputs: 2.6e-4 with both rounded, 4.1e-4 with A left to
    // the tensor core's truncation, 6.8e-4 with both truncated). A run that asks for truncated
    // inputs gets the tensor core's truncation of both.
    void persistentStageRoundsLikeCublas_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("copy engine rounds A") << "tf32-persistent";
        QTest::newRow("producer warps round A") << "tf32-persistent-smem";
    }
    void persistentStageRoundsLikeCublas()
    {
        QFETCH(QString, preset);
        QList<double> errors;
        for (const QString &rounding : {QStringLiteral("rna"), QStringLiteral("truncate")}) {
            QJsonObject request =
                runRequest(QStringLiteral("r"), *findPreset(preset.toStdString()), 512, 512, 4096);
            request.insert(QStringLiteral("tf32_rounding"), rounding);
            m_runner->send(request);
            const QJsonObject answer = m_runner->waitFor(QStringLiteral("r"), kFinal);
            const QString message = answer.value(QStringLiteral("message")).toString();
            if (answer.value(QStringLiteral("kind")).toString() == QStringLiteral("invalid_config") &&
                message.contains(QStringLiteral("sm_90a")))
                QSKIP(qPrintable(QStringLiteral("Not a Hopper GPU: ") + message));
            QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                     qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
            QCOMPARE(answer.value(QStringLiteral("tf32_rounding")).toString(), rounding);
            errors << answer.value(QStringLiteral("verify"))
                          .toObject()
                          .value(QStringLiteral("rel_error"))
                          .toDouble();
        }
        qInfo("%s at 512x512x4096: rel_error %.3g rounded, %.3g truncated", qPrintable(preset), errors[0],
              errors[1]);
        QVERIFY2(errors[0] < 3.3e-4, qPrintable(QString::number(errors[0])));
        QVERIFY2(errors[1] > 5e-4, qPrintable(QString::number(errors[1])));
    }

    // Verification must catch a wrong kernel: a launch that never wrote C (the NaN poison stays)
    // and one wrong element, each reported as wrong_result and never timed.
    void wrongResultsAreCaught_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<bool>("nan");
        QTest::newRow("nothing written") << "skip_launch" << true;
        QTest::newRow("one element wrong") << "corrupt_element" << false;
    }
    void wrongResultsAreCaught()
    {
        QFETCH(QString, damage);
        QFETCH(bool, nan);
        QJsonObject request = runRequest(QStringLiteral("w"), *findPreset("worklog-3"), 512, 384, 256);
        request.insert(QStringLiteral("test_damage"), damage);
        m_runner->send(request);
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("w"), kFinal);
        QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(answer.value(QStringLiteral("kind")).toString(), QStringLiteral("wrong_result"));
        QVERIFY(!answer.contains(QStringLiteral("timing")));
        QCOMPARE(answer.value(QStringLiteral("nan")).toBool(), nan);
        if (!nan)
            QVERIFY(answer.value(QStringLiteral("rel_error")).toDouble() >
                    answer.value(QStringLiteral("tolerance")).toDouble());
        QVERIFY(
            answer.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("Wrong result")));
    }

    // max_blocks_per_sm pads shared memory until the runtime allows no more than the limit; the
    // result stays verified, and a limit above the natural occupancy changes nothing.
    void blockLimitIsHonoured_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("limit");
        QTest::newRow("step 3, one block") << "worklog-3" << 1;
        QTest::newRow("step 3, two blocks") << "worklog-3" << 2;
        QTest::newRow("guide 32x32, one block") << "guide-32" << 1;
        QTest::newRow("step 3, limit above occupancy") << "worklog-3" << 64;
    }
    void blockLimitIsHonoured()
    {
        QFETCH(QString, preset);
        QFETCH(int, limit);
        const Preset *p = findPreset(preset.toStdString());
        QJsonObject free = runRequest(QStringLiteral("free"), *p, 1000, 777, 333);
        m_runner->send(free);
        const int natural = m_runner->waitFor(QStringLiteral("free"), kFinal)
                                .value(QStringLiteral("compiled"))
                                .toObject()
                                .value(QStringLiteral("occupancy"))
                                .toObject()
                                .value(QStringLiteral("blocks_per_sm"))
                                .toInt();
        QVERIFY(natural >= 2); // else the rows below test nothing

        QJsonObject limited = runRequest(QStringLiteral("limited"), *p, 1000, 777, 333);
        limited.insert(QStringLiteral("max_blocks_per_sm"), limit);
        m_runner->send(limited);
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("limited"), kFinal);
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        QVERIFY(answer.value(QStringLiteral("verify")).toObject().value(QStringLiteral("passed")).toBool());
        const QJsonObject occupancy =
            answer.value(QStringLiteral("compiled")).toObject().value(QStringLiteral("occupancy")).toObject();
        QCOMPARE(answer.value(QStringLiteral("max_blocks_per_sm")).toInt(), limit); // echoed for the record
        const bool binding = limit < natural;
        QCOMPARE(occupancy.value(QStringLiteral("blocks_per_sm")).toInt(), binding ? limit : natural);
        QCOMPARE(occupancy.value(QStringLiteral("requested_blocks_per_sm")).toInt(), limit);
        QCOMPARE(occupancy.value(QStringLiteral("padding_smem_bytes")).toInt() > 0, binding);
        QCOMPARE(occupancy.value(QStringLiteral("limiter")).toString() == QStringLiteral("requested"),
                 binding);
    }

    // A stated L1 / shared split reaches the kernel (the runner reports the runtime's attribute)
    // and changes nothing about the result. The smallest share holds blocks back (step 3 needs
    // 4 KB of shared memory per block) and occupancy names the carve-out as the limiter; the
    // largest leaves occupancy as it was.
    void carveoutIsApplied()
    {
        const auto occupancyOf = [](const QJsonObject &answer) {
            return answer.value(QStringLiteral("compiled"))
                .toObject()
                .value(QStringLiteral("occupancy"))
                .toObject();
        };
        m_runner->send(runRequest(QStringLiteral("free"), *findPreset("worklog-3"), 1000, 777, 333));
        const int natural = occupancyOf(m_runner->waitFor(QStringLiteral("free"), kFinal))
                                .value(QStringLiteral("blocks_per_sm"))
                                .toInt();
        QVERIFY(natural >= 2);
        for (int percent : {0, 100}) {
            QJsonObject request = runRequest(QStringLiteral("c"), *findPreset("worklog-3"), 1000, 777, 333);
            request.insert(QStringLiteral("smem_carveout"), percent);
            m_runner->send(request);
            const QJsonObject answer = m_runner->waitFor(QStringLiteral("c"), kFinal);
            QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                     qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
            QVERIFY(
                answer.value(QStringLiteral("verify")).toObject().value(QStringLiteral("passed")).toBool());
            QCOMPARE(answer.value(QStringLiteral("compiled"))
                         .toObject()
                         .value(QStringLiteral("smem_carveout"))
                         .toInt(),
                     percent);
            QCOMPARE(answer.value(QStringLiteral("smem_carveout")).toInt(), percent); // echoed for the record
            const QJsonObject occupancy = occupancyOf(answer);
            qInfo("carve-out %d %%: %s", percent,
                  qPrintable(occupancy.value(QStringLiteral("explanation")).toString()));
            if (percent == 0) {
                QVERIFY(occupancy.value(QStringLiteral("blocks_per_sm")).toInt() < natural);
                QCOMPARE(occupancy.value(QStringLiteral("limiter")).toString(),
                         QStringLiteral("shared_memory"));
            } else {
                QCOMPARE(occupancy.value(QStringLiteral("blocks_per_sm")).toInt(), natural);
            }
        }
    }

    // The runner's CUPTI access ratios against the access model, under the conditions where the
    // hardware's store count is the addresses' own (docs/gpu-verification.md): the
    // scalar-shared build (reads as written) at one block per SM. 1536 = a multiple of every tile.
    void accessCountersMatchTheModel_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char *key : {"worklog-2", "worklog-3", "worklog-5a", "guide-32"})
            QTest::newRow(key) << QString::fromLatin1(key);
    }
    void accessCountersMatchTheModel()
    {
        QFETCH(QString, preset);
        constexpr long long side = 1536;
        const Preset *p = findPreset(preset.toStdString());
        QJsonObject request = runRequest(QStringLiteral("a"), *p, side, side, side);
        request.insert(QStringLiteral("counters"), true);
        request.insert(QStringLiteral("build"), QStringLiteral("scalar_shared"));
        request.insert(QStringLiteral("max_blocks_per_sm"), 1);
        m_runner->send(request);
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("a"), kFinal, 300000);
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        const QJsonObject counters = answer.value(QStringLiteral("counters")).toObject();
        if (counters.value(QStringLiteral("error")).isString())
            QSKIP(qPrintable(QStringLiteral("counters unavailable: ") +
                             counters.value(QStringLiteral("error")).toString()));
        const QJsonObject measured = counters.value(QStringLiteral("access")).toObject();

        AccessContext context;
        context.size = ProblemSize{side, side, side};
        const KernelShape shape = *kernelShape(p->stage, p->params).shape;
        QCOMPARE(QString::fromStdString(accessContextError(shape, context)), QString());
        const AccessSummary model = summarizeBlock(shape, context);
        const std::pair<const char *, double> expected[] = {
            {"global_ld_sectors_per_request", model.globalLoads.perRequest()},
            {"global_st_sectors_per_request", model.storeC.perRequest()},
            {"shared_ld_wavefronts_per_request", model.sharedLoads.perRequest()},
            {"shared_st_wavefronts_per_request", model.sharedStores.perRequest()}};
        // The launch's instruction counts are the model's exactly: the binary issues the source's
        // accesses (scalar build), no more and no fewer.
        const std::optional<KernelInstructionCounts> counts = kernelInstructionCounts(shape, context.size);
        QVERIFY(counts);
        const QJsonObject metrics = counters.value(QStringLiteral("metrics")).toObject();
        const std::pair<const char *, long long> countsExpected[] = {
            {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", counts->globalLoads},
            {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", counts->globalStores},
            {"smsp__inst_executed_op_shared_ld.sum", counts->sharedLoads},
            {"smsp__inst_executed_op_shared_st.sum", counts->sharedStores}};
        for (const auto &[metric, count] : countsExpected) {
            qInfo("%s %s: model %lld, CUPTI %.0f", qPrintable(preset), metric, count,
                  metrics.value(QLatin1String(metric)).toDouble());
            QCOMPARE(metrics.value(QLatin1String(metric)).toDouble(), double(count));
        }
        for (const auto &[name, predicted] : expected) {
            const double value = measured.value(QLatin1String(name)).toDouble(-1);
            qInfo("%s %s: model %.3f, CUPTI %.3f", qPrintable(preset), name, predicted, value);
            QVERIFY2(std::abs(value - predicted) <= 0.05 * predicted,
                     qPrintable(QStringLiteral("%1: model %2, measured %3")
                                    .arg(QLatin1String(name))
                                    .arg(predicted)
                                    .arg(value)));
        }
    }

    void faultEndsRunnerAndRestartWorks()
    {
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("fault")},
                                   {QStringLiteral("id"), QStringLiteral("f")}});
        const QJsonObject fault = m_runner->waitFor(QStringLiteral("f"), kFinal);
        QCOMPARE(fault.value(QStringLiteral("kind")).toString(), QStringLiteral("device_fault"));
        QVERIFY(m_runner->process.waitForFinished(30000));
        QCOMPARE(m_runner->process.exitCode(), 3);

        startRunner();
        QVERIFY(!m_ready.isEmpty());
        m_runner->send(runRequest(QStringLiteral("after"), *findPreset("worklog-3"), 256, 256, 256));
        const QJsonObject after = m_runner->waitFor(QStringLiteral("after"), kFinal);
        QCOMPARE(after.value(QStringLiteral("event")).toString(), QStringLiteral("result"));
    }

    void secondRunIsCacheHit()
    {
        for (const QString &id : {QStringLiteral("first"), QStringLiteral("second")})
            m_runner->send(runRequest(id, *findPreset("worklog-4"), 128, 128, 128));
        QVERIFY(!m_runner->waitFor(QStringLiteral("first"), {QStringLiteral("compiled")}).isEmpty());
        const QJsonObject second = m_runner->waitFor(QStringLiteral("second"), {QStringLiteral("compiled")});
        QCOMPARE(second.value(QStringLiteral("cache_hit")).toBool(), true);
        QCOMPARE(
            m_runner->waitFor(QStringLiteral("second"), kFinal).value(QStringLiteral("event")).toString(),
            QStringLiteral("result"));
    }

    void ceilingsAreSane()
    {
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                                   {QStringLiteral("id"), QStringLiteral("x")},
                                   {QStringLiteral("refresh"), true}});
        const QJsonObject c = m_runner->waitFor(QStringLiteral("x"), kFinal);
        QCOMPARE(c.value(QStringLiteral("event")).toString(), QStringLiteral("ceilings"));
        QCOMPARE(c.value(QStringLiteral("cached")).toBool(), false);
        const double fma = c.value(QStringLiteral("fma_tflops")).toDouble();
        const double dram = c.value(QStringLiteral("dram_gbs")).toDouble();
        qInfo("ceilings: FMA %.1f TFLOP/s, DRAM %.0f GB/s", fma, dram);
        QVERIFY(fma > 0 && dram > 0);
        const QString name =
            m_ready.value(QStringLiteral("gpu")).toObject().value(QStringLiteral("name")).toString();
        // The datasheet ranges the roofline issue states: FP32 FMA 60-67 TFLOP/s on both; DRAM
        // 3.5-4.8 TB/s on the H200 (HBM3e), 2.5-3.35 TB/s on the H100 SXM (HBM3).
        if (name.contains(QStringLiteral("H200")) || name.contains(QStringLiteral("H100")))
            QVERIFY2(fma >= 60 && fma <= 67, qPrintable(QString::number(fma)));
        if (name.contains(QStringLiteral("H200")))
            QVERIFY2(dram >= 3500 && dram <= 4800, qPrintable(QString::number(dram)));
        if (name.contains(QStringLiteral("H100")))
            QVERIFY2(dram >= 2500 && dram <= 3350, qPrintable(QString::number(dram)));
        // The TF32 tensor roof, from sm_80 on: wgmma on Hopper (mma.sync there reaches only ~65 % of
        // the tensor cores, below what wgmma kernels and cuBLAS run at), mma.sync elsewhere.
        const int arch =
            runner::parseArch(m_ready.value(QStringLiteral("gpu")).toObject().value("arch").toString());
        const double tf32 = c.value(QStringLiteral("tf32_tflops")).toDouble();
        const QString tf32Kernel = c.value(QStringLiteral("tf32_kernel")).toString();
        qInfo("ceilings: TF32 %.1f TFLOP/s (%s)", tf32, qPrintable(tf32Kernel));
        if (arch >= 80) {
            QVERIFY2(tf32 > 0, qPrintable(c.value(QStringLiteral("tf32_unavailable")).toString()));
            QCOMPARE(tf32Kernel, arch == 90 ? QStringLiteral("wgmma.m64n256k8.tf32")
                                            : QStringLiteral("mma.sync.m16n8k8.tf32"));
            // Never above the datasheet's dense TF32 peak of this architecture (5 % for boost clocks).
            if (const GpuSpec *spec = findGpuForArch(arch); spec && spec->tf32Tflops > 0)
                QVERIFY2(tf32 <= spec->tf32Tflops * 1.05, qPrintable(QString::number(tf32)));
        } else {
            QVERIFY(c.value(QStringLiteral("tf32_tflops")).isUndefined());
            QVERIFY(!c.value(QStringLiteral("tf32_unavailable")).toString().isEmpty());
        }
        // H100/H200 SXM, 494.7 TFLOP/s dense TF32: the roof must sit above the ~410 TFLOP/s cuBLAS
        // TF32 runs at on the H200, so at least 85 % of the datasheet (the mma.sync one was ~323).
        if (arch == 90 && (name.contains(QStringLiteral("H200")) || name.contains(QStringLiteral("H100"))))
            QVERIFY2(tf32 >= 0.85 * findGpu("h200")->tf32Tflops, qPrintable(QString::number(tf32)));
        // Asked again without refresh: the cached figures.
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                                   {QStringLiteral("id"), QStringLiteral("y")}});
        const QJsonObject cached = m_runner->waitFor(QStringLiteral("y"), kFinal);
        QCOMPARE(cached.value(QStringLiteral("cached")).toBool(), true);
        QCOMPARE(cached.value(QStringLiteral("fma_tflops")).toDouble(), fma);
        QCOMPARE(cached.value(QStringLiteral("tf32_tflops")).toDouble(), tf32);
        QCOMPARE(cached.value(QStringLiteral("tf32_kernel")).toString(), tf32Kernel);
    }

    // A cache whose TF32 roof was measured with mma.sync (every cache written before the wgmma
    // benchmark; this one names no kernel, as those did): on Hopper the runner measures the TF32
    // roof again with wgmma and keeps the rest; elsewhere mma.sync is the kernel and it stands.
    void mmaSyncCeilingsCacheIsRenewedOnHopper()
    {
        QTemporaryDir cacheDir;
        QVERIFY(cacheDir.isValid());
        const QJsonObject gpu = m_ready.value(QStringLiteral("gpu")).toObject();
        runner::DeviceInfo device;
        device.spec.name = gpu.value(QStringLiteral("name")).toString().toStdString();
        device.uuid = gpu.value(QStringLiteral("uuid")).toString();
        const int arch = runner::parseArch(gpu.value(QStringLiteral("arch")).toString());
        if (arch < 80)
            QSKIP("no TF32 tensor cores before sm_80");
        QFile stale(runner::ceilingsCachePath(cacheDir.path(), device));
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write(QJsonDocument(QJsonObject{{"fma_tflops", 12.5},
                                              {"dram_gbs", 1000.0},
                                              {"measured_at", "2026-11-30T10:00:00Z"},
                                              {"tf32_tflops", 3.25}})
                        .toJson());
        stale.close();

        RunnerProcess fresh(cacheDir.path());
        QCOMPARE(fresh.start().value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        fresh.send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                               {QStringLiteral("id"), QStringLiteral("c")}});
        const QJsonObject c = fresh.waitFor(QStringLiteral("c"), kFinal);
        QCOMPARE(c.value(QStringLiteral("event")).toString(), QStringLiteral("ceilings"));
        QCOMPARE(c.value(QStringLiteral("cached")).toBool(), true);
        QCOMPARE(c.value(QStringLiteral("fma_tflops")).toDouble(), 12.5); // kept: only TF32 is renewed
        const double tf32 = c.value(QStringLiteral("tf32_tflops")).toDouble();
        if (arch == 90) {
            QCOMPARE(c.value(QStringLiteral("tf32_kernel")).toString(),
                     QStringLiteral("wgmma.m64n256k8.tf32"));
            QVERIFY2(tf32 > 3.25, qPrintable(QString::number(tf32)));
            // The renewed figure went into the cache: asked again, nothing is measured.
            QVERIFY(runner::loadCeilings(stale.fileName()));
            QCOMPARE(runner::loadCeilings(stale.fileName())->tf32Tflops, tf32);
        } else {
            QCOMPARE(c.value(QStringLiteral("tf32_kernel")).toString(),
                     QStringLiteral("mma.sync.m16n8k8.tf32"));
            QCOMPARE(tf32, 3.25);
        }
    }

    // Measured arithmetic intensity (the roofline's "measured" point): one extra launch profiled
    // with CUPTI after the verified, timed ones. Where counters cannot be read (no permission),
    // the result still comes, with the reason, and the test skips with it.
    void countersMeasureIntensity()
    {
        // 7680 = 40 x 192 = 120 x 64 = 480 x 16: every tile of worklog-3 (64x64, BK 8) and worklog-8
        // (192x192, BK 16) is full, so no FMA runs on padding and the FFMA count is exactly M*N*K.
        // A, B and C are 236 MB each, about 11x the L2 together, so DRAM traffic cannot vanish.
        constexpr long long m = 7680, n = 7680, k = 7680;
        const double flops = 2.0 * double(m) * double(n) * double(k);
        // Compulsory traffic: A and B read once, C written once (FP32).
        const double compulsory = 4.0 * double(m * k + k * n + m * n);
        // The only ways to move less: lines of A/B still in L2 from the previous launch (at most
        // the L2's size) and dirty lines of C still in L2 when the kernel ends (at most the L2's
        // size again). So read + write >= compulsory - 2 x L2, which here is ~82% of compulsory.
        const double l2 =
            m_ready.value(QStringLiteral("gpu")).toObject().value(QStringLiteral("l2_bytes")).toDouble();
        QVERIFY(l2 > 0);
        const double floorBytes = compulsory - 2 * l2;
        QVERIFY2(floorBytes > 0.75 * compulsory,
                 "the problem must dwarf the L2 for the bound to mean something");

        QMap<QString, double> intensity;
        for (const char *key : {"worklog-0", "worklog-3", "worklog-8"}) {
            const QString id = QStringLiteral("hw-") + QLatin1String(key);
            QJsonObject request = runRequest(id, *findPreset(key), m, n, k);
            request.insert(QStringLiteral("counters"), true);
            m_runner->send(request);
            const QJsonObject answer = m_runner->waitFor(id, kFinal, 900000);
            QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                     qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
            // Still verified and timed as without counters.
            QVERIFY(
                answer.value(QStringLiteral("verify")).toObject().value(QStringLiteral("passed")).toBool());
            QCOMPARE(answer.value(QStringLiteral("timing")).toObject().value(QStringLiteral("count")).toInt(),
                     2);

            const QJsonObject c = answer.value(QStringLiteral("counters")).toObject();
            QVERIFY2(!c.isEmpty(), "a run with counters must carry a counters object");
            if (c.value(QStringLiteral("error")).isString()) {
                const QString why = c.value(QStringLiteral("error")).toString();
                QVERIFY2(why.contains(QStringLiteral("CUPTI")), qPrintable(why)); // names the CUPTI error
                QSKIP(qPrintable(QStringLiteral("counters unavailable: ") + why));
            }
            const double read = c.value(QStringLiteral("dram_read_bytes")).toDouble();
            const double write = c.value(QStringLiteral("dram_write_bytes")).toDouble();
            const double ffma = c.value(QStringLiteral("ffma_thread_inst")).toDouble();
            qInfo("%s: DRAM read %.0f MB, write %.0f MB, L2 %.0f MB, FFMA %.4g, DRAM intensity %.2f FLOP/B, "
                  "L2 intensity %.2f FLOP/B",
                  key, read / 1e6, write / 1e6, c.value(QStringLiteral("l2_bytes")).toDouble() / 1e6, ffma,
                  c.value(QStringLiteral("dram_intensity")).toDouble(),
                  c.value(QStringLiteral("l2_intensity")).toDouble());
            QCOMPARE(c.value(QStringLiteral("flops")).toDouble(), flops);
            QVERIFY2(read + write >= floorBytes,
                     qPrintable(QStringLiteral("%1: %2 bytes moved, compulsory %3, floor %4")
                                    .arg(QLatin1String(key))
                                    .arg(read + write, 0, 'g', 6)
                                    .arg(compulsory, 0, 'g', 6)
                                    .arg(floorBytes, 0, 'g', 6)));
            // FP32 kernels: one FFMA thread instruction per multiply-add, none on padding.
            QCOMPARE(ffma, double(m) * double(n) * double(k));
            intensity.insert(QLatin1String(key), c.value(QStringLiteral("dram_intensity")).toDouble());
        }
        // Tiling is what raises the intensity: the naive kernel re-reads A and B from DRAM.
        QVERIFY2(intensity.value(QStringLiteral("worklog-0")) * 4 <=
                     intensity.value(QStringLiteral("worklog-8")),
                 qPrintable(QStringLiteral("naive %1 FLOP/B vs worklog-8 %2 FLOP/B")
                                .arg(intensity.value(QStringLiteral("worklog-0")))
                                .arg(intensity.value(QStringLiteral("worklog-8")))));
        QVERIFY(intensity.value(QStringLiteral("worklog-0")) < intensity.value(QStringLiteral("worklog-3")));
    }

    void ownerTraceMatchesMappingModel_data()
    {
        QTest::addColumn<QString>("preset");
        for (const Preset &p : presets())
            if (!stageInfo(p.stage).isLibrary)
                QTest::newRow(p.key.c_str()) << QString::fromStdString(p.key);
    }
    void ownerTraceMatchesMappingModel()
    {
        QFETCH(QString, preset);
        const Preset *p = findPreset(preset.toStdString());
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("trace_owner")},
                                   {QStringLiteral("id"), QStringLiteral("t")},
                                   {QStringLiteral("stage"), QString::fromStdString(stageInfo(p->stage).key)},
                                   {QStringLiteral("params"), paramsJson(p->params)}});
        const QJsonObject map = m_runner->waitFor(QStringLiteral("t"), kFinal);
        QVERIFY2(map.value(QStringLiteral("event")).toString() == QStringLiteral("owner_map"),
                 qPrintable(QJsonDocument(map).toJson(QJsonDocument::Compact)));
        const int rows = map.value(QStringLiteral("rows")).toInt(),
                  cols = map.value(QStringLiteral("cols")).toInt();
        const int threads = map.value(QStringLiteral("threads")).toInt();
        const QJsonArray owners = map.value(QStringLiteral("owners")).toArray();
        QCOMPARE(owners.size(), qsizetype(rows) * cols);
        for (const QJsonValue &o : owners)
            QVERIFY2(o.toInt() >= 0 && o.toInt() < threads,
                     "every element stored once by a thread of the block");

        // The diagrams' model must say the same, where the stage has one. A stage the catalog
        // gives no mapping (the persistent TF32 stage: its views say "not modelled") is checked
        // by its trace alone, above.
        const KernelShapeResult shape = kernelShape(p->stage, p->params);
        if (!stageInfo(p->stage).model.mapping) {
            QVERIFY(!shape.shape);
            return;
        }
        QVERIFY2(shape.shape, shape.error.c_str());
        QCOMPARE(rows, shape.shape->bm);
        QCOMPARE(cols, shape.shape->bn);
        const std::vector<int> model = ownerMap(*shape.shape);
        QCOMPARE(qsizetype(model.size()), owners.size());
        for (qsizetype i = 0; i < owners.size(); ++i)
            if (owners[i].toInt() != model[size_t(i)])
                QFAIL(qPrintable(
                    QStringLiteral("row %1 col %2: the kernel's owner is thread %3, the model says %4")
                        .arg(i / cols)
                        .arg(i % cols)
                        .arg(owners[i].toInt())
                        .arg(model[size_t(i)])));
    }

private:
    void startRunner()
    {
        m_runner = std::make_unique<RunnerProcess>();
        m_ready = m_runner->start();
    }

    std::unique_ptr<RunnerProcess> m_runner;
    QJsonObject m_ready;
};

QTEST_GUILESS_MAIN(TestRunnerGpu)
#include "tst_runner_gpu.moc"
