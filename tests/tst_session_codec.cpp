// Session files and the bench import as bytes (session_codec.h): every field comes back as it was
// written, each kind of damaged file is refused with its own sentence, a damaged addition (a
// profile, a custom kernel) is left out with a sentence while the rest loads, and numbers at
// their edges and text with markup survive.
#include "session_codec.h"
#include "stage_catalog.h"
#include "support/stored_runs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include <cfloat>

using namespace gemmscope;

namespace {

using test::failedRun;
using test::okRun;

using test::profileOf;

// A session with something in every field a file keeps.
SessionData everyField()
{
    SessionData data;
    data.title = QStringLiteral("<b>Tiles</b> & \"friends\"");
    data.description = QStringLiteral("Runs of the H200 <script>, line one\nline two");
    data.created = QDateTime(QDate(2026, 12, 5), QTime(10, 11, 12), Qt::UTC);
    data.runs = {okRun("a", 2.5), failedRun("b")};
    StoredCeilings full;
    full.fmaTflops = 65.3, full.dramGbs = 4228;
    full.measuredAt = QStringLiteral("2026-11-29T23:27:03Z");
    full.origin = QStringLiteral("measured");
    full.tf32Tflops = 410.5, full.tf32Kernel = QStringLiteral("mma.sync.m16n8k8.tf32");
    full.l2Gbs = 11000, full.sharedGbs = 28000;
    StoredCeilings bare;
    bare.origin = QStringLiteral("recorded"); // every figure zero: no roof
    data.ceilings = {{QStringLiteral("NVIDIA H200"), full}, {QStringLiteral("GPU <i>"), bare}};
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-1");
    sweep.spec.kind = SweepKind::Sizes;
    sweep.spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"}};
    sweep.spec.sizes = {{1024, 2048, 512}};
    sweep.spec.stage = StageId::CublasFp32;
    sweep.spec.size = sweep.spec.sizes.front();
    sweep.created = data.created;
    sweep.runs = {okRun("s1", 1.0)};
    data.sweeps = {sweep};
    data.profiles = {withJson({profileOf("coalesced"), QStringLiteral("measured"), {}, {}})};
    data.customKernels = {{"// gemmscope:kernel\n/* é, \"quoted\" <tags> */\n", "my_gemm.cuh", "tiled_2d"},
                          {"// blank", "blank.cuh", ""}};
    return data;
}

QByteArray runsRemoved(const QByteArray &json, const std::function<void(QJsonObject &)> &edit)
{
    QJsonObject root = QJsonDocument::fromJson(json).object();
    edit(root);
    return QJsonDocument(root).toJson();
}

QByteArray withCustomKernels(const QJsonValue &kernels)
{
    SessionData data;
    data.runs = {okRun("a", 1.0)};
    return runsRemoved(serializeSession(data), [&](QJsonObject &o) { o["custom_kernels"] = kernels; });
}

QJsonObject kernelJson(const QString &source, const QString &fileName = QStringLiteral("k.cuh"))
{
    return {{"source", source}, {"file_name", fileName}, {"derived_from", ""}};
}

} // namespace

