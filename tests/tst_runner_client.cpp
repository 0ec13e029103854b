// RunnerClient: the queue rules alone (PendingRuns), the client against a scripted stand-in runner
// (replacement of queued interactive jobs, device-fault restart, cancel), and against the real
// gemmscope-runner where it is built (the no-GPU path on CI).
#include "pending_runs.h"
#include "runner_client.h"
#include "support/stand_in_runner.h"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>

using namespace gemmscope;

namespace {

RunRequest request(const QString &id, const QString &tag)
{
    RunRequest r;
    r.jobId = id;
    r.tag = tag;
    r.config.stage = StageId::Coalesced;
    r.config.params = defaultParams(StageId::Coalesced);
    r.config.size = {256, 256, 256};
    return r;
}

// The stand-in runner (tests/support/stand_in_runner.py) as a GPU job looks: each run sends
// `compiled`, then three timing progress events 0.1 s apart, then a result of 1.0 ms and 40
// registers; a `fault` request is answered with device_fault and exit status 3.
RunnerCommand standInLikeAJob()
{
    return test::standInRunner({{"FAKE_MEDIAN_MS", "1.0"},
                                {"FAKE_REGISTERS", "40"},
                                {"FAKE_PROGRESS", "3"},
                                {"FAKE_DELAY_S", "0.3"}});
}

} // namespace

