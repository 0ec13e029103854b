// Golden input: every benchmark the project recorded on its GPU machine (tests/data/recorded/,
// bench-*.json at any depth) imports as a session, and what the views read from each run — times,
// verification, the compiled kernel, the typed counters — is what the file says, row by row.
#include "session.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gemmscope;

class TstRecordedBenches : public QObject {
    Q_OBJECT

private slots:
    void importsAsRecorded_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded"), {QStringLiteral("bench-*.json")},
                        QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            QTest::newRow(qPrintable(QDir(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR)).relativeFilePath(path)))
                << path;
            ++files;
        }
        QVERIFY2(files >= 9, "the recorded benchmarks are missing from tests/data/recorded/");
    }
    void importsAsRecorded()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonArray rows = root.value("rows").toArray();
        QVERIFY(!rows.isEmpty());

        const SessionParse parsed = importBenchFile(path);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QVERIFY(parsed.data);
        const QList<RunRecord> &runs = parsed.data->runs;
        QCOMPARE(runs.size(), rows.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            const QJsonObject event = row.value("event").toObject();
            const RunRecord &run = runs[i];
            QCOMPARE(run.stageKey(), row.value("stage").toString());
            QCOMPARE(run.origin, QStringLiteral("recorded"));
            if (event.value("event").toString() != QLatin1String("result")) {
                QCOMPARE(run.status, RunStatus::Failed);
                continue;
            }
            const QJsonObject timing = event.value("timing").toObject();
            QVERIFY2(run.isOk(), qPrintable(run.errorMessage));
            QCOMPARE(run.medianMs, timing.value("median_ms").toDouble());
            QCOMPARE(run.p20Ms, timing.value("p20_ms").toDouble());
            QCOMPARE(run.p80Ms, timing.value("p80_ms").toDouble());
            QVERIFY(run.medianMs > 0 && run.p20Ms <= run.medianMs && run.medianMs <= run.p80Ms);
            QCOMPARE(run.tflops, event.value("tflops").toDouble());
            QVERIFY(run.relError.has_value());
            QVERIFY(*run.relError <= run.tolerance); // every recorded run passed verification
            const QJsonObject compiled = event.value("compiled").toObject();
            QCOMPARE(run.registers, compiled.isEmpty() ? -1 : compiled.value("registers").toInt());
            QCOMPARE(run.gpuName, event.value("gpu").toObject().value("name").toString());
            const QJsonValue counters = event.value("counters");
            QCOMPARE(run.counters.has_value(), counters.isObject());
            if (run.counters) {
                const QJsonValue dram = counters.toObject().value("dram_intensity");
                QCOMPARE(run.counters->dramIntensity.has_value(), dram.isDouble());
                if (dram.isDouble())
                    QCOMPARE(*run.counters->dramIntensity, dram.toDouble());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TstRecordedBenches)
#include "tst_recorded_benches.moc"
