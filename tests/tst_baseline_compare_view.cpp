// "Why not cuBLAS?", offscreen: the empty states (no profile, no cuBLAS profile, another size),
// the paired rows and the sentence naming the largest difference, error sentences beside what
// stands, and hostile values that neither crash nor draw outside the scale.
#include "baseline_compare_view.h"
#include "support/profile_fixtures.h"
#include "support/view_shots.h"

#include <QLabel>
#include <QScrollArea>
#include <QTest>

using namespace gemmscope;

class TestBaselineCompareView : public QObject {
    Q_OBJECT

private slots:
    void emptyStates()
    {
        BaselineCompareView view;
        QCOMPARE(view.headline(), QStringLiteral("Profile this preset to compare it with cuBLAS."));
        view.setNoProfileText(QStringLiteral("Profile this preset (Ctrl+Shift+P) to compare"));
        QCOMPARE(view.headline(), QStringLiteral("Profile this preset (Ctrl+Shift+P) to compare"));
        const protocol::ProfileEvent mine = test::coalescedShapedProfile();
        view.setProfile(&mine, QStringLiteral("coalesced"));
        QCOMPARE(view.headline(),
                 QStringLiteral("No cuBLAS profile at 4096³ on NVIDIA H200 yet: profile cuBLAS at this size "
                                "to compare."));
        QVERIFY(!view.comparing());
        protocol::ProfileEvent other = test::cublasShapedProfile();
        other.size = {1024, 1024, 1024};
        view.setBaseline(&other);
        QVERIFY(view.headline().contains(QLatin1String("only the same size on the same GPU compares")));
        QVERIFY(!view.comparing());
        QVERIFY(!test::renderShot(&view, QSize(640, 300), QStringLiteral("why_not_cublas_empty")).isEmpty());
    }

    void pairedBarsAndTheLargestDifference()
    {
        BaselineCompareView view;
        const protocol::ProfileEvent mine = test::coalescedShapedProfile();
        const protocol::ProfileEvent cublas = test::cublasShapedProfile();
        view.setProfile(&mine, QStringLiteral("coalesced"));
        view.setBaseline(&cublas);
        QVERIFY(view.comparing());
        QStringList labels;
        for (const LimiterRow &r : view.rows())
            labels << r.label;
        QVERIFY(labels.contains(QStringLiteral("Achieved occupancy")));
        QVERIFY(labels.contains(QStringLiteral("Issue slots used")));
        QVERIFY(labels.contains(QStringLiteral("FMA pipe busy")));
        QVERIFY(labels.contains(QStringLiteral("DRAM throughput")));
        QVERIFY(labels.contains(QStringLiteral("FMA-pipe instructions"))); // the mix
        // FMA pipe busy 41 % against 84 % is the largest difference in points, but the sentence
        // ranks by estimated cost in time (profile_cost.h): cuBLAS's busiest unit is its issue slots,
        // and the candidate's idle issue time goes mostly to the shared-memory queue.
        QVERIFY2(view.headline().startsWith(QStringLiteral(
                     "Estimated largest cost: coalesced waits on \"shared queue\": about 12 % of "
                     "its time (20 % of the samples against 2.5 %), most at coalesced.cuh:30. "
                     "To change it: issue fewer shared-memory instructions")),
                 qPrintable(view.headline()));
        QVERIFY(view.costList().startsWith(
            QStringLiteral("Estimated cost in time, costliest first:\n1. shared queue: ")));
        QVERIFY(!view.headline().contains(QLatin1String("throughput")));
        QVERIFY(view.notes().contains(QLatin1String("cuBLAS: CUPTI does not know sm__pipe_tensor")));
        // The tensor pipe: measured for coalesced (0 %), not for cuBLAS: a row with one value.
        for (const LimiterRow &r : view.rows())
            if (r.label == QLatin1String("Tensor pipe busy")) {
                QCOMPARE(*r.candidate, 0.0);
                QVERIFY(!r.baseline);
            }
        QVERIFY(view.heightForWidth(640) > 400);
        QVERIFY(
            !test::renderShot(&view, QSize(640, view.heightForWidth(640)), QStringLiteral("why_not_cublas"))
                 .isEmpty());
    }

