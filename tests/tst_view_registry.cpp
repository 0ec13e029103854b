// The registry hands each view the change of one run as that change (views update
// incrementally): a run added, changed or removed reaches every view once, at once, with its index
// and id, without the whole list again; the views that show the selected run get its new record
// when it is the one that changed; a new session (refreshNow) gives every view all the runs. Views
// may share the session's list: they are told to let go of it before each change, so that no
// change copies the session's records, and a new session reaches them without a call.
#include "run_selection.h"
#include "run_view.h"
#include "session.h"
#include "view_registry.h"

#include <QWidget>
#include <QtTest>

using namespace gemmscope;

namespace {

// A view that notes what it was given.
class NotingView : public QWidget, public RunView {
public:
    QStringList calls;
    void setRuns(const QList<RunRecord> &runs) override
    {
        calls << QStringLiteral("setRuns %1").arg(runs.size());
    }
    void runAdded(const QList<RunRecord> &runs, qsizetype index) override
    {
        calls << QStringLiteral("added %1 of %2").arg(runs[index].runId).arg(runs.size());
    }
    void runChanged(const QList<RunRecord> &runs, qsizetype index) override
    {
        calls << QStringLiteral("changed %1 %2").arg(runs[index].runId).arg(int(runs[index].status));
    }
    void runRemoved(const QList<RunRecord> &runs, qsizetype index, const QString &runId) override
    {
        calls << QStringLiteral("removed %1 at %2, %3 left").arg(runId).arg(index).arg(runs.size());
    }
    void setSelectedRun(const QString &runId, const RunRecord *run) override
    {
        calls << QStringLiteral("selected %1 %2").arg(runId).arg(run ? int(run->status) : -1);
    }
    QString viewName() const override { return QStringLiteral("the noting view"); }
};

RunRecord run(const QString &id, RunStatus status)
{
    RunRecord r;
    r.runId = id;
    r.stage = StageId::Naive;
    r.status = status;
    return r;
}

// A view that shares the session's list, as the charts do, and lets go of it when told.
class SharingView : public QWidget, public RunView {
public:
    QList<RunRecord> runs;
    int fed = 0;
    void setRuns(const QList<RunRecord> &all) override
    {
        runs = all;
        ++fed;
    }
    void runAdded(const QList<RunRecord> &all, qsizetype) override { runs = all; }
    void runChanged(const QList<RunRecord> &all, qsizetype) override { runs = all; }
    void runRemoved(const QList<RunRecord> &all, qsizetype, const QString &) override { runs = all; }
    void runsAboutToChange() override { runs = QList<RunRecord>(); }
    QString viewName() const override { return QStringLiteral("the sharing view"); }
};

} // namespace

class TstViewRegistry : public QObject {
    Q_OBJECT

private slots:
    void eachChangeReachesTheViewsAsThatChange()
    {
        Session session;
        RunSelection selection;
        ViewRegistry registry(&session, &selection);
        session.addOrUpdate(run(QStringLiteral("a"), RunStatus::Ok));
        NotingView view;
        registry.add(&view);
        QCOMPARE(view.calls, QStringList{QStringLiteral("setRuns 1")}); // registered: all the runs once
        view.calls.clear();

        session.addOrUpdate(run(QStringLiteral("b"), RunStatus::Queued));
        session.addOrUpdate(run(QStringLiteral("b"), RunStatus::Running));
        selection.select(QStringLiteral("b"));
        registry.refreshSelection();
        session.addOrUpdate(run(QStringLiteral("b"), RunStatus::Ok)); // the selected run finishes
        session.removeRun(QStringLiteral("a"));
        QCOMPARE(view.calls,
                 (QStringList{QStringLiteral("added b of 2"), QStringLiteral("changed b 1"),
                              QStringLiteral("selected b 1"), QStringLiteral("changed b 2"),
                              QStringLiteral("selected b 2"), QStringLiteral("removed a at 0, 1 left")}));
        view.calls.clear();
        QTest::qWait(50); // nothing more comes later: no refill of every view afterwards
        QVERIFY2(view.calls.isEmpty(), qPrintable(view.calls.join(QStringLiteral("; "))));

        registry.refreshNow(); // a new session: every run, then the selected one
        QCOMPARE(view.calls, (QStringList{QStringLiteral("setRuns 1"), QStringLiteral("selected b 2")}));
    }

