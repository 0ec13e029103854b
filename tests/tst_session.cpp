// The session as the window uses it (Session): saved and opened again, a damaged file refused
// without loading anything, bench import, recorded sweeps and the embedded published data. The
// parts have their own tests: tst_session_store, tst_session_codec, tst_session_autosave.
#include "app_resources.h"
#include "session.h"
#include "stage_catalog.h"
#include "support/result_event_record.h"
#include "support/stored_runs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QtTest>

using namespace gemmscope;

namespace {

using test::failedRun;
using test::okRun;

QByteArray validSessionBytes()
{
    SessionData data;
    data.title = QStringLiteral("t");
    data.runs = {okRun("a", 2.0), failedRun("b")};
    return serializeSession(data);
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
    }

    void roundTripKeepsEveryField()
    {
        Session session;
        session.setAutosavePath(m_dir->filePath("autosave.json"));
        session.addOrUpdate(okRun("a", 2.5));
        session.addOrUpdate(failedRun("b"));
        QString error;
        const QString path = m_dir->filePath("s.json");
        QVERIFY2(session.saveAs(path, &error), qPrintable(error));
        QVERIFY(!session.isModified());

        Session loaded;
        QVERIFY2(loaded.open(path, &error), qPrintable(error));
        QCOMPARE(loaded.runs().size(), 2);
        const RunRecord &a = loaded.runs()[0];
        const RunRecord expected = okRun("a", 2.5);
        QCOMPARE(a.runId, expected.runId);
        QCOMPARE(a.stage, expected.stage);
        QCOMPARE(a.presetKey, expected.presetKey);
        QCOMPARE(a.params, expected.params);
        QCOMPARE(a.m, expected.m);
        QCOMPARE(a.k, expected.k);
        QCOMPARE(a.status, RunStatus::Ok);
        QCOMPARE(a.medianMs, expected.medianMs);
        QCOMPARE(a.p80Ms, expected.p80Ms);
        QCOMPARE(a.count, expected.count);
        QCOMPARE(a.flushL2, true);
        QCOMPARE(a.relError, expected.relError);
        QCOMPARE(a.registers, 64);
        QCOMPARE(a.occupancyLimiter, expected.occupancyLimiter);
        QCOMPARE(a.gpuName, expected.gpuName);
        QCOMPARE(a.timestamp, expected.timestamp);
        const RunRecord &b = loaded.runs()[1];
        QCOMPARE(b.status, RunStatus::Failed);
        QCOMPARE(b.errorKind, QStringLiteral("wrong_result"));
        QCOMPARE(b.errorMessage, failedRun("b").errorMessage);
        QCOMPARE(a.scalarSharedReads, false);
    }

    // The Sweep workspace's "Add the embedded example's sweeps": the default session's sweeps join this
    // session, whose runs, file and title stay; asked again, none is added twice; a file that
    // cannot be read says so and changes nothing.
    void recordedSweepsJoinASessionWithoutReplacingIt()
    {
        initResources();
        Session session;
        session.addOrUpdate(okRun("mine", 1.0));
        QString error;
        const std::optional<QStringList> added = session.addRecordedSweeps(&error);
        QVERIFY2(added, qPrintable(error));
        QCOMPARE(added->size(), 2);
        QCOMPARE(session.sweeps().size(), 2);
        QCOMPARE(session.runs().size(), 1);
        QCOMPARE(session.runs().first().runId, QStringLiteral("mine"));
        QVERIFY(session.isModified());
        const std::optional<QStringList> again = session.addRecordedSweeps(&error);
        QVERIFY(again && again->isEmpty());
        QCOMPARE(session.sweeps().size(), 2);

        const QString broken = m_dir->filePath("broken.json");
        writeFile(broken, "{ not json");
        QVERIFY(!session.addRecordedSweeps(&error, broken));
        QVERIFY(!error.isEmpty());
        QCOMPARE(session.sweeps().size(), 2);
    }

