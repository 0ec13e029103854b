// gemmscope-bench's rows (app/bench/bench_table.h): the runner's final event of each row decoded once
// into the protocol's result or error, and the table read from those typed rows: the interleaved
// baseline's ratio, the notes under the table for a noisy result and unreadable counters, and an
// error row's kind and sentence.
#include "bench_table.h"

#include "support/run_conditions.h"

#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::bench;

namespace {

protocol::ResultEvent result(const QString &stage, double medianMs)
{
    protocol::ResultEvent e;
    e.id = QStringLiteral("b1");
    e.stage = stage;
    e.size = {64, 64, 64};
    e.timing.medianMs = medianMs;
    e.timing.p20Ms = medianMs;
    e.timing.p80Ms = medianMs;
    e.timing.count = 20;
    e.tflops = 1.0;
    return e;
}

BenchRow row(const QString &preset, const QString &stage, const protocol::ResultEvent &e)
{
    return benchRow(preset, stage, QStringLiteral("BM=64"), protocol::toJson(e));
}

} // namespace

class TestBenchTable : public QObject {
    Q_OBJECT
private slots:
    void eachEventIsDecodedOnce()
    {
        const BenchRow ok = row(QStringLiteral("worklog-3"), QStringLiteral("coalesced"),
                                result(QStringLiteral("coalesced"), 2.5));
        QVERIFY(ok.result);
        QVERIFY(ok.resultIsWhole);
        QCOMPARE(ok.result->timing.medianMs, 2.5);
        QCOMPARE(ok.event.value(QStringLiteral("stage")).toString(),
                 QStringLiteral("coalesced")); // as received

        protocol::ErrorEvent failure;
        failure.id = QStringLiteral("b2");
        failure.kind = protocol::ErrorKind::OutOfResources;
        failure.message = QStringLiteral("Too many resources requested for launch.");
        const BenchRow failed =
            benchRow({}, QStringLiteral("coalesced"), QStringLiteral("BM=64"), protocol::toJson(failure));
        QVERIFY(!failed.result);
        QCOMPARE(failed.error.kind, protocol::ErrorKind::OutOfResources);
        QVERIFY2(formatTable({failed}, 0, 0)
                     .contains(QStringLiteral("out_of_resources: Too many resources requested for launch.")),
                 qPrintable(formatTable({failed}, 0, 0)));
    }

    // A stage timed interleaved with its cuBLAS call is compared with that call ("%i"), the median
    // of the per-round ratios; a noisy one says why under the table.
    void interleavedAndNoisyRowsSayWhatTheyAre()
    {
        protocol::ResultEvent e = result(QStringLiteral("coalesced"), 2.0);
        protocol::BaselineResult baseline;
        baseline.stage = QStringLiteral("cublas_fp32");
        baseline.timing.medianMs = 1.0;
        baseline.conditions = test::steadyBurst(); // as a runner sends it: the result then reads whole
        protocol::PairedRatioResult paired;
        paired.median = 0.45;
        baseline.pairedRatio = paired;
        e.baseline = baseline;
        protocol::RunConditions noisy = test::steadyBurst();
        noisy.noisePct = 2.0;
        e.conditions = noisy;
        const QString table =
            formatTable({row(QStringLiteral("worklog-3"), QStringLiteral("coalesced"), e)}, 0, 0);
        QVERIFY2(table.contains(QStringLiteral("45.0%i")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("% cuBLAS TF32")),
                 qPrintable(table)); // an interleaved run has the column
        QVERIFY2(table.contains(QStringLiteral("%i: against the row's own cuBLAS call")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("worklog-3: Noisy: ")), qPrintable(table));
    }

    // Without an interleaved call the ratio is against the run's cuBLAS row; counters that could
    // not be read add their column ("n/a") and one sentence.
    void countersThatFailSayWhyOnce()
    {
        protocol::ResultEvent e = result(QStringLiteral("coalesced"), 2.0);
        protocol::Counters counters;
        counters.error = QStringLiteral("No permission to read GPU performance counters.");
        e.counters = counters;
        const std::vector<BenchRow> rows{row({}, QStringLiteral("coalesced"), e),
                                         row({}, QStringLiteral("coalesced"), e)};
        const QString table = formatTable(rows, 1.0, 0);
        QVERIFY2(table.contains(QStringLiteral("DRAM FLOP/B")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("n/a")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("50.0%")), qPrintable(table));
        QCOMPARE(table.count(QStringLiteral("Hardware counters unavailable: No permission")), 1);
        QVERIFY2(!table.contains(QStringLiteral("%i")), qPrintable(table));
    }
};

QTEST_GUILESS_MAIN(TestBenchTable)
#include "tst_bench_table.moc"