    void viewsThatShareTheRunsNeverMakeTheSessionCopyThem()
    {
        Session session;
        RunSelection selection;
        ViewRegistry registry(&session, &selection);
        SessionData data;
        for (int i = 0; i < 100; ++i)
            data.runs << run(QStringLiteral("r%1").arg(i), RunStatus::Ok);
        session.replace(data, QString());
        SharingView view;
        registry.add(&view);
        QCOMPARE(view.runs.constData(), session.runs().constData()); // shared, not copied

        // Each change: the session's records stay where they are (a shared list written to is
        // copied whole first), and the view shares the changed list.
        const RunRecord *records = session.runs().constData();
        session.addOrUpdate(run(QStringLiteral("new"), RunStatus::Queued));
        session.addOrUpdate(run(QStringLiteral("new"), RunStatus::Ok));
        session.removeRun(QStringLiteral("r5"));
        QCOMPARE(session.runs().constData(), records);
        QCOMPARE(view.runs.constData(), records);
        QCOMPARE(view.runs.size(), 100);

        // A new session reaches the view whole, without a call to refreshNow.
        const int fed = view.fed;
        data.runs.removeLast();
        session.replace(data, QString());
        QCOMPARE(view.fed, fed + 1);
        QCOMPARE(view.runs.size(), 99);
        QCOMPARE(view.runs.constData(), session.runs().constData());
    }

    // A large new session reaches the views one view a turn, the shown ones first, so that the
    // window answers between them (at 100,000 runs each chart takes 0.3-0.5 s); meanwhile the
    // views hold no run, of the old session or the new. A change of a run feeds the rest first;
    // a newer session cancels what was queued for the one before.
    void aLargeSessionReachesTheViewsOneATurn()
    {
        Session session;
        RunSelection selection;
        ViewRegistry registry(&session, &selection);
        registry.setFeedOneViewATurnFrom(50);
        QWidget window;
        SharingView hidden, shown, alsoShown;
        hidden.setParent(&window);
        shown.setParent(&window);
        alsoShown.setParent(&window);
        hidden.hide();
        window.show();
        for (SharingView *view : {&hidden, &shown, &alsoShown})
            registry.add(view);
        SessionData small;
        for (int i = 0; i < 10; ++i)
            small.runs << run(QStringLiteral("s%1").arg(i), RunStatus::Ok);
        session.replace(small, QString());
        QCOMPARE(hidden.runs.size(), 10); // below the bar: at once, every view
        QVERIFY(!registry.feedingNewSession());

        SessionData large;
        for (int i = 0; i < 60; ++i)
            large.runs << run(QStringLiteral("r%1").arg(i), RunStatus::Ok);
        session.replace(large, QString());
        QVERIFY(registry.feedingNewSession());
        for (SharingView *view : {&hidden, &shown, &alsoShown})
            QVERIFY(view->runs.isEmpty()); // not the old session's runs: none yet
        QStringList order;
        const auto note = [&] {
            for (const auto &[name, view] :
                 {std::pair(QStringLiteral("hidden"), &hidden), std::pair(QStringLiteral("shown"), &shown),
                  std::pair(QStringLiteral("alsoShown"), &alsoShown)})
                if (view->runs.size() == 60 && !order.contains(name))
                    order << name;
        };
        QElapsedTimer waited;
        waited.start();
        while (registry.feedingNewSession() && waited.elapsed() < 30000) {
            const qsizetype before = order.size();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            note();
            QVERIFY2(order.size() - before <= 1, "two views were fed in one turn");
        }
        note();
        QCOMPARE(order, (QStringList{QStringLiteral("shown"), QStringLiteral("alsoShown"),
                                     QStringLiteral("hidden")}));
        QCOMPARE(shown.runs.constData(), session.runs().constData()); // shared, as before

        // A run added while views wait: every view has every run before it hears of the change.
        session.replace(large, QString());
        session.addOrUpdate(run(QStringLiteral("new"), RunStatus::Queued));
        for (SharingView *view : {&hidden, &shown, &alsoShown})
            QCOMPARE(view->runs.size(), 61);
        QVERIFY(!registry.feedingNewSession());

        // A newer session while the views wait for one: they get the newer one's runs, once each.
        session.replace(large, QString());
        SessionData larger = large;
        larger.runs << run(QStringLiteral("extra"), RunStatus::Ok);
        const int fedBefore = hidden.fed;
        session.replace(larger, QString());
        QVERIFY(QTest::qWaitFor([&] { return !registry.feedingNewSession(); }, 30000));
        QTest::qWait(20); // nothing queued for the older session comes later
        for (SharingView *view : {&hidden, &shown, &alsoShown})
            QCOMPARE(view->runs.size(), 61);
        QCOMPARE(hidden.fed, fedBefore + 2); // the empty list, then the newer session's runs: once
    }
};

QTEST_MAIN(TstViewRegistry)
#include "tst_view_registry.moc"
