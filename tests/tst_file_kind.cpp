// Every file GemmScope writes is told apart by its content and read into what the window opens
// (file_kind.h, file_open.h): each kind from its own writer (or a file the GPU machine recorded),
// whatever its name; a damaged file of each kind is refused with a sentence that names the kind.
#include "file_kind.h"
#include "file_open.h"
#include "results_export.h"
#include "results_model.h"
#include "session.h"
#include "size_sweep_summary.h"
#include "support/file_bytes.h"
#include "support/long_size_sweep.h"
#include "support/small_sweep_spec.h"
#include "support/sweep_point_run.h"
#include "sweep_summary.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace gemmscope;
using gemmscope::test::readAll;
using gemmscope::test::writeAll;

namespace {

const QString kRecorded = QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/");

SweepData smallSweep()
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-test-1");
    sweep.spec = smallSweepSpec();
    sweep.created = QDateTime::currentDateTimeUtc();
    int n = 0;
    for (const SweepPoint &p : planSweep(sweep.spec).points) {
        if (!p.valid())
            continue;
        RunRecord r;
        r.runId = QStringLiteral("run-%1").arg(n);
        test::setPointConfiguration(r, p);
        r.status = RunStatus::Ok;
        r.origin = QStringLiteral("measured");
        r.medianMs = 1.0 + n++ % 7;
        r.count = 5;
        r.tflops = p.size.tflopsAt(r.medianMs);
        sweep.runs << r;
    }
    return sweep;
}

} // namespace

class TestFileKind : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }

    // One file of each kind, written by the code that writes it (or recorded on the GPU machine),
    // under a name that says nothing of its kind. Row: kind, file, runs or sweep runs expected.
    void writeEveryKind()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(kRecorded + "h200-full-ladder-4096.json", path("a")));
        QVERIFY(QFile::copy(kRecorded + "bench-h200-2026-11-29-run1.json", path("b")));
        QVERIFY(QFile::copy(kRecorded + "sweeps-2026-11-30/sweep-1gpu.json", path("c")));
        QVERIFY(QFile::copy(kRecorded + "sweeps-2026-11-30/size-sweep-square.json", path("d")));
        QVERIFY(QFile::copy(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/profile/profile-worklog-3.json"),
                            path("e")));
        const SweepData sweep = smallSweep();
        const SweepPlan plan = planSweep(sweep.spec);
        QVERIFY(writeAll(path("f"),
                         QJsonDocument(sweepCellsJson(plan, summarizeSweep(plan, sweep.runs))).toJson()));
        const SweepData sizes = longSizeSweep(6);
        const SweepPlan sizePlan = planSweep(sizes.spec);
        QVERIFY(writeAll(
            path("g"),
            QJsonDocument(sizeSweepJson(sizePlan, summarizeSizeSweep(sizePlan, sizes.runs))).toJson()));
        SweepJournal journal;
        QVERIFY(journal.create(path("h"), sweep));
        journal.close();
        Session session;
        for (const RunRecord &r : sweep.runs.mid(0, 5))
            session.addOrUpdate(r);
        ResultsModel model(&session);
        QVERIFY(!exportResults(path("i.json"), model, session));
        QVERIFY(QFile::rename(path("i.json"), path("i")));
    }

