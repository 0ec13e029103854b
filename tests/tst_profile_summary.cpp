// A profile folded for reading (profile_summary.h): stall shares over the kernel, instructions
// folded onto their source lines, and instructions of a kernel without a line table kept apart.
#include "profile_summary.h"

#include <QtTest>

using namespace gemmscope;

namespace {

protocol::ProfileInstruction instruction(long long pc, const QString &file, int line,
                                         const QMap<QString, double> &stalls)
{
    protocol::ProfileInstruction i;
    i.function = QStringLiteral("k");
    i.pc = pc;
    i.sass = QStringLiteral("OP%1").arg(pc);
    i.file = file;
    i.line = line;
    i.stalls = stalls;
    return i;
}

} // namespace

class TestProfileSummary : public QObject {
    Q_OBJECT
private slots:
    void foldsInstructionsOntoTheirLines()
    {
        protocol::ProfileEvent p;
        p.instructions = {instruction(32, "a.cuh", 10, {{"barrier", 10}}),
                          instruction(16, "a.cuh", 10, {{"mio_throttle", 30}}),
                          instruction(48, "a.cuh", 12, {{"long_scoreboard", 50}}),
                          instruction(64, {}, 0, {{"selected", 5}}),
                          instruction(80, {}, 0, {{"selected", 5}})};
        const QList<SampledLine> lines = sampledLines(p);
        QCOMPARE(lines.size(), 4); // two instructions of line 10 folded; the two without a line apart
        QCOMPARE(lines[0].where(), QStringLiteral("a.cuh:12"));
        QCOMPARE(lines[1].where(), QStringLiteral("a.cuh:10"));
        QCOMPARE(lines[1].samples, 40.0);
        QCOMPARE(lines[1].pc, 16); // its first instruction
        QCOMPARE(lines[1].topReason, QStringLiteral("mio_throttle"));
        QCOMPARE(lines[1].share, 40.0 / 100.0); // of every sample
        QCOMPARE(lines[2].where(), QStringLiteral("pc 0x0040 OP64"));
        QCOMPARE(lines[3].where(), QStringLiteral("pc 0x0050 OP80"));

        const QList<StallShare> reasons = stallShares(p);
        QCOMPARE(reasons.size(), 4);
        QCOMPARE(reasons[0].reason, QStringLiteral("long_scoreboard"));
        QCOMPARE(reasons[0].share, 0.5);
        QCOMPARE(reasons[1].reason, QStringLiteral("mio_throttle"));
        QCOMPARE(totalSamples(p), 100.0);
        p.totalSamples = 200; // CUPTI's own count wins where it has one
        QCOMPARE(sampledLines(p)[0].share, 0.25);
    }

    void emptyProfileFoldsToNothing()
    {
        const protocol::ProfileEvent p;
        QVERIFY(sampledLines(p).isEmpty());
        QVERIFY(stallShares(p).isEmpty());
        QCOMPARE(totalSamples(p), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestProfileSummary)
#include "tst_profile_summary.moc"
