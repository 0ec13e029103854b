// The runtime chart's legend and reference mark without QCustomPlot: a line a ladder group (not a
// stage) with each of its stages' colours once, in ladder order; the other entries only where
// their mark is drawn; the cuBLAS FP32 reference at the latest such run, in the chart's unit.
#include "chart_text.h"
#include "plot_theme.h"
#include "runtime_scene.h"

#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::runtime_scene;

namespace {

RunRecord timedRun(const QString &id, StageId stage, double ms)
{
    RunRecord r;
    r.runId = id;
    r.stage = stage;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.m = r.n = r.k = 4096;
    r.medianMs = ms;
    r.tflops = 2.0 * 4096.0 * 4096.0 * 4096.0 / (ms * 1e-3) * 1e-12;
    return r;
}

QStringList textsOf(const QList<LegendEntry> &entries)
{
    QStringList texts;
    for (const LegendEntry &e : entries)
        texts << e.text;
    return texts;
}

} // namespace

class TestRuntimeScene : public QObject {
    Q_OBJECT
private slots:
    void legendNamesTheGroupsWithTheirStagesColours()
    {
        LegendInputs in;
        // Out of ladder order and with a stage twice (two presets' bars): each colour once, by rank.
        in.stagesDrawn = {QStringLiteral("cublas_fp32"), QStringLiteral("coalesced"), QStringLiteral("naive"),
                          QStringLiteral("coalesced")};
        const QList<LegendEntry> entries = legendEntries(in);
        QCOMPARE(textsOf(entries),
                 (QStringList{ladderGroupName(LadderGroup::WorklogSteps),
                              ladderGroupName(LadderGroup::Baselines), QStringLiteral("whisker: p20–p80")}));
        QCOMPARE(entries[0].icon, LegendIcon::Stripes);
        QCOMPARE(entries[0].colors, (QList<QColor>{stageColor(QStringLiteral("naive")),
                                                   stageColor(QStringLiteral("coalesced"))}));
        QCOMPARE(entries[0].look, stageColor(QStringLiteral("naive")).name() + QLatin1Char(' ') +
                                      stageColor(QStringLiteral("coalesced")).name());
        QCOMPARE(entries[1].colors, QList<QColor>{stageColor(QStringLiteral("cublas_fp32"))});
    }

    void otherEntriesOnlyWhereTheirMarkIsDrawn()
    {
        QVERIFY(legendEntries(LegendInputs{}).isEmpty()); // nothing drawn, nothing explained
        LegendInputs in;
        in.publishedDrawn = true;
        in.referenceText = QStringLiteral("cuBLAS FP32: 2.69 ms");
        in.anyNotSteady = true;
        in.anyFailed = true;
        in.selectionShown = true;
        const QList<LegendEntry> entries = legendEntries(in);
        QCOMPARE(
            textsOf(entries),
            (QStringList{QStringLiteral("T4, published (worklog)"), QStringLiteral("whisker: p20–p80"),
                         QStringLiteral("cuBLAS FP32: 2.69 ms"), QStringLiteral("(noisy) etc.: not steady"),
                         QStringLiteral("\u2715 failed: no time"), QStringLiteral("selected run")}));
        QCOMPARE(entries[0].icon, LegendIcon::Hatched);
        QCOMPARE(entries[2].icon, LegendIcon::Reference);
        QCOMPARE(entries[5].icon, LegendIcon::Selection);
        // A failure alone: its cross explained, no whisker without a bar.
        LegendInputs failedOnly;
        failedOnly.anyFailed = true;
        QCOMPARE(textsOf(legendEntries(failedOnly)), QStringList{QStringLiteral("\u2715 failed: no time")});
    }

    void referenceIsTheLatestCublasFp32Run()
    {
        QVERIFY(!referenceMark({timedRun(QStringLiteral("r1"), StageId::Naive, 25.4)},
                               RuntimeValue::Milliseconds));
        RunRecord earlier = timedRun(QStringLiteral("r1"), StageId::CublasFp32, 3.1);
        earlier.timestamp = QDateTime(QDate(2026, 12, 1), QTime(10, 0), Qt::UTC);
        RunRecord later = timedRun(QStringLiteral("r2"), StageId::CublasFp32, 2.69);
        later.timestamp = QDateTime(QDate(2026, 12, 1), QTime(11, 0), Qt::UTC);
        RunRecord failed = timedRun(QStringLiteral("r3"), StageId::CublasFp32, 1.0);
        failed.status = RunStatus::Failed;
        const QList<RunRecord> runs{later, earlier, failed};
        const std::optional<ReferenceMark> ms = referenceMark(runs, RuntimeValue::Milliseconds);
        QVERIFY(ms);
        QCOMPARE(ms->value, 2.69);
        QCOMPARE(ms->text, QStringLiteral("cuBLAS FP32: ") + formatMs(2.69));
        const std::optional<ReferenceMark> tflops = referenceMark(runs, RuntimeValue::Tflops);
        QVERIFY(tflops);
        QCOMPARE(tflops->value, later.tflops);
        QCOMPARE(tflops->text, QStringLiteral("cuBLAS FP32: ") + formatTflops(later.tflops));
    }
};

QTEST_MAIN(TestRuntimeScene)
#include "tst_runtime_scene.moc"
