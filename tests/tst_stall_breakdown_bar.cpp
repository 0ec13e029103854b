// The "where the time goes" bar, offscreen: one segment per reason as wide as its share, the
// legend in words, tiny reasons folded into "other", the height following the width, tooltips
// with the Profiling Guide's sentence, and a message instead of a bar.
#include "profile_analysis.h"
#include "stall_breakdown_bar.h"
#include "support/profile_fixtures.h"
#include "support/view_shots.h"

#include <QTest>

using namespace gemmscope;

class TestStallBreakdownBar : public QObject {
    Q_OBJECT

private slots:
    void segmentsAndLegendInWords()
    {
        StallBreakdownBar bar;
        bar.setBreakdown(stallBreakdown(test::handMadeProfile()), QStringLiteral("Where the time goes"));
        QCOMPARE(bar.segments().size(), 5);
        QCOMPARE(bar.segments()[0].key, QStringLiteral("mio_throttle"));
        QCOMPARE(bar.segments()[0].legend, QStringLiteral("shared queue 40 %"));
        QCOMPARE(bar.segments()[0].share, 0.4);
        QCOMPARE(bar.segments()[4].legend, QStringLiteral("barrier 5.0 %"));
        bar.resize(600, bar.heightForWidth(600));
        const QString tip = bar.tooltipAt(QPoint(20, bar.height() / 2 - 4)); // the bar's first segment
        // CUPTI's and Nsight Compute's names in the tooltip, the view's name in the legend.
        QVERIFY2(tip.contains(QLatin1String("CUPTI: smsp__pcsamp_warps_issue_stalled_mio_throttle")),
                 qPrintable(tip));
        QVERIFY(tip.contains(QLatin1String("Nsight Compute: MIO Throttle")));
        QVERIFY(tip.contains(QLatin1String("shared-memory instructions")));
    }

    void tinyReasonsShareOneSegment()
    {
        // The probe: drain (315) and lg_throttle (194) of 4.9 million samples are under 0.5 %.
        StallBreakdownBar bar;
        bar.setBreakdown(stallBreakdown(test::loadProfileFixture(QStringLiteral("probe_sgemm_h200.json"))),
                         QStringLiteral("Where the time goes"));
        QVERIFY(bar.segments().last().key.isEmpty());
        QVERIFY(bar.segments().last().legend.contains(QLatin1String("other")));
        double total = 0;
        for (const auto &s : bar.segments())
            total += s.share;
        QVERIFY(qAbs(total - 1.0) < 1e-9);
        QVERIFY(bar.heightForWidth(300) > bar.heightForWidth(1200)); // the legend wraps on narrow panes
        QVERIFY(
            !test::renderShot(&bar, QSize(900, bar.heightForWidth(900)), QStringLiteral("breakdown_probe"))
                 .isEmpty());
    }

    void messageInsteadOfBar()
    {
        StallBreakdownBar bar;
        bar.setMessage(QStringLiteral("No stall samples: <b>ERR_NVGPUCTRPERM</b>"));
        QVERIFY(bar.segments().isEmpty());
        QCOMPARE(bar.message(), QStringLiteral("No stall samples: <b>ERR_NVGPUCTRPERM</b>"));
        bar.setBreakdown(StallBreakdown{}, QStringLiteral("x"));
        QCOMPARE(bar.message(), QStringLiteral("The profile holds no PC samples."));
        QVERIFY(!test::renderShot(&bar, QSize(400, 60), QStringLiteral("breakdown_message")).isEmpty());
    }
};

QTEST_MAIN(TestStallBreakdownBar)
#include "tst_stall_breakdown_bar.moc"
