// A run beside cuBLAS without a profile (app/core/run_against_cublas.h), on the recorded H200
// ladder: which cuBLAS run a run is held against (its precision's, same size, GPU, origin and
// regime), the sentence with its share of cuBLAS's speed, the measured counters of both, the
// traffic model's expectations, and what is said where there is no run, no cuBLAS run, or cuBLAS.
#include "model_agreement.h"
#include "run_against_cublas.h"
#include "session.h"
#include "traffic_model.h"

#include <QtTest>

using namespace gemmscope;

namespace {

const RunRecord *runOf(const QList<RunRecord> &runs, const QString &preset)
{
    for (const RunRecord &run : runs)
        if (run.presetKey == preset && run.isOk())
            return &run;
    return nullptr;
}

const RunFactRow *rowOf(const RunAgainstCublas &facts, const QString &quantity)
{
    for (const RunFactRow &row : facts.rows)
        if (row.quantity == quantity)
            return &row;
    return nullptr;
}

} // namespace

class TestRunAgainstCublas : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_session.open(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
    }

    void pairsEachRunWithCublasOfItsPrecision()
    {
        const QList<RunRecord> &runs = m_session.runs();
        const RunRecord *step3 = runOf(runs, QStringLiteral("worklog-3"));
        const RunRecord *mma = runOf(runs, QStringLiteral("tf32-mma"));
        QVERIFY(step3 && mma);
        const RunRecord *fp32 = cublasRunFor(*step3, runs);
        QVERIFY(fp32);
        QCOMPARE(fp32->stage, StageId::CublasFp32);
        const RunRecord *tf32 = cublasRunFor(*mma, runs);
        QVERIFY(tf32);
        QCOMPARE(tf32->stage, StageId::CublasTf32);
        // Another GPU, or another size, is no pair.
        RunRecord elsewhere = *step3;
        elsewhere.gpuName = QStringLiteral("NVIDIA A100-SXM4-80GB");
        QVERIFY(!cublasRunFor(elsewhere, runs));
        elsewhere = *step3;
        elsewhere.m = 2048;
        QVERIFY(!cublasRunFor(elsewhere, runs));
        // A cuBLAS run is not held against itself.
        QVERIFY(!cublasRunFor(*fp32, runs));
    }

    void pairsOnlyOneRegimeAndOrigin()
    {
        QList<RunRecord> runs = m_session.runs(); // the recorded ladder says nothing of its timing
        RunRecord *step3 = nullptr;
        for (RunRecord &run : runs)
            if (run.presetKey == QStringLiteral("worklog-3") || run.stage == StageId::CublasFp32) {
                run.conditions = protocol::RunConditions{};
                run.conditions->regime = protocol::TimingRegime::Burst;
                if (run.presetKey == QStringLiteral("worklog-3"))
                    step3 = &run;
            }
        QVERIFY(step3);
        QVERIFY(cublasRunFor(*step3, runs));
        RunRecord other = *step3; // timed at load: no burst cuBLAS run is its pair
        other.conditions->regime = protocol::TimingRegime::Sustained;
        QVERIFY(!cublasRunFor(other, runs));
        other.conditions->regime = protocol::TimingRegime::Unknown;
        QVERIFY(!cublasRunFor(other, runs));
        other = *step3; // says nothing of its timing: not a burst run either
        other.conditions.reset();
        QVERIFY(!cublasRunFor(other, runs));
        other = *step3; // imported, not measured here
        other.origin = QStringLiteral("imported");
        QVERIFY(!cublasRunFor(other, runs));
        // Equal pairings hash alike (the results model's index of cuBLAS runs).
        const CublasPairing pairing = cublasPairingOf(*step3, StageId::CublasFp32);
        QCOMPARE(cublasPairingOf(*step3, StageId::CublasFp32), pairing);
        QCOMPARE(qHash(cublasPairingOf(*step3, StageId::CublasFp32)), qHash(pairing));
        QVERIFY(!(cublasPairingOf(*step3, StageId::CublasTf32) == pairing));
    }

    void measuredBesideCublasAndTheModel()
    {
        const QList<RunRecord> &runs = m_session.runs();
        const RunRecord *step3 = runOf(runs, QStringLiteral("worklog-3"));
        const RunRecord *cublas = cublasRunFor(*step3, runs);
        QVERIFY(step3 && cublas);
        const RunAgainstCublas facts = runAgainstCublas(step3, cublas, QStringLiteral("3"));
        QCOMPARE(facts.cublasName, QStringLiteral("cuBLAS FP32"));
        const QString share = QString::number(100.0 * cublas->medianMs / step3->medianMs, 'f', 0);
        // Named as the results table's Stage column names it, with the stage's name ("Run 3" was a
        // name no other part of the window used).
        QCOMPARE(facts.runName, QStringLiteral("Stage 3"));
        QVERIFY2(
            facts.headline.startsWith(QStringLiteral("Stage 3 (%1) took %2 ms at 4096³ on NVIDIA H200")
                                          .arg(runStageTitleText(*step3))
                                          .arg(step3->medianMs, 0, 'f', 3)) &&
                facts.headline.contains(QStringLiteral("reaches %1 % of cuBLAS FP32's speed").arg(share)),
            qPrintable(facts.headline));
        QVERIFY2(!facts.headline.contains(QStringLiteral("Run 3")) &&
                     !facts.headline.contains(QStringLiteral("run 3")),
                 qPrintable(facts.headline));
        const RunFactRow *time = rowOf(facts, QStringLiteral("Median time"));
        QVERIFY(time);
        QCOMPARE(time->cublas, QStringLiteral("%1 ms").arg(cublas->medianMs, 0, 'f', 3));
        // Both runs' DRAM counters, and the least any tiling moves: A and B read once, C written once.
        const RunFactRow *dram = rowOf(facts, QStringLiteral("DRAM traffic (read + write)"));
        QVERIFY(dram);
        const double bytes = *step3->counters->dramReadBytes + *step3->counters->dramWriteBytes;
        QVERIFY(bytes >= 1e6 && bytes < 1e9); // shown in MB
        QCOMPARE(dram->run, QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 1));
        QVERIFY(dram->cublas != QStringLiteral("—"));
        const double compulsory = 4.0 * 3 * 4096.0 * 4096.0;
        QCOMPARE(dram->model, QStringLiteral("at least %1 MB (A and B read once, C written once)")
                                  .arg(compulsory / 1e6, 0, 'f', 1));
        // The worklog's formula for step 3's 64x64 tiles: 16 FLOP per byte loaded, a little less once
        // C's stores count too, as the L2 row's modelled bytes do.
        const RunFactRow *l2 = rowOf(facts, QStringLiteral("FLOP per L2 byte"));
        QVERIFY(l2);
        QVERIFY2(l2->model.startsWith(QStringLiteral("15.9 FLOP/B (the same traffic)")),
                 qPrintable(l2->model));
        QVERIFY(!facts.footnote.isEmpty());
    }

    // The L2 row holds the run's measured traffic against the model's (the tiles' loads and C's
    // stores), marked agrees or differs by the access table's rule (agreesWithModel); the bounds and
    // the loads-only intensity are no figure to agree with, and carry no mark.
    void l2TrafficMarkedAgainstTheModel()
    {
        const QList<RunRecord> &runs = m_session.runs();
        const RunRecord *step3 = runOf(runs, QStringLiteral("worklog-3"));
        QVERIFY(step3 && step3->counters && step3->counters->l2Bytes);
        const TrafficEstimate model =
            estimateTraffic(findStage(step3->stage.key())->id, paramValuesOf(*step3),
                            ProblemSize{step3->m, step3->n, step3->k});
        const double expected = model.loadBytes + model.storeBytes;
        QVERIFY(expected > 0);
        const auto markFor = [&](double measured) -> std::optional<bool> {
            RunRecord run = *step3;
            run.counters->l2Bytes = measured;
            const RunAgainstCublas facts = runAgainstCublas(&run, nullptr, QStringLiteral("3"));
            const QStringList marked{QStringLiteral("L2 traffic"), QStringLiteral("FLOP per L2 byte")};
            for (const RunFactRow &row : facts.rows)
                if (!marked.contains(row.quantity) && row.runAgreesWithModel)
                    return std::nullopt; // only the L2 rows are marked
            const RunFactRow *l2 = rowOf(facts, QStringLiteral("L2 traffic"));
            const RunFactRow *perByte = rowOf(facts, QStringLiteral("FLOP per L2 byte"));
            if (!l2 || !perByte || perByte->runAgreesWithModel != l2->runAgreesWithModel)
                return std::nullopt; // one set of bytes: one verdict
            return l2->runAgreesWithModel;
        };
        const double tolerance = kModelAgreementTolerance;
        QCOMPARE(markFor(expected * (1 + 0.9 * tolerance)), std::optional<bool>(true));
        QCOMPARE(markFor(expected * (1 - 0.9 * tolerance)), std::optional<bool>(true));
        QCOMPARE(markFor(expected * (1 + 1.1 * tolerance)), std::optional<bool>(false));
        QCOMPARE(markFor(expected * (1 - 1.1 * tolerance)), std::optional<bool>(false));
        // The recorded run, marked as the rule says, and the rule named where the mark is explained.
        const RunAgainstCublas facts = runAgainstCublas(step3, nullptr, QStringLiteral("3"));
        const RunFactRow *l2 = rowOf(facts, QStringLiteral("L2 traffic"));
        QVERIFY(l2 && l2->runAgreesWithModel);
        QCOMPARE(*l2->runAgreesWithModel, agreesWithModel(*step3->counters->l2Bytes, expected));
        QVERIFY2(facts.footnote.contains(QStringLiteral("within %1\u00a0% of the model's")
                                             .arg(kModelAgreementTolerance * 100, 0, 'f', 0)),
                 qPrintable(facts.footnote));
        // No counter: nothing to mark.
        RunRecord unmeasured = *step3;
        unmeasured.counters->l2Bytes.reset();
        l2 = nullptr;
        const RunAgainstCublas bare = runAgainstCublas(&unmeasured, nullptr, QStringLiteral("3"));
        l2 = rowOf(bare, QStringLiteral("L2 traffic"));
        QVERIFY(l2 && !l2->runAgreesWithModel);
        QVERIFY(!bare.footnote.contains(QStringLiteral("agrees")));
        // The per-byte row's model is the same traffic's: FLOP over the L2 row's modelled bytes.
        const RunFactRow *perByte = rowOf(facts, QStringLiteral("FLOP per L2 byte"));
        QVERIFY(perByte);
        const double flops = ProblemSize{step3->m, step3->n, step3->k}.flops();
        const double modelled = flops / expected;
        QVERIFY2(perByte->model.startsWith(QString::number(modelled, 'f', modelled < 10 ? 2 : 1)),
                 qPrintable(perByte->model));
    }

    void saysWhatIsMissing()
    {
        const QList<RunRecord> &runs = m_session.runs();
        QVERIFY(runAgainstCublas(nullptr, nullptr, {}).headline.startsWith(QStringLiteral("Select a run")));
        QVERIFY(runAgainstCublas(nullptr, nullptr, {}).rows.isEmpty());
        // No cuBLAS run at that size: the run's own values stand, cuBLAS's column is empty, and the
        // sentence says what would fill it.
        const RunRecord *step3 = runOf(runs, QStringLiteral("worklog-3"));
        const RunAgainstCublas alone = runAgainstCublas(step3, nullptr, QStringLiteral("3"));
        QVERIFY2(alone.headline.contains(QStringLiteral("no cuBLAS FP32 run at that size")),
                 qPrintable(alone.headline));
        QVERIFY(!alone.rows.isEmpty());
        for (const RunFactRow &row : alone.rows)
            QCOMPARE(row.cublas, QStringLiteral("—"));
        // cuBLAS itself, and a run that failed, have nothing to set beside it.
        const RunRecord *cublas = runOf(runs, QStringLiteral("cublas_fp32"));
        QVERIFY(cublas);
        const RunAgainstCublas itself = runAgainstCublas(cublas, nullptr, QStringLiteral("cuBLAS"));
        QVERIFY2(itself.headline.contains(QStringLiteral("is cuBLAS itself")), qPrintable(itself.headline));
        QVERIFY(itself.rows.isEmpty());
        RunRecord failed = *step3;
        failed.status = RunStatus::Failed;
        QVERIFY(runAgainstCublas(&failed, nullptr, QStringLiteral("3")).rows.isEmpty());
    }

private:
    Session m_session;
};

QTEST_MAIN(TestRunAgainstCublas)
#include "tst_run_against_cublas.moc"