private slots:
    void initTestCase() { writeEveryKind(); }

    void eachKindIsToldByItsContent_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("opensAsSweep");
        QTest::newRow("session") << "a" << int(FileKind::Session) << false;
        QTest::newRow("bench ladder") << "b" << int(FileKind::Bench) << false;
        QTest::newRow("bench sweep") << "c" << int(FileKind::BenchSweep) << true;
        QTest::newRow("bench size sweep") << "d" << int(FileKind::BenchSizeSweep) << true;
        QTest::newRow("recorded profile") << "e" << int(FileKind::Profile) << false;
        QTest::newRow("sweep view export") << "f" << int(FileKind::SweepCells) << true;
        QTest::newRow("size sweep view export") << "g" << int(FileKind::SizeSweepSummary) << true;
        QTest::newRow("journal") << "h" << int(FileKind::SweepJournal) << true;
        QTest::newRow("results export") << "i" << int(FileKind::ResultsExport) << false;
    }
    void eachKindIsToldByItsContent()
    {
        QFETCH(QString, file);
        QFETCH(int, kind);
        QFETCH(bool, opensAsSweep);
        QCOMPARE(int(sniffFileKind(readAll(path(file))).kind), kind);
        const OpenedFile opened = readGemmScopeFile(path(file));
        QVERIFY2(opened.error.isEmpty(), qPrintable(opened.error));
        QCOMPARE(int(opened.kind), kind);
        QCOMPARE(bool(opened.sweep), opensAsSweep);
        QCOMPARE(bool(opened.data), !opensAsSweep);
        if (opened.sweep)
            QVERIFY(!opened.sweep->runs.isEmpty());
        else
            QVERIFY(!opened.data->runs.isEmpty() || !opened.data->profiles.isEmpty());
    }

    // The Sweep views' exports keep less than the sweep: what they keep comes back.
    void exportedSweepsComeBackAsTheyWereShown()
    {
        const SweepData sizes = longSizeSweep(6);
        const SweepPlan plan = planSweep(sizes.spec);
        const SizeSweepSummary before = summarizeSizeSweep(plan, sizes.runs);
        const OpenedFile opened = readGemmScopeFile(path("g"));
        QVERIFY(opened.sweep);
        QCOMPARE(opened.sweep->spec, sizes.spec);
        const SizeSweepSummary after = summarizeSizeSweep(planSweep(opened.sweep->spec), opened.sweep->runs);
        QCOMPARE(after.points.size(), before.points.size());
        QVERIFY(before.valid > 0);
        QCOMPARE(after.answered, before.answered);
        for (qsizetype i = 0; i < before.points.size(); ++i) {
            QCOMPARE(bool(after.points[i].run), bool(before.points[i].run));
            if (before.points[i].run)
                QCOMPARE(after.points[i].run->tflops, before.points[i].run->tflops);
        }
        QVERIFY(!opened.notices.isEmpty()); // it says what an export lacks

        const SweepData grid = smallSweep();
        const SweepPlan gridPlan = planSweep(grid.spec);
        const SweepSummary cells = summarizeSweep(gridPlan, grid.runs);
        const OpenedFile cellsFile = readGemmScopeFile(path("f"));
        QVERIFY(cellsFile.sweep);
        const SweepSummary back = summarizeSweep(gridPlan, cellsFile.sweep->runs);
        QCOMPARE(back.bestCell, cells.bestCell);
        QCOMPARE(back.cells[back.bestCell].best->tflops, cells.cells[cells.bestCell].best->tflops);
    }

    // Qt writes keys in order: a session's "format" comes after its ceilings, a sweep export's after
    // every cell. The format is found wherever it is, and a key named "format" inside a nested
    // object is not the file's.
    void formatIsFoundAfterLargeFieldsAndNotInsideThem()
    {
        const QByteArray nested = "{\"a\":{\"format\":\"gemmscope-session\"},\"b\":[1,{\"x\":\"}\"}],"
                                  "\"format\":\"gemmscope-bench-sweep\"}";
        QCOMPARE(int(sniffFileKind(nested).kind), int(FileKind::BenchSweep));
        QCOMPARE(int(sniffFileKind("{\"a\":{\"format\":\"gemmscope-session\"}}").kind),
                 int(FileKind::NotGemmScope));
        QCOMPARE(int(sniffFileKind("{\"k\\\"format\":\"x\",\"format\":\"gemmscope-session\"}").kind),
                 int(FileKind::Session));
    }

    // A damaged file of each kind: refused with a sentence naming the file and what it is.
    void damagedFileOfEachKindIsRefusedWithASentence_data() { eachKindIsToldByItsContent_data(); }
    void damagedFileOfEachKindIsRefusedWithASentence()
    {
        QFETCH(QString, file);
        QFETCH(int, kind);
        QByteArray bytes = readAll(path(file));
        if (kind == int(FileKind::SweepJournal))
            bytes = bytes.left(bytes.indexOf('\n') / 2); // the header cut: a cut run line is skipped
        else
            bytes = bytes.left(bytes.size() / 2);
        const QString damaged = path(file + QStringLiteral("-damaged"));
        QVERIFY(writeAll(damaged, bytes));
        const OpenedFile opened = readGemmScopeFile(damaged);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QFileInfo(damaged).fileName()), qPrintable(opened.error));
        // What it was, where the part left says so (Qt writes a sweep export's format last).
        QVERIFY2(
            opened.error.contains(describeFileKind(FileKind(kind))) ||
                (kind == int(FileKind::SweepCells) && opened.error.contains(QStringLiteral("cut short"))) ||
                kind == int(FileKind::ResultsExport),
            qPrintable(opened.error));
        QVERIFY2(opened.error.size() > 40, qPrintable(opened.error)); // a sentence, not a code
    }

    // A run that cannot be read refuses the whole sweep file: never half a sweep.
    void aSweepWithADamagedRunIsRefusedWhole()
    {
        QJsonObject doc = QJsonDocument::fromJson(readAll(path("c"))).object();
        QJsonArray runs = doc.value("runs").toArray();
        QVERIFY(runs.size() > 3);
        runs[2] = QJsonObject{{"run_id", 7}};
        doc["runs"] = runs;
        QVERIFY(writeAll(path("c-bad-run"), QJsonDocument(doc).toJson()));
        const OpenedFile opened = readGemmScopeFile(path("c-bad-run"));
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("Run 3")), qPrintable(opened.error));
    }

    // What GemmScope cannot open says what it is.
    void otherFilesSayWhatTheyAre_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("said");
        QTest::newRow("png") << QByteArray("\x89PNG\r\n\x1a\n....") << QStringLiteral("image");
        QTest::newRow("svg") << QByteArray("<?xml version=\"1.0\"?>\n<svg/>") << QStringLiteral("image");
        QTest::newRow("newer") << QByteArray("{\"format\":\"gemmscope-session-v9\"}")
                               << QStringLiteral("\"gemmscope-session-v9\"");
        QTest::newRow("other json") << QByteArray("{\"name\":\"x\"}") << QStringLiteral("no \"format\"");
        QTest::newRow("text") << QByteArray("stage,ms\nnaive,1\n") << QStringLiteral("not JSON");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not JSON");
        QTest::newRow("empty list") << QByteArray("[]") << QStringLiteral("empty");
    }
    void otherFilesSayWhatTheyAre()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, said);
        QVERIFY(writeAll(path("other"), bytes));
        const OpenedFile opened = readGemmScopeFile(path("other"));
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(said), qPrintable(opened.error));
    }

    // A FIFO named as a file is refused at once, never waited on.
    void aFifoIsRefusedWithoutWaiting()
    {
        const QString fifo = path("fifo");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const OpenedFile opened = readGemmScopeFile(fifo);
        QVERIFY(!opened.ok());
        QVERIFY(!opened.error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestFileKind)
#include "tst_file_kind.moc"
