// Every way a file comes into the window goes through one router (open_actions.h): a drop of
// several files on the window (a synthesized QDropEvent), Import Bench JSON given another
// GemmScope file, the command line (MainWindow::openCommandLine, what main.cpp calls). Each file
// opens where it belongs; a damaged one says why in the window and changes nothing; the window
// answers while a large session is read.
#include "main_window.h"
#include "open_actions.h"
#include "session.h"
#include "session_actions.h"
#include "workspaces.h"

#include "support/file_bytes.h"
#include "support/small_sweep_spec.h"
#include "support/sweep_point_run.h"

#include <QDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <QtTest>

using namespace gemmscope;
using gemmscope::test::readAll;
using gemmscope::test::writeAll;

namespace {

const QString kRecorded = QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/");

MainWindow::Options quietWindow()
{
    return MainWindow::Options{
        .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false};
}

// Drops `urls` on the window as a file manager would: enter, then drop. True when the window
// took the drag.
bool dropOn(MainWindow &window, const QList<QUrl> &urls)
{
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint at(window.width() / 2, window.height() / 2);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    return drop.isAccepted();
}

// A run measured in this window and saved nowhere: what must never be lost.
RunRecord unsavedRun()
{
    RunRecord r;
    r.runId = QStringLiteral("mine-1");
    r.stage = StageId::Final;
    r.m = r.n = r.k = 4096;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = 2.5;
    r.tflops = 55;
    return r;
}

SweepData smallSweep()
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-open-test");
    sweep.spec = smallSweepSpec();
    sweep.created = QDateTime::currentDateTimeUtc();
    int n = 0;
    for (const SweepPoint &p : planSweep(sweep.spec).points)
        if (p.valid()) {
            RunRecord r;
            r.runId = QStringLiteral("s%1").arg(n);
            test::setPointConfiguration(r, p);
            r.status = RunStatus::Ok;
            r.medianMs = 1.0 + n++ % 5;
            r.tflops = p.size.tflopsAt(r.medianMs);
            sweep.runs << r;
        }
    return sweep;
}

bool waitFor(const std::function<bool()> &condition, int ms = 60000)
{
    return QTest::qWaitFor(condition, ms);
}

} // namespace

