// Profiles in the session: stored as their own records, saved and loaded with the
// session (files without them load as before; a damaged entry is skipped with a notice, the rest
// loads), autosaved and recovered, imported from bench files, and found by configuration and by
// their cuBLAS baseline ("Why not cuBLAS?").
#include "bench_file.h"
#include "profile_record.h"
#include "session.h"
#include "stage_catalog.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

const QString kH200 = QStringLiteral("NVIDIA H200");

protocol::ProfileEvent profileOf(const QString &presetOrStage, const ProblemSize &size = {4096, 4096, 4096},
                                 const QString &gpu = kH200)
{
    protocol::ProfileEvent p;
    p.id = QStringLiteral("p-") + presetOrStage;
    if (const Preset *preset = findPreset(presetOrStage.toStdString())) {
        p.stage = stageKeyText(preset->stage);
        p.params = preset->params;
    } else {
        p.stage = presetOrStage;
    }
    p.size = size;
    p.gpu.name = gpu;
    p.gpu.arch = QStringLiteral("sm_90");
    p.arch = QStringLiteral("sm_90");
    p.samplingPeriod = 10;
    p.totalSamples = 1234;
    protocol::ProfileInstruction i;
    i.function = QStringLiteral("k");
    i.pc = 16;
    i.sass = QStringLiteral("LDS.128 R4, [R2+0x10]");
    i.file = QStringLiteral("final.cuh");
    i.line = 41;
    i.stalls = {{"mio_throttle", 1000}, {"selected", 234}};
    i.metrics = {{"inst_executed", 4096}};
    p.instructions = {i};
    p.limiters = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 24.6}};
    p.durationMs = 1840.2;
    p.timestamp = QStringLiteral("2026-12-01T21:10:00Z");
    return p;
}

RunConfig configOf(const QString &preset, const ProblemSize &size = {4096, 4096, 4096})
{
    const Preset *p = findPreset(preset.toStdString());
    RunConfig c;
    c.stage = p->stage;
    c.params = p->params;
    c.size = size;
    c.presetKey = preset;
    return c;
}

QJsonObject sessionJson(const QJsonValue &profiles = QJsonValue::Undefined)
{
    QJsonObject root{{"format", "gemmscope-session"}, {"version", 1}, {"runs", QJsonArray{}}};
    if (!profiles.isUndefined())
        root.insert("profiles", profiles);
    return root;
}

QJsonObject entryOf(const protocol::ProfileEvent &p)
{
    return toJson(StoredProfile{p, QStringLiteral("measured"), {}, {}});
}

} // namespace

class TestSessionProfiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void saveAndLoadKeepEveryProfile()
    {
        Session session;
        QSignalSpy added(&session, &Session::profileAdded);
        session.addProfile(profileOf("fp32-tuned"));
        protocol::ProfileEvent cublas = profileOf("cublas_fp32");
        cublas.instructions[0].file.clear();
        cublas.instructions[0].line = 0;
        cublas.instructionsError = QStringLiteral("cuBLAS's kernels are not instrumented.");
        session.addProfile(cublas, QStringLiteral("recorded"));
        QCOMPARE(added.count(), 2);
        QVERIFY(session.isModified());
        QVERIFY(session.runs().isEmpty()); // a profile is no run
        const QString file = m_dir.filePath("profiles.json");
        QString error;
        QVERIFY2(session.saveAs(file, &error), qPrintable(error));
        Session reopened;
        QSignalSpy changed(&reopened, &Session::profilesChanged);
        QVERIFY2(reopened.open(file, &error), qPrintable(error));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(reopened.profiles(), session.profiles());
        QCOMPARE(reopened.profiles()[1].origin, QStringLiteral("recorded"));
        QVERIFY(reopened.notices().isEmpty());
    }

    void sameConfigurationReplacesTheOlderProfile()
    {
        Session session;
        session.addProfile(profileOf("fp32-tuned"));
        protocol::ProfileEvent newer = profileOf("fp32-tuned");
        newer.totalSamples = 999;
        QSignalSpy added(&session, &Session::profileAdded);
        session.addProfile(newer);
        QCOMPARE(session.profiles().size(), 1);
        QCOMPARE(added.count(), 1);
        QCOMPARE(added[0][0].toInt(), 0);
        QCOMPARE(session.profiles()[0].event.totalSamples, std::optional<double>(999));
        session.addProfile(profileOf("fp32-tuned", {2048, 2048, 2048})); // another size: another record
        QCOMPARE(session.profiles().size(), 2);
    }

    void sessionWithoutProfilesLoadsAsBefore()
    {
        const SessionParse parsed = parseSessionJson(QJsonDocument(sessionJson()).toJson());
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QVERIFY(parsed.data->profiles.isEmpty());
        QVERIFY(parsed.data->notices.isEmpty());
        // ... and one without profiles is written without the key, as before.
        QVERIFY(!QJsonDocument::fromJson(serializeSession(*parsed.data)).object().contains("profiles"));
    }

    // Without a GPU the embedded session shows every profile view: recorded H200
    // profiles of the five presets at 4096^3, each with its cuBLAS baseline, read without a notice.
    void embeddedSessionCarriesRecordedProfiles_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("baseline");
        QTest::newRow("worklog-2") << "worklog-2"
                                   << "cublas_fp32";
        QTest::newRow("worklog-3") << "worklog-3"
                                   << "cublas_fp32";
        QTest::newRow("worklog-8") << "worklog-8"
                                   << "cublas_fp32";
        QTest::newRow("fp32-tuned") << "fp32-tuned"
                                    << "cublas_fp32";
        QTest::newRow("tf32-wgmma-tma") << "tf32-wgmma-tma"
                                        << "cublas_tf32";
    }
    void embeddedSessionCarriesRecordedProfiles()
    {
        QFETCH(QString, preset);
        QFETCH(QString, baseline);
        const QString embedded =
            QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json");
        Session session;
        QString error;
        QVERIFY2(session.loadDefault(&error, embedded), qPrintable(error));
        QVERIFY2(session.notices().isEmpty(), qPrintable(session.notices().join('\n')));
        // At the size of the embedded session's runs, so that the window shows them on first open.
        const StoredProfile *profile = session.profileForConfig(configOf(preset, {8192, 4096, 6144}), kH200);
        QVERIFY2(profile, "no recorded profile of this preset at 8192x4096x6144 on the H200");
        QVERIFY(profile->isRecorded());
        QVERIFY(profile->event.totalSamples.value_or(0) > 0);
        QVERIFY(!profile->event.limiters.isEmpty());
        const bool hasLines =
            std::any_of(profile->event.instructions.begin(), profile->event.instructions.end(),
                        [](const protocol::ProfileInstruction &i) { return i.line > 0; });
        QVERIFY(hasLines); // built with -lineinfo: the Source tab's columns
        const StoredProfile *cublas = session.baselineProfileFor(profile->event);
        QVERIFY(cublas);
        QCOMPARE(cublas->event.stage, baseline);
        // Saved again, the embedded profiles come back unchanged.
        const SessionParse again = parseSessionJson(serializeSession(session.data()));
        QVERIFY2(again.data, qPrintable(again.error));
        QCOMPARE(again.data->profiles, session.profiles());
    }

    void damagedProfileIsSkippedWithANotice_data()
    {
        QTest::addColumn<QJsonValue>("entry");
        QTest::addColumn<QString>("says");
        QJsonObject noStage = entryOf(profileOf("fp32-tuned"));
        QJsonObject event = noStage["event"].toObject();
        event.remove("stage");
        noStage["event"] = event;
        QJsonObject noSize = entryOf(profileOf("fp32-tuned"));
        event = noSize["event"].toObject();
        event.remove("size");
        noSize["event"] = event;
        QJsonObject badInstructions = entryOf(profileOf("fp32-tuned"));
        event = badInstructions["event"].toObject();
        event["instructions"] = QJsonArray{1, 2};
        badInstructions["event"] = event;
        QJsonObject wrongEvent = entryOf(profileOf("fp32-tuned"));
        event = wrongEvent["event"].toObject();
        event["event"] = "result";
        wrongEvent["event"] = event;
        QTest::newRow("a number") << QJsonValue(7) << "not an object";
        QTest::newRow("no event") << QJsonValue(QJsonObject{{"origin", "measured"}}) << "no profile event";
        QTest::newRow("no stage") << QJsonValue(noStage) << "names no stage";
        QTest::newRow("no size") << QJsonValue(noSize) << "no problem size";
        QTest::newRow("instructions of numbers") << QJsonValue(badInstructions) << "instructions";
        QTest::newRow("not a profile event") << QJsonValue(wrongEvent) << "Profile 2";
    }
    void damagedProfileIsSkippedWithANotice()
    {
        QFETCH(QJsonValue, entry);
        QFETCH(QString, says);
        const QJsonArray profiles{entryOf(profileOf("fp32-tuned")), entry, entryOf(profileOf("cublas_fp32"))};
        const QString file = m_dir.filePath("damaged-profile.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(sessionJson(profiles)).toJson());
        f.close();
        Session session;
        QString error;
        QVERIFY2(session.open(file, &error), qPrintable(error)); // the rest of the session loads
        QCOMPARE(session.profiles().size(), 2);
        QCOMPARE(session.profiles()[0].event.stage, QStringLiteral("pipelined"));
        QCOMPARE(session.profiles()[1].event.stage, QStringLiteral("cublas_fp32"));
        QCOMPARE(session.notices().size(), 1);
        const QString notice = session.notices().first();
        QVERIFY2(notice.contains("Profile 2") && notice.contains("left out") && notice.contains(says) &&
                     notice.startsWith("damaged-profile.json"),
                 qPrintable(notice));
    }

    void profilesThatAreNoListAreLeftOutWithANotice()
    {
        const SessionParse parsed = parseSessionJson(QJsonDocument(sessionJson(QJsonValue("x"))).toJson());
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QVERIFY(parsed.data->profiles.isEmpty());
        QCOMPARE(parsed.data->notices.size(), 1);
        QVERIFY(parsed.data->notices.first().contains("not a list"));
    }

    // The Profile action's lookups: the configuration's profile and its cuBLAS baseline of the same
    // precision, at the same size, on the same GPU.
    void lookupFindsTheConfigurationAndItsBaseline()
    {
        Session session;
        session.addProfile(profileOf("fp32-tuned"));
        session.addProfile(profileOf("tf32-wgmma-tma"));
        session.addProfile(profileOf("cublas_fp32"));
        session.addProfile(profileOf("cublas_fp32", {2048, 2048, 2048}));
        session.addProfile(profileOf("cublas_tf32", {4096, 4096, 4096}, QStringLiteral("NVIDIA B200")));

        const StoredProfile *tuned = session.profileForConfig(configOf("fp32-tuned"), kH200);
        QVERIFY(tuned);
        QCOMPARE(tuned->event.stage, QStringLiteral("pipelined"));
        QVERIFY(session.profileForConfig(configOf("fp32-tuned"))); // any GPU
        QVERIFY(!session.profileForConfig(configOf("fp32-tuned"), QStringLiteral("NVIDIA B200")));
        QVERIFY(!session.profileForConfig(configOf("fp32-tuned", {2048, 2048, 2048}), kH200));
        QVERIFY(!session.profileForConfig(configOf("worklog-3"), kH200));
        RunConfig scalar = configOf("fp32-tuned");
        scalar.timing.scalarSharedReads = true; // another kernel binary: not this profile
        QVERIFY(!session.profileForConfig(scalar, kH200));

        const StoredProfile *fp32Baseline = session.baselineProfileFor(tuned->event);
        QVERIFY(fp32Baseline);
        QCOMPARE(fp32Baseline->event.stage, QStringLiteral("cublas_fp32"));
        QCOMPARE(fp32Baseline->event.size, (ProblemSize{4096, 4096, 4096}));
        // TF32 is compared with cuBLAS TF32, on the same GPU only: the B200's is not the H200's.
        const StoredProfile *tma = session.profileForConfig(configOf("tf32-wgmma-tma"), kH200);
        QVERIFY(tma);
        QVERIFY(!session.baselineProfileFor(tma->event));
        session.addProfile(profileOf("cublas_tf32"));
        QCOMPARE(session.baselineProfileFor(tma->event)->event.stage, QStringLiteral("cublas_tf32"));

        // A run's profile: its configuration on its GPU.
        RunRecord run;
        run.stage = stageIdOf("pipelined");
        run.params = {};
        for (const auto &[name, value] : findPreset("fp32-tuned")->params)
            run.params.insert(QString::fromStdString(name), value);
        run.m = run.n = run.k = 4096;
        run.gpuName = kH200;
        QCOMPARE(session.profileForRun(run), tuned);
        run.gpuName = QStringLiteral("Tesla T4");
        QVERIFY(!session.profileForRun(run));
    }

    // What the views show: the selected run's profile, else the panel's configuration (the runner's
    // GPU first, then any), each with its baseline.
    void shownProfilesFollowRunThenConfiguration()
    {
        Session session;
        session.addProfile(profileOf("fp32-tuned", {4096, 4096, 4096}, QStringLiteral("NVIDIA B200")));
        session.addProfile(profileOf("fp32-tuned"));
        session.addProfile(profileOf("cublas_fp32"));
        session.addProfile(profileOf("worklog-3"));
        RunRecord run;
        run.stage = stageIdOf("coalesced");
        for (const auto &[name, value] : findPreset("worklog-3")->params)
            run.params.insert(QString::fromStdString(name), value);
        run.m = run.n = run.k = 4096;
        run.gpuName = kH200;
        Session::ShownProfiles shown = session.shownProfiles(&run, configOf("fp32-tuned"), kH200);
        QVERIFY(shown.ofSelectedRun);
        QCOMPARE(shown.profile->event.stage, QStringLiteral("coalesced"));
        QCOMPARE(shown.baseline->event.stage, QStringLiteral("cublas_fp32"));
        run.m = 1024; // a run without a profile: the panel's configuration, on the runner's GPU
        shown = session.shownProfiles(&run, configOf("fp32-tuned"), kH200);
        QVERIFY(!shown.ofSelectedRun);
        QCOMPARE(shown.profile->event.gpu.name, kH200);
        QVERIFY(shown.baseline);
        shown = session.shownProfiles(nullptr, configOf("fp32-tuned"), QStringLiteral("NVIDIA B200"));
        QCOMPARE(shown.profile->event.gpu.name, QStringLiteral("NVIDIA B200"));
        QVERIFY(!shown.baseline);                                           // no cuBLAS profile on the B200
        shown = session.shownProfiles(nullptr, configOf("fp32-tuned"), {}); // no runner: the newest
        QCOMPARE(shown.profile->event.gpu.name, kH200);
        shown = session.shownProfiles(nullptr, configOf("worklog-8"), kH200);
        QVERIFY(!shown.profile && !shown.baseline);
    }

    void keyNormalisesTheRunnersEcho()
    {
        protocol::ProfileEvent echoed = profileOf("tf32-wgmma-tma");
        echoed.build = QStringLiteral("release");
        echoed.tf32Rounding = QStringLiteral("rna");
        QCOMPARE(profileKeyOf(echoed), profileKeyOf(configOf("tf32-wgmma-tma"), kH200));
        echoed.tf32Rounding = QStringLiteral("truncate");
        QVERIFY(!(profileKeyOf(echoed) == profileKeyOf(configOf("tf32-wgmma-tma"), kH200)));
        QCOMPARE(baselineStageOf("wgmma_tma_tf32"), QStringLiteral("cublas_tf32"));
        QCOMPARE(baselineStageOf("pipelined"), QStringLiteral("cublas_fp32"));
        QCOMPARE(baselineStageOf("cublas_tf32"), QStringLiteral("cublas_tf32"));
        QVERIFY(baselineStageOf("no_such_stage").isEmpty());
    }

    // A measured profile is autosaved at once, and an autosave with one the saved file lacks is
    // offered for recovery.
    void profilesAreAutosavedAndRecovered()
    {
        const QString autosave = m_dir.filePath("autosave-profiles.json");
        Session session;
        session.setAutosavePath(autosave);
        session.addProfile(profileOf("fp32-tuned"));
        QVERIFY(QFile::exists(autosave));
        QVERIFY(session.runsSavedNowhere() == false); // the autosave holds it
        const AutosaveRecovery recovery = Session::recoverableAutosave(autosave);
        QVERIFY(recovery.data);
        QCOMPARE(recovery.data->profiles.size(), 1);
        QCOMPARE(recovery.unsavedProfiles, 1);
        QVERIFY(recovery.worthOffering());
        Session adopted;
        adopted.adoptRecovered({*recovery.data});
        QCOMPARE(adopted.profiles(), session.profiles());
        // Saved: nothing left to offer.
        QString error;
        QVERIFY2(session.saveAs(m_dir.filePath("saved-profiles.json"), &error), qPrintable(error));
        QCOMPARE(Session::recoverableAutosave(autosave).unsavedProfiles, 0);
    }

    void benchProfilesAreImportedAsRecorded()
    {
        BenchFile bench;
        bench.gpuName = kH200;
        bench.gpu = QJsonObject{{"name", kH200}};
        protocol::ProfileEvent p = profileOf("fp32-tuned");
        p.gpu = {};
        bench.profileEvents = {protocol::toJson(p), protocol::toJson(profileOf("cublas_fp32"))};
        const QString file = m_dir.filePath("bench-profiles.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(serializeBench(bench));
        f.close();
        Session session;
        QString error;
        QVERIFY2(session.importBench(file, &error), qPrintable(error));
        QCOMPARE(session.profiles().size(), 2);
        QVERIFY(session.profiles()[0].isRecorded());
        QCOMPARE(session.profiles()[0].event.gpu.name, kH200); // the bench's GPU
        QVERIFY(session.baselineProfileFor(session.profiles()[0].event));
    }

    // `gemmscope --import-bench` of a bench with many profiles grows with their number, not with
    // its square: each profile was compared with every one imported before it (10,000 profiles:
    // 22 s, four times 5,000's 6 s). Timed at N and 4N profiles, the best of three each: the time per
    // profile at 4N must stay within a generous factor of that at N (it was 3.5x before).
    void importOfManyProfilesGrowsLinearly()
    {
        const auto writeBench = [&](int count) {
            BenchFile bench;
            bench.gpuName = kH200;
            bench.gpu = QJsonObject{{"name", kH200}};
            for (int i = 0; i < count; ++i)
                bench.profileEvents << protocol::toJson(
                    profileOf("fp32-tuned", {64LL * (i + 1), 4096, 4096}));
            const QString file = m_dir.filePath(QStringLiteral("bench-%1-profiles.json").arg(count));
            QFile f(file);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                qFatal("cannot write %s", qPrintable(file));
            f.write(serializeBench(bench));
            return file;
        };
        // What --import-bench does: import, then write the session (serialized here, not saved).
        const auto msPerProfile = [&](int count) {
            const QString file = writeBench(count);
            double best = std::numeric_limits<double>::infinity();
            for (int attempt = 0; attempt < 3; ++attempt) {
                QElapsedTimer clock;
                clock.start();
                Session session;
                QString error;
                if (!session.importBench(file, &error))
                    qFatal("%s", qPrintable(error));
                if (session.profiles().size() != count || serializeSession(session.data()).isEmpty())
                    qFatal("the import lost profiles");
                best = std::min(best, double(clock.nsecsElapsed()) / 1e6 / count);
            }
            return best;
        };
        const int n = 1000;
        const double small = msPerProfile(n), large = msPerProfile(4 * n);
        qInfo("%d profiles: %.3f ms each; %d profiles: %.3f ms each", n, small, 4 * n, large);
        QVERIFY2(large < 2.2 * std::max(small, 0.02),
                 qPrintable(QStringLiteral("%1 ms per profile at %2 profiles, %3 ms at %4")
                                .arg(large)
                                .arg(4 * n)
                                .arg(small)
                                .arg(n)));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSessionProfiles)
#include "tst_session_profiles.moc"
