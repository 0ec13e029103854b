// The bad-input campaign grown to sweeps: the seeded generator of tst_bad_inputs
// (support/json_fuzzer.h) throws GEMMSCOPE_FUZZ_COUNT (default 10,000) damaged journals at the
// journal reader and the journal folder's scan, and as many sessions with damaged sweeps at the
// session loader, the planner, the summaries and the sweep views. Zero crashes and hangs; every
// refusal is a sentence; whatever is accepted is planned or refused with the planner's sentence,
// summarised, journaled under a name from its plan inside the folder, and read back whole.
#include "session.h"
#include "size_sweep_summary.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "support/json_fuzzer.h"
#include "sweep_journals.h"
#include "sweep_summary.h"
#include "sweep_view.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;
using testsupport::Fuzzer;
using testsupport::isSentence;

namespace {

RunRecord seedRun(const QString &id, const std::string &stage, const ParamValues &params,
                  const ProblemSize &size)
{
    RunRecord r;
    r.runId = id;
    r.stage = StageId(stage);
    for (const auto &[name, value] : params)
        r.params.insert(QString::fromStdString(name), value);
    r.m = size.m;
    r.n = size.n;
    r.k = size.k;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.medianMs = 0.75;
    r.count = 9;
    r.tflops = size.tflopsAt(r.medianMs);
    r.host = QStringLiteral("node-1");
    r.gpuName = QStringLiteral("NVIDIA H200");
    r.gpuUuid = QStringLiteral("GPU-1");
    return r;
}

// A grid sweep and a size sweep, each with a few answered runs (a failure among them).
QList<SweepData> seedSweeps()
{
    SweepData grid;
    grid.id = QStringLiteral("sweep-20261201-101500-3fa2");
    grid.created = QDateTime(QDate(2026, 12, 1), QTime(10, 15), Qt::UTC);
    grid.spec.stage = StageId::Final;
    grid.spec.x = {"BM", {64, 128}};
    grid.spec.y = {"BN", {64, 128}};
    grid.spec.fixed = {{"BK", 8}, {"TM", 4}, {"TN", 4}};
    grid.spec.size = {512, 512, 512};
    const SweepPlan plan = planSweep(grid.spec);
    int n = 0;
    for (const SweepPoint &p : plan.points)
        grid.runs << seedRun(QStringLiteral("g%1").arg(n++), p.stage.str(), p.params, p.size);
    grid.runs << seedRun(QStringLiteral("base"), "cublas_fp32", {}, grid.spec.size);
    grid.runs[1].status = RunStatus::Failed;
    grid.runs[1].errorKind = QStringLiteral("out_of_resources");
    grid.runs[1].errorMessage = QStringLiteral("Too many registers.");

    SweepData sizes;
    sizes.id = QStringLiteral("sweep-20261201-101501-77aa");
    sizes.created = grid.created;
    sizes.spec.kind = SweepKind::Sizes;
    sizes.spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"},
                         {findPreset("worklog-8")->stage, findPreset("worklog-8")->params, "worklog-8"}};
    sizes.spec.sizes = {{256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}};
    sizes.spec.stage = sizes.spec.series.front().stage;
    sizes.spec.size = sizes.spec.sizes.front();
    sizes.runs << seedRun(QStringLiteral("s1"), "cublas_fp32", {}, {256, 256, 256})
               << seedRun(QStringLiteral("s2"), "final", findPreset("worklog-8")->params, {512, 512, 512});
    return {grid, sizes};
}

QByteArray journalText(const SweepData &sweep)
{
    SweepData header = sweep;
    header.runs.clear();
    QByteArray text =
        QJsonDocument(QJsonObject{{"format", "gemmscope-sweep"}, {"version", 1}, {"sweep", toJson(header)}})
            .toJson(QJsonDocument::Compact) +
        '\n';
    for (const RunRecord &r : sweep.runs)
        text += QJsonDocument(QJsonObject{{"run", toJson(r)}}).toJson(QJsonDocument::Compact) + '\n';
    return text;
}

