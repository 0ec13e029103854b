// gemmscope-runner on a real GPU: every stage correct against cuBLAS, device-fault recovery by
// restart, the CUBIN cache, measured ceilings, and the owner trace against the mapping model.
// Without a GPU every test skips with the runner's own no_gpu sentence.
#include "mapping_model.h"
#include "runner_process.h"
#include "stage_catalog.h"

#include <QJsonArray>
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
        QCOMPARE(m_ready.value(QStringLiteral("event")).toString(), QStringLiteral("ready"));
        if (m_ready.value(QStringLiteral("gpu")).isNull())
            QSKIP(qPrintable(QStringLiteral("no GPU: ") + m_ready.value(QStringLiteral("gpu_error"))
                                                              .toObject()
                                                              .value(QStringLiteral("message"))
                                                              .toString()));
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
        if (name.contains(QStringLiteral("H200")) || name.contains(QStringLiteral("H100"))) {
            QVERIFY2(fma >= 30 && fma <= 80, qPrintable(QString::number(fma)));
            QVERIFY2(dram >= 1500 && dram <= 6000, qPrintable(QString::number(dram)));
        }
        // Asked again without refresh: the cached figures.
        m_runner->send(QJsonObject{{QStringLiteral("type"), QStringLiteral("ceilings")},
                                   {QStringLiteral("id"), QStringLiteral("y")}});
        const QJsonObject cached = m_runner->waitFor(QStringLiteral("y"), kFinal);
        QCOMPARE(cached.value(QStringLiteral("cached")).toBool(), true);
        QCOMPARE(cached.value(QStringLiteral("fma_tflops")).toDouble(), fma);
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

        // The diagrams' model must say the same.
        const KernelShapeResult shape = kernelShape(p->stage, p->params);
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
