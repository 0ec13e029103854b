// Recorded profiles are bounded (app/core/profile_limits.h): a session, autosave or bench file
// whose profile is far larger than any real one (10^6 instructions held the window 34 s and took
// 3.7 GB; a 100 MB string, 10^6 source lines) opens with that profile left out and a sentence
// saying why, quickly, and everything else in it loaded; a profile at the limits is read whole.
#include "bench_file.h"
#include "profile_limits.h"
#include "profile_prescan.h"
#include "session.h"

#include "support/large_profiles.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::test;

namespace {

// A small real profile's event: the embedded recorded one of `coarsened` (321 instructions).
protocol::ProfileEvent smallProfile()
{
    return recordedProfile(QStringLiteral("coarsened"));
}

QByteArray smallEntry()
{
    return QJsonDocument(toJson(StoredProfile{smallProfile(), QStringLiteral("recorded"), {}, {}}))
        .toJson(QJsonDocument::Compact);
}

QString count(qsizetype n)
{
    return QLocale().toString(qlonglong(n));
}

} // namespace

class TestProfileLimits : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_runs = embeddedSession().runs;
        QVERIFY(!m_runs.isEmpty());
    }

    // The finding: a session whose recorded profile holds 10^6 instructions. It opens in seconds
    // with that profile left out and named, its runs and its other profile whole.
    void profileOfAMillionInstructionsIsLeftOut()
    {
        const QString file = m_dir.filePath(QStringLiteral("million.json"));
        writeFile(file,
                  sessionText(m_runs,
                              {profileEntryText(profileEventText(smallProfile(), instructionsText(1000000))),
                               smallEntry()}));
        QElapsedTimer clock;
        clock.start();
        const SessionParse parsed = readSessionFile(file);
        const qint64 ms = clock.elapsed();
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QCOMPARE(parsed.data->runs.size(), m_runs.size());
        QCOMPARE(parsed.data->profiles.size(), 1);
        QCOMPARE(parsed.data->profiles[0].event, smallProfile());
        QCOMPARE(parsed.data->notices.size(), 1);
        const QString notice = parsed.data->notices.first();
        QVERIFY2(notice.startsWith(QStringLiteral("million.json: Profile 1 of the file was left out")) &&
                     notice.contains(count(1000000) + QStringLiteral(" instructions")) &&
                     notice.contains(count(kMaxProfileInstructions)),
                 qPrintable(notice));
        // Found before the file is parsed (~1 s here); parsing and decoding it took minutes. A
        // generous bound for a loaded CI machine.
        QVERIFY2(ms < 30000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    }

    // Every limit, one past it: the profile is left out with a sentence naming what is too large;
    // at the limit it is read. Each real profile is far below all of them.
    void eachLimitLeavesTheProfileOut_data()
    {
        QTest::addColumn<QByteArray>("event");
        QTest::addColumn<QString>("says");
        QTest::addColumn<bool>("read");
        const protocol::ProfileEvent p = smallProfile();
        const auto withInstructions = [&](const QByteArray &instructions) {
            return profileEventText(p, instructions);
        };
        const auto withInstruction = [&](const QJsonObject &instruction) {
            return withInstructions(QJsonDocument(QJsonArray{instruction}).toJson(QJsonDocument::Compact));
        };
        const QString longText(kMaxProfileTextChars + 1, QLatin1Char('x'));
        const QString longestText(kMaxProfileTextChars, QLatin1Char('x'));
        QTest::newRow("instructions: limit")
            << withInstructions(instructionsText(kMaxProfileInstructions)) << QString() << true;
        QTest::newRow("instructions: one more")
            << withInstructions(instructionsText(kMaxProfileInstructions + 1))
            << QStringLiteral("instructions") << false;
        QTest::newRow("source lines: limit")
            << withInstructions(instructionsText(kMaxProfileSourceLines, true)) << QString() << true;
        QTest::newRow("source lines: one more")
            << withInstructions(instructionsText(kMaxProfileSourceLines + 1, true))
            << QStringLiteral("source lines") << false;
        QJsonArray functions;
        for (int i = 0; i <= kMaxProfileFunctions; ++i)
            functions.append(QJsonObject{{"function", QStringLiteral("f%1").arg(i)}, {"pc", 16 * i}});
        QTest::newRow("functions: one more")
            << withInstructions(QJsonDocument(functions).toJson(QJsonDocument::Compact))
            << QStringLiteral("functions") << false;
        QJsonObject metrics;
        for (int i = 0; i <= kMaxProfileFiguresPerInstruction; ++i)
            metrics.insert(QStringLiteral("m%1").arg(i), i);
        QTest::newRow("figures of one instruction: one more")
            << withInstruction({{"function", "k"}, {"pc", 0}, {"metrics", metrics}})
            << QStringLiteral("figures") << false;
        QTest::newRow("SASS text: limit")
            << withInstruction({{"function", "k"}, {"pc", 0}, {"sass", longestText}}) << QString() << true;
        QTest::newRow("SASS text: one more")
            << withInstruction({{"function", "k"}, {"pc", 0}, {"sass", longText}})
            << QStringLiteral("its \"sass\" is %1 characters long").arg(count(longText.size())) << false;
        QTest::newRow("function name") << withInstruction({{"function", longText}, {"pc", 0}})
                                       << QStringLiteral("its \"function\"") << false;
        QTest::newRow("stall reason's name")
            << withInstruction({{"function", "k"}, {"pc", 0}, {"stalls", QJsonObject{{longText, 1}}}})
            << QStringLiteral("a name in its \"stalls\"") << false;
        protocol::ProfileEvent longError = p;
        longError.stallsError = longText;
        QTest::newRow("an error sentence")
            << profileEventText(longError, "[]") << QStringLiteral("stalls_error") << false;
        protocol::ProfileEvent manyLimiters = p;
        for (int i = 0; i <= kMaxProfileLimiters; ++i)
            manyLimiters.limiters.insert(QStringLiteral("l%1").arg(i), i);
        QTest::newRow("kernel-wide figures")
            << profileEventText(manyLimiters, "[]") << QStringLiteral("kernel-wide figures") << false;
    }
    void eachLimitLeavesTheProfileOut()
    {
        QFETCH(QByteArray, event);
        QFETCH(QString, says);
        QFETCH(bool, read);
        const SessionParse parsed =
            parseSessionJson(sessionText(m_runs, {smallEntry(), profileEntryText(event)}));
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QCOMPARE(parsed.data->runs.size(), m_runs.size());
        QCOMPARE(parsed.data->profiles.size(), read ? 2 : 1);
        QCOMPARE(parsed.data->profiles[0].event, smallProfile());
        if (read) {
            QVERIFY2(parsed.data->notices.isEmpty(), qPrintable(parsed.data->notices.join('\n')));
            return;
        }
        QCOMPARE(parsed.data->notices.size(), 1);
        const QString notice = parsed.data->notices.first();
        QVERIFY2(notice.startsWith(QStringLiteral("Profile 2 of the file was left out: ")) &&
                     notice.contains(says) && notice.contains(QStringLiteral("GemmScope reads")),
                 qPrintable(notice));
        QVERIFY(notice.size() < 1000); // names what is too long, never quotes it
    }

    // A bench file's profile past the limits is left out of the import with its sentence; its rows
    // and its other profiles are imported.
    void benchImportLeavesOutTheOversizedProfile()
    {
        QFile recorded(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/bench-h200-2026-11-29-run1.json"));
        QVERIFY(recorded.open(QIODevice::ReadOnly));
        QByteArray bench = recorded.readAll().trimmed();
        const int rows = int(QJsonDocument::fromJson(bench).object().value("rows").toArray().size());
        QVERIFY(rows > 0);
        protocol::ProfileEvent small = smallProfile();
        bench.chop(1); // the closing brace
        bench += ",\"profiles\":[" + profileEventText(small, instructionsText(1000000)) + ',' +
                 QJsonDocument(protocol::toJson(small)).toJson(QJsonDocument::Compact) + "]}";
        const QString file = m_dir.filePath(QStringLiteral("bench-million.json"));
        writeFile(file, bench);
        Session session;
        QString error;
        QStringList notices;
        QVERIFY2(session.importBench(file, &error, &notices), qPrintable(error));
        QCOMPARE(session.runs().size(), rows);
        QCOMPARE(session.profiles().size(), 1);
        QCOMPARE(session.profiles()[0].event.instructions, small.instructions);
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().contains(QStringLiteral("Profile 1 was left out")) &&
                     notices.first().contains(count(1000000)),
                 qPrintable(notices.first()));
    }

    // An autosave whose measured profile is past the limits: the rest is offered, and why that
    // profile is not is said with the other problems.
    void autosaveRecoveryLeavesOutTheOversizedProfile()
    {
        const QString file = m_dir.filePath(QStringLiteral("autosave-million.json"));
        RunRecord measured = m_runs.first();
        measured.origin = QStringLiteral("measured");
        writeFile(file,
                  sessionText({measured},
                              {profileEntryText(profileEventText(smallProfile(), instructionsText(1000000)),
                                                "measured"),
                               smallEntry()}));
        const AutosaveRecovery recovery = Session::recoverableAutosave(file);
        QVERIFY(recovery.data);
        QCOMPARE(recovery.unsavedRuns, 1);
        QCOMPARE(recovery.data->profiles.size(), 1);
        QCOMPARE(recovery.problems.size(), 1);
        QVERIFY2(recovery.problems.first().contains(QStringLiteral("Profile 1 of the autosave")) &&
                     recovery.problems.first().contains(QStringLiteral("left out")),
                 qPrintable(recovery.problems.first()));
    }

    // The pass that finds oversized profiles before the parser changes nothing else: a file without
    // one is handed on as it is, and where it leaves one out the rest parses to the same values,
    // whatever the strings around it hold.
    void prescanChangesNothingElse()
    {
        QFile embedded(embeddedSessionPath());
        QVERIFY(embedded.open(QIODevice::ReadOnly));
        const QByteArray bytes = embedded.readAll();
        ProfilePrescan pass = leaveOutOversizedProfiles(bytes);
        QVERIFY(pass.leftOut.isEmpty());
        QCOMPARE(pass.bytes, bytes);
        // Brackets, braces, quotes and escapes inside strings; "profiles" and "instructions" as
        // strings, as other members' names and deeper down.
        const QByteArray tricky =
            "{\"title\":\"a \\\"profiles\\\": [ { ] } "
            "\\\\\",\"runs\":[{\"profiles\":[{\"instructions\":[1,2,3]}]}],"
            "\"x\":{\"instructions\":[1,2]},\"profiles\":[null,\"]}\"," +
            profileEntryText(
                profileEventText(smallProfile(), instructionsText(kMaxProfileInstructions + 1)
                                                     .replace("FFMA R1, R2, R3, R1", "\\\"]}[{\\\\"))) +
            "," + smallEntry() + ",true,-1.5e3],\"after\":[\"instructions\",{\"profiles\":[]}]}";
        pass = leaveOutOversizedProfiles(tricky);
        QCOMPARE(pass.leftOut.keys(), QList<qsizetype>{2});
        QVERIFY(pass.leftOut.value(2).contains(count(kMaxProfileInstructions + 1)));
        QJsonParseError error;
        const QJsonObject parsed = QJsonDocument::fromJson(pass.bytes, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QJsonObject expected = QJsonDocument::fromJson(tricky).object();
        QJsonArray profiles = expected.value("profiles").toArray();
        QCOMPARE(profiles.size(), 6);
        profiles[2] = QJsonValue::Null;
        expected["profiles"] = profiles;
        QCOMPARE(parsed, expected);
        // What the pass cannot follow is the parser's to refuse, untouched.
        for (const QByteArray &broken : {tricky.left(tricky.size() / 2), QByteArray("[1,2"), QByteArray("]"),
                                         QByteArray("{\"profiles\":[}")}) {
            pass = leaveOutOversizedProfiles(broken);
            QVERIFY(pass.leftOut.isEmpty());
            QCOMPARE(pass.bytes, broken);
        }
    }

private:
    QTemporaryDir m_dir;
    QList<RunRecord> m_runs;
};

QTEST_MAIN(TestProfileLimits)
#include "tst_profile_limits.moc"
