// A profile folded once for every view (app/core/profile_digest.h): the digest holds what the
// analysis gives (the views used to fold the profile themselves, each at every show), a stored
// profile makes it once for all its copies and threads, and the worker thread that reads a session
// for the window folds its large profiles there, so that showing one folds nothing on the UI thread.
#include "profile_digest.h"
#include "profile_limits.h"
#include "session.h"

#include "support/large_profiles.h"

#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::test;

class TestProfileDigest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void digestHoldsWhatTheAnalysisGives()
    {
        const protocol::ProfileEvent p = recordedProfile(QStringLiteral("final"));
        const std::shared_ptr<const ProfileDigest> d = digestOf(p);
        QCOMPARE(d->event, p);
        QCOMPARE(d->breakdown.totalSamples, stallBreakdown(p).totalSamples);
        double unattributed = -1;
        const QList<LineProfile> lines = foldOntoLines(p, &unattributed);
        QCOMPARE(d->lines.size(), lines.size());
        QCOMPARE(d->unattributedSamples, unattributed);
        for (qsizetype i = 0; i < lines.size(); ++i) {
            QCOMPARE(d->lines[i].file, lines[i].file);
            QCOMPARE(d->lines[i].line, lines[i].line);
            QCOMPARE(d->lines[i].samples, lines[i].samples);
        }
        QCOMPARE(d->heat.size(), p.instructions.size());
        QCOMPARE(d->memory.size(), memoryInstructions(p).size());
        QCOMPARE(d->mainFunction, mainFunction(p));
        QCOMPARE(d->functionCount, 1);
        QCOMPARE(d->lineRows.size(), lines.size());
        QCOMPARE(d->instructionRows.size(), p.instructions.size());
        QCOMPARE(d->instructionRows.first().tooltip,
                 hotspotRowsOfInstructions(instructionHeat(p), mainFunction(p)).first().tooltip);
        // Its pointers are into its own copy of the profile, valid however the caller's copy changes.
        QVERIFY(d->heat.first().instruction == &d->event.instructions.first());
        QVERIFY(d->memory.first().instruction >= &d->event.instructions.first() &&
                d->memory.first().instruction <= &d->event.instructions.last());
    }

    // Every copy of a stored profile shares one digest, made once however many threads ask.
    void storedProfileMakesItsDigestOnce()
    {
        const StoredProfile stored =
            withJson({recordedProfile(QStringLiteral("coarsened")), "recorded", {}, {}});
        const StoredProfile copy = stored;
        QVERIFY(!stored.digest->isMade());
        QList<QFuture<std::shared_ptr<const ProfileDigest>>> asked;
        for (int i = 0; i < 4; ++i)
            asked << QtConcurrent::run([copy] { return digestOf(copy); });
        const std::shared_ptr<const ProfileDigest> here = digestOf(stored);
        for (QFuture<std::shared_ptr<const ProfileDigest>> &f : asked)
            QCOMPARE(f.result().get(), here.get());
        QVERIFY(copy.digest->isMade());
    }

    // What the window's worker thread reads: the large profile comes folded; a real-sized one is
    // left to its first show (a few tens of ms), as is everything read on the UI thread.
    void largeProfilesAreFoldedWhereTheSessionIsRead()
    {
        const protocol::ProfileEvent large =
            repeatedProfile(recordedProfile(QStringLiteral("final")), kMaxProfileInstructions);
        const protocol::ProfileEvent small = recordedProfile(QStringLiteral("coarsened"));
        const QString file = m_dir.filePath(QStringLiteral("large.json"));
        const auto entry = [](const protocol::ProfileEvent &p) {
            return QJsonDocument(toJson(StoredProfile{p, "recorded", {}, {}})).toJson(QJsonDocument::Compact);
        };
        writeFile(file, sessionText({}, {entry(small), entry(large)}));
        const SessionParse read = readSessionFileForViews(file);
        QVERIFY2(read.data, qPrintable(read.error));
        QCOMPARE(read.data->profiles.size(), 2);
        QVERIFY(!read.data->profiles[0].digest->isMade());
        QVERIFY(read.data->profiles[1].digest->isMade());
        QCOMPARE(digestOf(read.data->profiles[1])->heat.size(), kMaxProfileInstructions);
        // The budget: however many large profiles a file holds, a few are folded ahead.
        foldAhead({});
        QList<StoredProfile> many;
        for (int i = 0; i < 6; ++i)
            many << withJson({large, "recorded", {}, {}});
        foldAhead(many);
        int made = 0;
        for (const StoredProfile &p : many)
            made += p.digest->isMade();
        QCOMPARE(made, int(kFoldAheadBudget / kMaxProfileInstructions));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestProfileDigest)
#include "tst_profile_digest.moc"
