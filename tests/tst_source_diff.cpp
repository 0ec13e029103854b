// Line diffs between stage sources: known answers for the small cases, the ladder's "previous
// stage with a source", and that every real stage diff gives back both files exactly.
#include "kernel_sources.h"
#include "source_diff.h"

#include <QtTest>

using namespace gemmscope;

namespace {

// A diff written one line per entry, as a unified diff shows it: " same", "-removed", "+added".
QStringList written(const std::vector<DiffLine> &diff)
{
    QStringList out;
    for (const DiffLine &line : diff) {
        const char prefix = line.kind == DiffLine::Kind::Same    ? ' '
                            : line.kind == DiffLine::Kind::Added ? '+'
                                                                 : '-';
        out << QLatin1Char(prefix) + QString::fromStdString(line.text);
    }
    return out;
}

// The file a diff was taken from (Same and Removed lines) or to (Same and Added lines).
std::vector<std::string> side(const std::vector<DiffLine> &diff, DiffLine::Kind skipped)
{
    std::vector<std::string> lines;
    for (const DiffLine &line : diff)
        if (line.kind != skipped)
            lines.push_back(line.text);
    return lines;
}

const StageInfo &stageByKey(const char *key)
{
    const StageInfo *s = findStage(key);
    if (!s)
        qFatal("no stage %s", key);
    return *s;
}

} // namespace

class TstSourceDiff : public QObject {
    Q_OBJECT

private slots:
    void knownDiffs_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("identical") << "a\nb\nc\n"
                                   << "a\nb\nc\n"
                                   << QStringList{" a", " b", " c"};
        QTest::newRow("one line added") << "a\nc\n"
                                        << "a\nb\nc\n"
                                        << QStringList{" a", "+b", " c"};
        QTest::newRow("one line removed") << "a\nb\nc\n"
                                          << "a\nc\n"
                                          << QStringList{" a", "-b", " c"};
        QTest::newRow("changed line is removed then added") << "a\nold\nc\n"
                                                            << "a\nnew\nc\n"
                                                            << QStringList{" a", "-old", "+new", " c"};
        QTest::newRow("changed block keeps old above new")
            << "a\nx1\nx2\nc"
            << "a\ny1\ny2\nc" << QStringList{" a", "-x1", "-x2", "+y1", "+y2", " c"};
        QTest::newRow("both empty") << ""
                                    << "" << QStringList{};
        QTest::newRow("from empty") << ""
                                    << "a\nb\n"
                                    << QStringList{"+a", "+b"};
        QTest::newRow("to empty") << "a\nb\n"
                                  << "" << QStringList{"-a", "-b"};
        QTest::newRow("final line break does not matter") << "a\nb"
                                                          << "a\nb\n"
                                                          << QStringList{" a", " b"};
        QTest::newRow("blank lines are lines") << "a\n\nb\n"
                                               << "a\nb\n"
                                               << QStringList{" a", "-", " b"};
        QTest::newRow("CRLF equals LF") << "a\r\nb\r\n"
                                        << "a\nb\n"
                                        << QStringList{" a", " b"};
        QTest::newRow("moved line is one removal and one addition") << "a\nb\nc\n"
                                                                    << "b\nc\na\n"
                                                                    << QStringList{"-a", " b", " c", "+a"};
    }
    void knownDiffs()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QStringList, expected);
        QCOMPARE(written(diffLines(before.toStdString(), after.toStdString())), expected);
    }

    void previousStage_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("previous"); // empty: none
        QTest::newRow("naive is the first") << "naive"
                                            << "";
        QTest::newRow("smem_tiled follows naive") << "smem_tiled"
                                                  << "naive";
        QTest::newRow("coalesced follows coarsened") << "coalesced"
                                                     << "coarsened";
        QTest::newRow("final follows strided") << "final"
                                               << "strided";
        QTest::newRow("strided is written from coalesced (worklog step 6)") << "strided"
                                                                            << "coalesced";
        QTest::newRow("double_buffered follows coalesced") << "double_buffered"
                                                           << "coalesced";
        QTest::newRow("cuBLAS FP32 has no source") << "cublas_fp32"
                                                   << "";
        QTest::newRow("cuBLAS TF32 has no source") << "cublas_tf32"
                                                   << "";
    }
    void previousStage()
    {
        QFETCH(QString, stage);
        QFETCH(QString, previous);
        const std::optional<StageId> got = previousStageWithSource(stageByKey(qPrintable(stage)).id);
        if (previous.isEmpty()) {
            QVERIFY2(!got, got ? stageInfo(*got).key.c_str() : "");
        } else {
            QVERIFY(got);
            QCOMPARE(QString::fromStdString(stageInfo(*got).key), previous);
        }
    }

    // Every stage after the first diffs against a real file, and the diff gives both files back.
    void everyStageDiffReproducesBothFiles()
    {
        int diffed = 0;
        for (const StageInfo &s : stages()) {
            const std::optional<StageId> prev = previousStageWithSource(s.id);
            if (!prev)
                continue;
            const std::string_view before = embeddedKernelSource(stageInfo(*prev).sourceFile);
            const std::string_view after = embeddedKernelSource(s.sourceFile);
            QVERIFY2(!before.empty() && !after.empty(), s.key.c_str());
            const std::vector<DiffLine> diff = diffLines(before, after);
            QCOMPARE(side(diff, DiffLine::Kind::Added), splitLines(before));
            QCOMPARE(side(diff, DiffLine::Kind::Removed), splitLines(after));
            // Consecutive stages share most of their code: a diff of nothing but changes would mean
            // the matching failed.
            QVERIFY2(std::count_if(diff.begin(), diff.end(),
                                   [](const DiffLine &l) { return l.kind == DiffLine::Kind::Same; }) > 0,
                     s.key.c_str());
            ++diffed;
        }
        // Every stage with a source but the first (naive) has one to diff against.
        const auto withSource = std::count_if(stages().begin(), stages().end(),
                                              [](const StageInfo &s) { return !s.sourceFile.empty(); });
        QCOMPARE(diffed, int(withSource) - 1);
    }
};

QTEST_MAIN(TstSourceDiff)
#include "tst_source_diff.moc"
