// LineBuffer: how RunnerClient splits the runner's output into lines. Lines
// come out whole whatever the pieces, in linear time (a long line in small pieces and many short
// lines in one piece both), and a line over the cap stops the stream.
#include "line_buffer.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace gemmscope;

class TestLineBuffer : public QObject {
    Q_OBJECT
private slots:
    void linesComeOutWholeWhateverThePieces_data()
    {
        QTest::addColumn<int>("piece");
        for (int piece : {1, 2, 3, 7, 64, 4096})
            QTest::newRow(qPrintable(QString::number(piece))) << piece;
    }
    void linesComeOutWholeWhateverThePieces()
    {
        QFETCH(int, piece);
        const QByteArray stream = "{\"a\":1}\n\n{\"b\":2}\r\nlast without end";
        LineBuffer buffer(1024);
        QList<QByteArray> lines;
        for (qsizetype i = 0; i < stream.size(); i += piece) {
            buffer.append(stream.mid(i, piece));
            while (const auto line = buffer.takeLine())
                lines << *line;
        }
        QCOMPARE(lines, (QList<QByteArray>{"{\"a\":1}", "", "{\"b\":2}\r"}));
        QCOMPARE(buffer.takeRest(), QByteArray("last without end"));
        QVERIFY(!buffer.overflowed());
    }

    // Before: every piece rescanned the whole buffer from its start (1.3 s for 50 MB, 19.5 s for
    // 200 MB). 48 MiB in 1 KiB pieces would scan ~1.2 TB that way.
    void longLineInSmallPiecesIsLinear()
    {
        const qsizetype total = 48LL << 20;
        const QByteArray piece(1024, 'x');
        LineBuffer buffer(64LL << 20);
        QElapsedTimer timer;
        timer.start();
        for (qsizetype sent = 0; sent < total; sent += piece.size()) {
            buffer.append(piece);
            QVERIFY(!buffer.takeLine());
        }
        buffer.append("\n");
        const auto line = buffer.takeLine();
        QVERIFY(line);
        QCOMPARE(line->size(), total);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void manyShortLinesInOnePieceAreLinear()
    {
        QByteArray piece;
        for (int i = 0; i < 400000; ++i)
            piece += "{\"event\":\"progress\",\"done\":1}\n";
        LineBuffer buffer(1024);
        QElapsedTimer timer;
        timer.start();
        buffer.append(piece);
        int n = 0;
        while (buffer.takeLine())
            ++n;
        QCOMPARE(n, 400000);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void lineOverTheCapOverflows_data()
    {
        QTest::addColumn<bool>("terminated");
        QTest::newRow("without end") << false;
        QTest::newRow("with its end in the same piece") << true;
    }
    void lineOverTheCapOverflows()
    {
        QFETCH(bool, terminated);
        LineBuffer buffer(100);
        buffer.append("ok\n");
        buffer.append(QByteArray(101, 'x') + (terminated ? "\nafter\n" : ""));
        QCOMPARE(*buffer.takeLine(), QByteArray("ok"));
        QVERIFY(!buffer.takeLine());
        QVERIFY(buffer.overflowed());
        QCOMPARE(buffer.pendingBytes(), 0); // nothing of it is kept
        buffer.append("more\n");
        QVERIFY(!buffer.takeLine()); // an overflowed stream says nothing more
        buffer.clear();
        buffer.append("again\n");
        QCOMPARE(*buffer.takeLine(), QByteArray("again"));
    }

    void lineOfExactlyTheCapPasses()
    {
        LineBuffer buffer(100);
        buffer.append(QByteArray(100, 'y') + '\n');
        QCOMPARE(buffer.takeLine()->size(), 100);
        QVERIFY(!buffer.overflowed());
    }
};

QTEST_GUILESS_MAIN(TestLineBuffer)
#include "tst_line_buffer.moc"
