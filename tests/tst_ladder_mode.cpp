// The bench's ladder mode run in this process (app/bench/ladder_mode.h) against the scripted
// stand-in runner: what it does with its --json file when the disk fills up mid-write. The full
// disk is simulated through file_write.h's test API; tst_bench_cli drives the built program on a
// real full file system where the machine lets it mount one.
#include "file_write.h"
#include "ladder_mode.h"
#include "support/stand_in_runner.h"

#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::bench;

class TestLadderMode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_standIn = test::standInRunnerPath();
        if (m_standIn.isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        QVERIFY(m_dir.isValid());
    }
    void cleanup() { simulateFullDiskAfter(-1); }

    // The JSON is written whole or not at all: the old file stays byte-identical and the status
    // is 1 (before atomic writes: "Wrote", status 0, 4 KiB of invalid JSON).
    void jsonOnAFullDiskKeepsTheOldFile()
    {
        const QString json = m_dir.filePath(QStringLiteral("full.json"));
        const QByteArray old = QByteArray("{\"format\": \"an earlier result\"}\n").repeated(100);
        {
            QFile f(json);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(old), qint64(old.size()));
        }
        const LadderCommand command =
            parse({"--runner", m_standIn, "--stages", "worklog-3", "--size", "64x64x64", "--json", json});
        simulateFullDiskAfter(512);
        QCOMPARE(command.run(), 1);
        QFile kept(json);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), old);
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("full.json")});
    }

    // The same run with room on the disk writes the JSON: the failure above is the disk's.
    void jsonWithRoomIsWritten()
    {
        const QString json = m_dir.filePath(QStringLiteral("room.json"));
        const LadderCommand command =
            parse({"--runner", m_standIn, "--stages", "worklog-3", "--size", "64x64x64", "--json", json});
        QCOMPARE(command.run(), 0);
        QFile written(json);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().contains("\"format\""));
    }

private:
    static LadderCommand parse(const QStringList &arguments)
    {
        BenchCommandLine line;
        QString error;
        if (!line.parse(QStringList{QStringLiteral("gemmscope-bench")} + arguments, &error))
            qFatal("%s", qPrintable(error));
        auto parsed = LadderCommand::parse(line);
        if (const auto *refused = std::get_if<OptionError>(&parsed))
            qFatal("%s", qPrintable(refused->message));
        return std::get<LadderCommand>(std::move(parsed));
    }

    QString m_standIn;
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestLadderMode)
#include "tst_ladder_mode.moc"
