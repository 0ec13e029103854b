// RunController without a runner (model-only mode): it runs nothing and adds no record, and it
// picks the measured roof of the most recent run's GPU from the session's ceilings.
#include "run_controller.h"
#include "session.h"
#include "support/stored_ceilings.h"

#include <QtTest>

using namespace gemmscope;

namespace {

RunRecord finishedRun(const QString &id, const QString &gpu)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.m = r.n = r.k = 1024;
    r.status = RunStatus::Ok;
    r.medianMs = 1;
    r.gpuName = gpu;
    return r;
}

} // namespace

class TstRunController : public QObject {
    Q_OBJECT

private slots:
    void withoutRunnerNothingRuns()
    {
        Session session;
        RunController runs(&session);
        QVERIFY(!runs.hasRunner());
        QVERIFY(!runs.client());
        RunConfig config;
        config.params = defaultParams(config.stage);
        QVERIFY(runs.runCurrent(config).isEmpty());
        QVERIFY(runs.runLadder(ProblemSize{256, 256, 256}, TimingOptions{}).isEmpty());
        QVERIFY(session.runs().isEmpty());
        runs.cancelAll(); // harmless
    }

    void measuredRoofIsTheLatestRunsGpu()
    {
        Session session;
        RunController runs(&session);
        QVERIFY(!runs.measuredCeilings());
        session.addOrUpdate(finishedRun(QStringLiteral("a"), QStringLiteral("NVIDIA H200")));
        session.addOrUpdate(finishedRun(QStringLiteral("b"), QStringLiteral("Tesla T4")));
        QVERIFY(!runs.measuredCeilings()); // no ceilings stored yet
        session.setCeilings(QStringLiteral("NVIDIA H200"),
                            test::storedCeilings(64.2, 4100.0, "recorded", "2026-11-29T23:00:00Z"));
        std::optional<MeasuredCeilings> c = runs.measuredCeilings();
        QVERIFY(c); // the T4 run has none: the H200's are the latest that exist
        QCOMPARE(c->gpuName, QStringLiteral("NVIDIA H200"));
        QCOMPARE(c->fmaTflops, 64.2);
        QCOMPARE(c->dramGbs, 4100.0);
        QCOMPARE(c->measuredAt.left(10), QStringLiteral("2026-11-29"));
        QVERIFY(c->recorded);
        session.setCeilings(QStringLiteral("Tesla T4"),
                            test::storedCeilings(8.1, 300.0, "measured", "2026-11-30T10:00:00Z"));
        c = runs.measuredCeilings();
        QCOMPARE(c->gpuName, QStringLiteral("Tesla T4"));
        QVERIFY(!c->recorded);
        QCOMPARE(c->tf32Tflops, 0.0); // an entry without the TF32 roof: none
    }

    void tensorRoofTravelsFromTheEventToTheRoof()
    {
        Session session;
        RunController runs(&session);
        session.addOrUpdate(finishedRun(QStringLiteral("a"), QStringLiteral("NVIDIA H200")));
        const QJsonObject event{{"event", "ceilings"},  {"id", "x"},
                                {"fma_tflops", 64.2},   {"dram_gbs", 4100.0},
                                {"cached", false},      {"measured_at", "2026-12-01T10:00:00Z"},
                                {"tf32_tflops", 330.0}, {"tf32_kernel", "mma.sync.m16n8k8.tf32"}};
        protocol::CeilingsEvent typed;
        QVERIFY(protocol::fromJson(event, typed));
        session.setCeilings(QStringLiteral("NVIDIA H200"), ceilingsEntry(typed, QStringLiteral("measured")));
        const std::optional<MeasuredCeilings> c = runs.measuredCeilings();
        QVERIFY(c);
        QCOMPARE(c->tf32Tflops, 330.0);
        QCOMPARE(c->tf32Kernel, QStringLiteral("mma.sync.m16n8k8.tf32"));
        QCOMPARE(c->fmaTflops, 64.2);
    }
};

QTEST_MAIN(TstRunController)
#include "tst_run_controller.moc"
