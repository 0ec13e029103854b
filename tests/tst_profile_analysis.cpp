// The profile's analysis (app/core/profile_analysis.h, stall_reasons.h): samples folded onto
// source lines and summed into "where the time goes", memory instructions judged against their
// ideal in words, the access model's figure offered beside them, and the comparison with cuBLAS.
// Expectations are worked out by hand from tests/support/profile_fixtures.h, and from the real
// H200 probe (tests/data/profile/probe_sgemm_h200.json), whose sums were taken from the raw print.

#include "profile_analysis.h"
#include "stall_reasons.h"
#include "support/kernel_shapes.h"
#include "support/profile_fixtures.h"

#include <QTest>

using namespace gemmscope;
using namespace gemmscope::test;

class TestProfileAnalysis : public QObject {
    Q_OBJECT

private slots:
    void everyProtocolReasonHasAName_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("name");
        // The one name every view prints, one per reason the runner reports (the probe's 20 names
        // without "_not_issued", and gmma): short enough for the gutter's "48 % " and the name.
        QTest::newRow("long_scoreboard") << "long_scoreboard"
                                         << "global load";
        QTest::newRow("mio_throttle") << "mio_throttle"
                                      << "shared queue";
        QTest::newRow("short_scoreboard") << "short_scoreboard"
                                          << "shared load";
        QTest::newRow("barrier") << "barrier"
                                 << "barrier";
        QTest::newRow("math_pipe_throttle") << "math_pipe_throttle"
                                            << "math pipe busy";
        QTest::newRow("not_selected") << "not_selected"
                                      << "ready";
        QTest::newRow("selected") << "selected"
                                  << "issuing";
        QTest::newRow("wait") << "wait"
                              << "fixed latency";
        QTest::newRow("dispatch_stall") << "dispatch_stall"
                                        << "dispatch";
        QTest::newRow("no_instructions") << "no_instructions"
                                         << "i-cache miss";
        QTest::newRow("lg_throttle") << "lg_throttle"
                                     << "global queue";
        QTest::newRow("tex_throttle") << "tex_throttle"
                                      << "texture queue";
        QTest::newRow("membar") << "membar"
                                << "memory fence";
        QTest::newRow("branch_resolving") << "branch_resolving"
                                          << "branch";
        QTest::newRow("drain") << "drain"
                               << "store drain";
        QTest::newRow("imc_miss") << "imc_miss"
                                  << "constant miss";
        QTest::newRow("misc") << "misc"
                              << "other";
        QTest::newRow("sleeping") << "sleeping"
                                  << "sleeping";
        QTest::newRow("gmma") << "gmma"
                              << "wgmma wait";
        QTest::newRow("warpgroup_arrive") << "warpgroup_arrive"
                                          << "wgmma arrive";
    }
    void everyProtocolReasonHasAName()
    {
        QFETCH(QString, key);
        QFETCH(QString, name);
        const StallReason r = stallReason(key);
        QVERIFY(r.known);
        QCOMPARE(r.key, key);
        QCOMPARE(r.name, name);
        QCOMPARE(stallReasonName(key), name);
        QVERIFY(r.name.size() <= kStallNameMaxChars);
        QVERIFY(!r.nsightName.isEmpty());
        QVERIFY(!r.remedy.isEmpty());
        QVERIFY(r.sentence.endsWith(QLatin1Char('.')));
        QVERIFY(knownStallReasonKeys().contains(key));
        // The tooltip: the name, then CUPTI's counter and Nsight Compute's name.
        const QString tip = stallReasonTooltip(key);
        QVERIFY(tip.startsWith(name + QLatin1Char(':')));
        QVERIFY(tip.contains(QStringLiteral("CUPTI: smsp__pcsamp_warps_issue_stalled_") + key));
        QVERIFY(tip.contains(QStringLiteral("Nsight Compute: ") + r.nsightName));
    }

    void namesAreDistinct()
    {
        QSet<QString> names;
        for (const QString &key : knownStallReasonKeys())
            names.insert(stallReasonName(key));
        QCOMPARE(names.size(), knownStallReasonKeys().size());
    }

    void colorsAreDistinctPerKnownReason()
    {
        QSet<unsigned> colors;
        for (const QString &key : knownStallReasonKeys())
            colors.insert(stallReasonColor(key));
        QCOMPARE(colors.size(), knownStallReasonKeys().size());
    }

    void unknownReasonStillReads()
    {
        const StallReason r = stallReason(QStringLiteral("tensor_memory_wait"));
        QVERIFY(!r.known);
        QCOMPARE(r.name, QStringLiteral("tensor memory\u2026")); // cut to the names' length
        QVERIFY(stallReasonTooltip(r.key).contains(QLatin1String("tensor_memory_wait")));
        QVERIFY(r.sentence.contains(QLatin1String("\"tensor_memory_wait\"")));
        QCOMPARE(stallReason(QString()).name, QStringLiteral("(unnamed)"));
    }

    void breakdownOfHandMadeProfile()
    {
        const protocol::ProfileEvent p = handMadeProfile();
        const StallBreakdown b = stallBreakdown(p);
        QCOMPARE(b.totalSamples, 100.0); // NaN, -5 and infinity count for nothing
        QStringList keys;
        QList<double> samples;
        for (const ReasonShare &r : b.reasons) {
            keys << r.key;
            samples << r.samples;
        }
        QCOMPARE(keys,
                 (QStringList{"mio_throttle", "long_scoreboard", "selected", "not_selected", "barrier"}));
        QCOMPARE(samples, (QList<double>{40, 25, 20, 10, 5}));
        QCOMPARE(b.reasons.first().share, 0.4);
        QCOMPARE(b.sentence(),
                 QStringLiteral("Most samples: shared queue (40 % of samples), then global load (25 %)."));
        QCOMPARE(stallBreakdown(protocol::ProfileEvent{}).sentence(), QString());
    }

    void foldingOfHandMadeProfile()
    {
        const protocol::ProfileEvent p = handMadeProfile();
        double unattributed = -1;
        const QList<LineProfile> lines = foldOntoLines(p, &unattributed);
        QCOMPARE(unattributed, 10.0);
        QCOMPARE(lines.size(), 4);
        // Line 5: 40 + 20 samples over three instructions (the LDS.128 has none).
        QCOMPARE(lines[0].file, QStringLiteral("k.cuh"));
        QCOMPARE(lines[0].line, 5);
        QCOMPARE(lines[0].samples, 60.0);
        QCOMPARE(lines[0].share, 0.6);
        QCOMPARE(lines[0].instructions, 3);
        QCOMPARE(lines[0].pcs, (QList<long long>{0x10, 0x20, 0x70}));
        QCOMPARE(lines[0].byReason.value("mio_throttle"), 40.0);
        // selected and not_selected tie at 10: the reason table's order decides.
        QCOMPARE(lines[0].reasons.at(1).key, QStringLiteral("selected"));
        QCOMPARE(lines[0].reasons.at(2).key, QStringLiteral("not_selected"));
        QCOMPARE(lines[0].topReasonsText(), QStringLiteral("67 % shared queue; 17 % issuing"));
        QCOMPARE(lines[1].line, 7);
        QCOMPARE(lines[1].samples, 30.0);
        QCOMPARE(lines[1].instructions, 2);
        // Lines without samples come last, by file then line.
        QCOMPARE(lines[2].file + QString::number(lines[2].line), QStringLiteral("k.cuh9"));
        QCOMPARE(lines[3].file + QString::number(lines[3].line), QStringLiteral("t.cuh3"));
        QCOMPARE(lines[3].samples, 0.0);
        QCOMPARE(lines[3].topReasonsText(), QString());
    }

    void instructionHeatAndMainFunction()
    {
        const protocol::ProfileEvent p = handMadeProfile();
        const QList<InstructionHeat> heat = instructionHeat(p);
        QCOMPARE(heat.size(), p.instructions.size());
        QCOMPARE(heat[0].samples, 40.0);
        QCOMPARE(heat[0].share, 0.4);
        QCOMPARE(heat[0].instruction, &p.instructions[0]);
        QCOMPARE(heat[7].samples, 0.0);
        QCOMPARE(mainFunction(p), QStringLiteral("gemm"));
        QCOMPARE(mainFunction(protocol::ProfileEvent{}), QString());
    }

    void sassOffsets()
    {
        QCOMPARE(
            sassLineOffset(QStringLiteral("        /*0240*/                   LDG.E R2, desc[UR4][R2.64] ;")),
            std::optional<long long>(0x240));
        QCOMPARE(sassLineOffset(QStringLiteral("\t//## File \"final.cuh\", line 41")), std::nullopt);
        QCOMPARE(sassLineOffset(QStringLiteral(".L_x_4:")), std::nullopt);
        QCOMPARE(sassLineOffset(QStringLiteral("/*0ff0*/")), std::nullopt); // no instruction after it
    }

    void probeFixtureFolds()
    {
        // Sums from the raw probe print (python over notes/probe-h200-pcsampling.txt): the
        // reasons without "_not_issued" add up to CUPTI's total, line 13 (the inner product)
        // holds 3,787,487 of them in 96 instructions, and MIO throttle leads with 2,263,777.
        const protocol::ProfileEvent p = loadProfileFixture(QStringLiteral("probe_sgemm_h200.json"));
        const StallBreakdown b = stallBreakdown(p);
        QCOMPARE(b.totalSamples, 4915099.0);
        QCOMPARE(b.totalSamples, *p.totalSamples);
        QCOMPARE(b.reasons.first().key, QStringLiteral("mio_throttle"));
        QCOMPARE(b.reasons.first().samples, 2263777.0);
        QCOMPARE(b.reasons.at(1).key, QStringLiteral("not_selected"));
        QCOMPARE(b.reasons.at(2).key, QStringLiteral("barrier"));
        const QList<LineProfile> lines = foldOntoLines(p);
        QCOMPARE(lines.first().file, QStringLiteral("probe_sgemm.cu"));
        QCOMPARE(lines.first().line, 13);
        QCOMPARE(lines.first().samples, 3787487.0);
        QCOMPARE(lines.first().instructions, 96);
        QVERIFY(qAbs(lines.first().share - 3787487.0 / 4915099.0) < 1e-12);
        QCOMPARE(lines.at(1).line, 9);
        QCOMPARE(lines.at(1).samples, 943106.0);
        double sum = 0;
        for (const LineProfile &l : lines)
            sum += l.samples;
        QCOMPARE(sum, 4915099.0); // every sampled PC of the probe has a line
    }

    void verdictsOfHandMadeProfile()
    {
        const protocol::ProfileEvent p = handMadeProfile();
        const QList<MemoryInstruction> m = memoryInstructions(p);
        QCOMPARE(m.size(), 5);
        QCOMPARE(m[0].instruction->pc, 0x10);
        QCOMPARE(m[0].space, MemorySpace::Shared);
        QCOMPARE(m[0].direction, MemoryDirection::Load);
        QCOMPARE(m[0].perRequest, std::optional<double>(4.0));
        QCOMPARE(m[0].idealPerRequest, std::optional<double>(1.0));
        QCOMPARE(m[0].verdict, MemoryVerdict::Excess);
        QCOMPARE(m[0].verdictText,
                 QStringLiteral("4x the ideal wavefronts (4.0 per request, ideal 1.0): 4-way bank conflict"));
        QCOMPARE(m[0].opcode(), QStringLiteral("LDS"));

        QCOMPARE(m[1].space, MemorySpace::Global);
        QCOMPARE(m[1].verdict, MemoryVerdict::Ideal);
        QCOMPARE(m[1].verdictText, QStringLiteral("4.0 sectors per request = ideal: coalesced"));
        QCOMPARE(m[1].executions, 50.0);

        QCOMPARE(m[2].direction, MemoryDirection::Store);
        QCOMPARE(m[2].verdict, MemoryVerdict::Excess);
        QCOMPARE(m[2].verdictText,
                 QStringLiteral("4x the ideal sectors (16.0 per request, ideal 4.0): uncoalesced"));
        QCOMPARE(m[2].kindText(), QStringLiteral("global store"));

        QCOMPARE(m[3].verdict, MemoryVerdict::NotExecuted);
        QCOMPARE(m[3].kindText(), QStringLiteral("shared store"));
        QCOMPARE(m[4].verdict, MemoryVerdict::NotJudged);
        QCOMPARE(m[4].verdictText, QStringLiteral("4.0 wavefronts per request"));
        QCOMPARE(m[4].opcode(), QStringLiteral("LDS.128"));
    }

    void verdictEdges_data()
    {
        QTest::addColumn<bool>("global");
        QTest::addColumn<double>("perRequest");
        QTest::addColumn<double>("ideal");
        QTest::addColumn<int>("verdict");
        QTest::addColumn<QString>("text");
        QTest::newRow("shared ideal") << false << 1.0 << 1.0 << int(MemoryVerdict::Ideal)
                                      << "1.0 wavefronts per request = ideal: no bank conflict";
        QTest::newRow("within 5 %") << true << 4.2 << 4.0 << int(MemoryVerdict::Ideal)
                                    << "4.2 sectors per request = ideal: coalesced";
        QTest::newRow("2-way") << false << 2.0 << 1.0 << int(MemoryVerdict::Excess)
                               << "2x the ideal wavefronts (2.0 per request, ideal 1.0): 2-way bank conflict";
        QTest::newRow("128-bit reads at 2.5x")
            << false << 10.0 << 4.0 << int(MemoryVerdict::Excess)
            << "2.5x the ideal wavefronts (10.0 per request, ideal 4.0): bank conflicts";
        QTest::newRow("step 2 B loads") << true << 16.0 << 4.0 << int(MemoryVerdict::Excess)
                                        << "4x the ideal sectors (16.0 per request, ideal 4.0): uncoalesced";
        QTest::newRow("32-way")
            << false << 32.0 << 1.0 << int(MemoryVerdict::Excess)
            << "32x the ideal wavefronts (32.0 per request, ideal 1.0): 32-way bank conflict";
        QTest::newRow("zero ideal") << true << 4.0 << 0.0 << int(MemoryVerdict::NotJudged)
                                    << "4.0 sectors per request";
    }
    void verdictEdges()
    {
        QFETCH(bool, global);
        QFETCH(double, perRequest);
        QFETCH(double, ideal);
        QFETCH(int, verdict);
        QFETCH(QString, text);
        MemoryInstruction m;
        m.space = global ? MemorySpace::Global : MemorySpace::Shared;
        m.executions = 1;
        m.perRequest = perRequest;
        m.idealPerRequest = ideal;
        judge(m);
        QCOMPARE(int(m.verdict), verdict);
        QCOMPARE(m.verdictText, text);
        QVERIFY(!m.reason.isEmpty());
    }

    void probeMemoryInstructionsAreIdeal()
    {
        // The probe's 32x32 tiles: 2 LDG and 1 STG at 4 sectors per request, 2 STS and 64 LDS at 1
        // wavefront, all at CUPTI's ideal.
        const protocol::ProfileEvent p = loadProfileFixture(QStringLiteral("probe_sgemm_h200.json"));
        const QList<MemoryInstruction> m = memoryInstructions(p);
        QCOMPARE(m.size(), 69);
        int global = 0;
        for (const MemoryInstruction &i : m) {
            QCOMPARE(i.verdict, MemoryVerdict::Ideal);
            global += i.space == MemorySpace::Global;
        }
        QCOMPARE(global, 3);
        QCOMPARE(m.first().instruction->pc, 0x240);
        QCOMPARE(*m.first().perRequest, 4.0);
        const auto loads = measuredClass(p, MemorySpace::Global, MemoryDirection::Load, std::nullopt);
        QVERIFY(loads);
        QCOMPARE(loads->instructions, 2);
        QCOMPARE(loads->perRequest, 4.0);
        QCOMPARE(loads->idealPerRequest, std::optional<double>(4.0));
        QCOMPARE(loads->where, QStringLiteral("probe_sgemm.cu:10, probe_sgemm.cu:9"));
        QVERIFY(
            !measuredClass(p, MemorySpace::Global, MemoryDirection::Load, Operand::A)); // lines say no matrix
    }

    void operandOfSourceLine_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("operand"); // -1: none
        QTest::newRow("A tile fill") << "        tileA[r][c] = loadOrZero(A, blockRow + r, k0 + c, M, K, K);"
                                     << 0;
        QTest::newRow("B tile fill") << "        tileB[r][c] = loadOrZero(B, k0 + r, blockCol + c, K, N, N);"
                                     << 1;
        QTest::newRow("B read")
            << "                bFrag[j] = GEMMSCOPE_SMEM_READ(tileB[k][tx + j * COL_STRIDE]);" << 1;
        QTest::newRow("AT read") << "            a = *reinterpret_cast<const float4 *>(&tileAT[k][ty * 4]);"
                                 << 0;
        QTest::newRow("C store") << "                GEMMSCOPE_STORE_C(C[row * N + col], acc[i][j]);" << 2;
        QTest::newRow("both tiles") << "            acc += tileA[ty][k] * tileB[k][tx]; // A and B" << -1;
        QTest::newRow("helper body") << "    return inside ? p[row * ld + col] : 0.0f;" << -1;
        QTest::newRow("comment only") << "    // tileA[r][c] is filled here" << -1;
    }
    void operandOfSourceLine()
    {
        QFETCH(QString, line);
        QFETCH(int, operand);
        const std::optional<Operand> got = gemmscope::operandOfSourceLine(line);
        QCOMPARE(got ? int(*got) : -1, operand);
    }

    void modelFiguresBesideMeasured()
    {
        // Step 2 (coarsened 64x64x8, 4x4): A loads 2 sectors per request, B loads 16, C stores 16
        // (tst_access_model's block averages); step 3 (coalesced): every load 4.
        const ModelFigures step2 =
            modelFigures(shapeOf("coarsened", "BM=64 BN=64 BK=8 TM=4 TN=4"), {4096, 4096, 4096});
        QVERIFY(step2.whyNone.isEmpty());
        QCOMPARE(step2.loadA, std::optional<double>(2.0));
        QCOMPARE(step2.loadB, std::optional<double>(16.0));
        QCOMPARE(step2.storeC, std::optional<double>(16.0));
        MemoryInstruction load;
        load.space = MemorySpace::Global;
        load.operand = Operand::B;
        auto b = modelFor(load, step2);
        QVERIFY(b);
        QCOMPARE(b->perRequest, 16.0);
        QCOMPARE(b->what, QStringLiteral("the model's B loads"));
        load.operand.reset(); // A and B differ: no figure without knowing which
        QVERIFY(!modelFor(load, step2));
        const ModelFigures step3 =
            modelFigures(shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4"), {4096, 4096, 4096});
        b = modelFor(load, step3);
        QVERIFY(b);
        QCOMPARE(b->perRequest, 4.0);
        MemoryInstruction store;
        store.direction = MemoryDirection::Store;
        QCOMPARE(modelFor(store, step2)->perRequest, 16.0);
        MemoryInstruction shared;
        shared.space = MemorySpace::Shared;
        QVERIFY(modelFor(shared, step3));
        // Step 3's inner-loop reads are step 2's (tst_access_model): tileA[ty*4 + i][k] 2-way
        // (ty, ty + 1 are 32 words apart), tileB[k][tx*4 + j] 2-way (banks repeat after tx = 8).
        QCOMPARE(step3.sharedLoadsA, std::optional<double>(2.0));
        QCOMPARE(step3.sharedLoadsB, std::optional<double>(2.0));
        shared.operand = Operand::B;
        QCOMPARE(modelFor(shared, step3)->what, QStringLiteral("the model's reads of the B tile"));
        // A stage the model does not describe: a sentence, no figure.
        KernelShape unmodelled = shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4");
        unmodelled.loads = TileLoadScheme::NotModelled;
        const ModelFigures none = modelFigures(unmodelled, {4096, 4096, 4096});
        QVERIFY(!none.whyNone.isEmpty());
        QVERIFY(!none.loadA && !none.loadB && !none.storeC && !none.sharedLoads && !none.sharedStores);
        QVERIFY(!modelFor(store, none));
    }

    void compareWithCublas()
    {
        protocol::ProfileEvent mine = handMadeProfile();
        protocol::ProfileEvent cublas;
        cublas.limiters = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 30.0},
                           {"sm__inst_issued.avg.pct_of_peak_sustained_active", 92.0},
                           {"smsp__inst_executed.sum", 100.0}};
        mine.limiters.insert("smsp__inst_executed.sum", 130.0);
        cublas.instructions = {
            instruction("xmma", 0x10, "", "", 0, {{"not_selected", 70}, {"selected", 30}})};
        cublas.limitersError =
            QStringLiteral("CUPTI does not know sm__pipe_tensor_cycles_active on this GPU.");
        const BaselineComparison c =
            compareWithBaseline(mine, cublas, QStringLiteral("fp32-tuned"), QStringLiteral("cuBLAS"));
        // Issue slots 71.2 % busy against 92 %: the bound unit (cuBLAS's busiest). cuBLAS's samples
        // are all issuing or ready, so the idle time (1 - 0.712) - (1 - 0.92) of the candidate's
        // time (no times measured) cannot be split by reason and stands whole.
        QVERIFY(c.rows.size() >= 4);
        QCOMPARE(c.rows[0].label, QStringLiteral("Achieved occupancy"));
        QCOMPARE(*c.rows[1].candidate, 71.2);
        QCOMPARE(*c.rows[1].baseline, 92.0);
        QCOMPARE(
            c.largestDifference,
            QStringLiteral("Estimated largest cost: fp32-tuned leaves its issue slots idle longer: about "
                           "21 % of its time (71 % busy against 92 %). To change it: profile both kernels "
                           "with PC sampling: their stall reasons say what the warps waited for. The "
                           "shared-memory bank conflicts are not costed: the profile does not say the SM "
                           "clock or which GPU it ran on."));
        QCOMPARE(c.baselineNotes, cublas.limitersError);
        // Without any unit's busy share nothing is costed: the largest difference of what is
        // measured (not selected: 10 % against 70 %), in words.
        for (auto *p : {&mine, &cublas})
            p->limiters.remove(QStringLiteral("sm__inst_issued.avg.pct_of_peak_sustained_active"));
        const BaselineComparison limiters =
            compareWithBaseline(mine, cublas, QStringLiteral("fp32-tuned"), QStringLiteral("cuBLAS"));
        QVERIFY(limiters.costs.terms.isEmpty());
        QCOMPARE(
            limiters.largestDifference,
            QStringLiteral("The largest difference: ready takes 10 % of fp32-tuned's samples against 70 % "
                           "of cuBLAS's (60 percentage points). fp32-tuned executes 1.30x the warp "
                           "instructions of cuBLAS. The shared-memory bank conflicts are not costed: the "
                           "profile does not say the SM clock or which GPU it ran on."));
        // Nothing to compare: no sentence, no crash.
        const BaselineComparison empty =
            compareWithBaseline(protocol::ProfileEvent{}, protocol::ProfileEvent{}, "a", "b");
        QVERIFY(empty.rows.isEmpty());
        QVERIFY(empty.largestDifference.isEmpty());
    }

    // ---- the lead's recorded H200 profiles (tests/data/profile/profile-*.json, 4096^3) ----

    // Step 2's B loads: 16 sectors per request against an ideal of 4, as the model says; its A
    // loads 2 = ideal. The B loads' line is loadOrZero's body (common.cuh:30): the tile store their
    // register goes to (coarsened.cuh:33, tileB) names the matrix.
    void recordedStep2LoadsAgainstTheModel()
    {
        const protocol::ProfileEvent p = loadProfileFixture(QStringLiteral("profile-worklog-2.json"));
        const ModelFigures model = modelFigures(shapeOf("coarsened", "BM=64 BN=64 BK=8 TM=4 TN=4"), p.size);
        int bLoads = 0, aLoads = 0, bStores = 0;
        for (const MemoryInstruction &m : memoryInstructions(p)) {
            if (m.space == MemorySpace::Global && m.direction == MemoryDirection::Load) {
                QVERIFY2(m.operand, qPrintable(m.instruction->sass));
                const auto figure = modelFor(m, model);
                QVERIFY(figure);
                QCOMPARE(*m.perRequest, figure->perRequest); // measured = model, per operand
                if (*m.operand == Operand::B) {
                    ++bLoads;
                    QCOMPARE(m.instruction->file, QStringLiteral("common.cuh"));
                    QCOMPARE(*m.perRequest, 16.0);
                    QCOMPARE(
                        m.verdictText,
                        QStringLiteral("4x the ideal sectors (16.0 per request, ideal 4.0): uncoalesced"));
                } else {
                    ++aLoads;
                    QCOMPARE(*m.perRequest, 2.0);
                    QCOMPARE(m.verdict, MemoryVerdict::Ideal);
                }
            }
            // The B tile's fill: 4 wavefronts for an ideal 1, the model's 4-way (tst_access_model).
            if (m.space == MemorySpace::Shared && m.direction == MemoryDirection::Store &&
                m.operand == Operand::B) {
                ++bStores;
                QCOMPARE(m.verdictText,
                         QStringLiteral(
                             "4x the ideal wavefronts (4.0 per request, ideal 1.0): 4-way bank conflict"));
                QCOMPARE(modelFor(m, model)->perRequest, 4.0);
            }
        }
        QCOMPARE(bLoads, 4);
        QCOMPARE(aLoads, 4);
        QCOMPARE(bStores, 4);
        const auto b = measuredClass(p, MemorySpace::Global, MemoryDirection::Load, Operand::B);
        QVERIFY(b);
        QCOMPARE(b->perRequest, 16.0);
        QCOMPARE(b->where, QStringLiteral("common.cuh:30"));
    }

    void recordedStep3LoadsAreCoalesced()
    {
        const protocol::ProfileEvent p = loadProfileFixture(QStringLiteral("profile-worklog-3.json"));
        const ModelFigures model = modelFigures(shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4"), p.size);
        for (const Operand operand : {Operand::A, Operand::B}) {
            const auto loads = measuredClass(p, MemorySpace::Global, MemoryDirection::Load, operand);
            QVERIFY(loads);
            QCOMPARE(loads->perRequest, 4.0); // step 3: 4 sectors for A and B, the model's 4
            QCOMPARE(loads->idealPerRequest, std::optional<double>(4.0));
        }
        QCOMPARE(*model.loadB, 4.0);
        // The C stores: 16 sectors per request against an ideal 4, the model's 16.
        const auto stores = measuredClass(p, MemorySpace::Global, MemoryDirection::Store, Operand::C);
        QVERIFY(stores);
        QCOMPARE(stores->perRequest, 16.0);
        QCOMPARE(*model.storeC, 16.0);
    }

    // Folding the recorded profiles (sums taken with python from the same files): every sample of
    // GemmScope's own kernels has a line; the wgmma stage's B transpose has none.
    void recordedProfilesFold()
    {
        const protocol::ProfileEvent w2 = loadProfileFixture(QStringLiteral("profile-worklog-2.json"));
        double unattributed = -1;
        QList<LineProfile> lines = foldOntoLines(w2, &unattributed);
        QCOMPARE(unattributed, 0.0);
        QCOMPARE(stallBreakdown(w2).totalSamples, 805534.0);
        QCOMPARE(lines[0].file + QLatin1Char(':') + QString::number(lines[0].line),
                 QStringLiteral("coarsened.cuh:41"));
        QCOMPARE(lines[0].samples, 200850.0);
        QCOMPARE(lines[0].instructions, 8);
        QCOMPARE(stallBreakdown(w2).reasons.first().key, QStringLiteral("barrier"));

        const protocol::ProfileEvent w3 = loadProfileFixture(QStringLiteral("profile-worklog-3.json"));
        lines = foldOntoLines(w3);
        QCOMPARE(lines[0].file + QLatin1Char(':') + QString::number(lines[0].line),
                 QStringLiteral("cooperative_load.cuh:22"));
        QCOMPARE(lines[0].samples, 271870.0);
        QCOMPARE(stallBreakdown(w3).reasons.first().key, QStringLiteral("long_scoreboard"));

        const protocol::ProfileEvent tma = loadProfileFixture(QStringLiteral("profile-tf32-wgmma-tma.json"));
        lines = foldOntoLines(tma, &unattributed);
        QCOMPARE(unattributed, 72529.0); // the transpose kernel's samples
        QCOMPARE(lines[0].file + QLatin1Char(':') + QString::number(lines[0].line),
                 QStringLiteral("wgmma_ops.cuh:35"));
        QCOMPARE(lines[0].samples, 235884.0);
        QVERIFY(mainFunction(tma).contains(QLatin1String("wgmma_tma_tf32<256, 128, 4>")));
        QCOMPARE(stallBreakdown(tma).totalSamples, 633427.0);
    }

    // fp32-tuned against cuBLAS SGEMM, both measured on the H200 at 4096^3.
    void recordedWhyNotCublas()
    {
        const protocol::ProfileEvent tuned =
            loadProfileFixture(QStringLiteral("profile-fp32-tuned.stalls-limiters.json"));
        const protocol::ProfileEvent cublas =
            loadProfileFixture(QStringLiteral("profile-cublas_fp32.stalls-limiters.json"));
        const BaselineComparison c =
            compareWithBaseline(tuned, cublas, QStringLiteral("fp32-tuned"), QStringLiteral("cuBLAS"));
        QVERIFY(c.rows.size() > 12);
        QVERIFY(c.candidateNotes.isEmpty() && c.baselineNotes.isEmpty());
        // Issue slots 79.3 % against 89.6 %: the idle time, split by reason, is led by "dispatch"
        // (tst_profile_cost has the model's arithmetic); L2 throughput (8.7 against 17.8) is no term.
        QVERIFY2(c.largestDifference.startsWith(QStringLiteral(
                     "Estimated largest cost: fp32-tuned waits on \"dispatch\": about 0.12 ms of "
                     "its 2.96 ms (0.18 ms against 60 µs; 7.8 % of the samples against 4.6 %).")),
                 qPrintable(c.largestDifference));
        QCOMPARE(c.rows[0].label, QStringLiteral("Achieved occupancy"));
        QVERIFY(qAbs(*c.rows[0].candidate - 12.4986) < 1e-3); // both at 8 warps per SM of 64
        QVERIFY(qAbs(*c.rows[0].baseline - 12.4997) < 1e-3);
        QStringList stalls;
        for (const LimiterRow &r : c.rows)
            if (r.group == LimiterGroup::Stalls)
                stalls << r.key;
        QCOMPARE(stalls, (QStringList{"stall:selected", "stall:not_selected", "stall:dispatch_stall",
                                      "stall:short_scoreboard", "stall:no_instructions"}));
    }

    void hostileValuesAreNotCounts()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        protocol::ProfileEvent p;
        p.instructions = {instruction("f", 0, "LDG.E R1, [R2]", "x.cuh", 1,
                                      {{"wait", 1e308}, {"barrier", 1e308}},
                                      {{"inst_executed", nan},
                                       {"inst_executed_op_global_ld", 4},
                                       {"sectors_mem_global", -16},
                                       {"sectors_mem_global_ideal", 1e300}})};
        p.limiters = {{"sm__warps_active.avg.pct_of_peak_sustained_active", nan},
                      {"sm__inst_issued.avg.pct_of_peak_sustained_active", 1e300}};
        const StallBreakdown b = stallBreakdown(p);
        // 1e308 + 1e308 overflows to infinity: the shares are 0, never NaN.
        for (const ReasonShare &r : b.reasons)
            QVERIFY(!std::isnan(r.share));
        const QList<MemoryInstruction> m = memoryInstructions(p);
        QCOMPARE(m.size(), 1);
        QCOMPARE(m[0].executions, 4.0); // inst_executed NaN: the op count stands in
        QVERIFY(!m[0].perRequest);      // -16 sectors is no count
        QCOMPARE(m[0].verdict, MemoryVerdict::NotJudged);
        const BaselineComparison c = compareWithBaseline(p, p, "a", "b");
        for (const LimiterRow &row : c.rows)
            QVERIFY(!row.candidate || std::isfinite(*row.candidate));
    }
};

QTEST_GUILESS_MAIN(TestProfileAnalysis)
#include "tst_profile_analysis.moc"
