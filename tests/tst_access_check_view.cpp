// The Counters tab: a run's CUPTI access ratios against the access model. Known answers from
// docs/gpu-verification.md (worklog step 3 at 1536^3: 4 sectors per global load request, 16 per
// store, 2-way shared reads, conflict-free shared stores); every reason there is no comparison
// gets its own sentence; known causes of disagreement are named, not hidden.
#include "access_check_view.h"
#include "support/run_counters.h"

#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;
using Verdict = AccessCheckView::Verdict;

namespace {

// Worklog step 3 (64x64 tiles, BK 8, 4x4 per thread) measured with the given access ratios.
RunRecord step3Run(const QJsonObject &access, long long side = 1536, bool scalarShared = true)
{
    RunRecord r;
    r.runId = QStringLiteral("r7");
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.presetKey = QStringLiteral("worklog-3");
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = r.n = r.k = side;
    r.status = RunStatus::Ok;
    r.medianMs = 1;
    r.gpuName = QStringLiteral("NVIDIA H200");
    r.scalarSharedReads = scalarShared;
    test::setCounters(r, QJsonObject{{"dram_intensity", 100.0}, {"access", access}});
    return r;
}

// The CUPTI counts of one launch of step 3 at 1536^3 (tst_access_model works them out by hand),
// with the shared reads scaled by `readsKept` (0.25: the release build's LDS.128 merging).
QJsonObject step3Metrics(double readsKept)
{
    return QJsonObject{{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 3538944.0},
                       {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 73728.0},
                       {"smsp__inst_executed_op_shared_ld.sum", 56623104.0 * readsKept},
                       {"smsp__inst_executed_op_shared_st.sum", 3538944.0}};
}

RunRecord withMetrics(RunRecord run, const QJsonObject &metrics)
{
    QJsonObject counters = run.counters ? protocol::toJson(*run.counters) : QJsonObject{};
    counters.insert("metrics", metrics);
    test::setCounters(run, counters);
    return run;
}

QJsonObject access(double globalLd, double globalSt, double sharedLd, double sharedSt)
{
    return QJsonObject{{"global_ld_sectors_per_request", globalLd},
                       {"global_st_sectors_per_request", globalSt},
                       {"shared_ld_wavefronts_per_request", sharedLd},
                       {"shared_st_wavefronts_per_request", sharedSt}};
}

// A tensor-core run of `stage` with the given preset, measured at 1536^3 with `access` ratios and
// the launch's `metrics` (CUPTI's instruction counts).
RunRecord tensorRun(const QString &stage, const QString &preset, const QMap<QString, int> &params,
                    const QJsonObject &access, const QJsonObject &metrics)
{
    RunRecord r;
    r.runId = QStringLiteral("r9");
    r.stage = stageIdOf(stage);
    r.presetKey = preset;
    r.params = params;
    r.m = r.n = r.k = 1536;
    r.status = RunStatus::Ok;
    r.medianMs = 1;
    r.gpuName = QStringLiteral("NVIDIA H200");
    test::setCounters(r, QJsonObject{{"dram_intensity", 100.0}, {"access", access}, {"metrics", metrics}});
    return r;
}

} // namespace

// Whether any pixel of the view as drawn has the colour `is` looks for (a verdict's, painted).
template <typename Is> bool paints(QWidget &view, Is is)
{
    const QImage image = view.grab().toImage();
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (is(image.pixelColor(x, y)))
                return true;
    return false;
}

