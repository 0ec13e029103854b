// The bench file's one reader and writer (app/core/bench_file.*): what gemmscope-bench writes reads
// back field for field, its events typed; a damaged file is refused with the sentence that says
// what is wrong, never read in half.
#include "bench_file.h"
#include "events.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <functional>

using namespace gemmscope;

namespace {

protocol::ResultEvent result()
{
    protocol::ResultEvent e;
    e.id = QStringLiteral("b2");
    e.stage = QStringLiteral("coalesced");
    e.params = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 8}, {"TN", 8}};
    e.size = {1024, 512, 256};
    e.gpu.name = QStringLiteral("NVIDIA H200");
    e.gpu.arch = QStringLiteral("sm_90");
    e.timing.medianMs = 1.25;
    e.timing.p20Ms = 1.2;
    e.timing.p80Ms = 1.3;
    e.timing.minMs = 1.1;
    e.timing.count = 40;
    e.timing.warmup = 2;
    e.verify.reference = QStringLiteral("cublas_fp32_pedantic");
    e.verify.relError = 1e-7;
    e.verify.tolerance = 1e-5;
    e.verify.passed = true;
    e.timestamp = QStringLiteral("2026-12-01T10:00:00Z");
    return e;
}

protocol::ErrorEvent failure()
{
    protocol::ErrorEvent e;
    e.id = QStringLiteral("b3");
    e.kind = protocol::ErrorKind::OutOfResources;
    e.message = QStringLiteral("Too much shared memory.");
    return e;
}

BenchFile sample()
{
    BenchFile bench;
    bench.date = QStringLiteral("2026-12-01T10:00:05Z");
    bench.command = QStringLiteral("gemmscope-bench --json out.json");
    protocol::GpuInfo gpu;
    gpu.name = QStringLiteral("NVIDIA H200");
    gpu.arch = QStringLiteral("sm_90");
    gpu.sms = 132;
    bench.gpu = protocol::toJson(gpu);
    bench.size = ProblemSize{1024, 512, 256};
    protocol::CeilingsEvent ceilings;
    ceilings.id = QStringLiteral("ceilings");
    ceilings.gpu = gpu;
    ceilings.fmaTflops = 65.3;
    ceilings.dramGbs = 4228;
    ceilings.measuredAt = QStringLiteral("2026-12-01T09:00:00Z");
    ceilings.tf32Tflops = 330;
    bench.ceilingsEvent = protocol::toJson(ceilings);
    bench.rows.append({QStringLiteral("worklog-3"),
                       QStringLiteral("coalesced"),
                       QStringLiteral("BM=64 BN=64 BK=8 TM=8 TN=8"),
                       protocol::toJson(result()),
                       {},
                       {},
                       {}});
    bench.rows.append(
        {{}, QStringLiteral("final"), QStringLiteral("BM=128"), protocol::toJson(failure()), {}, {}, {}});
    return bench;
}

QByteArray withRoot(const std::function<void(QJsonObject &)> &change)
{
    QJsonObject root = QJsonDocument::fromJson(serializeBench(sample())).object();
    change(root);
    return QJsonDocument(root).toJson();
}

} // namespace

class TstBenchFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrips()
    {
        const BenchFile written = sample();
        const BenchParse read = parseBench(serializeBench(written));
        QVERIFY2(read.file, qPrintable(read.error));
        const BenchFile &file = *read.file;
        QCOMPARE(file.date, written.date);
        QCOMPARE(file.command, written.command);
        QCOMPARE(file.gpu, written.gpu);
        QCOMPARE(file.gpuName, QStringLiteral("NVIDIA H200"));
        QVERIFY(file.size);
        QCOMPARE(*file.size, *written.size);
        QCOMPARE(file.ceilingsEvent, written.ceilingsEvent);
        QVERIFY(file.ceilings);
        QCOMPARE(file.ceilings->fmaTflops, 65.3);
        QVERIFY(file.ceilings->tf32Tflops == std::optional<double>(330));
        QCOMPARE(file.rows.size(), 2);

        const BenchFileRow &ok = file.rows[0];
        QCOMPARE(ok.preset, QStringLiteral("worklog-3"));
        QCOMPARE(ok.stage, QStringLiteral("coalesced"));
        QCOMPARE(ok.params, QStringLiteral("BM=64 BN=64 BK=8 TM=8 TN=8"));
        QCOMPARE(ok.event, written.rows[0].event); // the runner's words, verbatim
        QVERIFY(ok.result && !ok.error);
        QVERIFY(*ok.result == result()); // decoded once, typed

        const BenchFileRow &failed = file.rows[1];
        QVERIFY(failed.preset.isEmpty()); // null in the file: a bare stage key
        QVERIFY(failed.error && !failed.result);
        QVERIFY(*failed.error == failure());
        // What the row asked for, for the error event that does not repeat it: the file's size.
        QCOMPARE(failed.request.stage, QStringLiteral("final"));
        QCOMPARE(failed.request.size, (ProblemSize{1024, 512, 256}));

        // Written again, the same bytes.
        QCOMPARE(serializeBench(file), serializeBench(written));
    }

    void olderFilesNameTheGpuOnly()
    {
        const BenchParse read =
            parseBench(withRoot([](QJsonObject &root) { root["gpu"] = QStringLiteral("Tesla T4"); }));
        QVERIFY2(read.file, qPrintable(read.error));
        QCOMPARE(read.file->gpuName, QStringLiteral("Tesla T4"));
    }

    void refusesDamagedFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        QTest::newRow("truncated") << serializeBench(sample()).left(40)
                                   << QStringLiteral("The file is not valid JSON");
        QTest::newRow("a list") << QByteArray("[1, 2]")
                                << QStringLiteral("The file holds JSON but not a GemmScope object.");
        QTest::newRow("a session") << withRoot([](QJsonObject &r) {
            r["format"] = "gemmscope-session";
        }) << QStringLiteral("It is not a GemmScope bench file (format \"gemmscope-session\").");
        QTest::newRow("version 2") << withRoot([](QJsonObject &r) { r["version"] = 2; })
                                   << QStringLiteral("It has bench format version 2; this GemmScope reads "
                                                     "version 1.");
        QTest::newRow("version \"1\"") << withRoot([](QJsonObject &r) { r["version"] = "1"; })
                                       << QStringLiteral("It has bench format version \"1\"; this GemmScope "
                                                         "reads version 1.");
        QTest::newRow("no rows") << withRoot([](QJsonObject &r) { r.remove("rows"); })
                                 << QStringLiteral("It has no rows.");
        QTest::newRow("a progress row") << withRoot([](QJsonObject &r) {
            QJsonArray rows = r["rows"].toArray();
            QJsonObject row = rows[1].toObject();
            row["event"] = QJsonObject{{"event", "progress"}, {"id", "b3"}};
            rows[1] = row;
            r["rows"] = rows;
        }) << QStringLiteral("Row 2 has no runner result or error event.");
    }

    void refusesDamagedFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        const BenchParse read = parseBench(bytes);
        QVERIFY(!read.file);
        QVERIFY2(read.error.startsWith(error), qPrintable(read.error));
    }
};

QTEST_MAIN(TstBenchFile)
#include "tst_bench_file.moc"
