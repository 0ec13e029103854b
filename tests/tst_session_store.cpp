// The session's data in memory (SessionStore): each change announced by its signals, counted in
// the revision and told to whoever keeps the data (edited()), and the run index right through
// every change.
#include "session_store.h"
#include "stage_catalog.h"
#include "support/stored_runs.h"

#include <QSignalSpy>
#include <QtTest>

using namespace gemmscope;

namespace {

RunRecord runOf(const QString &id, RunStatus status = RunStatus::Ok)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    r.m = r.n = r.k = 512;
    r.status = status;
    r.origin = QStringLiteral("measured");
    r.medianMs = r.p20Ms = r.p80Ms = r.minMs = status == RunStatus::Ok ? 1.0 : 0.0;
    r.count = status == RunStatus::Ok ? 5 : 0;
    return r;
}

using test::profileOf;

SweepData sweepOf(const QString &id)
{
    SweepData sweep;
    sweep.id = id;
    sweep.spec.kind = SweepKind::Sizes;
    sweep.spec.stage = StageId::CublasFp32;
    sweep.spec.sizes = {{1024, 1024, 1024}};
    return sweep;
}

// A store that records what each change told edited().
class RecordingStore : public SessionStore {
public:
    using SessionStore::Edit;
    QList<Edit> edits;

protected:
    void edited(Edit edit) override { edits << edit; }
};

} // namespace

class TestSessionStore : public QObject {
    Q_OBJECT
private slots:
    // Runs are looked up by id through an index (a scan of 10,000 runs per progress update cost
    // milliseconds): every change to the list — add, update, remove, a new session — must leave
    // each id naming its own row, and a removed or unknown id none.
    void runIdsFindTheirRowsThroughEveryChange()
    {
        SessionStore store;
        for (const char *id : {"a", "b", "c", "d"})
            store.addOrUpdate(runOf(id));
        QCOMPARE(store.indexOf("c"), 2);
        RunRecord slower = runOf("c");
        slower.medianMs = 3.0;
        store.addOrUpdate(slower); // an update keeps its row
        QCOMPARE(store.indexOf("c"), 2);
        QCOMPARE(store.find("c")->medianMs, 3.0);
        store.removeRun("a"); // the rows after it move up
        QCOMPARE(store.indexOf("a"), -1);
        QCOMPARE(store.find("a"), nullptr);
        QCOMPARE(store.indexOf("b"), 0);
        QCOMPARE(store.indexOf("d"), 2);
        QCOMPARE(store.find("d")->runId, QStringLiteral("d"));
        store.addOrUpdate(runOf("e"));
        QCOMPARE(store.indexOf("e"), 3);
        QCOMPARE(store.indexOf("nobody"), -1);
        for (int i = 0; i < store.runs().size(); ++i)
            QCOMPARE(store.indexOf(store.runs()[i].runId), i);

        SessionData next;
        next.runs = store.runs();
        SessionStore opened;
        opened.addOrUpdate(runOf("stale")); // forgotten when the new session replaces it
        opened.replace(next);
        QCOMPARE(opened.indexOf("stale"), -1);
        QCOMPARE(opened.indexOf("e"), 3);
        opened.replace({});
        QCOMPARE(opened.indexOf("e"), -1);
    }

    // Item models bracket a change: the about-to signal comes first, with the same row (views that
    // share the runs let go of them then). A new session's ceilings come before its runs, so that
    // the roofline draws the runs once, under the new ceilings.
    void runSignalsBracketTheirChange()
    {
        SessionStore store;
        QList<QString> said;
        connect(&store, &SessionStore::runAboutToBeAdded, this, [&](int i) {
            said << QStringLiteral("about to add %1 (%2 runs)").arg(i).arg(store.runs().size());
        });
        connect(&store, &SessionStore::runAdded, this,
                [&](int i) { said << QStringLiteral("added %1 (%2 runs)").arg(i).arg(store.runs().size()); });
        connect(&store, &SessionStore::runAboutToChange, this,
                [&](int i) { said << QStringLiteral("about to change %1").arg(i); });
        connect(&store, &SessionStore::runChanged, this,
                [&](int i) { said << QStringLiteral("changed %1").arg(i); });
        connect(&store, &SessionStore::ceilingsChanged, this, [&] { said << QStringLiteral("ceilings"); });
        connect(&store, &SessionStore::runAboutToBeRemoved, this,
                [&](int i) { said << QStringLiteral("about to remove %1").arg(i); });
        connect(&store, &SessionStore::runRemoved, this,
                [&](int i) { said << QStringLiteral("removed %1").arg(i); });
        connect(&store, &SessionStore::aboutToReset, this, [&] { said << QStringLiteral("about to reset"); });
        connect(&store, &SessionStore::reset, this,
                [&] { said << QStringLiteral("reset (%1 runs)").arg(store.runs().size()); });
        store.addOrUpdate(runOf("a", RunStatus::Queued));
        store.addOrUpdate(runOf("a"));
        store.removeRun("a");
        store.removeRun("a"); // none: nothing said
        store.replace({});
        const QStringList expected{
            "about to add 0 (0 runs)", "added 0 (1 runs)", "about to change 0", "changed 0",
            "about to remove 0",       "removed 0",        "about to reset",    "ceilings",
            "reset (0 runs)"};
        QCOMPARE(said, expected);
    }