    // The scalar-shared build is another kernel binary: a run says so from the runner's event to
    // the saved session and back, and its parameter text tells it apart from the release build.
    void scalarSharedBuildSurvivesEventAndSession()
    {
        const QJsonObject event{
            {"event", "result"},
            {"id", "r1"},
            {"stage", "coalesced"},
            {"params", QJsonObject{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}}},
            {"size", QJsonObject{{"m", 256}, {"n", 256}, {"k", 256}}},
            {"build", "scalar_shared"},
            {"timing", QJsonObject{{"median_ms", 1.0}, {"count", 3}}}};
        const RunRecord fromEvent = fromResultEvent(event);
        QVERIFY(fromEvent.scalarSharedReads);
        QVERIFY(formatRunParams(fromEvent).endsWith(QStringLiteral(", scalar shared reads")));
        QString error;
        const std::optional<RunRecord> back = fromJson(toJson(fromEvent), &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(back->scalarSharedReads);

        QJsonObject release = event;
        release.insert("build", "release");
        QVERIFY(!fromResultEvent(release).scalarSharedReads);
        QVERIFY(!formatRunParams(fromResultEvent(release)).contains(QStringLiteral("scalar")));
        QVERIFY(!toJson(fromResultEvent(release)).contains(QStringLiteral("build")));
    }

