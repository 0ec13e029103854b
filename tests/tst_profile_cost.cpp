// "Why not cuBLAS?" by estimated cost in time (app/core/profile_cost.h): the embedded session's
// H200 profiles ranked as the model says, each term made to dominate in turn on synthetic profiles,
// a throughput never the headline, and hostile values read as no value.
#include "profile_analysis.h"
#include "profile_record.h"
#include "support/profile_fixtures.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gemmscope;
using namespace gemmscope::test;

namespace {

using M = QMap<QString, double>;

// The profiles the embedded default session records (resources/default_session.json), by stage.
QMap<QString, protocol::ProfileEvent> embeddedProfiles()
{
    QFile file(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the embedded session");
    QMap<QString, protocol::ProfileEvent> byStage;
    const QJsonArray profiles = QJsonDocument::fromJson(file.readAll()).object().value("profiles").toArray();
    for (const QJsonValue &v : profiles) {
        QString error;
        const auto stored = storedProfileFromJson(v, &error);
        if (!stored)
            qFatal("%s", qPrintable(error));
        byStage.insert(stored->event.stage, stored->event);
    }
    return byStage;
}

const CostTerm *termOf(const CostRanking &r, const QString &key)
{
    for (const CostTerm &t : r.terms)
        if (t.key == key)
            return &t;
    return nullptr;
}

// A kernel of `ms` on an H200 whose issue slots are `issue` % busy, executing `instructions` warp
// instructions, with `waits` samples by reason (and `issuing` samples of "selected").
protocol::ProfileEvent synthetic(double ms, double issue, double instructions, const M &waits, double issuing,
                                 double excessWavefronts = 0)
{
    protocol::ProfileEvent p;
    p.stage = QStringLiteral("synthetic");
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    p.arch = QStringLiteral("sm_90");
    p.limiters = {{"gpu__time_duration.sum", ms * 1e6},
                  {"sm__cycles_elapsed.avg.per_second", 2e9},
                  {"sm__inst_issued.avg.pct_of_peak_sustained_active", issue},
                  {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", issue * 0.8},
                  {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 10},
                  {"smsp__inst_executed.sum", instructions}};
    M stalls = waits;
    stalls.insert("selected", issuing);
    p.instructions = {
        instruction("k", 0x10, "FFMA R1, R2, R3, R1", "k.cuh", 20, stalls, M{{"inst_executed", 1e6}})};
    if (excessWavefronts > 0) {
        const double requests = excessWavefronts / 3.0; // a 4-way conflict: 3 wavefronts beyond 1
        p.instructions << instruction("k", 0x20, "STS [R4], R5", "k.cuh", 12, M{{"short_scoreboard", 1}},
                                      M{{"inst_executed", requests},
                                        {"inst_executed_op_shared_st", requests},
                                        {"l1tex_pipe_lsu_wavefronts_mem_shared", 4 * requests},
                                        {"l1tex_pipe_lsu_wavefronts_mem_shared_ideal", requests}});
    }
    return p;
}

} // namespace

class TestProfileCost : public QObject {
    Q_OBJECT

private slots:
    // pipelined against cuBLAS SGEMM, 8192x4096x6144 on the H200 (the embedded session). By hand:
    // Tc 8.831 ms, issue 79.4 % busy; Tb 8.128 ms, 88.5 %. Waiting samples (not issuing or ready)
    // 26.4 % and 20.8 %. i-cache miss: 8.831 * 0.206 * 5.8/26.4 - 8.128 * 0.115 * 0.7/20.8
    // = 0.40 - 0.03 = 0.37 ms. The A tile's 4-way store conflict: 75.5 M extra wavefronts over
    // 132 SMs at 1.979 GHz = 0.29 ms. Extra instructions: 8.831 * 0.794 - 8.128 * 0.885 < 0.
    void embeddedPipelinedAgainstCublas()
    {
        const auto profiles = embeddedProfiles();
        const CostRanking r = rankCosts(profiles["pipelined"], profiles["cublas_fp32"],
                                        QStringLiteral("pipelined"), QStringLiteral("cuBLAS FP32"));
        QVERIFY(r.timesMeasured);
        for (auto &t : r.terms)
            qInfo().noquote() << t.key << t.ms << t.measured << t.where;
        QCOMPARE(r.boundUnit, QStringLiteral("issue slots"));
        QVERIFY(qAbs(r.candidateMs - 8.831) < 1e-3);
        QVERIFY(qAbs(r.idleMs - (8.831 * (1 - 0.7941) - 8.128 * (1 - 0.8851))) < 0.01);
        for (qsizetype i = 1; i < r.terms.size(); ++i)
            QVERIFY(r.terms[i - 1].ms >= r.terms[i].ms);

        QCOMPARE(r.terms[0].key, QStringLiteral("stall:no_instructions"));
        QVERIFY2(qAbs(r.terms[0].ms - 0.37) < 0.02, qPrintable(QString::number(r.terms[0].ms)));
        QCOMPARE(r.terms[0].name, QStringLiteral("i-cache miss"));
        QVERIFY(r.terms[0].where.startsWith(QLatin1String("pipelined.cuh:")));

        const CostTerm *bank = termOf(r, QStringLiteral("bank:store:A tile"));
        QVERIFY(bank);
        QCOMPARE(bank->where, QStringLiteral("pipelined.cuh:73-76"));
        QVERIFY2(qAbs(bank->ms - 75497472.0 / (132 * 1979341711.85) * 1e3) < 1e-3,
                 qPrintable(QString::number(bank->ms)));
        QVERIFY(bank->measured.contains(QLatin1String("4-way")));
        QVERIFY(bank->remedy.contains(QLatin1String("pad the A tile's rows by one float")));

        const CostTerm *instructions = termOf(r, QStringLiteral("instructions"));
        QVERIFY(instructions);
        QVERIFY(instructions->ms < 0); // pipelined executes fewer warp instructions than cuBLAS

        // The stall terms split the idle term exactly.
        double stalls = 0;
        for (const CostTerm &t : r.terms)
            if (t.kind == CostKind::Stall)
                stalls += t.ms;
        QVERIFY(qAbs(stalls - r.idleMs) < 1e-9);

        QVERIFY2(r.headline.startsWith(QStringLiteral("Estimated largest cost: pipelined waits on \"i-cache "
                                                      "miss\": about 0.37 ms of its 8.83 ms (0.40 ms "
                                                      "against 30 µs; 5.8 % of the samples against 0.7 %)")),
                 qPrintable(r.headline));
        QVERIFY(r.headline.contains(QLatin1String("most at pipelined.cuh:")));
        QVERIFY(r.headline.contains(QLatin1String("To change it: unroll less")));
        QVERIFY(!r.headline.contains(QLatin1String("L2")));

        // compareWithBaseline leads with the same sentence, not "L2 throughput: 8.9 % against 19 %".
        const BaselineComparison c =
            compareWithBaseline(profiles["pipelined"], profiles["cublas_fp32"], QStringLiteral("pipelined"),
                                QStringLiteral("cuBLAS FP32"));
        QCOMPARE(c.largestDifference, r.headline);
    }

    // The TF32 wgmma stage against cuBLAS TF32: both keep the tensor pipe ~91-95 % busy, so it is
    // the bound unit; the same GEMM puts the same work on it, so there is no instruction term and
    // the idle time (1.047 * 0.092 - 1.002 * 0.051 = 0.045 ms) is what the stall terms split.
    void embeddedTensorCoreStage()
    {
        const auto profiles = embeddedProfiles();
        const CostRanking r = rankCosts(profiles["wgmma_tma_tf32"], profiles["cublas_tf32"],
                                        QStringLiteral("tf32-wgmma-tma"), QStringLiteral("cuBLAS TF32"));
        QCOMPARE(r.boundUnit, QStringLiteral("tensor pipe"));
        QVERIFY(!termOf(r, QStringLiteral("instructions")));
        QVERIFY2(qAbs(r.idleMs - 0.045) < 0.005, qPrintable(QString::number(r.idleMs)));
        QVERIFY(r.hasCost());
        QCOMPARE(r.terms[0].kind, CostKind::Stall);
        QVERIFY(r.headline.contains(QLatin1String("tf32-wgmma-tma waits on")));
    }

    // The 4096^3 fixtures (fp32-tuned against cuBLAS): whatever leads, it is a cost, not a throughput.
    void recordedTunedAgainstCublas()
    {
        const protocol::ProfileEvent tuned =
            loadProfileFixture(QStringLiteral("profile-fp32-tuned.stalls-limiters.json"));
        const protocol::ProfileEvent cublas =
            loadProfileFixture(QStringLiteral("profile-cublas_fp32.stalls-limiters.json"));
        const CostRanking r =
            rankCosts(tuned, cublas, QStringLiteral("fp32-tuned"), QStringLiteral("cuBLAS"));
        QCOMPARE(r.boundUnit, QStringLiteral("issue slots"));
        QVERIFY(r.hasCost());
        QVERIFY(r.headline.startsWith(QLatin1String("Estimated largest cost: fp32-tuned ")));
        QVERIFY(!r.headline.contains(QLatin1String("throughput")));
    }

    // The FP32 ladder's top step measured on an H100 at 8192x4096x6144 (records/fp32-padded-2026-12-06):
    // the padding cuts the transposed A stores from 4 to 2 wavefronts, so the bank-conflict term
    // falls to a third, and what stands between fp32-padded and cuBLAS is then waiting, not work.
    void recordedPaddedAgainstCublasOnH100()
    {
        // The bench's --profile file, as File > Open reads it beside the runs: one event per stage.
        QFile file(
            QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/profile/bench-profile-fp32-h100-8192x4096x6144.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray profiles =
            QJsonDocument::fromJson(file.readAll()).object().value("profiles").toArray();
        const auto load = [&profiles](const char *stage) {
            protocol::ProfileEvent event;
            for (const QJsonValue &value : profiles)
                if (value.toObject().value("stage").toString() == QLatin1String(stage) &&
                    protocol::fromJson(value.toObject(), event))
                    return event;
            qFatal("no profile of %s", stage);
        };
        const protocol::ProfileEvent tuned = load("pipelined"), padded = load("pipelined_padded"),
                                     cublas = load("cublas_fp32");
        const CostRanking before =
            rankCosts(tuned, cublas, QStringLiteral("fp32-tuned"), QStringLiteral("cuBLAS"));
        const CostRanking after =
            rankCosts(padded, cublas, QStringLiteral("fp32-padded"), QStringLiteral("cuBLAS"));
        const auto bankTerm = [](const CostRanking &r) {
            for (const CostTerm &t : r.terms)
                if (t.kind == CostKind::BankConflicts && t.key.contains(QLatin1String("A tile")))
                    return t;
            return CostTerm{};
        };
        const CostTerm bankBefore = bankTerm(before), bankAfter = bankTerm(after);
        QVERIFY2(bankBefore.measured.contains(QLatin1String("4-way")), qPrintable(bankBefore.measured));
        QCOMPARE(bankBefore.where, QStringLiteral("pipelined.cuh:73-76"));
        QVERIFY2(bankAfter.measured.contains(QLatin1String("2-way")), qPrintable(bankAfter.measured));
        QCOMPARE(bankAfter.where, QStringLiteral("pipelined_padded.cuh:77-80"));
        // One excess wavefront per store instead of three.
        QVERIFY2(bankAfter.ms > bankBefore.ms / 3.5 && bankAfter.ms < bankBefore.ms / 2.5,
                 qPrintable(QStringLiteral("%1 against %2 ms").arg(bankAfter.ms).arg(bankBefore.ms)));
        QVERIFY(after.candidateMs < before.candidateMs);
        QCOMPARE(after.boundUnit, QStringLiteral("issue slots"));
        // What is left leads with the instruction fetch of the 36 KB unrolled k loop (cuBLAS's is
        // 18 KB), then dispatch and fixed-latency waits: waiting, not extra work (0.97x cuBLAS's
        // instructions).
        QVERIFY2(after.headline.startsWith(
                     QLatin1String("Estimated largest cost: fp32-padded waits on \"i-cache miss\"")),
                 qPrintable(after.headline));
        QVERIFY(after.headline.contains(QLatin1String("pipelined_padded.cuh:117")));
        QCOMPARE(after.terms.at(1).key, QStringLiteral("stall:dispatch_stall"));
        const CostTerm *instructions = nullptr;
        for (const CostTerm &t : after.terms)
            if (t.kind == CostKind::Instructions)
                instructions = &t;
        QVERIFY(instructions && instructions->ms < 0);
    }

    // Each term made to dominate in turn: the baseline is 10 ms at 90 % issue with 1 G instructions
    // and waits of 4 barrier and 4 global-load samples; the candidate adds what the row names.
    void eachTermLeadsWhenItDominates_data()
    {
        QTest::addColumn<double>("ms");
        QTest::addColumn<double>("issue");
        QTest::addColumn<double>("instructions");
        QTest::addColumn<M>("waits");
        QTest::addColumn<double>("excess");
        QTest::addColumn<QString>("top");
        QTest::addColumn<QString>("remedy");
        // 12 ms at 75 % issue: 3 ms idle against 1 ms; 90 % of the waits are i-cache misses.
        QTest::newRow("i-cache") << 12.0 << 75.0 << 1.0e9
                                 << M{{"no_instructions", 90}, {"barrier", 5}, {"long_scoreboard", 5}} << 0.0
                                 << "stall:no_instructions"
                                 << "unroll less";
        QTest::newRow("barrier") << 12.0 << 75.0 << 1.0e9 << M{{"barrier", 90}, {"long_scoreboard", 10}}
                                 << 0.0 << "stall:barrier"
                                 << "synchronise less often";
        QTest::newRow("global load") << 12.0 << 75.0 << 1.0e9 << M{{"long_scoreboard", 80}, {"barrier", 20}}
                                     << 0.0 << "stall:long_scoreboard"
                                     << "load the next tile earlier";
        // 13 ms at 90 % issue with 1.3 G instructions: 2.7 ms more issuing, the same idle share.
        QTest::newRow("instructions")
            << 13.0 << 90.0 << 1.3e9 << M{{"barrier", 4}, {"long_scoreboard", 4}} << 0.0 << "instructions"
            << "fewer instructions per FMA";
        // 2.64 G extra wavefronts / (132 SMs * 2 GHz) = 10 ms of the shared pipe.
        QTest::newRow("bank conflicts")
            << 11.0 << 90.0 << 1.0e9 << M{{"barrier", 4}, {"long_scoreboard", 4}} << 2.64e9 << "bank:store:"
            << "pad the tile's rows by one float";
    }
    void eachTermLeadsWhenItDominates()
    {
        QFETCH(double, ms);
        QFETCH(double, issue);
        QFETCH(double, instructions);
        QFETCH(M, waits);
        QFETCH(double, excess);
        QFETCH(QString, top);
        QFETCH(QString, remedy);
        const protocol::ProfileEvent base =
            synthetic(10, 90, 1e9, M{{"barrier", 4}, {"long_scoreboard", 4}}, 92);
        const protocol::ProfileEvent cand = synthetic(ms, issue, instructions, waits, 100, excess);
        const CostRanking r = rankCosts(cand, base, QStringLiteral("mine"), QStringLiteral("cuBLAS"));
        QVERIFY(r.hasCost());
        QCOMPARE(r.terms[0].key, top);
        QVERIFY2(r.terms[0].remedy.startsWith(remedy), qPrintable(r.terms[0].remedy));
        QVERIFY2(r.headline.contains(QStringLiteral("To change it: ") + remedy), qPrintable(r.headline));
        if (excess > 0) {
            QVERIFY(qAbs(r.terms[0].ms - 10.0) < 1e-6);
            QCOMPARE(r.terms[0].where, QStringLiteral("k.cuh:12"));
        }
    }

    // L2 throughput 10 % against 70 %: far below its peak, it limits nothing and is no term; the
    // headline is the small stall difference there is.
    void aThroughputIsNeverTheHeadline()
    {
        protocol::ProfileEvent base = synthetic(10, 90, 1e9, M{{"barrier", 4}, {"long_scoreboard", 4}}, 92);
        base.limiters.insert("lts__throughput.avg.pct_of_peak_sustained_elapsed", 70);
        const protocol::ProfileEvent cand =
            synthetic(10.2, 89, 1e9, M{{"barrier", 6}, {"long_scoreboard", 4}}, 92);
        const BaselineComparison c =
            compareWithBaseline(cand, base, QStringLiteral("mine"), QStringLiteral("cuBLAS"));
        QVERIFY(!c.largestDifference.isEmpty());
        QVERIFY2(!c.largestDifference.contains(QLatin1String("L2")), qPrintable(c.largestDifference));
        QCOMPARE(c.costs.terms[0].key, QStringLiteral("stall:barrier"));
        // Without any unit's busy share, nothing is costed; the fallback sentence skips throughputs too.
        protocol::ProfileEvent bare = cand, bareBase = base;
        for (auto *p : {&bare, &bareBase})
            for (const char *m : {"sm__inst_issued.avg.pct_of_peak_sustained_active",
                                  "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"})
                p->limiters.remove(QLatin1String(m));
        const BaselineComparison fallback =
            compareWithBaseline(bare, bareBase, QStringLiteral("mine"), QStringLiteral("cuBLAS"));
        QVERIFY(fallback.costs.terms.isEmpty());
        QVERIFY2(!fallback.largestDifference.contains(QLatin1String("L2")),
                 qPrintable(fallback.largestDifference));
    }

    // Times missing, NaN, infinite or zero: shares of the candidate's time, no NaN, no crash.
    void hostileTimesAreNoTimes()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (const double bad : {nan, -1.0, 0.0, std::numeric_limits<double>::infinity()}) {
            protocol::ProfileEvent base = synthetic(10, 90, 1e9, M{{"barrier", 4}}, 92);
            protocol::ProfileEvent cand =
                synthetic(12, 75, 1e9, M{{"no_instructions", 9}, {"barrier", 1}}, 100, 3e6);
            cand.limiters.insert("gpu__time_duration.sum", bad);
            cand.limiters.insert("sm__cycles_elapsed.avg.per_second", bad);
            const CostRanking r = rankCosts(cand, base, QStringLiteral("mine"), QStringLiteral("cuBLAS"));
            QVERIFY(!r.timesMeasured);
            for (const CostTerm &t : r.terms)
                QVERIFY(std::isfinite(t.ms) && std::isfinite(t.share));
            QVERIFY(!r.headline.contains(QLatin1String("nan")));
            QVERIFY(r.notes.contains(QLatin1String("bank conflicts are not costed")));
        }
        const CostRanking empty = rankCosts({}, {}, QStringLiteral("a"), QStringLiteral("b"));
        QVERIFY(empty.terms.isEmpty());
        QVERIFY(empty.headline.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestProfileCost)
#include "tst_profile_cost.moc"
