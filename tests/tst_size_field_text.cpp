// A size field's text: what users type and what the window writes (squareOrFullSizeText) are read
// as the same size; anything else is refused, never read as a made-up size.
#include "run_record.h"
#include "size_field_text.h"

#include <QtTest>

using namespace gemmscope;

Q_DECLARE_METATYPE(std::optional<gemmscope::ProblemSize>)

class TestSizeFieldText : public QObject {
    Q_OBJECT
private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::optional<ProblemSize>>("size");
        const std::optional<ProblemSize> square = ProblemSize{4096, 4096, 4096};
        const std::optional<ProblemSize> worklog = ProblemSize{8192, 4096, 6144};
        const std::optional<ProblemSize> none;
        QTest::newRow("one number") << QStringLiteral("4096") << square;
        QTest::newRow("as written") << QString::fromUtf8("4096³") << square;
        QTest::newRow("caret") << QStringLiteral("4096^3") << square;
        QTest::newRow("three equal") << QStringLiteral("4096x4096x4096") << square;
        QTest::newRow("full") << QStringLiteral("8192x4096x6144") << worklog;
        QTest::newRow("spaced") << QStringLiteral(" 8192 x 4096 X 6144 ") << worklog;
        QTest::newRow("times sign") << QString::fromUtf8("8192×4096×6144") << worklog;
        QTest::newRow("empty") << QString() << none;
        QTest::newRow("two numbers") << QStringLiteral("8192x4096") << none;
        QTest::newRow("zero") << QStringLiteral("0") << none;
        QTest::newRow("a zero side") << QStringLiteral("8192x0x6144") << none;
        QTest::newRow("negative") << QStringLiteral("-4096") << none;
        QTest::newRow("squared") << QString::fromUtf8("4096²") << none;
        QTest::newRow("words") << QStringLiteral("big") << none;
        QTest::newRow("overflow") << QStringLiteral("99999999999999999999") << none;
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(std::optional<ProblemSize>, size);
        const std::optional<ProblemSize> read = parseSizeFieldText(text);
        QCOMPARE(read.has_value(), size.has_value());
        if (size)
            QCOMPARE(*read, *size);
    }

    // What the window writes reads back as the size it wrote.
    void readsWhatTheWindowWrites()
    {
        for (const ProblemSize &size : {ProblemSize{4096, 4096, 4096}, ProblemSize{8192, 4096, 6144},
                                        ProblemSize{1, 1, 1}, ProblemSize{257, 129, 65}}) {
            const std::optional<ProblemSize> read = parseSizeFieldText(squareOrFullSizeText(size));
            QVERIFY2(read && *read == size, qPrintable(squareOrFullSizeText(size)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSizeFieldText)
#include "tst_size_field_text.moc"