class TestOpenFiles : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // big.json: 10,000 runs repeated from the ladder's under new ids (written once).
    bool writeBigSession() const
    {
        if (QFileInfo::exists(path("big.json")))
            return true;
        QJsonObject session = QJsonDocument::fromJson(readAll(path("session.json"))).object();
        const QJsonArray runs = session.value(QStringLiteral("runs")).toArray();
        QJsonArray many;
        for (int i = 0; i < 10000; ++i) {
            QJsonObject run = runs.at(i % runs.size()).toObject();
            run.insert(QStringLiteral("run_id"), QStringLiteral("big%1").arg(i));
            many.append(run);
        }
        session.insert(QStringLiteral("runs"), many);
        return writeAll(path("big.json"), QJsonDocument(session).toJson(QJsonDocument::Compact));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(kRecorded + "h200-full-ladder-4096.json", path("session.json")));
        QVERIFY(QFile::copy(kRecorded + "bench-h200-2026-11-29-run1.json", path("bench.json")));
        QVERIFY(QFile::copy(kRecorded + "sweeps-2026-11-30/sweep-1gpu.json", path("sweep.json")));
        QVERIFY(QFile::copy(kRecorded + "sweeps-2026-11-30/size-sweep-square.json", path("sizes.json")));
        QVERIFY(QFile::copy(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/profile/profile-worklog-3.json"),
                            path("profile.json")));
        SweepJournal journal;
        QVERIFY(journal.create(path("sweep.gsweep"), smallSweep()));
        journal.close();
        // A damaged file of each kind: cut in half.
        for (const char *name : {"session.json", "bench.json", "sweep.json", "sizes.json", "profile.json"}) {
            const QByteArray bytes = readAll(path(name));
            QVERIFY(writeAll(path(QStringLiteral("damaged-") + name), bytes.left(bytes.size() / 2)));
        }
        QVERIFY(writeAll(path("damaged-sweep.gsweep"), readAll(path("sweep.gsweep")).left(30)));
        QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("folder")));
    }

    void init() { FileOpener::setSweepInto(FileOpener::SweepInto::CurrentSession); }

    // Several files in one drop: each opened where it belongs, into the session that holds an
    // unsaved run; a folder and a web address each get a sentence.
    void aDropOpensEachFileWhereItBelongs()
    {
        MainWindow window(quietWindow());
        window.resize(1280, 800);
        window.show();
        window.session()->addOrUpdate(unsavedRun());
        const int benchRuns = 13; // bench-h200-2026-11-29-run1.json's rows
        QVERIFY(
            dropOn(window, {QUrl::fromLocalFile(path("bench.json")), QUrl::fromLocalFile(path("sweep.json")),
                            QUrl::fromLocalFile(path("profile.json")), QUrl::fromLocalFile(path("folder")),
                            QUrl(QStringLiteral("https://example.com/session.json"))}));
        QVERIFY(waitFor([&] { return window.session()->profiles().size() == 1; }));
        QVERIFY(window.session()->find(QStringLiteral("mine-1"))); // nothing lost
        QCOMPARE(window.session()->runs().size(), 1 + benchRuns);
        QCOMPARE(window.session()->sweeps().size(), 1);
        QCOMPARE(window.workspaces()->current(), Workspace::Sweep); // the sweep is shown
        const QString notice = window.noticeText();
        QVERIFY2(notice.contains(QStringLiteral("is a folder")), qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("not a file on this computer")), qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("Added the profile of coalesced")), qPrintable(notice));
    }

    // A damaged file of each kind, dropped: a sentence in the window naming it, nothing changed.
    void aDamagedFileOfEachKindChangesNothing_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name :
             {"session.json", "bench.json", "sweep.json", "sizes.json", "profile.json", "sweep.gsweep"})
            QTest::newRow(name) << QStringLiteral("damaged-") + name;
    }
    void aDamagedFileOfEachKindChangesNothing()
    {
        QFETCH(QString, name);
        MainWindow window(quietWindow());
        window.show();
        window.session()->addOrUpdate(unsavedRun());
        const quint64 revision = window.session()->revision();
        QVERIFY(dropOn(window, {QUrl::fromLocalFile(path(name))}));
        QVERIFY(waitFor([&] { return window.noticeText().contains(name); }));
        QVERIFY2(window.noticeText().contains(QStringLiteral("was not opened")),
                 qPrintable(window.noticeText()));
        QCOMPARE(window.session()->revision(), revision);
        QCOMPARE(window.session()->runs().size(), 1);
        QVERIFY(window.session()->isModified());
    }

    // Import Bench JSON given a session: it says so and opens it.
    void importBenchGivenASessionOpensIt()
    {
        MainWindow window(quietWindow());
        window.show();
        auto *actions = window.findChild<SessionActions *>();
        QVERIFY(actions);
        actions->importInBackground(path("session.json"));
        const QString absolute = QFileInfo(path("session.json")).absoluteFilePath();
        QVERIFY(waitFor([&] { return window.session()->filePath() == absolute; }));
        QVERIFY2(window.noticeText().contains(
                     QStringLiteral("is a GemmScope session, not a bench file: opening it")),
                 qPrintable(window.noticeText()));
    }

    // A recorded profile attaches to the run of its configuration (the ladder's coalesced stage
    // at 4096^3 on the H200).
    void aProfileAttachesToItsRun()
    {
        MainWindow window(quietWindow());
        window.show();
        QString error;
        QVERIFY2(window.openSession(path("session.json"), &error), qPrintable(error));
        QVERIFY(dropOn(window, {QUrl::fromLocalFile(path("profile.json"))}));
        QVERIFY(waitFor([&] { return window.session()->profiles().size() == 1; }));
        const QString notice = window.noticeText();
        QVERIFY2(notice.contains(QStringLiteral("it shows with run")), qPrintable(notice));
        const QString runId =
            notice.section(QStringLiteral("it shows with run "), 1).section(QLatin1Char(' '), 0, 0);
        const RunRecord *run = window.session()->find(runId);
        QVERIFY2(run, qPrintable(runId));
        QVERIFY(window.session()->profileForRun(*run));
    }

    // A sweep as a new session, when that is the user's choice.
    void aSweepOpensAsANewSessionWhenChosen()
    {
        FileOpener::setSweepInto(FileOpener::SweepInto::NewSession);
        MainWindow window(quietWindow());
        window.show();
        QString error;
        QVERIFY2(window.openSession(path("session.json"), &error), qPrintable(error));
        QVERIFY(dropOn(window, {QUrl::fromLocalFile(path("sizes.json"))}));
        QVERIFY(waitFor([&] { return window.session()->sweeps().size() == 1; }));
        QVERIFY(window.session()->runs().isEmpty()); // the ladder's session was closed
        QCOMPARE(window.session()->sweeps().first().spec.kind, SweepKind::Sizes);
        QVERIFY(window.session()->filePath().isEmpty()); // saving asks for a new name
    }

    // Two sweeps dropped together as a new session: one new session holds both (the second did
    // not close the first's).
    void sweepsDroppedTogetherShareTheNewSession()
    {
        FileOpener::setSweepInto(FileOpener::SweepInto::NewSession);
        MainWindow window(quietWindow());
        window.show();
        QString error;
        QVERIFY2(window.openSession(path("session.json"), &error), qPrintable(error));
        QVERIFY(dropOn(window,
                       {QUrl::fromLocalFile(path("sizes.json")), QUrl::fromLocalFile(path("sweep.json"))}));
        QVERIFY(waitFor([&] { return window.session()->sweeps().size() == 2; }));
        QVERIFY(window.session()->runs().isEmpty()); // the ladder's session was closed, once
    }

    // Asked where they go, the user is asked once for the files dropped together, by their names.
    void sweepsDroppedTogetherAreAskedAboutOnce()
    {
        FileOpener::setSweepInto(FileOpener::SweepInto::Ask);
        MainWindow window(quietWindow());
        window.show();
        window.session()->addOrUpdate(unsavedRun());
        QStringList questions;
        QTimer answer;
        QObject::connect(&answer, &QTimer::timeout, &window, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QStringLiteral("sweepIntoQuestion"))
                return;
            questions << box->text();
            for (QAbstractButton *button : box->buttons())
                if (button->text().remove(QLatin1Char('&')) == QStringLiteral("Add to This Session"))
                    button->click();
        });
        answer.start(50);
        QVERIFY(dropOn(window,
                       {QUrl::fromLocalFile(path("sizes.json")), QUrl::fromLocalFile(path("sweep.json"))}));
        QVERIFY(waitFor([&] { return window.session()->sweeps().size() == 2; }));
        QCOMPARE(questions.size(), 1);
        QVERIFY2(questions.first().contains(QStringLiteral("sizes.json")) &&
                     questions.first().contains(QStringLiteral("sweep.json")),
                 qPrintable(questions.first()));
        QVERIFY(window.session()->find(QStringLiteral("mine-1"))); // added, nothing closed
    }

    // The command line: a damaged file is said in the window, which shows the published numbers.
    void theCommandLineSaysWhyInTheWindow()
    {
        MainWindow window(quietWindow());
        window.show();
        QStringList failures;
        window.openCommandLine({path("damaged-session.json")}, [&](const QStringList &f) { failures = f; });
        QVERIFY(waitFor([&] { return !window.session()->runs().isEmpty(); }));
        QCOMPARE(failures.size(), 1);
        QVERIFY2(window.noticeText().contains(QStringLiteral("damaged-session.json was not opened")),
                 qPrintable(window.noticeText()));
        // A sweep given on the command line opens on the Sweep workspace, no default session.
        MainWindow second(quietWindow());
        second.show();
        second.openCommandLine({path("sweep.gsweep")});
        QVERIFY(waitFor([&] { return second.session()->sweeps().size() == 1; }));
        QVERIFY(second.session()->runs().isEmpty());
        QCOMPARE(second.workspaces()->current(), Workspace::Sweep);
    }

    // While a large session is read, the window answers: a 5 ms timer keeps firing between the
    // drop and the session's arrival (none would where the read holds the UI thread).
    void theWindowAnswersWhileALargeSessionIsRead()
    {
        QVERIFY(writeBigSession());
        MainWindow window(quietWindow());
        window.show();
        int ticks = 0, ticksWhenItArrived = -1;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        connect(window.session(), &Session::aboutToReset, [&] { ticksWhenItArrived = ticks; });
        timer.start(5);
        QVERIFY(dropOn(window, {QUrl::fromLocalFile(path("big.json"))}));
        QVERIFY(waitFor([&] { return window.session()->runs().size() == 10000; }, 120000));
        QVERIFY2(ticksWhenItArrived >= 3, qPrintable(QString::number(ticksWhenItArrived)));
    }

    // While a session is read, the status bar says how far with a Stop button; stopped, the read is
    // dropped: the open session and its unsaved run stay, and the notice says so.
    void stopLeavesTheOpenSessionAsItWas()
    {
        QVERIFY(writeBigSession());
        MainWindow window(quietWindow());
        window.show();
        window.session()->addOrUpdate(unsavedRun());
        const quint64 revision = window.session()->revision();
        QVERIFY(dropOn(window, {QUrl::fromLocalFile(path("big.json"))}));
        auto *stop = window.findChild<QPushButton *>(QStringLiteral("openStopButton"));
        QVERIFY(stop && stop->isVisibleTo(&window));
        QVERIFY(window.findChild<QWidget *>(QStringLiteral("openProgressBar"))->isVisibleTo(&window));
        stop->click();
        QVERIFY(waitFor(
            [&] { return window.noticeText().contains(QStringLiteral("Stopped reading big.json")); }));
        QVERIFY(!stop->isVisibleTo(&window));
        QCOMPARE(window.session()->revision(), revision);
        QCOMPARE(window.session()->runs().size(), 1);
        QVERIFY(window.session()->isModified());
    }
};

QTEST_MAIN(TestOpenFiles)
#include "tst_open_files.moc"
