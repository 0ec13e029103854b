// The Profile action's data path against the stand-in runner: the configuration and its
// cuBLAS baseline are profiled off the UI thread and land in the session as profiles, never as
// runs; a baseline the session has is not profiled again; a runner killed mid-profile costs that
// profile alone (a kind and a sentence) and leaves the session and its autosave intact.
#include "profile_controller.h"
#include "run_controller.h"
#include "session.h"
#include "support/stand_in_runner.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

RunConfig configOf(const QString &preset, long long size = 512)
{
    const Preset *p = findPreset(preset.toStdString());
    RunConfig c;
    c.stage = p->stage;
    c.params = p->params;
    c.size = {size, size, size};
    c.presetKey = preset;
    return c;
}

RunRecord finishedRun()
{
    RunRecord r;
    r.runId = QStringLiteral("kept");
    r.stage = StageId::CublasFp32;
    r.m = r.n = r.k = 512;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = 1;
    r.gpuName = QStringLiteral("Fake GPU");
    return r;
}

} // namespace

class TestProfileController : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
    }
    void cleanup() { qunsetenv("FAKE_PROFILE_CRASH"); }

    void withoutRunnerNothingIsProfiled()
    {
        Session session;
        RunController runs(&session);
        QVERIFY(!runs.profiles()->hasRunner());
        QVERIFY(runs.profiles()->profile(configOf("worklog-3")).isEmpty());
        QVERIFY(session.profiles().isEmpty());
    }

    void profilesTheConfigurationAndItsBaseline()
    {
        Session session;
        session.addOrUpdate(finishedRun());
        RunController runs(&session);
        runs.startRunner(test::standInRunnerPath());
        ProfileController *profiles = runs.profiles();
        QTRY_COMPARE_WITH_TIMEOUT(profiles->gpuName(), QStringLiteral("Fake GPU"), 10000);
        QSignalSpy finished(profiles, &ProfileController::profileFinished);
        QSignalSpy failed(profiles, &ProfileController::profileFailed);
        QSignalSpy progress(profiles, &ProfileController::progress);
        QSignalSpy idle(profiles, &ProfileController::idle);
        QSignalSpy runProgress(&runs, &RunController::progress);
        QSignalSpy runFinished(&runs, &RunController::runFinished);
        const QStringList ids = profiles->profile(configOf("worklog-3"));
        QCOMPARE(ids.size(), 2); // worklog-3, then cuBLAS FP32 at 512^3: the session has neither
        QVERIFY(profiles->isProfiling());
        // Named as the tables name them (issue 38), never by a catalog key ("worklog-3", "cublas_fp32").
        QCOMPARE(profiles->describe(ids[0]), QStringLiteral("3 — Coalesced cooperative loads at 512³"));
        QCOMPARE(profiles->describe(ids[1]), QStringLiteral("cuBLAS FP32 (reference) at 512³"));
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 15000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(finished.count(), 2);
        QCOMPARE(session.profiles().size(), 2);
        QCOMPARE(session.runs().size(), 1); // no run record made or changed
        QCOMPARE(toJson(*session.find("kept")), toJson(finishedRun()));
        QCOMPARE(runFinished.count(), 0);
        QCOMPARE(runProgress.count(), 0); // a profile's progress is the profile controller's
        QList<protocol::ProgressPhase> phases;
        for (const auto &args : progress)
            if (args[0].toString() == ids[0])
                phases << args[2].value<protocol::ProgressPhase>();
        // Throttled like a run's (RunnerClient::kProgressIntervalMs); the last phase always comes.
        QVERIFY(phases.contains(protocol::ProgressPhase::Compile));
        QCOMPARE(phases.last(), protocol::ProgressPhase::Limiters);
        const StoredProfile *profile = session.profileForConfig(configOf("worklog-3"), profiles->gpuName());
        QVERIFY(profile);
        QCOMPARE(profile->origin, QStringLiteral("measured"));
        QCOMPARE(session.baselineProfileFor(profile->event)->event.stage, QStringLiteral("cublas_fp32"));

        // Another stage at the same size: its baseline is in the session already.
        QCOMPARE(profiles->profile(configOf("worklog-2")).size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 2, 15000);
        QCOMPARE(session.profiles().size(), 3);
        // cuBLAS itself is its own baseline.
        RunConfig cublas;
        cublas.stage = StageId::CublasTf32;
        cublas.size = {512, 512, 512};
        QCOMPARE(profiles->profile(cublas).size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 3, 15000);
    }

    void runnerKilledMidProfileLeavesTheSessionIntact()
    {
        qputenv("FAKE_PROFILE_CRASH", "coalesced"); // worklog-3's stage dies at "stalls"
        const QString autosave = m_dir.filePath("autosave-crash.json");
        Session session;
        session.setAutosavePath(autosave);
        session.addOrUpdate(finishedRun());
        protocol::ProfileEvent earlier;
        earlier.stage = QStringLiteral("final");
        earlier.size = {512, 512, 512};
        earlier.gpu.name = QStringLiteral("Fake GPU");
        session.addProfile(earlier);
        RunController runs(&session);
        runs.startRunner(test::standInRunnerPath());
        ProfileController *profiles = runs.profiles();
        QTRY_COMPARE_WITH_TIMEOUT(profiles->gpuName(), QStringLiteral("Fake GPU"), 10000);
        QSignalSpy finished(profiles, &ProfileController::profileFinished);
        QSignalSpy failed(profiles, &ProfileController::profileFailed);
        QSignalSpy idle(profiles, &ProfileController::idle);
        const QStringList ids = profiles->profile(configOf("worklog-3"));
        QCOMPARE(ids.size(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 20000);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed[0][0].toString(), ids[0]);
        QCOMPARE(failed[0][1].toString(), QStringLiteral("3 — Coalesced cooperative loads at 512³"));
        QCOMPARE(failed[0][2].toString(), QStringLiteral("runner_crashed"));
        QVERIFY2(failed[0][3].toString().contains("restarted"), qPrintable(failed[0][3].toString()));
        // The baseline, sent after it, ran on the restarted runner.
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished[0][0].value<protocol::ProfileEvent>().stage, QStringLiteral("cublas_fp32"));
        // Nothing lost or altered: the run, the earlier profile, and the autosave that holds them.
        QCOMPARE(session.runs().size(), 1);
        QCOMPARE(toJson(*session.find("kept")), toJson(finishedRun()));
        QCOMPARE(session.profiles().size(), 2);
        QCOMPARE(session.profiles()[0].event, earlier);
        const SessionParse saved = readSessionFile(autosave);
        QVERIFY2(saved.data, qPrintable(saved.error));
        QCOMPARE(saved.data->runs.size(), 1);
        QCOMPARE(saved.data->profiles, session.profiles());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestProfileController)
#include "tst_profile_controller.moc"