class TestRunnerClient : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<RunRecord>(); }

    // --- queue rules, no process ---
    void queueReplacesWaitingInteractiveJobs_data()
    {
        QTest::addColumn<QStringList>("tags"); // one job per tag, ids j0, j1, ...
        QTest::addColumn<QStringList>("expectedQueue");
        QTest::addColumn<QStringList>("expectedReplaced"); // all ids replaced along the way
        const QString i = kInteractiveTag, l = kLadderTag;
        QTest::newRow("one interactive") << QStringList{i} << QStringList{"j0"} << QStringList{};
        QTest::newRow("latest interactive wins")
            << QStringList{i, i, i} << QStringList{"j2"} << QStringList{"j0", "j1"};
        QTest::newRow("ladder jobs stay")
            << QStringList{l, l, l} << QStringList{"j0", "j1", "j2"} << QStringList{};
        QTest::newRow("interactive among ladder")
            << QStringList{l, i, l, i} << QStringList{"j0", "j2", "j3"} << QStringList{"j1"};
        QTest::newRow("ladder does not replace")
            << QStringList{i, l} << QStringList{"j0", "j1"} << QStringList{};
    }

    void queueReplacesWaitingInteractiveJobs()
    {
        QFETCH(QStringList, tags);
        QFETCH(QStringList, expectedQueue);
        QFETCH(QStringList, expectedReplaced);
        PendingRuns queue;
        QStringList replaced;
        for (int n = 0; n < tags.size(); ++n)
            replaced += queue.enqueue(request(QStringLiteral("j%1").arg(n), tags[n]));
        QCOMPARE(queue.jobIds(), expectedQueue);
        QCOMPARE(replaced, expectedReplaced);
        QStringList taken;
        while (auto next = queue.takeNext())
            taken << next->jobId;
        QCOMPARE(taken, expectedQueue); // arrival order
        QVERIFY(queue.isEmpty());
    }

    void queueRemovesByIdOnly()
    {
        PendingRuns queue;
        queue.enqueue(request("a", kLadderTag));
        queue.enqueue(request("b", kLadderTag));
        QVERIFY(!queue.remove("zzz"));
        QCOMPARE(queue.remove("a")->jobId, QStringLiteral("a"));
        QVERIFY(!queue.contains("a"));
        QCOMPARE(queue.jobIds(), QStringList{"b"});
    }

    void requestJsonFollowsTheProtocol()
    {
        RunRequest r = request("x", kInteractiveTag);
        r.config.timing = {250, true};
        const QJsonObject json = r.toProtocolJson();
        QCOMPARE(json["type"].toString(), QStringLiteral("run"));
        QCOMPARE(json["id"].toString(), QStringLiteral("x"));
        QCOMPARE(json["stage"].toString(), QStringLiteral("coalesced"));
        QCOMPARE(json["size"].toObject()["k"].toInt(), 256);
        QCOMPARE(json["timing"].toObject()["budget_ms"].toInt(), 250);
        QCOMPARE(json["timing"].toObject()["flush_l2"].toBool(), true);
        QCOMPARE(json["params"].toObject().size(), qsizetype(defaultParams(StageId::Coalesced).size()));
        // Hardware counters (the roofline's measured intensity) are asked for unless turned off.
        QCOMPARE(json["counters"].toBool(false), true);
        r.config.timing.counters = false;
        QCOMPARE(r.toProtocolJson()["counters"].toBool(true), false);
    }

    void ladderRequestsAskForCounters()
    {
        const QList<RunRequest> ladder = ladderRequests(ProblemSize{512, 512, 512}, TimingOptions{});
        QVERIFY(!ladder.isEmpty());
        for (const RunRequest &r : ladder)
            QCOMPARE(r.toProtocolJson()["counters"].toBool(false), true);
    }

    // --- the client against processes ---
    void missingRunnerSaysWhy()
    {
        RunnerClient client(QStringLiteral("/nonexistent/gemmscope-runner"));
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.submit(request({}, kInteractiveTag));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QCOMPARE(status.count(), 1);
        QCOMPARE(status[0][0].toBool(), false);
        QVERIFY(status[0][1].toString().startsWith("runner unavailable: "));
        const RunRecord record = failed[0][0].value<RunRecord>();
        QCOMPARE(record.errorKind, QStringLiteral("runner_unavailable"));
        QCOMPARE(record.status, RunStatus::Failed);
        QCOMPARE(record.stageKey(), QStringLiteral("coalesced"));
    }

    void newInteractiveRequestReplacesQueuedOnes()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(standInLikeAJob());
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy started(&client, &RunnerClient::runStarted);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy replaced(&client, &RunnerClient::jobsReplaced);
        QSignalSpy progress(&client, &RunnerClient::progress);
        QSignalSpy preliminary(&client, &RunnerClient::preliminaryMedian);
        QSignalSpy idle(&client, &RunnerClient::idle);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 10000);
        QCOMPARE(status[0][0].toBool(), true);
        QVERIFY(status[0][1].toString().contains("Fake GPU"));
        const QString first = client.submit(request({}, kInteractiveTag));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 5000); // first is running now
        const QString second = client.submit(request({}, kInteractiveTag));
        const QString ladder = client.submit(request({}, kLadderTag));
        const QString third = client.submit(request({}, kInteractiveTag));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 3, 10000);
        QTRY_VERIFY(idle.count() > 0);
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(replaced[0][0].toStringList(), QStringList{second});
        QStringList finished;
        for (const auto &args : results)
            finished << args[0].value<RunRecord>().runId;
        QCOMPARE(finished, (QStringList{first, ladder, third}));
        const RunRecord r = results[0][0].value<RunRecord>();
        QCOMPARE(r.status, RunStatus::Ok);
        QCOMPARE(r.medianMs, 1.0);
        QCOMPARE(r.registers, 40);
        QVERIFY(progress.count() >= 3);
        // The runner's median so far arrives with the timing progress, before the result.
        QVERIFY(preliminary.count() >= 3);
        QCOMPARE(preliminary.first().at(1).toDouble(), 1.0);
    }

    void deviceFaultRestartsRunnerAndQueueGoesOn()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(standInLikeAJob());
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        RunRequest fault = request({}, kLadderTag);
        fault.type = protocol::RequestType::Fault;
        const QString faultId = client.submit(fault);
        const QString after = client.submit(request({}, kLadderTag));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 15000);
        QCOMPARE(failed.count(), 1);
        const RunRecord faulted = failed[0][0].value<RunRecord>();
        QCOMPARE(faulted.runId, faultId);
        QCOMPARE(faulted.errorKind, QStringLiteral("device_fault"));
        QVERIFY(faulted.errorMessage.contains("illegal memory access"));
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
        QCOMPARE(status.count(), 2); // ready, then ready again from the restarted runner
    }

    // A kernel that never ends: the runner reports kernel_timeout and exits (status 3) as after a
    // device fault; the client starts a new runner, the sentence is the runner's alone, and the
    // queue goes on.
    void kernelTimeoutRestartsRunnerLikeAFault()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        RunnerCommand command = standInLikeAJob();
        command.environment.insert(QStringLiteral("FAKE_FAULT_KIND"), QStringLiteral("kernel_timeout"));
        client.setCommand(command);
        QSignalSpy status(&client, &RunnerClient::runnerStatusChanged);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        RunRequest spin = request({}, kLadderTag);
        spin.type = protocol::RequestType::Fault;
        const QString spinId = client.submit(spin);
        const QString after = client.submit(request({}, kLadderTag));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 15000);
        QCOMPARE(failed.count(), 1);
        const RunRecord timedOut = failed[0][0].value<RunRecord>();
        QCOMPARE(timedOut.runId, spinId);
        QCOMPARE(timedOut.errorKind, QStringLiteral("kernel_timeout"));
        QCOMPARE(timedOut.errorMessage,
                 QStringLiteral(
                     "The kernel did not finish within 20 s; it was stopped and the runner restarted."));
        QCOMPARE(results[0][0].value<RunRecord>().runId, after);
        QCOMPARE(status.count(), 2); // ready, then ready again from the restarted runner
    }

    // A profile job goes out as the protocol's `profile` request, its progress phases
    // come through, and its answer arrives typed (profileAvailable), never as a run record.
    void profileIsDecodedAndRouted()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(test::standInRunner({{"FAKE_DELAY_S", "0.2"}}));
        QSignalSpy profiles(&client, &RunnerClient::profileAvailable);
        QSignalSpy profileFailures(&client, &RunnerClient::profileFailed);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        QSignalSpy progress(&client, &RunnerClient::progress);
        QSignalSpy gpu(&client, &RunnerClient::runnerGpu);
        RunConfig config = request({}, kInteractiveTag).config;
        config.size = {4096, 4096, 4096};
        RunRequest profile = profileRequest(config);
        QCOMPARE(profile.toProtocolJson()["type"].toString(), QStringLiteral("profile"));
        const QString id = client.submit(profile);
        // An interactive run after it does not replace the queued profile.
        client.submit(request({}, kInteractiveTag));
        QTRY_COMPARE_WITH_TIMEOUT(profiles.count(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 10000);
        QCOMPARE(profileFailures.count(), 0);
        QCOMPARE(failed.count(), 0);
        const auto event = profiles[0][0].value<protocol::ProfileEvent>();
        QCOMPARE(event.id, id);
        QCOMPARE(event.stage, QStringLiteral("coalesced"));
        QCOMPARE(event.size, (ProblemSize{4096, 4096, 4096}));
        QCOMPARE(event.gpu.name, QStringLiteral("Fake GPU"));
        QCOMPARE(event.instructions.size(), 7);
        QCOMPARE(event.instructions[0].file, QStringLiteral("coalesced.cuh"));
        QVERIFY(event.instructions[0].samples() > 0);
        QVERIFY(event.limiters.contains("sm__warps_active.avg.pct_of_peak_sustained_active"));
        QCOMPARE(results[0][0].value<RunRecord>().stageKey(), QStringLiteral("coalesced")); // the run's
        QList<protocol::ProgressPhase> phases;
        for (const auto &args : progress)
            if (args[0].toString() == id)
                phases << args[1].value<protocol::ProgressPhase>();
        QVERIFY(phases.contains(protocol::ProgressPhase::Compile));
        QVERIFY(phases.contains(protocol::ProgressPhase::Limiters));
        QCOMPARE(gpu.count(), 1);
        QCOMPARE(gpu[0][0].toString(), QStringLiteral("Fake GPU"));
    }

    // A runner killed mid-profile fails that profile with its kind and a
    // sentence (no run record), is restarted, and the next profile is answered.
    void runnerKilledMidProfileFailsItWithASentence()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(test::standInRunner());
        QSignalSpy profiles(&client, &RunnerClient::profileAvailable);
        QSignalSpy profileFailures(&client, &RunnerClient::profileFailed);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        RunRequest killed = profileRequest(request({}, kInteractiveTag).config);
        killed.seed = 102; // the stand-in's crash hook: SIGKILL at the "stalls" phase
        const QString killedId = client.submit(killed);
        const QString nextId = client.submit(profileRequest(request({}, kInteractiveTag).config));
        QTRY_COMPARE_WITH_TIMEOUT(profiles.count(), 1, 15000);
        QCOMPARE(profileFailures.count(), 1);
        QCOMPARE(profileFailures[0][0].toString(), killedId);
        QCOMPARE(profileFailures[0][1].toString(), QStringLiteral("runner_crashed"));
        const QString sentence = profileFailures[0][2].toString();
        QVERIFY2(sentence.contains("restarted"), qPrintable(sentence));
        QCOMPARE(profiles[0][0].value<protocol::ProfileEvent>().id, nextId);
        QCOMPARE(failed.count(), 0); // no run record for either
    }

    // A runner error for a profile (no permission for counters, say) comes with its kind.
    void profileErrorKeepsItsKindAndSentence()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(test::standInRunner({{"FAKE_PROFILE_FAIL_KIND", "launch_error"}}));
        QSignalSpy profileFailures(&client, &RunnerClient::profileFailed);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        client.submit(profileRequest(request({}, kInteractiveTag).config));
        QTRY_COMPARE_WITH_TIMEOUT(profileFailures.count(), 1, 10000);
        QCOMPARE(profileFailures[0][1].toString(), QStringLiteral("launch_error"));
        QCOMPARE(profileFailures[0][2].toString(), QStringLiteral("The stand-in cannot profile here."));
        QCOMPARE(failed.count(), 0);
    }

    // Esc cancels profiles as it cancels runs: the queued one at once, the running one through the
    // runner (this stand-in ignores cancel, so the grace period ends it); a hung profile is ended
    // by the watchdog. Each comes back as profileFailed with its kind, never as a run.
    void hungProfileIsCancelledOrTimedOut_data()
    {
        QTest::addColumn<bool>("cancel");
        QTest::addColumn<QString>("kind");
        QTest::newRow("cancelled") << true << "cancelled";
        QTest::newRow("timed out") << false << "runner_timeout";
    }
    void hungProfileIsCancelledOrTimedOut()
    {
        QFETCH(bool, cancel);
        QFETCH(QString, kind);
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(test::standInRunner());
        RunnerClient::Watchdog limits;
        limits.silenceMarginMs = cancel ? 600000 : 300;
        limits.profileSilenceMs = 100; // a profile is timed by the protocol's limit, not its budget
        limits.cancelGraceMs = 300;
        client.setWatchdog(limits);
        QSignalSpy started(&client, &RunnerClient::runStarted);
        QSignalSpy profileFailures(&client, &RunnerClient::profileFailed);
        QSignalSpy profiles(&client, &RunnerClient::profileAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        RunRequest hung = profileRequest(request({}, kInteractiveTag).config);
        hung.seed = 101; // the stand-in hangs at "stalls"
        hung.config.timing.budgetMs = 100;
        const QString hungId = client.submit(hung);
        const QString queuedId = client.submit(profileRequest(request({}, kInteractiveTag).config));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        if (cancel) {
            client.cancelAll();
            QTRY_COMPARE_WITH_TIMEOUT(profileFailures.count(), 2, 10000);
            QCOMPARE(profileFailures[0][0].toString(), queuedId);
            QCOMPARE(profileFailures[0][1].toString(), kind);
            QCOMPARE(profileFailures[0][2].toString(),
                     QStringLiteral("The profile was cancelled before it started."));
            QCOMPARE(profileFailures[1][0].toString(), hungId);
        } else {
            QTRY_COMPARE_WITH_TIMEOUT(profileFailures.count(), 1, 10000);
            QCOMPARE(profileFailures[0][0].toString(), hungId);
            QVERIFY2(profileFailures[0][2].toString().contains(QStringLiteral("while it profiled")),
                     qPrintable(profileFailures[0][2].toString()));
            QTRY_COMPARE_WITH_TIMEOUT(profiles.count(), 1, 10000); // the next one, on the restarted runner
            QCOMPARE(profiles[0][0].value<protocol::ProfileEvent>().id, queuedId);
        }
        QCOMPARE(profileFailures.last()[1].toString(), kind);
        QVERIFY(!profileFailures.last()[2].toString().isEmpty());
        QCOMPARE(failed.count(), 0);
    }

    void cancelDropsQueuedJob()
    {
        if (test::standInRunnerPath().isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        RunnerClient client;
        client.setCommand(standInLikeAJob());
        QSignalSpy started(&client, &RunnerClient::runStarted);
        QSignalSpy results(&client, &RunnerClient::resultAvailable);
        QSignalSpy failed(&client, &RunnerClient::runFailed);
        const QString running = client.submit(request({}, kLadderTag));
        const QString queued = client.submit(request({}, kLadderTag));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        client.cancel(queued);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QCOMPARE(failed[0][0].value<RunRecord>().runId, queued);
        QCOMPARE(failed[0][0].value<RunRecord>().errorKind, QStringLiteral("cancelled"));
        QTRY_COMPARE_WITH_TIMEOUT(results.count(), 1, 5000);
        QCOMPARE(results[0][0].value<RunRecord>().runId, running);
        QTest::qWait(300);
        QCOMPARE(started.count(), 1);
    }

    void realRunnerWithoutGpuSaysNoGpu()
    {
        const QString runner = qEnvironmentVariable("GEMMSCOPE_RUNNER");
        if (runner.isEmpty() || !QFile::exists(runner))
            QSKIP("gemmscope-runner is not built (no CUDA Toolkit): GEMMSCOPE_RUNNER is not set");
        RunnerHost host(runner);
        RunnerClient *client = host.client();
        QSignalSpy status(client, &RunnerClient::runnerStatusChanged);
        QSignalSpy failed(client, &RunnerClient::runFailed);
        QTRY_COMPARE_WITH_TIMEOUT(status.count(), 1, 30000);
        if (status[0][0].toBool())
            QSKIP("This machine has a GPU: the no-GPU path is covered on CI");
        QVERIFY(!status[0][1].toString().isEmpty());
        client->submit(request({}, kInteractiveTag));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const RunRecord r = failed[0][0].value<RunRecord>();
        QCOMPARE(r.errorKind, QStringLiteral("no_gpu"));
        QVERIFY(!r.errorMessage.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRunnerClient)
#include "tst_runner_client.moc"