class TestAccessCheckView : public QObject {
    Q_OBJECT

private slots:
    void measuredEqualToTheModelAgrees()
    {
        AccessCheckView view;
        view.setRun(step3Run(access(4.0, 16.0, 2.0, 1.0)));
        QCOMPARE(view.rows().size(), 4);
        const double model[] = {4.0, 16.0, 2.0, 1.0};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(view.rows()[i].model, model[i]);
            QCOMPARE(view.rows()[i].verdict, Verdict::Agrees);
        }
        QVERIFY(
            view.headline().contains(QStringLiteral("Coalesced cooperative loads"))); // as the tables name it
        // Named by the code the charts and the tables show, never by its internal id.
        QVERIFY2(view.headline().startsWith(QStringLiteral("Stage 3")) &&
                     !view.headline().contains(QStringLiteral("r7")),
                 qPrintable(view.headline()));
        QVERIFY(view.headline().endsWith(QStringLiteral("shared reads as written (scalar build)")));
    }

    void toleranceIsFivePercent_data()
    {
        QTest::addColumn<double>("measuredStoreSectors");
        QTest::addColumn<int>("verdict");
        QTest::newRow("4 % high") << 16.64 << int(Verdict::Agrees);
        QTest::newRow("6 % high") << 16.96 << int(Verdict::Differs);
        QTest::newRow("6 % low") << 15.04 << int(Verdict::Differs);
    }
    void toleranceIsFivePercent()
    {
        QFETCH(double, measuredStoreSectors);
        QFETCH(int, verdict);
        AccessCheckView view;
        view.setRun(step3Run(access(4.0, measuredStoreSectors, 2.0, 1.0)));
        QCOMPARE(int(view.rows()[1].verdict), verdict);
    }

    // The release build's merged LDS.128 reads are not what the model describes: not compared,
    // and the row says how to compare; the same numbers from the scalar build are a disagreement.
    void releaseBuildReadsAreNotCompared()
    {
        AccessCheckView view;
        view.setRun(step3Run(access(4.0, 16.0, 3.0, 1.0), 1536, /*scalarShared=*/false));
        QCOMPARE(view.rows()[2].verdict, Verdict::NotCompared);
        QVERIFY(view.rows()[2].note.contains(QStringLiteral("LDS.128")));
        // What to do, where the Counters workspace hides the panel: how to show it.
        QVERIFY2(view.rows()[2].note.contains(
                     QStringLiteral("Measurement settings (Alt+0 shows the panel) and run again")),
                 qPrintable(view.rows()[2].note));
        QVERIFY(view.headline().endsWith(QStringLiteral("normal build")));
        view.setRun(step3Run(access(4.0, 16.0, 3.0, 1.0), 1536, /*scalarShared=*/true));
        QCOMPARE(view.rows()[2].verdict, Verdict::Differs);
    }

    // With the launch's counts, the binary itself says whether its shared reads are the source's:
    // a release build that kept them (as ptxas does for step 7) is compared; one that issued a
    // quarter of them is not, and the note gives the measured share.
    void instructionCountsDecideWhetherReadsCompare()
    {
        AccessCheckView view;
        view.setRun(withMetrics(step3Run(access(4.0, 16.0, 2.0, 1.0), 1536, /*scalarShared=*/false),
                                step3Metrics(1.0)));
        QCOMPARE(view.rows().size(), 8);
        for (const auto &row : view.rows())
            QVERIFY2(row.verdict == Verdict::Agrees, qPrintable(row.quantity));
        QVERIFY(view.rows()[6].isCount);
        QCOMPARE(view.rows()[6].model, 56623104.0);

        view.setRun(withMetrics(step3Run(access(4.0, 16.0, 3.0, 1.0), 1536, /*scalarShared=*/false),
                                step3Metrics(0.25)));
        QCOMPARE(view.rows()[2].verdict, Verdict::NotCompared);
        QVERIFY2(view.rows()[2].note.contains(QStringLiteral("25.0 %")), qPrintable(view.rows()[2].note));
        QCOMPARE(view.rows()[6].verdict, Verdict::NotCompared); // the read count itself
        QCOMPARE(view.rows()[6].note, QStringLiteral("the same merged reads as above")); // said once
        QCOMPARE(view.rows()[7].verdict, Verdict::Agrees); // the stores are the source's

        // Counts that disagree with the model where no build explains it: a disagreement.
        QJsonObject odd = step3Metrics(1.0);
        odd.insert("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 3538944.0 * 1.5);
        view.setRun(withMetrics(step3Run(access(4.0, 16.0, 2.0, 1.0)), odd));
        QCOMPARE(view.rows()[4].verdict, Verdict::Differs);
        // More shared reads than the source writes is no merging: the model would be wrong.
        view.setRun(withMetrics(step3Run(access(4.0, 16.0, 2.0, 1.0), 1536, false), step3Metrics(1.5)));
        QCOMPARE(view.rows()[6].verdict, Verdict::Differs);
        QVERIFY(view.rows()[6].note.isEmpty());
    }

    // Extra store wavefronts are the L1 contention the H200 measurements traced (amber, "above the
    // model", with the model's own figure), not a red "differs" beside a sentence that explains them;
    // fewer than the model has no such cause and stays a disagreement.
    void extraStoreWavefrontsNameTheContention()
    {
        AccessCheckView view;
        view.setRun(step3Run(access(4.0, 16.0, 2.0, 1.15)));
        QCOMPARE(view.rows()[3].verdict, Verdict::AboveModel);
        QVERIFY(view.rows()[3].note.contains(QStringLiteral("contention")));
        QVERIFY2(view.rows()[3].note.contains(QStringLiteral("need 1.00")), qPrintable(view.rows()[3].note));
        QVERIFY2(!view.rows()[3].note.contains(QStringLiteral("docs/")), qPrintable(view.rows()[3].note));
        // Painted in its own colour: blue, not the amber of "not comparable" nor the red of "differs".
        view.resize(640, 360);
        QVERIFY(
            paints(view, [](const QColor &c) { return c.blue() > 150 && c.red() < 60 && c.green() < 120; }));
        view.setRun(step3Run(access(4.0, 16.0, 2.0, 0.85)));
        QCOMPARE(view.rows()[3].verdict, Verdict::Differs);
    }

    void edgeBlocksAreNotCompared()
    {
        AccessCheckView view;
        view.setRun(step3Run(access(4.1, 15.2, 2.0, 1.0), 1000));
        for (const auto &row : view.rows()) {
            QCOMPARE(row.verdict, Verdict::NotCompared);
            QVERIFY(row.note.contains(QStringLiteral("edge blocks")));
        }
        // Explained once, above the table, with the size that would make the comparison possible.
        QVERIFY2(view.headline().contains(QStringLiteral("Run at 1024x1024x1000")),
                 qPrintable(view.headline()));
        QCOMPARE(view.headline().count(QStringLiteral("edge blocks")), 1);
    }

    void naiveKernelHasNoSharedAccess()
    {
        RunRecord r = step3Run(QJsonObject{{"global_ld_sectors_per_request", 2.0},
                                           {"global_st_sectors_per_request", 4.0},
                                           {"shared_ld_wavefronts_per_request", QJsonValue::Null},
                                           {"shared_st_wavefronts_per_request", QJsonValue::Null}});
        r.stage = stageIdOf(QStringLiteral("naive"));
        r.presetKey = QStringLiteral("worklog-0");
        r.params = {{"BX", 16}, {"BY", 16}};
        AccessCheckView view;
        view.setRun(r);
        QCOMPARE(view.rows()[0].verdict, Verdict::Agrees); // B coalesced, A broadcast: 2 sectors
        QCOMPARE(view.rows()[1].verdict, Verdict::Agrees);
        QCOMPARE(view.rows()[2].verdict, Verdict::NoAccess);
        QCOMPARE(view.rows()[3].verdict, Verdict::NoAccess);
    }

    // Every case without a comparison explains itself in one sentence and shows no table.
    void reasonsWithoutAComparison()
    {
        AccessCheckView view;
        QVERIFY(view.headline().startsWith(QStringLiteral("Select a run")));

        RunRecord cublas = step3Run(access(1, 1, 1, 1));
        cublas.stage = stageIdOf(QStringLiteral("cublas_fp32"));
        view.setRun(cublas);
        QVERIFY(view.headline().contains(QStringLiteral("cuBLAS")));
        QVERIFY(view.rows().isEmpty());

        RunRecord noCounters = step3Run({});
        test::clearCounters(noCounters);
        view.setRun(noCounters);
        QVERIFY(view.headline().contains(QStringLiteral("without hardware counters")));

        RunRecord refused = step3Run({});
        test::setCounters(
            refused,
            QJsonObject{{"error", "cuptiRangeProfilerEnable returned CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"}});
        view.setRun(refused);
        QVERIFY(view.headline().contains(QStringLiteral("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")));

        RunRecord older = step3Run({});
        test::setCounters(older, QJsonObject{{"dram_intensity", 100.0}});
        view.setRun(older);
        QVERIFY(view.headline().contains(QStringLiteral("before GemmScope read access counters")));

        RunRecord failed = step3Run(access(4, 16, 2, 1));
        failed.status = RunStatus::Failed;
        view.setRun(failed);
        QVERIFY(view.headline().contains(QStringLiteral("did not finish")));
        QVERIFY(view.rows().isEmpty());
    }

    void rendersAndExports()
    {
        QTemporaryDir dir;
        AccessCheckView view;
        view.resize(640, 360);
        view.setRun(step3Run(access(4.0, 20.0, 2.0, 1.0)));
        // The red of "differs" is painted (the global store row), not only present in the data.
        QVERIFY(
            paints(view, [](const QColor &c) { return c.red() > 180 && c.green() < 90 && c.blue() < 90; }));
        for (const char *suffix : {"png", "svg"}) {
            const QString path = dir.filePath(QStringLiteral("counters.") + QLatin1String(suffix));
            QVERIFY(!view.exportTo(path));
            QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
        }
    }
    // wgmma_tma_tf32 (preset tf32-wgmma-tma) at 1536^3, counts worked out in tst_access_model: the
    // kernel issues no LSU shared-memory instruction and no global load; what the counters see is
    // the B transpose of the same launch (73,728 of each kind, 1 wavefront, 4 sectors) and the C
    // stores (73,728, 4 sectors). The TMA copies and wgmma's reads are rows of their own, marked
    // not observable, with the model's statement in words.
    void tmaRunComparesWhatTheCountersSee()
    {
        const QMap<QString, int> params{{"BM", 256}, {"BN", 128}, {"STAGES", 4}};
        const QJsonObject metrics{{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 73728.0},
                                  {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 147456.0},
                                  {"smsp__inst_executed_op_shared_ld.sum", 73728.0},
                                  {"smsp__inst_executed_op_shared_st.sum", 73728.0}};
        AccessCheckView view;
        view.setRun(tensorRun(QStringLiteral("wgmma_tma_tf32"), QStringLiteral("tf32-wgmma-tma"), params,
                              access(4.0, 4.0, 1.0, 1.0), metrics));
        QCOMPARE(view.rows().size(), 10);
        for (int i = 0; i < 8; ++i)
            QVERIFY2(view.rows()[i].verdict == Verdict::Agrees, qPrintable(view.rows()[i].quantity));
        QCOMPARE(view.rows()[2].model, 1.0);
        QVERIFY2(view.rows()[2].note.contains(QStringLiteral("transpose")), qPrintable(view.rows()[2].note));
        QCOMPARE(view.rows()[6].model, 73728.0);
        QVERIFY(view.rows()[6].note.contains(QStringLiteral("TMA kernel's own: 0")));
        for (int i : {8, 9}) {
            QCOMPARE(view.rows()[i].verdict, Verdict::NotObservable);
            QVERIFY(!view.rows()[i].measured);
            QVERIFY(!view.rows()[i].modelText.isEmpty());
        }
        QVERIFY2(view.rows()[8].modelText.contains(QStringLiteral("256×32")),
                 qPrintable(view.rows()[8].modelText));
        QVERIFY(view.rows()[8].modelText.contains(QStringLiteral("48 KiB")));
        QVERIFY(view.rows()[9].note.contains(QStringLiteral("descriptors")));
        // A kernel that did issue shared loads of its own (twice the transpose's) disagrees.
        QJsonObject extra = metrics;
        extra.insert("smsp__inst_executed_op_shared_ld.sum", 2 * 73728.0);
        view.setRun(tensorRun(QStringLiteral("wgmma_tma_tf32"), QStringLiteral("tf32-wgmma-tma"), params,
                              access(4.0, 4.0, 1.0, 1.0), extra));
        QCOMPARE(view.rows()[6].verdict, Verdict::Differs);
    }

    // mma_tf32 (preset tf32-mma): shared reads are ldmatrix.x4 (4 wavefronts) and 32-bit B reads (1),
    // 4 + 16 per warp k-step: 32 / 20 = 1.6 (tst_access_model works it out). cp.async issues no
    // store instruction, so the store ratio has no denominator: not observable, not "differs".
    void mmaRunPredictsTheLdmatrixMix()
    {
        const QMap<QString, int> params{{"BM", 128}, {"BN", 128}, {"BK", 32},
                                        {"WM", 64},  {"WN", 64},  {"STAGES", 3}};
        QJsonObject measured = access(16.0, 8.0, 1.6, 0.0);
        measured.insert("shared_st_wavefronts_per_request", QJsonValue::Null);
        AccessCheckView view;
        view.setRun(tensorRun(QStringLiteral("mma_tf32"), QStringLiteral("tf32-mma"), params, measured, {}));
        // What the H200 measured at 1536^3: the wavefronts as modelled (3,538,944),
        // the instruction counter 1.40 x the issued LDSM + LDS, so the ratio reads 1.145.
        measured.insert("shared_ld_wavefronts_per_request", 1.145);
        const QJsonObject metrics{{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0.0},
                                  {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 0.0},
                                  {"smsp__inst_executed_op_shared_ld.sum", 3096576.0},
                                  {"smsp__inst_executed_op_shared_st.sum", 0.0},
                                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 3544840.0}};
        view.setRun(
            tensorRun(QStringLiteral("mma_tf32"), QStringLiteral("tf32-mma"), params, measured, metrics));
        QCOMPARE(view.rows().size(), 9);
        QCOMPARE(view.rows()[2].model, 1.6);
        QCOMPARE(view.rows()[2].verdict, Verdict::NotCompared); // the counter's LDSM count is not known
        QVERIFY2(view.rows()[2].note.contains(QStringLiteral("4 ldmatrix.x4")),
                 qPrintable(view.rows()[2].note));
        QVERIFY(view.rows()[2].note.contains(QStringLiteral("32 / 20")));
        QCOMPARE(view.rows()[3].verdict, Verdict::NotObservable);
        QVERIFY(view.rows()[3].note.contains(QStringLiteral("cp.async")));
        QCOMPARE(view.rows()[6].verdict, Verdict::NotCompared);
        const auto &total = view.rows()[8];
        QVERIFY(total.quantity.contains(QStringLiteral("wavefronts")));
        QCOMPARE(total.model, 3538944.0); // 144 blocks x 48 k tiles x 4 warps x 4 k-steps x 32
        QCOMPARE(total.verdict, Verdict::Agrees);
        // Were the reads 2-way conflicted, the total would double and disagree.
        QJsonObject conflicted = metrics;
        conflicted.insert("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 2 * 3538944.0);
        view.setRun(
            tensorRun(QStringLiteral("mma_tf32"), QStringLiteral("tf32-mma"), params, measured, conflicted));
        QCOMPARE(view.rows()[8].verdict, Verdict::Differs);
    }
};

QTEST_MAIN(TestAccessCheckView)
#include "tst_access_check_view.moc"