class TestSessionCodec : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
    }

    void roundTripKeepsEveryField()
    {
        const SessionData written = everyField();
        const QByteArray bytes = serializeSession(written, QStringLiteral("/home/u/saved.json"));
        const SessionParse back = parseSessionJson(bytes);
        QVERIFY2(back.data, qPrintable(back.error));
        const SessionData &read = *back.data;
        QCOMPARE(read.title, written.title);
        QCOMPARE(read.description, written.description);
        QCOMPARE(read.created, written.created);
        QCOMPARE(read.ceilings, written.ceilings);
        QCOMPARE(read.runs.size(), written.runs.size());
        for (qsizetype i = 0; i < read.runs.size(); ++i)
            QCOMPARE(toJson(read.runs[i]), toJson(written.runs[i]));
        QCOMPARE(read.runs[1].errorMessage, written.runs[1].errorMessage);
        QCOMPARE(read.sweeps.size(), 1);
        QCOMPARE(toJson(read.sweeps.first()), toJson(written.sweeps.first()));
        QCOMPARE(read.profiles, written.profiles);
        QCOMPARE(read.customKernels.size(), written.customKernels.size());
        for (size_t i = 0; i < read.customKernels.size(); ++i)
            QVERIFY(sameKernelSource(read.customKernels[i], written.customKernels[i]));
        QVERIFY(read.notices.isEmpty());
        // The autosave's reading keeps them too, and the file it shadows.
        const SessionSalvage salvaged = salvageSessionJson(bytes, QStringLiteral("autosave.json"));
        QVERIFY(salvaged.data && salvaged.problems.isEmpty() && !salvaged.damaged);
        QCOMPARE(salvaged.savedFile, QStringLiteral("/home/u/saved.json"));
        QCOMPARE(salvaged.data->customKernels.size(), written.customKernels.size());
        // Recovery reads no sweeps, as it never did: a sweep a crash cut short comes back from its
        // journal (sweep_journals.h).
        QVERIFY(salvaged.data->sweeps.isEmpty());
        SessionData withoutSweeps = read;
        withoutSweeps.sweeps.clear();
        QCOMPARE(serializeSession(*salvaged.data), serializeSession(withoutSweeps));
    }

    // Optional lists are written only when there is something in them, and a file without them
    // reads as before.
    void emptyListsAreLeftOut()
    {
        SessionData data;
        data.runs = {okRun("a", 1.0)};
        const QJsonObject root = QJsonDocument::fromJson(serializeSession(data)).object();
        for (const char *key : {"custom_kernels", "profiles", "sweeps", "ceilings", "saved_file"})
            QVERIFY2(!root.contains(QLatin1String(key)), key);
        const SessionParse back = parseSessionJson(serializeSession(data));
        QVERIFY2(back.data, qPrintable(back.error));
        QVERIFY(back.data->customKernels.empty());
        QVERIFY(back.data->notices.isEmpty());
    }

    void damagedFilesGiveTheirSentence_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("errorMentions");
        SessionData data;
        data.title = QStringLiteral("t");
        data.runs = {okRun("a", 2.0), failedRun("b")};
        data.sweeps = everyField().sweeps;
        const QByteArray valid = serializeSession(data);
        const auto edited = [&](const std::function<void(QJsonObject &)> &edit) {
            return runsRemoved(valid, edit);
        };
        const auto runEdited = [&](int index, const std::function<void(QJsonObject &)> &edit) {
            return edited([&](QJsonObject &o) {
                QJsonArray runs = o["runs"].toArray();
                QJsonObject run = runs[index].toObject();
                edit(run);
                runs[index] = run;
                o["runs"] = runs;
            });
        };
        QTest::newRow("not json") << QByteArray("this is not a session") << "JSON";
        QTest::newRow("truncated") << valid.left(valid.size() / 2) << "truncated";
        QTest::newRow("empty") << QByteArray() << "JSON";
        QTest::newRow("a list") << QByteArray("[1, 2]") << "holds JSON but not a GemmScope object";
        QTest::newRow("unknown version") << edited([](QJsonObject &o) { o["version"] = 2; }) << "version 2";
        QTest::newRow("version zero") << edited([](QJsonObject &o) { o["version"] = 0; }) << "version 0";
        QTest::newRow("huge version")
            << edited([](QJsonObject &o) { o["version"] = 1e300; }) << "version 1.0000000000000001e+300";
        QTest::newRow("version as text") << edited([](QJsonObject &o) { o["version"] = "1"; }) << "version";
        QTest::newRow("other format") << edited([](QJsonObject &o) { o["format"] = "something-else"; })
                                      << "not a GemmScope session (format \"something-else\")";
        QTest::newRow("format with markup")
            << edited([](QJsonObject &o) { o["format"] = "<b>x</b>"; }) << "format \"<b>x</b>\"";
        QTest::newRow("runs missing")
            << edited([](QJsonObject &o) { o.remove("runs"); }) << "no list of runs";
        QTest::newRow("runs not a list")
            << edited([](QJsonObject &o) { o["runs"] = 3; }) << "no list of runs";
        QTest::newRow("run without stage")
            << runEdited(1, [](QJsonObject &r) { r.remove("stage"); }) << "stage";
        QTest::newRow("ok run without timing")
            << runEdited(0, [](QJsonObject &r) { r.remove("timing"); }) << "timing";
        QTest::newRow("run with zero median") << runEdited(0, [](QJsonObject &r) {
            r["timing"] = QJsonObject{{"median_ms", 0}};
        }) << "median";
        QTest::newRow("duplicate ids") << edited([](QJsonObject &o) {
            QJsonArray runs = o["runs"].toArray();
            runs.append(runs[0]);
            o["runs"] = runs;
        }) << "run id a appears twice";
        QTest::newRow("sweeps not a list") << edited([](QJsonObject &o) { o["sweeps"] = "many"; })
                                           << "Its list of sweeps is damaged: it is not a list";
        QTest::newRow("sweep damaged")
            << edited([](QJsonObject &o) { o["sweeps"] = QJsonArray{QJsonObject{}}; })
            << "Its list of sweeps is damaged";
    }

    // Each kind of damage is refused with its own sentence, which names the file.
    void damagedFilesGiveTheirSentence()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, errorMentions);
        const SessionParse parsed = parseSessionJson(bytes);
        QVERIFY(!parsed.data);
        QVERIFY2(parsed.error.contains(errorMentions, Qt::CaseInsensitive), qPrintable(parsed.error));
        const QString path = m_dir->filePath("damaged.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        const SessionParse read = readSessionFile(path);
        QVERIFY(!read.data);
        QVERIFY2(read.error.startsWith(QStringLiteral("damaged.json was not loaded.")),
                 qPrintable(read.error));
        QVERIFY2(read.error.contains(errorMentions, Qt::CaseInsensitive), qPrintable(read.error));
    }

    void damagedAdditionsAreLeftOut_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("notice");
        QTest::addColumn<int>("kernelsKept");
        const QJsonObject good = kernelJson(QStringLiteral("// fine"), QStringLiteral("good.cuh"));
        QTest::newRow("profiles not a list")
            << runsRemoved(withCustomKernels(QJsonArray{good}), [](QJsonObject &o) { o["profiles"] = 7; })
            << "The profiles of the file were left out: they are not a list." << 1;
        QTest::newRow("kernels not a list")
            << withCustomKernels(QStringLiteral("text"))
            << "The custom kernels of the file were left out: they are not a list." << 0;
        QTest::newRow("kernel not an object")
            << withCustomKernels(QJsonArray{good, 5})
            << "Custom kernel 2 of the file was left out: it is not an object." << 1;
        QTest::newRow("source missing")
            << withCustomKernels(QJsonArray{QJsonObject{{"file_name", "x.cuh"}}, good})
            << "Custom kernel 1 of the file was left out: its source is not text." << 1;
        QTest::newRow("source a number")
            << withCustomKernels(QJsonArray{good, QJsonObject{{"source", 1e308}}})
            << "Custom kernel 2 of the file was left out: its source is not text." << 1;
        QTest::newRow("source with NUL")
            << withCustomKernels(
                   QJsonArray{kernelJson(QStringLiteral("a") + QChar(0) + QStringLiteral("b")), good})
            << "Custom kernel 1 of the file was left out: its source is not text." << 1;
        QTest::newRow("lone surrogate")
            << withCustomKernels(QJsonArray{kernelJson(QStringLiteral("SURROGATE"))})
                   .replace("\"SURROGATE\"", "\"\\ud800\"")
            << "Custom kernel 1 of the file was left out: its source is not text." << 0;
        QTest::newRow("source over the limit")
            << withCustomKernels(
                   QJsonArray{good, kernelJson(QString(qsizetype(kMaxKernelSourceBytes) + 1, u'x'))})
            << QStringLiteral(
                   "Custom kernel 2 of the file was left out: its source is %1 bytes, more than the %2 "
                   "a kernel may have.")
                   .arg(qsizetype(kMaxKernelSourceBytes) + 1)
                   .arg(qsizetype(kMaxKernelSourceBytes))
            << 1;
        QTest::newRow("file name a number")
            << withCustomKernels(QJsonArray{QJsonObject{{"source", "// k"}, {"file_name", 0}}})
            << "Custom kernel 1 of the file was left out: its file name or the kernel it was derived from is "
               "not "
               "text."
            << 0;
    }

    // A profile or a custom kernel that cannot be kept is left out with a sentence; the runs and
    // every other kernel load.
    void damagedAdditionsAreLeftOut()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, notice);
        QFETCH(int, kernelsKept);
        const SessionParse parsed = parseSessionJson(bytes);
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QCOMPARE(parsed.data->runs.size(), 1);
        QCOMPARE(parsed.data->notices, QStringList{notice});
        QCOMPARE(int(parsed.data->customKernels.size()), kernelsKept);
        const SessionSalvage salvaged = salvageSessionJson(bytes, QStringLiteral("autosave-1.json"));
        QVERIFY(salvaged.data);
        QCOMPARE(salvaged.problems.size(), 1);
        QVERIFY2(salvaged.problems.first().contains(QStringLiteral("the autosave autosave-1.json")),
                 qPrintable(salvaged.problems.first()));
    }

    // A source of exactly the limit is kept, as is one with every kind of text a kernel has.
    void aSourceAtTheLimitIsKept()
    {
        const QString atLimit = QString(qsizetype(kMaxKernelSourceBytes) - 2, u'x') + QStringLiteral("é");
        QCOMPARE(atLimit.toUtf8().size(), qsizetype(kMaxKernelSourceBytes));
        const SessionParse parsed = parseSessionJson(withCustomKernels(QJsonArray{kernelJson(atLimit)}));
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QVERIFY(parsed.data->notices.isEmpty());
        QCOMPARE(parsed.data->customKernels.size(), size_t(1));
        QCOMPARE(parsed.data->customKernels[0].text, atLimit.toStdString());
    }

    // Numbers at their edges come back as they were; text with markup comes back as text.
    void numbersAtTheirEdgesSurvive_data()
    {
        QTest::addColumn<double>("ms");
        QTest::addColumn<qint64>("size");
        QTest::newRow("smallest") << DBL_MIN << qint64(1);
        QTest::newRow("tiny") << 1e-300 << qint64(1);
        QTest::newRow("huge") << 1e300 << (qint64(1) << 40);
        QTest::newRow("largest") << DBL_MAX << qint64(1);
    }
    void numbersAtTheirEdgesSurvive()
    {
        QFETCH(double, ms);
        QFETCH(qint64, size);
        SessionData data;
        RunRecord run = okRun(QStringLiteral("<edge> & \"run\""), ms);
        run.m = size;
        run.tflops = 0;
        data.runs = {run};
        StoredCeilings zero;
        zero.origin = QStringLiteral("measured");
        data.ceilings.insert(QStringLiteral("<gpu>"), zero);
        const SessionParse back = parseSessionJson(serializeSession(data));
        QVERIFY2(back.data, qPrintable(back.error));
        QCOMPARE(back.data->runs.first().medianMs, ms);
        QCOMPARE(back.data->runs.first().m, size);
        QCOMPARE(back.data->runs.first().runId, run.runId);
        QCOMPARE(back.data->ceilings.value(QStringLiteral("<gpu>")), zero);
    }

    // A figure past what a double holds is refused with a sentence, never read as infinity.
    void aNumberPastADoubleIsRefused()
    {
        SessionData data;
        data.runs = {okRun("a", 1.5)};
        QByteArray bytes = serializeSession(data);
        QVERIFY(bytes.contains("\"median_ms\": 1.5"));
        bytes.replace("\"median_ms\": 1.5", "\"median_ms\": 1e999");
        const SessionParse parsed = parseSessionJson(bytes);
        QVERIFY(!parsed.data);
        QVERIFY(!parsed.error.isEmpty());
    }

    void damagedBenchesGiveTheirSentence_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("errorMentions");
        const QJsonObject bench{
            {"format", "gemmscope-bench"},
            {"version", 1},
            {"gpu", "NVIDIA H200"},
            {"rows", QJsonArray{QJsonObject{{"preset", "worklog-3"}, {"event", QJsonObject{}}}}}};
        QTest::newRow("not json") << QByteArray("bench?") << "JSON";
        QTest::newRow("a session") << serializeSession({}) << "format";
        QTest::newRow("version 9")
            << QJsonDocument(QJsonObject{{"format", "gemmscope-bench"}, {"version", 9}}).toJson()
            << "version 9";
        QTest::newRow("row without stage") << QJsonDocument(bench).toJson() << "Row 1";
    }
    void damagedBenchesGiveTheirSentence()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, errorMentions);
        const SessionParse parsed = importBenchJson(bytes);
        QVERIFY(!parsed.data);
        QVERIFY2(parsed.error.contains(errorMentions, Qt::CaseInsensitive), qPrintable(parsed.error));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestSessionCodec)
#include "tst_session_codec.moc"