    void launchExperimentsSurviveEventAndSession()
    {
        QJsonObject event{{"event", "result"},
                          {"id", "r2"},
                          {"stage", "coalesced"},
                          {"params", QJsonObject{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}}},
                          {"size", QJsonObject{{"m", 256}, {"n", 256}, {"k", 256}}},
                          {"max_blocks_per_sm", 1},
                          {"smem_carveout", 100},
                          {"timing", QJsonObject{{"median_ms", 1.0}, {"count", 3}}}};
        const RunRecord run = fromResultEvent(event);
        QCOMPARE(run.maxBlocksPerSm, 1);
        QCOMPARE(run.smemCarveout, 100);
        QCOMPARE(formatRunParams(run),
                 QStringLiteral("BM=64 BN=64 BK=8 TM=4 TN=4, at most 1 block/SM, carve-out 100 %"));
        const std::optional<RunRecord> back = fromJson(toJson(run));
        QVERIFY(back);
        QCOMPARE(back->maxBlocksPerSm, 1);
        QCOMPARE(back->smemCarveout, 100);
        // A plain run: nothing added, and a carve-out of 0 % is a setting, not "none".
        event.remove("max_blocks_per_sm");
        event.insert("smem_carveout", 0);
        const RunRecord plain = fromResultEvent(event);
        QCOMPARE(plain.maxBlocksPerSm, 0);
        QCOMPARE(fromJson(toJson(plain))->smemCarveout, 0);
        QVERIFY(formatRunParams(plain).endsWith(QStringLiteral("carve-out 0 %")));
    }

    void damagedFilesAreRefusedWithNothingLoaded_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("errorMentions");
        const QByteArray valid = validSessionBytes();
        QJsonObject root = QJsonDocument::fromJson(valid).object();
        const auto edited = [&](auto edit) {
            QJsonObject copy = root;
            edit(copy);
            return QJsonDocument(copy).toJson();
        };
        // The sentence of each kind of damage is the codec's (tst_session_codec); here: a refusal at
        // the file's level and one at a run's both leave the open session as it was.
        QTest::newRow("truncated") << valid.left(valid.size() / 2) << "truncated";
        QTest::newRow("duplicate ids") << edited([](QJsonObject &o) {
            QJsonArray runs = o["runs"].toArray();
            runs.append(runs[0]);
            o["runs"] = runs;
        }) << "twice";
    }

    void damagedFilesAreRefusedWithNothingLoaded()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, errorMentions);
        Session session;
        session.setAutosavePath({});
        session.addOrUpdate(okRun("kept", 7.0));
        const QString before = m_dir->filePath("before.json");
        QString error;
        QVERIFY(session.saveAs(before, &error));
        const QString path = m_dir->filePath("damaged.json");
        writeFile(path, bytes);
        QSignalSpy resets(&session, &Session::reset);
        QVERIFY(!session.open(path, &error));
        QVERIFY2(error.contains(errorMentions, Qt::CaseInsensitive), qPrintable(error));
        QVERIFY2(error.contains("damaged.json"), qPrintable(error));
        QCOMPARE(resets.count(), 0);
        QCOMPARE(session.runs().size(), 1);
        QCOMPARE(session.runs()[0].runId, QStringLiteral("kept"));
        QCOMPARE(session.filePath(), QFileInfo(before).absoluteFilePath());
    }

    void importBenchMakesRecordedRuns()
    {
        const QJsonObject result{
            {"event", "result"},
            {"id", "x1"},
            {"stage", "coalesced"},
            {"params", QJsonObject{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}}},
            {"size", QJsonObject{{"m", 2048}, {"n", 2048}, {"k", 2048}}},
            {"gpu", QJsonObject{{"name", "NVIDIA H200"}, {"arch", "sm_90"}}},
            {"timing",
             QJsonObject{
                 {"median_ms", 1.5}, {"p20_ms", 1.4}, {"p80_ms", 1.6}, {"min_ms", 1.3}, {"count", 40}}},
            {"tflops", 11.45},
            {"verify", QJsonObject{{"rel_error", 2e-7}, {"tolerance", 1e-5}, {"passed", true}}},
            {"compiled",
             QJsonObject{{"registers", 72},
                         {"static_smem_bytes", 4096},
                         {"occupancy", QJsonObject{{"fraction", 0.375}, {"limiter", "registers"}}}}},
            {"timestamp", "2026-11-29T23:10:00Z"}};
        const QJsonObject error{{"event", "error"},
                                {"id", "x2"},
                                {"kind", "compile_error"},
                                {"message", "NVRTC could not compile it."},
                                {"log", "line 3: error"}};
        const QJsonObject bench{{"format", "gemmscope-bench"},
                                {"version", 1},
                                {"date", "2026-11-29T23:00:00Z"},
                                {"gpu", "NVIDIA H200"},
                                {"size", QJsonObject{{"m", 2048}, {"n", 2048}, {"k", 2048}}},
                                {"rows", QJsonArray{QJsonObject{{"preset", "worklog-3"},
                                                                {"stage", "coalesced"},
                                                                {"params", result["params"]},
                                                                {"event", result}},
                                                    QJsonObject{{"preset", "worklog-8"},
                                                                {"stage", "final"},
                                                                {"params", QJsonObject{{"BM", 192}}},
                                                                {"event", error}}}}};
        const QString path = m_dir->filePath("bench.json");
        writeFile(path, QJsonDocument(bench).toJson());
        Session session;
        session.setAutosavePath({});
        QString why;
        QVERIFY2(session.importBench(path, &why), qPrintable(why));
        QCOMPARE(session.runs().size(), 2);
        const RunRecord &ok = session.runs()[0];
        QCOMPARE(ok.origin, QStringLiteral("recorded"));
        QCOMPARE(ok.status, RunStatus::Ok);
        QCOMPARE(ok.presetKey, QStringLiteral("worklog-3"));
        QCOMPARE(ok.medianMs, 1.5);
        QCOMPARE(ok.registers, 72);
        QCOMPARE(ok.occupancy, 0.375);
        QCOMPARE(ok.m, 2048LL);
        const RunRecord &failed = session.runs()[1];
        QCOMPARE(failed.status, RunStatus::Failed);
        QCOMPARE(failed.errorKind, QStringLiteral("compile_error"));
        QCOMPARE(failed.stageKey(), QStringLiteral("final"));
        QCOMPARE(failed.k, 2048LL); // from the bench's size: error events carry none
        QCOMPARE(failed.gpuName, QStringLiteral("NVIDIA H200"));
        // Importing the same bench again keeps run ids unique.
        QVERIFY(session.importBench(path, &why));
        QSet<QString> ids;
        for (const RunRecord &r : session.runs())
            ids.insert(r.runId);
        QCOMPARE(ids.size(), 4);

        writeFile(path, QJsonDocument(QJsonObject{{"format", "gemmscope-bench"}, {"version", 9}}).toJson());
        Session other;
        QVERIFY(!other.importBench(path, &why));
        QVERIFY(why.contains("version 9"));
        QVERIFY(other.runs().isEmpty());
    }

    void measuredCeilingsSurviveImportAndSave()
    {
        // A bench as gemmscope-bench writes it: the runner's ready GPU object and ceilings event.
        const QJsonObject gpu{{"name", "NVIDIA H200"}, {"arch", "sm_90"}};
        const QJsonObject ceilings{{"event", "ceilings"},
                                   {"id", "ceilings"},
                                   {"fma_tflops", 65.3},
                                   {"dram_gbs", 4228.0},
                                   {"measured_at", "2026-11-29T23:27:03Z"},
                                   {"gpu", gpu}};
        const QJsonObject bench{{"format", "gemmscope-bench"},    {"version", 1},
                                {"date", "2026-11-29T23:27:21Z"}, {"gpu", gpu},
                                {"ceilings", ceilings},           {"rows", QJsonArray{}}};
        const QString benchPath = m_dir->filePath("ceilings-bench.json");
        writeFile(benchPath, QJsonDocument(bench).toJson());
        Session session;
        session.setAutosavePath({});
        QSignalSpy changed(&session, &Session::ceilingsChanged);
        QString why;
        QVERIFY2(session.importBench(benchPath, &why), qPrintable(why));
        QCOMPARE(changed.count(), 1);
        const StoredCeilings entry = session.data().ceilings.value("NVIDIA H200");
        QCOMPARE(entry.fmaTflops, 65.3);
        QCOMPARE(entry.dramGbs, 4228.0);
        QCOMPARE(entry.origin, QStringLiteral("recorded"));

        const QString sessionPath = m_dir->filePath("with-ceilings.json");
        QVERIFY2(session.saveAs(sessionPath, &why), qPrintable(why));
        Session reopened;
        reopened.setAutosavePath({});
        QVERIFY2(reopened.open(sessionPath, &why), qPrintable(why));
        QCOMPARE(reopened.data().ceilings, session.data().ceilings);

        // Setting the same figures again is no change; new figures are.
        QSignalSpy again(&reopened, &Session::ceilingsChanged);
        reopened.setCeilings("NVIDIA H200", entry);
        QCOMPARE(again.count(), 0);
        StoredCeilings measured = entry;
        measured.origin = "measured";
        reopened.setCeilings("NVIDIA H200", measured);
        QCOMPARE(again.count(), 1);
        QVERIFY(reopened.isModified());
    }

    void embeddedDefaultHoldsPublishedAndRecordedRuns()
    {
        initResources();
        Session session;
        session.setAutosavePath({});
        QString error;
        QVERIFY2(session.loadDefault(&error), qPrintable(error));
        QVERIFY(session.filePath().isEmpty()); // Save must ask where: the resource is read-only
        int withPublishedTime = 0;
        for (const Preset &p : presets())
            withPublishedTime += p.worklogT4Ms.has_value();
        int published = 0, recorded = 0;
        for (const RunRecord &r : session.runs()) {
            const Preset *preset = findPreset(r.presetKey.toStdString());
            QVERIFY2(preset, qPrintable(r.presetKey));
            QCOMPARE(r.stage.str(), stageInfo(preset->stage).key);
            QCOMPARE(ProblemSize({r.m, r.n, r.k}), ProblemSize{});
            ParamValues params;
            for (auto it = r.params.begin(); it != r.params.end(); ++it)
                params[it.key().toStdString()] = it.value();
            QCOMPARE(params, preset->params);
            if (r.origin == QStringLiteral("worklog")) {
                // The worklog's published table, exactly as the catalog quotes it.
                ++published;
                QCOMPARE(r.gpuName, QStringLiteral("NVIDIA T4 (published)"));
                QCOMPARE(r.medianMs, preset->worklogT4Ms.value());
            } else {
                // A real ladder the project recorded on its H200: labelled as recorded, verified.
                ++recorded;
                QCOMPARE(r.origin, QStringLiteral("recorded"));
                QVERIFY(r.gpuName.contains("H200"));
                QVERIFY(r.timestamp.isValid());
                QVERIFY(r.isOk());
                QVERIFY(r.relError.has_value() && *r.relError <= r.tolerance);
                QVERIFY(r.p20Ms <= r.medianMs && r.medianMs <= r.p80Ms);
            }
        }
        QCOMPARE(published, withPublishedTime);
        QVERIFY2(recorded >= withPublishedTime + 2,
                 "the recorded ladder: every worklog step plus both cuBLAS");
        QVERIFY(session.data().description.contains("worklog"));
        QVERIFY(session.data().description.contains("H200"));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