    void recordedFp32TunedAgainstCublas()
    {
        BaselineCompareView view;
        const protocol::ProfileEvent tuned =
            test::loadProfileFixture(QStringLiteral("profile-fp32-tuned.stalls-limiters.json"));
        const protocol::ProfileEvent cublas =
            test::loadProfileFixture(QStringLiteral("profile-cublas_fp32.stalls-limiters.json"));
        view.setProfile(&tuned, QStringLiteral("fp32-tuned"));
        view.setBaseline(&cublas);
        QVERIFY2(view.headline().startsWith(
                     QLatin1String("Estimated largest cost: fp32-tuned waits on \"dispatch\"")),
                 qPrintable(view.headline()));
        QVERIFY(view.costList().contains(QLatin1String("\n1. dispatch: about 0.12 ms")));
        // The band saying the profiles are not the user's, over the sentence; the height grows for it.
        const int plain = view.heightForWidth(640);
        QVERIFY(view.referenceNote().isEmpty());
        view.setReferenceNote(QStringLiteral("The embedded H200 example, not your session: fp32-tuned."));
        QCOMPARE(view.referenceNote(),
                 QStringLiteral("The embedded H200 example, not your session: fp32-tuned."));
        QVERIFY(view.heightForWidth(640) > plain);
        QVERIFY(view.notes().isEmpty());
        QVERIFY(!test::renderShot(&view, QSize(640, view.heightForWidth(640)),
                                  QStringLiteral("why_not_cublas_fp32_tuned"))
                     .isEmpty());
        QVERIFY(!test::renderShot(&view, QSize(520, view.heightForWidth(520)),
                                  QStringLiteral("why_not_cublas_pane"))
                     .isEmpty());
    }

    // In the Counters tab the view sits in a scroll area shorter than its bars: it keeps their
    // height and the area scrolls, rather than squeezing the last rows out.
    void scrollsInAShortPane()
    {
        QScrollArea area;
        area.setWidgetResizable(true);
        auto *view = new BaselineCompareView;
        area.setWidget(view);
        const protocol::ProfileEvent mine = test::coalescedShapedProfile();
        const protocol::ProfileEvent cublas = test::cublasShapedProfile();
        view->setProfile(&mine, QStringLiteral("coalesced"));
        view->setBaseline(&cublas);
        area.resize(520, 300);
        area.show();
        QCoreApplication::processEvents();
        QVERIFY(view->height() >= view->heightForWidth(view->width()));
        QVERIFY(view->height() > 300);
    }

    void hostileValues()
    {
        BaselineCompareView view;
        protocol::ProfileEvent mine = test::coalescedShapedProfile();
        protocol::ProfileEvent cublas = test::cublasShapedProfile();
        mine.limiters.insert("sm__warps_active.avg.pct_of_peak_sustained_active",
                             std::numeric_limits<double>::quiet_NaN());
        mine.limiters.insert("sm__inst_issued.avg.pct_of_peak_sustained_active", 1e300);
        cublas.limiters.insert("dram__throughput.avg.pct_of_peak_sustained_elapsed", -40);
        cublas.gpu.name = QString(); // unknown GPU: compared by size alone
        view.setProfile(&mine, QStringLiteral("<b>mine</b>"));
        view.setBaseline(&cublas, QStringLiteral("<i>cuBLAS</i>"));
        QVERIFY(view.comparing());
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("baselineHeadline"))->textFormat(), Qt::PlainText);
        for (const LimiterRow &r : view.rows()) {
            if (r.label == QLatin1String("Achieved occupancy"))
                QVERIFY(!r.candidate); // NaN is no value
            if (r.label == QLatin1String("DRAM throughput"))
                QVERIFY(!r.baseline);
        }
        QVERIFY(view.headline().contains(QLatin1String("<b>mine</b>")));
        QVERIFY(
            !test::renderShot(&view, QSize(640, 700), QStringLiteral("why_not_cublas_hostile")).isEmpty());
        view.setBaseline(nullptr);
        QVERIFY(!view.comparing());
    }
};

QTEST_MAIN(TestBaselineCompareView)
#include "tst_baseline_compare_view.moc"