// A damaged journal: its header and some run lines mutated as JSON, lines dropped, repeated or
// cut, sometimes the whole text damaged as bytes.
QByteArray damagedJournal(Fuzzer &fuzz, const SweepData &seed)
{
    QList<QByteArray> lines = journalText(seed).split('\n');
    lines.removeAll(QByteArray());
    const int edits = fuzz.below(4) + 1;
    for (int e = 0; e < edits; ++e) {
        const int i = fuzz.below(int(lines.size()));
        switch (fuzz.below(5)) {
        case 0:
            lines.removeAt(i);
            break;
        case 1:
            lines.insert(i, lines[i]); // a run twice
            break;
        case 2:
            lines[i] = fuzz.damage(lines[i]);
            break;
        default:
            lines[i] = fuzz.document(QJsonDocument::fromJson(lines[i]).object());
            break;
        }
        if (lines.isEmpty())
            break;
    }
    QByteArray text = lines.join('\n') + '\n';
    return fuzz.chance(5) ? fuzz.damage(text) : text;
}

// What every accepted sweep must survive: planning (or the planner's sentence), its summary,
// finding its unfinished points, and a journal name from its plan.
QString exercise(const SweepData &sweep)
{
    const SweepPlan plan = planSweep(sweep.spec);
    if (!plan.ok())
        return isSentence(QString::fromStdString(plan.error)) || !plan.error.empty()
                   ? QString()
                   : QStringLiteral("a plan refused without a reason");
    if (sweep.spec.kind == SweepKind::Sizes)
        summarizeSizeSweep(plan, sweep.runs);
    else
        summarizeSweep(plan, sweep.runs, true);
    unfinishedPoints(plan, sweep.runs);
    const QString name = sweepJournalFileName(sweep.spec);
    if (!QRegularExpression(QStringLiteral("^sweep-[0-9a-f]{24}\\.gsweep$")).match(name).hasMatch())
        return QStringLiteral("journal name %1").arg(name);
    return {};
}

struct Counts {
    int inputs = 0, accepted = 0, refused = 0;
};

} // namespace

class TestJournalInputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_seed = testsupport::fuzzSeed();
        m_count = testsupport::fuzzCount();
        QVERIFY(m_dir.isValid());
        qInfo("journal inputs: seed %llu, %d inputs per target", m_seed, m_count);
    }

    void journalReader()
    {
        Fuzzer fuzz(m_seed + 10);
        const QList<SweepData> seeds = seedSweeps();
        const QString folder = m_dir.filePath("folder");
        QVERIFY(QDir().mkpath(folder));
        Counts counts;
        int damagedLines = 0, scanned = 0;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < m_count; ++i) {
            const QByteArray bytes =
                fuzz.chance(3) ? fuzz.noise(300) : damagedJournal(fuzz, seeds[fuzz.below(int(seeds.size()))]);
            // A new file each time: truncating one makes ext4 write it back on close (slow).
            const QString path = m_dir.filePath(QStringLiteral("fuzz-%1.gsweep").arg(i));
            {
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::NewOnly));
                f.write(bytes);
            }
            const auto removeInput = qScopeGuard([&] { QFile::remove(path); });
            ++counts.inputs;
            QString error;
            QStringList problems;
            const std::optional<SweepData> read = SweepJournal::read(path, &error, &problems);
            if (!read) {
                ++counts.refused;
                QVERIFY2(isSentence(error), qPrintable(error));
                continue;
            }
            ++counts.accepted;
            damagedLines += int(problems.size());
            for (const QString &p : problems)
                QVERIFY2(isSentence(p), qPrintable(p));
            if (const QString problem = exercise(*read); !problem.isEmpty())
                QFAIL(qPrintable(problem + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            // Saved again (as a session holds it), it is the same sweep.
            QString why;
            const std::optional<SweepData> again = sweepFromJson(toJson(*read), &why);
            QVERIFY2(again, qPrintable(why + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            QCOMPARE(again->runs.size(), read->runs.size());
            // Every 50th: through the journal folder's scan into a session (the start-up path).
            if (i % 50 == 0) {
                for (const QString &name : QDir(folder).entryList(QDir::Files))
                    QFile::remove(QDir(folder).filePath(name));
                QVERIFY(QFile::copy(path, QDir(folder).filePath(sweepJournalFileName(read->spec))));
                const JournalFolderScan scan = scanJournalFolder(folder);
                QCOMPARE(scan.journalsRead, 1);
                Session session;
                applyJournalScan(session, scan);
                for (const SweepData &s : session.sweeps())
                    QVERIFY(QFileInfo(SweepJournalFolder::of(folder)->journalPathFor(s))
                                .absolutePath()
                                .startsWith(QFileInfo(folder).absoluteFilePath()));
                ++scanned;
            }
        }
        qInfo("journal reader: %d inputs, %d accepted (%d damaged lines skipped with a sentence), %d refused "
              "with a sentence, %d through the folder scan, %lld ms",
              counts.inputs, counts.accepted, damagedLines, counts.refused, scanned, timer.elapsed());
        QVERIFY(counts.accepted > 0 && counts.refused > 0);
    }

    void sweepsInSessions()
    {
        Fuzzer fuzz(m_seed + 11);
        SessionData data;
        data.title = QStringLiteral("seed");
        data.sweeps = seedSweeps();
        const QJsonObject seed = QJsonDocument::fromJson(serializeSession(data)).object();
        QVERIFY(parseSessionJson(serializeSession(data)).data);
        Counts counts;
        QElapsedTimer timer;
        timer.start();
        Session session;
        test::ControlledSweepView grid(&session);
        test::ControlledSizeSweepView sizes(&session);
        grid.setJournalDirectory(m_dir.filePath("views"));
        sizes.setJournalDirectory(m_dir.filePath("views"));
        grid.resize(800, 600);
        sizes.resize(800, 600);
        for (int i = 0; i < m_count; ++i) {
            // The sweeps are what is damaged; the rest of the session stays valid.
            QJsonValue sweeps = seed.value("sweeps");
            for (int n = fuzz.below(4) + 1; n > 0; --n)
                sweeps = fuzz.mutate(sweeps);
            QJsonObject doc = seed;
            doc.insert(QStringLiteral("sweeps"), sweeps);
            QByteArray bytes = QJsonDocument(doc).toJson(QJsonDocument::Compact);
            if (fuzz.chance(10))
                bytes = fuzz.damage(bytes);
            ++counts.inputs;
            const SessionParse parsed = parseSessionJson(bytes);
            if (!parsed.data) {
                ++counts.refused;
                QVERIFY2(isSentence(parsed.error), qPrintable(parsed.error));
                continue;
            }
            ++counts.accepted;
            for (const SweepData &s : parsed.data->sweeps)
                if (const QString problem = exercise(s); !problem.isEmpty())
                    QFAIL(qPrintable(problem + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            const SessionParse again = parseSessionJson(serializeSession(*parsed.data));
            QVERIFY2(again.data, qPrintable(again.error + QStringLiteral("\n") + QString::fromUtf8(bytes)));
            QCOMPARE(again.data->sweeps.size(), parsed.data->sweeps.size());
            // Every 20th: shown in the views (heatmap, size chart, summaries, tooltips).
            if (i % 20 == 0) {
                session.replace(*parsed.data, {});
                for (const SweepData &s : parsed.data->sweeps) {
                    if (s.spec.kind == SweepKind::Sizes)
                        sizes.showSweep(s);
                    else {
                        grid.showSweep(s);
                        grid.bestText();
                        for (int c = 0; c < grid.summary().cells.size(); ++c)
                            grid.cellAt(grid.cellCenter(c));
                    }
                }
                grid.grab();
                sizes.grab();
            }
        }
        qInfo("sweeps in sessions: %d inputs, %d accepted (planned, summarised, shown), %d refused with a "
              "sentence, %lld ms",
              counts.inputs, counts.accepted, counts.refused, timer.elapsed());
        QVERIFY(counts.accepted > 0 && counts.refused > 0);
    }

private:
    QTemporaryDir m_dir;
    quint64 m_seed = 0;
    int m_count = 0;
};

QTEST_MAIN(TestJournalInputs)
#include "tst_journal_inputs.moc"
