// The integer expressions of a kernel's parameter block: values and precedence, short-circuit
// logic, every arithmetic error as a sentence (never undefined behaviour), and the parse limits
// that keep a hostile text to one sentence.
#include "int_expression.h"

#include <QtTest>

#include <climits>

using namespace gemmscope;

namespace {

const std::vector<std::string> kNames = {"BM", "TM", "M", "N", "K"};

IntExpression parsed(const char *text)
{
    IntExpression::Parse p = IntExpression::parse(text, kNames);
    if (!p.expression)
        qFatal("%s does not parse: %s", text, p.error.c_str());
    return *p.expression;
}

ExpressionValue evaluated(const char *text, std::vector<long long> values)
{
    return parsed(text).evaluate(values);
}

} // namespace

class TestIntExpression : public QObject {
    Q_OBJECT

private slots:
    void values_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qlonglong>("expected");
        // BM=64 TM=8 M=1000 N=7 K=0
        QTest::newRow("precedence") << "1 + 2 * 3" << 7LL;
        QTest::newRow("parentheses") << "(1 + 2) * 3" << 9LL;
        QTest::newRow("left associative") << "20 - 5 - 3" << 12LL;
        QTest::newRow("division truncates") << "-7 / 2" << -3LL;
        QTest::newRow("modulo sign") << "-7 % 3" << -1LL;
        QTest::newRow("names") << "BM / TM + M" << 1008LL;
        QTest::newRow("ceil_div") << "ceil_div(M, BM)" << 16LL;
        QTest::newRow("ceil_div exact") << "ceil_div(BM, TM)" << 8LL;
        QTest::newRow("ceil_div negative") << "ceil_div(-7, 2)" << -3LL;
        QTest::newRow("min max") << "min(BM, TM) * max(N, 3)" << 56LL;
        QTest::newRow("nested calls") << "max(min(BM, 100), ceil_div(M, 2))" << 500LL;
        QTest::newRow("comparison") << "BM % TM == 0" << 1LL;
        QTest::newRow("comparisons chain") << "BM >= 64 && TM < 8" << 0LL;
        QTest::newRow("or") << "BM > 100 || N != 7 || TM <= 8" << 1LL;
        QTest::newRow("not") << "!(BM > 0) + !0" << 1LL;
        QTest::newRow("unary minus") << "- -BM" << 64LL;
        QTest::newRow("short circuit and") << "K > 0 && N / K > 2" << 0LL;
        QTest::newRow("short circuit or") << "K == 0 || N % K == 1" << 1LL;
        QTest::newRow("largest") << "9223372036854775807" << LLONG_MAX;
    }
    void values()
    {
        QFETCH(QString, text);
        QFETCH(qlonglong, expected);
        const ExpressionValue v = evaluated(text.toUtf8().constData(), {64, 8, 1000, 7, 0});
        QVERIFY2(v.value.has_value(), v.error.c_str());
        QCOMPARE(*v.value, expected);
    }

    // Parsed once, the same tree answers for every set of values.
    void evaluatesManyTimes()
    {
        const IntExpression e = parsed("ceil_div(N, BM) * BM - N");
        for (long long n = 1; n <= 300; ++n) {
            const ExpressionValue v = e.evaluate(std::vector<long long>{64, 8, 1, n, 1});
            QVERIFY(v.value);
            QCOMPARE(*v.value, (n + 63) / 64 * 64 - n);
        }
        QVERIFY(e.uses(0));
        QVERIFY(e.uses(3));
        QVERIFY(!e.uses(1));
    }

    void evaluationErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("division by zero") << "N / K"
                                          << "a division by zero in \"N / K\"";
        QTest::newRow("modulo by zero") << "N % K"
                                        << "a modulo by zero in \"N % K\"";
        QTest::newRow("ceil_div by zero") << "ceil_div(N, K)"
                                          << "a division by zero";
        QTest::newRow("add overflow") << "9223372036854775807 + N"
                                      << "an overflow of 64-bit integers";
        QTest::newRow("sub overflow") << "-9223372036854775807 - 2"
                                      << "an overflow of 64-bit integers";
        QTest::newRow("mul overflow") << "M * M * M * M * M * M * M"
                                      << "an overflow of 64-bit integers";
        QTest::newRow("negate min") << "-(-9223372036854775807 - 1)"
                                    << "an overflow of 64-bit integers";
        QTest::newRow("min / -1") << "(-9223372036854775807 - 1) / -1"
                                  << "an overflow of 64-bit integers";
        QTest::newRow("error inside a call") << "max(1, N / K)"
                                             << "a division by zero";
    }
    void evaluationErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const ExpressionValue v = evaluated(text.toUtf8().constData(), {64, 8, 1000, 7, 0});
        QVERIFY(!v.value);
        QVERIFY2(QString::fromStdString(v.error).contains(error), v.error.c_str());
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("dangling operator") << "BM +"
                                           << "is missing a value after '+'";
        QTest::newRow("unclosed") << "(BM + 1"
                                  << "has '(' without its ')'";
        QTest::newRow("unopened") << "BM + 1)"
                                  << "has a ')' without its '('";
        QTest::newRow("unknown name") << "BM / XY"
                                      << "names XY, which is neither a parameter nor M, N or K";
        QTest::newRow("two values") << "1 2"
                                    << "continues after a complete expression at '2'";
        QTest::newRow("bad character") << "BM $ 2"
                                       << "has the character '$'";
        QTest::newRow("assignment") << "BM = 2"
                                    << "has the character '='";
        QTest::newRow("empty") << "   "
                               << "An expression is missing";
        QTest::newRow("one argument") << "min(BM)"
                                      << "gives min one argument where it takes two";
        QTest::newRow("three arguments") << "max(1, 2, 3)"
                                         << "gives max more than two arguments";
        QTest::newRow("function without call") << "ceil_div + 1"
                                               << "uses ceil_div without its arguments";
        QTest::newRow("huge number") << "99999999999999999999"
                                     << "does not fit in 64 bits";
        QTest::newRow("number into name") << "2BM"
                                          << "has a number run into a name";
        QTest::newRow("operator first") << "* 2"
                                        << "has '*' where a value is expected";
        QTest::newRow("too deep") << QString(100, '(') + "1" + QString(100, ')')
                                  << "nests more than 64 levels";
        QTest::newRow("too deep unary") << QString(100, '-') + "1"
                                        << "nests more than 64 levels";
        QTest::newRow("too long") << QString("1+").repeated(300) + "1"
                                  << "an expression may have at most 512";
    }
    void parseErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const IntExpression::Parse p = IntExpression::parse(text.toStdString(), kNames);
        QVERIFY(!p.expression);
        QVERIFY2(QString::fromStdString(p.error).contains(error), p.error.c_str());
    }

    // 64 levels are allowed, the 65th is not: the limit is the documented one.
    void depthLimitIsExact()
    {
        const std::string ok = std::string(64, '(') + "1" + std::string(64, ')');
        QVERIFY(IntExpression::parse(ok, kNames).expression);
        const std::string deep = std::string(65, '(') + "1" + std::string(65, ')');
        QVERIFY(!IntExpression::parse(deep, kNames).expression);
    }

    // A megabyte of text is refused by its length before anything reads it: one sentence.
    void megabyteExpressionIsOneSentence()
    {
        std::string text;
        for (int i = 0; i < 500000; ++i)
            text += "1+";
        text += "1";
        QElapsedTimer timer;
        timer.start();
        const IntExpression::Parse p = IntExpression::parse(text, kNames);
        QVERIFY(!p.expression);
        QVERIFY(p.error.size() < 300);
        QVERIFY2(timer.elapsed() < 10000, "a megabyte expression took more than 10 s to refuse");
    }
};

QTEST_APPLESS_MAIN(TestIntExpression)
#include "tst_int_expression.moc"
