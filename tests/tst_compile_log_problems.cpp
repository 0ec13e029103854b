// NVRTC's log read into the editor's problems (app/core/compile_log_problems.h): each message at
// the file and line it names, ptxas's lines without one, echoes and summaries left out, and any log
// (5 MB, markup, control bytes) read in one bounded pass.
#include "compile_log_problems.h"

#include <QElapsedTimer>
#include <QTest>

using namespace gemmscope;
using Severity = KernelProblem::Severity;

Q_DECLARE_METATYPE(KernelProblem)

class TestCompileLogProblems : public QObject {
    Q_OBJECT
private slots:
    void oneLine_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<KernelProblem>("expected");
        QTest::newRow("error") << QStringLiteral("my_gemm.cuh(12): error: identifier \"x\" is undefined")
                               << KernelProblem{QStringLiteral("my_gemm.cuh"), 12,
                                                QStringLiteral("identifier \"x\" is undefined"),
                                                Severity::Error};
        QTest::newRow("warning with a number")
            << QStringLiteral(
                   "my_gemm.cuh(7): warning #177-D: variable \"t\" was declared but never referenced")
            << KernelProblem{QStringLiteral("my_gemm.cuh"), 7,
                             QStringLiteral("variable \"t\" was declared but never referenced"),
                             Severity::Warning};
        QTest::newRow("an included header")
            << QStringLiteral("cooperative_load.cuh(30): error: expected a \";\"")
            << KernelProblem{QStringLiteral("cooperative_load.cuh"), 30, QStringLiteral("expected a \";\""),
                             Severity::Error};
        QTest::newRow("catastrophic")
            << QStringLiteral("my_gemm.cuh(2): catastrophic error: cannot open source file \"/etc/passwd\"")
            << KernelProblem{QStringLiteral("my_gemm.cuh"), 2,
                             QStringLiteral("cannot open source file \"/etc/passwd\""), Severity::Error};
        QTest::newRow("a name with spaces")
            << QStringLiteral("my kernel.cuh(3): error: x")
            << KernelProblem{QStringLiteral("my kernel.cuh"), 3, QStringLiteral("x"), Severity::Error};
        QTest::newRow("clang style") << QStringLiteral("k.cuh:41:9: warning: unused variable 'a'")
                                     << KernelProblem{QStringLiteral("k.cuh"), 41,
                                                      QStringLiteral("unused variable 'a'"),
                                                      Severity::Warning};
        QTest::newRow("ptxas error")
            << QStringLiteral(
                   "ptxas error   : Entry function '_Z3fooPf' uses too much shared data (0x12000 bytes, "
                   "0xc000 max)")
            << KernelProblem{
                   {},
                   0,
                   QStringLiteral("ptxas: Entry function '_Z3fooPf' uses too much shared data (0x12000 "
                                  "bytes, 0xc000 max)"),
                   Severity::Error};
        QTest::newRow("ptxas warning")
            << QStringLiteral("ptxas warning : Registers are spilled to local memory")
            << KernelProblem{
                   {}, 0, QStringLiteral("ptxas: Registers are spilled to local memory"), Severity::Warning};
        QTest::newRow("error without a file")
            << QStringLiteral("error: unrecognized option --foo")
            << KernelProblem{{}, 0, QStringLiteral("unrecognized option --foo"), Severity::Error};
        QTest::newRow("a windows line end")
            << QStringLiteral("a.cuh(1): error: b\r")
            << KernelProblem{QStringLiteral("a.cuh"), 1, QStringLiteral("b"), Severity::Error};
        QTest::newRow("a line number too large is the whole program")
            << QStringLiteral("a.cuh(99999999999): error: b")
            << KernelProblem{QStringLiteral("a.cuh"), 0, QStringLiteral("b"), Severity::Error};
    }
    void oneLine()
    {
        QFETCH(QString, line);
        QFETCH(KernelProblem, expected);
        const QList<KernelProblem> problems = compileLogProblems(line);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].file, expected.file);
        QCOMPARE(problems[0].line, expected.line);
        QCOMPARE(problems[0].message, expected.message);
        QCOMPARE(problems[0].severity, expected.severity);
    }

    // A whole log as NVRTC writes it: the echoed source line and caret under each message and the
    // closing count are not problems; the same message for two instantiations is listed once.
    void aWholeLog()
    {
        const QString log =
            QStringLiteral("my_gemm.cuh(12): error: identifier \"x\" is undefined\n"
                           "        acc += x;\n"
                           "               ^\n"
                           "\n"
                           "my_gemm.cuh(20): warning #550-D: variable \"y\" was set but never used\n"
                           "      int y = 0;\n"
                           "          ^\n"
                           "my_gemm.cuh(12): error: identifier \"x\" is undefined\n"
                           "1 error detected in the compilation of \"my_gemm.cuh\".\n");
        const QList<KernelProblem> problems = compileLogProblems(log);
        QCOMPARE(problems.size(), 2);
        QCOMPARE(problems[0].line, 12);
        QCOMPARE(problems[1].line, 20);
        QCOMPARE(problems[1].severity, Severity::Warning);
        QCOMPARE(problemCountText(problems), QStringLiteral("1 error(s), 1 warning(s)"));
        QCOMPARE(problemCountText({}), QStringLiteral("No problems"));
    }

    void nothingToReport()
    {
        QVERIFY(compileLogProblems(QString()).isEmpty());
        QVERIFY(compileLogProblems(QStringLiteral("ptxas info    : Used 40 registers\n\n")).isEmpty());
    }

    // Markup is text: kept as written (the views escape it); control bytes are dropped.
    void markupAndControlBytes()
    {
        const QList<KernelProblem> problems =
            compileLogProblems(QStringLiteral("<b>x</b>.cuh(3): error: <img src=x> \x01\x1b[31mred\n"));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].file, QStringLiteral("<b>x</b>.cuh"));
        QCOMPARE(problems[0].message, QStringLiteral("<img src=x> [31mred"));
    }

    void aLongMessageIsCut()
    {
        const QList<KernelProblem> problems =
            compileLogProblems(QStringLiteral("a.cuh(1): error: ") + QString(100000, QLatin1Char('m')));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].message.size(), kMaxProblemMessageLength + 1);
        QVERIFY(problems[0].message.endsWith(QChar(0x2026)));
    }

    // 5 MB of errors: the first ones and a sentence for the rest, in one pass (the timing is a
    // generous bound for a busy machine: a quadratic pass takes minutes).
    void aFiveMegabyteLog()
    {
        QString log;
        for (int i = 1; log.size() < 5 * 1024 * 1024; ++i)
            log += QStringLiteral("my_gemm.cuh(%1): error: identifier \"v%1\" is undefined\n").arg(i);
        QElapsedTimer timer;
        timer.start();
        const QList<KernelProblem> problems = compileLogProblems(log);
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(problems.size(), kMaxLogProblems);
        QCOMPARE(problems.first().line, 1);
        QVERIFY(problems.last().message.contains(QStringLiteral("more problem")));
        QCOMPARE(problems.last().line, 0);

        // One 5 MB line with no line break.
        const QList<KernelProblem> one = compileLogProblems(QStringLiteral("a.cuh(1): error: ") +
                                                            QString(5 * 1024 * 1024, QLatin1Char('(')));
        QCOMPARE(one.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCompileLogProblems)
#include "tst_compile_log_problems.moc"