    // Every change counts in the revision and tells edited() what it was; a change that changes
    // nothing does neither.
    void everyChangeIsCountedAndTold()
    {
        using Edit = RecordingStore::Edit;
        RecordingStore store;
        QSignalSpy ceilings(&store, &SessionStore::ceilingsChanged),
            sweeps(&store, &SessionStore::sweepsChanged), profiles(&store, &SessionStore::profileAdded),
            kernels(&store, &SessionStore::customKernelsChanged);
        quint64 revision = store.revision();
        const auto changed = [&] {
            const bool grew = store.revision() > revision;
            revision = store.revision();
            return grew;
        };
        store.addOrUpdate(runOf("q", RunStatus::Queued));
        QVERIFY(changed());
        store.addOrUpdate(runOf("q", RunStatus::Failed));
        QVERIFY(changed());
        store.removeRun("q");
        QVERIFY(changed());
        store.removeRun("q");
        QVERIFY(!changed());
        StoredCeilings roofs;
        roofs.fmaTflops = 60;
        store.setCeilings("GPU", roofs);
        store.setCeilings("GPU", roofs); // the same figures: no change
        store.setCeilings({}, roofs);    // no GPU: nothing to store
        QCOMPARE(ceilings.count(), 1);
        QVERIFY(changed());
        store.setSweep(sweepOf("s"), true);
        store.setSweep(sweepOf("s"));
        QCOMPARE(store.sweeps().size(), 1);
        QVERIFY(store.addSweepRun("s", runOf("s1")));
        QVERIFY(!store.addSweepRun("none", runOf("s2")));
        QCOMPARE(store.sweeps().first().runs.size(), 1);
        QCOMPARE(sweeps.count(), 2); // an answer leaves the list of sweeps as it is
        QVERIFY(changed());
        store.addProfile(profileOf("coalesced"));
        QCOMPARE(profiles.count(), 1);
        QCOMPARE(profiles.first().first().toInt(), 0);
        QVERIFY(changed());
        store.setCustomKernel({"// k", "k.cuh", ""});
        store.setCustomKernel({"// k", "k.cuh", ""}); // the same text: no change
        QCOMPARE(kernels.count(), 1);
        QVERIFY(changed());
        const QList<Edit> expected{Edit::Other,         Edit::Measured,     Edit::Other,
                                   Edit::Other,         Edit::SweepSettled, Edit::SweepProgress,
                                   Edit::SweepProgress, Edit::Measured,     Edit::Measured};
        QCOMPARE(store.edits, expected);

        store.replace({}); // a new session: counted, but no edit of this one
        QVERIFY(changed());
        QCOMPARE(store.edits.size(), expected.size());
        QCOMPARE(kernels.count(), 2);
    }

    // A newer profile of the same configuration takes the older one's place; the views' choice
    // prefers the selected run's configuration.
    void aNewerProfileReplacesTheOlder()
    {
        SessionStore store;
        QSignalSpy added(&store, &SessionStore::profileAdded);
        store.addProfile(profileOf("coalesced"));
        store.addProfile(profileOf("cublas_fp32"));
        protocol::ProfileEvent newer = profileOf("coalesced");
        newer.timestamp = QStringLiteral("2026-12-02T08:00:00Z");
        store.addProfile(newer);
        QCOMPARE(store.profiles().size(), 2);
        QCOMPARE(added.last().first().toInt(), 0);
        QCOMPARE(store.profiles().first().event.timestamp, newer.timestamp);
        QVERIFY(store.findProfile(profileKeyOf(newer)));
        QCOMPARE(store.findProfile(profileKeyOf(newer))->event.timestamp, newer.timestamp);
        QVERIFY(!store.findProfile(profileKeyOf(profileOf("tiled_1d"))));
    }

    // An imported bench's runs get ids of their own, however often it is imported.
    void importedRunsKeepTheirIdsUnique()
    {
        SessionStore store;
        SessionData bench;
        bench.title = QStringLiteral("Recorded bench run");
        bench.runs = {runOf("bench-1"), runOf("bench-2")};
        store.appendImported(bench, QStringLiteral("b"));
        store.appendImported(bench, QStringLiteral("b"));
        QStringList ids;
        for (const RunRecord &r : store.runs())
            ids << r.runId;
        QCOMPARE(ids, QStringList({"b-bench-1", "b-bench-2", "b-bench-1-2", "b-bench-2-2"}));
        QCOMPARE(store.data().title, bench.title);
        for (int i = 0; i < ids.size(); ++i)
            QCOMPARE(store.indexOf(ids[i]), i);
    }

    // Custom kernels are kept by text: an edit is a second version beside the first (runs name
    // their kernel by its text), the same text once; a removal takes every version of the name.
    void customKernelsAreKeptByText()
    {
        SessionStore store;
        store.setCustomKernel({"// one", "a.cuh", "tiled_2d"});
        store.setCustomKernel({"// two", "b.cuh", ""});
        store.setCustomKernel({"// one, edited", "a.cuh", "tiled_2d"});
        store.setCustomKernel({"// one", "a.cuh", "tiled_2d"});
        QCOMPARE(store.customKernels().size(), size_t(3));
        QCOMPARE(store.customKernels()[0].text, std::string("// one"));
        QCOMPARE(store.customKernels()[2].text, std::string("// one, edited"));
        QCOMPARE(store.customKernels()[2].derivedFrom, std::string("tiled_2d"));
        QVERIFY(store.removeCustomKernel("a.cuh"));
        QVERIFY(!store.removeCustomKernel("a.cuh"));
        QCOMPARE(store.customKernels().size(), size_t(1));
        QCOMPARE(store.customKernels()[0].fileName, std::string("b.cuh"));
    }
};

QTEST_GUILESS_MAIN(TestSessionStore)
#include "tst_session_store.moc"
