// The results table: model consistency under QAbstractItemModelTester, the cells' content
// (% of cuBLAS from the matching baseline, failure marking) and numeric sorting.
#include "app_resources.h"
#include "csv_field.h"
#include "file_write.h"
#include "results_export.h"
#include "results_model.h"
#include "results_table_proxy.h"
#include "session.h"
#include "stage_names.h"
#include "support/run_conditions.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QtTest>

using namespace gemmscope;

namespace {

// One CSV line's cells, quotes taken off (RFC 4180: "" inside a quoted cell is one quote).
QList<QByteArray> csvCells(const QByteArray &line)
{
    QList<QByteArray> cells{QByteArray()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            cells.last() += line[++i];
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            cells << QByteArray();
        else
            cells.last() += c;
    }
    return cells;
}

RunRecord run(const QString &id, const QString &stage, double ms, long long n = 1024,
              const QString &origin = QStringLiteral("measured"), int minuteOffset = 0)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(stage);
    r.m = r.n = r.k = n;
    r.status = RunStatus::Ok;
    r.origin = origin;
    r.medianMs = r.p20Ms = r.p80Ms = r.minMs = ms;
    r.tflops = 2.0 * double(n) * n * n / (ms * 1e9);
    r.gpuName = QStringLiteral("NVIDIA H200");
    r.timestamp = QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC).addSecs(60 * minuteOffset);
    return r;
}

} // namespace

class TestResultsModel : public QObject {
    Q_OBJECT
private slots:
    // Published rows carry one number: "published", never a fake spread "108.890 (108.890–108.890)".
    // A measured run's p20–p80 has its own column (it gives way at 1280x800 for the stage names), and
    // the median's tooltip keeps it there.
    void publishedRowsSayPublished()
    {
        initResources();
        Session session;
        session.setAutosavePath({});
        QString error;
        QVERIFY2(session.loadDefault(&error), qPrintable(error));
        ResultsModel model(&session);
        bool sawPublished = false, sawSpread = false;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString median = model.index(row, ResultsModel::MedianColumn).data().toString();
            const QString spread = model.index(row, ResultsModel::SpreadColumn).data().toString();
            const RunRecord &run = session.runs().at(row);
            if (run.origin == QLatin1String("worklog")) {
                QVERIFY2(median.endsWith(QStringLiteral("(published)")), qPrintable(median));
                QVERIFY2(spread.isEmpty(), qPrintable(spread));
                sawPublished = true;
            } else if (run.isOk() && run.p80Ms > run.p20Ms) {
                QCOMPARE(median, QStringLiteral("%1 ms").arg(run.medianMs, 0, 'f', 3));
                QCOMPARE(spread, QStringLiteral("%1–%2").arg(run.p20Ms, 0, 'f', 3).arg(run.p80Ms, 0, 'f', 3));
                const QString tip =
                    model.index(row, ResultsModel::MedianColumn).data(Qt::ToolTipRole).toString();
                QVERIFY2(tip.contains(spread), qPrintable(tip));
                // Sorted by how wide it is against the median, not by where it lies.
                QCOMPARE(model.index(row, ResultsModel::SpreadColumn).data(ResultsModel::SortRole).toDouble(),
                         (run.p80Ms - run.p20Ms) / run.medianMs);
                sawSpread = true;
            }
        }
        QVERIFY(sawPublished);
        QVERIFY(sawSpread);

        // A running run with the runner's median so far shows it, marked preliminary.
        RunRecord running = session.runs().constLast();
        running.runId = QStringLiteral("live");
        running.status = RunStatus::Running;
        running.preliminaryMedianMs = 12.5;
        session.addOrUpdate(running);
        QCOMPARE(
            model.index(model.rowOf(QStringLiteral("live")), ResultsModel::MedianColumn).data().toString(),
            QStringLiteral("12.500 ms (preliminary)"));
    }

    // Steps 4, 5a and 5b run one kernel: the stage column says what 5a and 5b change, as the preset
    // list does ("128x128 tiles"), and only for the step's own parameters.
    void worklogStepsNameWhatTheyChange()
    {
        Session session;
        session.setAutosavePath({});
        ResultsModel model(&session);
        const auto stageCell = [&](const QString &id) {
            return model.index(model.rowOf(id), ResultsModel::StageColumn).data().toString();
        };
        const auto fromPreset = [](const QString &id, const char *presetKey) {
            const Preset *preset = findPreset(presetKey);
            RunRecord r = run(id, QString::fromStdString(std::string(preset->stage.key())), 5.0);
            r.presetKey = QLatin1String(presetKey);
            for (const auto &[name, value] : preset->params)
                r.params.insert(QString::fromStdString(name), value);
            return r;
        };
        session.addOrUpdate(fromPreset(QStringLiteral("step4"), "worklog-4"));
        session.addOrUpdate(fromPreset(QStringLiteral("step5a"), "worklog-5a"));
        session.addOrUpdate(fromPreset(QStringLiteral("step6"), "worklog-6"));
        session.addOrUpdate(fromPreset(QStringLiteral("step8"), "worklog-8"));
        session.addOrUpdate(fromPreset(QStringLiteral("step8-bk8"), "worklog-8-bk8"));
        RunRecord otherBk = fromPreset(QStringLiteral("step5a-bk16"), "worklog-5a");
        otherBk.params[QStringLiteral("BK")] = 16;
        session.addOrUpdate(otherBk);
        QCOMPARE(stageCell(QStringLiteral("step4")), QStringLiteral("Double buffering"));
        QCOMPARE(stageCell(QStringLiteral("step5a")), QStringLiteral("Double buffering: 128x128 tiles"));
        // Step 6 runs step 3's kernel with 5b's tiles: named by them, as 5a and 5b are (its
        // "double buffering removed" made the runtime chart too narrow for long names at 1920).
        QCOMPARE(stageCell(QStringLiteral("step6")),
                 QStringLiteral("Coalesced cooperative loads: larger tiles"));
        // The Presets list says it the same way (it read "double buffering removed" there while the
        // tables said "coalesced").
        // One name a preset (issue 38): its code and the Stage name, as its row reads.
        QCOMPARE(presetTitle(QStringLiteral("worklog-6")),
                 QStringLiteral("6 — ") + stageCell(QStringLiteral("step6")));
        QCOMPARE(presetTitle(QStringLiteral("worklog-8-bk8")),
                 QStringLiteral("8/BK8 — ") + stageCell(QStringLiteral("step8-bk8")));
        QCOMPARE(stageCell(QStringLiteral("step5a-bk16")), QStringLiteral("Double buffering"));
        // Step 8 and its BK = 8 variant: one stage, told apart by the change.
        QCOMPARE(stageCell(QStringLiteral("step8")), QStringLiteral("__restrict__ and #pragma unroll"));
        QCOMPARE(stageCell(QStringLiteral("step8-bk8")),
                 QStringLiteral("__restrict__ and #pragma unroll: BK = 8"));
    }

    // Every time the table shows says its zone (issue 38: "23:21" read as the reader's own clock):
    // the run's time in UTC, marked so, from a run stamped in another zone.
    void timesSayTheirZone()
    {
        Session session;
        session.setAutosavePath({});
        RunRecord r = run(QStringLiteral("r1"), QStringLiteral("naive"), 5.0);
        r.timestamp = QDateTime(QDate(2026, 12, 7), QTime(0, 21, 5), QTimeZone(3600));
        session.addOrUpdate(r);
        const ResultsModel model(&session);
        QCOMPARE(model.index(0, ResultsModel::TimeColumn).data().toString(),
                 QStringLiteral("2026-12-06 23:21:05 UTC"));
        QVERIFY(model.headerData(ResultsModel::TimeColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("UTC")));
    }

    // Presets that run one stage (+pipe and +tuned, steps 1, G32 and G32+1, steps 5a and 5b) read
    // differently in the stage column and the legends: a reader told them apart by the code alone.
    void presetsOfOneStageHaveDifferentStageTexts()
    {
        QHash<QString, QString> presetOfText;
        for (const Preset &preset : presets()) {
            RunRecord r = run(QString::fromStdString(preset.key), stageKeyText(preset.stage), 5.0);
            r.presetKey = QString::fromStdString(preset.key);
            for (const auto &[name, value] : preset.params)
                r.params.insert(QString::fromStdString(name), value);
            const QString text = runStageTitleText(r);
            QVERIFY2(!presetOfText.contains(text),
                     qPrintable(QStringLiteral("%1 and %2 both read \"%3\"")
                                    .arg(presetOfText.value(text), r.presetKey, text)));
            presetOfText.insert(text, r.presetKey);
        }
    }

    void init()
    {
        m_session = std::make_unique<Session>();
        m_session->setAutosavePath({});
        m_model = std::make_unique<ResultsModel>(m_session.get());
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
        m_session.reset();
    }

    void rowsFollowTheSession()
    {
        QCOMPARE(m_model->rowCount(), 0);
        QCOMPARE(m_model->columnCount(), int(ResultsModel::ColumnCount));
        m_session->addOrUpdate(run("a", "coalesced", 2.0));
        m_session->addOrUpdate(run("b", "naive", 20.0));
        QCOMPARE(m_model->rowCount(), 2);
        RunRecord updated = run("a", "coalesced", 3.0);
        m_session->addOrUpdate(updated);
        QCOMPARE(m_model->rowCount(), 2);
        QVERIFY(m_model->index(0, ResultsModel::MedianColumn).data().toString().startsWith("3.000 ms"));
        m_session->removeRun("a");
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(m_model->index(0, 0).data(ResultsModel::RunIdRole).toString(), QStringLiteral("b"));
        m_session->clear();
        QCOMPARE(m_model->rowCount(), 0);
    }

    // The tables hide a column with one value on every row; the model says so from its records
    // where they agree, and agrees with the text on every row of every column: on the default
    // session, on its runs of one GPU (a uniform GPU column), with a failed run and an unknown size.
    void sameOnEveryRowAgreesWithTheText()
    {
        initResources();
        QString error;
        QVERIFY2(m_session->loadDefault(&error), qPrintable(error));
        const auto textSaysTheSame = [this](int column) {
            const QString first = m_model->index(0, column).data().toString();
            for (int row = 1; row < m_model->rowCount(); ++row)
                if (m_model->index(row, column).data().toString() != first)
                    return false;
            return true;
        };
        const auto agreeOnEveryColumn = [&](const char *what) {
            int uniform = 0;
            for (int column = 0; column < ResultsModel::ColumnCount; ++column) {
                QVERIFY2(m_model->sameOnEveryRow(column) == textSaysTheSame(column),
                         qPrintable(QStringLiteral("%1: column %2").arg(QLatin1String(what)).arg(column)));
                uniform += textSaysTheSame(column) ? 1 : 0;
            }
            QVERIFY2(uniform > 0, what); // some column has one value: the fast answer was asked
        };
        agreeOnEveryColumn("the default session");
        const QString gpu = m_session->runs().constLast().gpuName;
        for (const RunRecord &r : QList<RunRecord>(m_session->runs()))
            if (r.gpuName != gpu)
                m_session->removeRun(r.runId);
        QVERIFY(m_model->rowCount() > 2);
        QVERIFY(m_model->sameOnEveryRow(ResultsModel::GpuColumn));
        agreeOnEveryColumn("one GPU's runs");
        RunRecord failed = m_session->runs().constFirst();
        failed.runId = QStringLiteral("failed");
        failed.status = RunStatus::Failed;
        failed.errorKind = QStringLiteral("wrong_result");
        failed.m = failed.n = failed.k = 0;
        m_session->addOrUpdate(failed);
        QVERIFY(!m_model->sameOnEveryRow(ResultsModel::StatusColumn));
        agreeOnEveryColumn("with a failed run");
    }

    void percentOfCublasUsesTheMatchingBaseline_data()
    {
        QTest::addColumn<long long>("size");
        QTest::addColumn<QString>("origin");
        QTest::addColumn<double>("expectedPercent"); // < 0: no baseline to compare with
        // Baselines: measured 1024^3 at 1 ms (minute 0) and 0.8 ms (minute 30), recorded 1024^3 at 2 ms.
        QTest::newRow("nearest measured baseline in time") << 1024LL << "measured" << 100.0 * 0.8 / 4.0;
        QTest::newRow("recorded compares with recorded") << 1024LL << "recorded" << 100.0 * 2.0 / 4.0;
        QTest::newRow("no baseline at this size") << 2048LL << "measured" << -1.0;
        QTest::newRow("no published baseline") << 1024LL << "worklog" << -1.0;
    }

    void percentOfCublasUsesTheMatchingBaseline()
    {
        QFETCH(long long, size);
        QFETCH(QString, origin);
        QFETCH(double, expectedPercent);
        m_session->addOrUpdate(run("c1", "cublas_fp32", 1.0, 1024, "measured", 0));
        m_session->addOrUpdate(run("c2", "cublas_fp32", 0.8, 1024, "measured", 30));
        m_session->addOrUpdate(run("c3", "cublas_fp32", 2.0, 1024, "recorded", 25));
        m_session->addOrUpdate(
            run("t", "cublas_tf32", 0.1, 1024, "measured", 25)); // TF32 is not the baseline
        m_session->addOrUpdate(run("x", "coalesced", 4.0, size, origin, 25));
        const RunRecord &x = m_session->runs().last();
        const auto percent = m_model->percentOfCublas(x);
        const QString cell =
            m_model->index(m_model->rowOf("x"), ResultsModel::PercentOfCublasColumn).data().toString();
        if (expectedPercent < 0) {
            QVERIFY(!percent);
            QVERIFY(cell.isEmpty());
        } else {
            QVERIFY(percent);
            QCOMPARE(*percent, expectedPercent);
            QCOMPARE(cell, QStringLiteral("%1 %").arg(expectedPercent, 0, 'f', 1));
        }
    }

    // The measured clock and the trust mark, with the reason on hover; a ratio never
    // mixes a burst run with a sustained cuBLAS run.
    void trustAndClockColumnsAndRatiosOfOneRegime()
    {
        protocol::RunConditions burst = test::steadyBurst();
        burst.samples = 80;
        burst.throttledSamples = 12;
        burst.noisePct = 0.3;
        burst.stoppedBy = protocol::StopReason::Budget;
        burst.smClockMinMhz = 1605;
        burst.throttleReasons = {protocol::ThrottleReason::PowerCap};
        protocol::RunConditions sustained = burst;
        sustained.regime = protocol::TimingRegime::Sustained;
        sustained.throttledSamples = 0;
        RunRecord x = run("x", "coalesced", 4.0);
        x.conditions = burst;
        RunRecord cublasSustained = run("c", "cublas_fp32", 1.0);
        cublasSustained.conditions = sustained;
        m_session->addOrUpdate(cublasSustained);
        m_session->addOrUpdate(x);
        const int row = m_model->rowOf("x");
        QCOMPARE(m_model->index(row, ResultsModel::TrustColumn).data().toString(),
                 QStringLiteral("throttled"));
        QCOMPARE(m_model->index(row, ResultsModel::ClockColumn).data().toString(),
                 QStringLiteral("1605–1980 MHz"));
        QVERIFY(m_model->index(row, ResultsModel::TrustColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Throttled: 12 of 80 samples")));
        QVERIFY2(!m_model->percentOfCublas(m_session->runs().last()),
                 "a burst run against a sustained baseline");
        RunRecord cublasBurst = run("c2", "cublas_fp32", 1.0);
        cublasBurst.conditions = burst;
        m_session->addOrUpdate(cublasBurst);
        QCOMPARE(m_model->index(row, ResultsModel::PercentOfCublasColumn).data().toString(),
                 QStringLiteral("25.0 %"));
        // A run recorded before conditions existed, and a published one, say what they are.
        m_session->addOrUpdate(run("old", "naive", 9.0));
        // Not "unknown" on every row, which read like a verdict, nor "not recorded", which left
        // open what was not: the check was not made, for want of a clock log; the tooltip says why.
        QCOMPARE(m_model->index(m_model->rowOf("old"), ResultsModel::TrustColumn).data().toString(),
                 QStringLiteral("not checked (no clock log)"));
        QCOMPARE(m_model->index(m_model->rowOf("old"), ResultsModel::ClockColumn).data().toString(),
                 QStringLiteral("—"));
        QVERIFY(m_model->index(m_model->rowOf("old"), ResultsModel::ClockColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Not measured: Recorded before")));
        m_session->addOrUpdate(run("t4", "naive", 9.0, 1024, "worklog"));
        QCOMPARE(m_model->index(m_model->rowOf("t4"), ResultsModel::TrustColumn).data().toString(),
                 QStringLiteral("published"));
        // The origin in words a newcomer reads: the file's "worklog" alone did not say that the
        // number is not ours; the header names the documents.
        QCOMPARE(m_model->index(m_model->rowOf("t4"), ResultsModel::OriginColumn).data().toString(),
                 QStringLiteral("published (worklog)"));
        QCOMPARE(m_model->index(m_model->rowOf("old"), ResultsModel::OriginColumn).data().toString(),
                 QStringLiteral("measured"));
        const QString originTip =
            m_model->headerData(ResultsModel::OriginColumn, Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(originTip.contains(QStringLiteral("GEMM optimization worklog")) &&
                     originTip.contains(QStringLiteral("NVIDIA T4")),
                 qPrintable(originTip));
        QVERIFY(m_model->headerData(ResultsModel::CodeColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("shared-memory tiling guide")));
    }

    // Shared memory per block counts the dynamic bytes the launch passes: the TMA stage's 193 KiB
    // of stages (its static shared memory is 0), and the static bytes of the seeds' kernels.
    void sharedMemoryIncludesDynamic()
    {
        QString error;
        QVERIFY2(m_session->open(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        bool sawTma = false, sawStep3 = false;
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const RunRecord &r = m_session->runs()[row];
            const QModelIndex smem = m_model->index(row, ResultsModel::SmemColumn);
            if (r.stageKey() == QStringLiteral("wgmma_tma_tf32")) {
                sawTma = true;
                QCOMPARE(r.staticSmemBytes, 0);
                QVERIFY2(smem.data(ResultsModel::SortRole).toInt() >= 193 * 1024,
                         qPrintable(smem.data().toString()));
                QVERIFY(smem.data(Qt::ToolTipRole).toString().contains(QStringLiteral("dynamic")));
            }
            if (r.presetKey == QStringLiteral("worklog-3")) {
                sawStep3 = true;
                QCOMPARE(smem.data(ResultsModel::SortRole).toInt(), r.staticSmemBytes); // no dynamic memory
            }
        }
        QVERIFY(sawTma && sawStep3);
    }

    void failedRunsAreMarked()
    {
        RunRecord failed = run("f", "final", 0);
        failed.status = RunStatus::Failed;
        failed.errorKind = QStringLiteral("wrong_result");
        failed.errorMessage = QStringLiteral("The result differs from cuBLAS (relative error 0.3).");
        failed.relError = 0.3;
        m_session->addOrUpdate(run("ok", "final", 5.0));
        m_session->addOrUpdate(failed);
        m_session->addOrUpdate(run("c", "cublas_fp32", 1.0));
        const int row = m_model->rowOf("f");
        ResultsTableProxy proxy;
        proxy.setSourceModel(m_model.get());
        for (int c = 0; c < ResultsModel::ColumnCount; ++c) {
            const QModelIndex index = m_model->index(row, c);
            // The table shows it in red (widgets layer: ResultsTableProxy).
            QCOMPARE(proxy.index(row, c).data(Qt::ForegroundRole).value<QBrush>().color(),
                     QColor(0xc6, 0x28, 0x28));
            QVERIFY(index.data(Qt::ToolTipRole).toString().contains(failed.errorMessage));
            QVERIFY(index.data(ResultsModel::IsFailedRole).toBool());
        }
        QVERIFY(
            m_model->index(row, ResultsModel::StatusColumn).data().toString().startsWith("wrong_result: "));
        // A failed run shows no time and no % of cuBLAS: it is never presented as a valid time.
        QVERIFY(m_model->index(row, ResultsModel::MedianColumn).data().toString().isEmpty());
        QVERIFY(m_model->index(row, ResultsModel::PercentOfCublasColumn).data().toString().isEmpty());
        QCOMPARE(m_model->index(row, ResultsModel::RelErrorColumn).data().toString(),
                 QStringLiteral("3.0e-01"));
        const QModelIndex okIndex = m_model->index(m_model->rowOf("ok"), ResultsModel::StatusColumn);
        QVERIFY(!okIndex.data(Qt::ForegroundRole).isValid());
        QVERIFY(!proxy.index(m_model->rowOf("ok"), ResultsModel::StatusColumn)
                     .data(Qt::ForegroundRole)
                     .isValid());
        QCOMPARE(okIndex.data().toString(), QStringLiteral("ok"));
    }

    void sortsNumbersAsNumbers()
    {
        m_session->addOrUpdate(run("slow", "naive", 10.0));
        m_session->addOrUpdate(run("fast", "final", 9.0));
        m_session->addOrUpdate(run("mid", "coalesced", 9.5));
        RunRecord failed = run("bad", "strided", 0);
        failed.status = RunStatus::Failed;
        failed.errorKind = QStringLiteral("compile_error");
        m_session->addOrUpdate(failed);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(m_model.get());
        proxy.setSortRole(ResultsModel::SortRole);
        proxy.sort(ResultsModel::MedianColumn, Qt::AscendingOrder);
        QStringList order;
        for (int row = 0; row < proxy.rowCount(); ++row)
            order << proxy.index(row, 0).data(ResultsModel::RunIdRole).toString();
        // "10.000" would sort before "9.000" as text; a failed run has no time and goes last.
        QCOMPARE(order, (QStringList{"fast", "mid", "slow", "bad"}));
        proxy.sort(ResultsModel::StageColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data(ResultsModel::RunIdRole).toString(),
                 QStringLiteral("slow")); // naive first
    }

    void csvHasOneLinePerRunAndQuotes()
    {
        RunRecord failed = run("f", "final", 0);
        failed.status = RunStatus::Failed;
        failed.errorKind = QStringLiteral("launch_error");
        failed.errorMessage = QStringLiteral("Too many resources, requested 1024 threads");
        m_session->addOrUpdate(run("a", "naive", 3.0));
        m_session->addOrUpdate(failed);
        const QList<QByteArray> lines = resultsCsv(*m_model).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("run_id,preset,stage,"));
        QVERIFY(lines[2].contains(",launch_error,\"Too many resources, requested 1024 threads\""));
    }

    // A cell a spreadsheet would run as a formula (from a file's run id, GPU name or
    // error message) is written with a leading apostrophe; a negative number stays a number.
    void csvCellsNeverRunAsFormulas()
    {
        RunRecord hostile = run("=HYPERLINK(\"http://x\",\"y\")", "final", 0);
        hostile.status = RunStatus::Failed;
        hostile.errorKind = QStringLiteral("@SUM(A1:A9)");
        hostile.errorMessage = QStringLiteral("x");
        RunRecord plus = run("+cmd|' /C calc'!A0", "naive", 3.0);
        plus.gpuName = QStringLiteral("-2+3");
        RunRecord tab = run("\tTAB", "naive", 4.0);
        m_session->addOrUpdate(hostile);
        m_session->addOrUpdate(plus);
        m_session->addOrUpdate(tab);
        const QString csv = QString::fromUtf8(resultsCsv(*m_model));
        for (const QString &line : csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1)) {
            for (QString cell : line.split(QLatin1Char(','))) { // no cell of these holds a comma unquoted
                if (cell.startsWith(QLatin1Char('"')))
                    cell = cell.mid(1);
                QVERIFY2(cell.isEmpty() || !QStringLiteral("=+@\t\r").contains(cell.front()),
                         qPrintable(line));
                if (cell.startsWith(QLatin1Char('-'))) {
                    bool number = false;
                    cell.toDouble(&number);
                    QVERIFY2(number, qPrintable(line));
                }
            }
        }
        QVERIFY2(csv.contains(QStringLiteral("\"'=HYPERLINK(")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("'+cmd|")), qPrintable(csv));
        QCOMPARE(csvField(QStringLiteral("-1.5")), QStringLiteral("-1.5"));
        QCOMPARE(csvField(QStringLiteral("-x")), QStringLiteral("'-x"));
        QCOMPARE(csvField(QStringLiteral("\rx")), QStringLiteral("\"'\rx\""));
    }

    // The exported CSV holds numbers, the unit in the column's name: the full ladder's times,
    // TFLOP/s and percentages read back as numbers equal to the runs', never "8.128 ms" or
    // "14 % (limited by registers)"; % of cuBLAS TF32 for the tensor-core stages alone.
    void csvHoldsNumbersWithUnitsInTheHeader()
    {
        QString error;
        QVERIFY2(m_session->open(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        const QList<QByteArray> lines = resultsCsv(*m_model).trimmed().split('\n');
        QCOMPARE(lines.size(), m_session->runs().size() + 1);
        const QList<QByteArray> header = lines[0].split(',');
        for (const char *name :
             {"time_ms", "p20_ms", "p80_ms", "tflops", "pct_of_cublas_fp32", "pct_of_cublas_tf32",
              "registers", "smem_static_bytes", "smem_dynamic_bytes", "occupancy_pct"})
            QVERIFY2(header.contains(name), name);
        const auto column = [&](const char *name) { return int(header.indexOf(name)); };
        int tf32Rows = 0;
        for (int row = 0; row < m_session->runs().size(); ++row) {
            const RunRecord &r = m_session->runs()[row];
            const QList<QByteArray> cells = csvCells(lines[row + 1]);
            QCOMPARE(cells.size(), header.size());
            bool ok = false;
            QCOMPARE(cells[column("time_ms")].toDouble(&ok), r.medianMs);
            QVERIFY2(ok, cells[column("time_ms")].constData());
            QCOMPARE(cells[column("tflops")].toDouble(&ok), r.tflops);
            QVERIFY(ok);
            QCOMPARE(cells[column("preset")], r.presetKey.toUtf8()); // "fp32-tuned", not the chart's "+tuned"
            if (r.occupancy >= 0) {
                QCOMPARE(cells[column("occupancy_pct")].toDouble(&ok), 100.0 * r.occupancy);
                QVERIFY(ok);
            }
            const QByteArray tf32 = cells[column("pct_of_cublas_tf32")];
            const StageInfo *stage = findStage(r.stage.key());
            if (stage->precision == Precision::Tf32) {
                ++tf32Rows;
                QVERIFY2(tf32.toDouble(&ok) > 0 && ok, tf32.constData());
                QCOMPARE(m_model->index(row, ResultsModel::PercentOfCublasTf32Column).data().toString(),
                         QStringLiteral("%1 %").arg(tf32.toDouble(), 0, 'f', 1));
            } else {
                // The file leaves the number out; the table says the ratio does not apply.
                QVERIFY2(tf32.isEmpty(), tf32.constData());
                QCOMPARE(m_model->index(row, ResultsModel::PercentOfCublasTf32Column).data().toString(),
                         r.isOk() ? QStringLiteral("—") : QString());
            }
            for (const QByteArray &cell : cells)
                QVERIFY2(!cell.endsWith(" ms") && !cell.contains(" %"), lines[row + 1].constData());
        }
        QCOMPARE(tf32Rows, 4); // mma, wgmma, wgmma + TMA, and cuBLAS TF32 itself
        QCOMPARE(resultsExportBaseName(QStringLiteral("/x/h200-full-ladder-4096.json")),
                 QStringLiteral("h200-full-ladder-4096-results"));
        QCOMPARE(resultsExportBaseName(QString()), QStringLiteral("session-results"));
    }

    // The Occupancy cell names the occupancy model's limiter, from all the shared memory a block
    // holds: the TMA stage's 193 KiB of dynamic shared memory and its 168 registers both allow one
    // block; shared memory takes the larger share of the SM. The recorded run says "registers"
    // (its runner counted static shared memory only).
    void occupancyNamesTheModelsLimiter()
    {
        QString error;
        QVERIFY2(m_session->open(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        bool sawTma = false;
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const RunRecord &r = m_session->runs()[row];
            const QString cell = m_model->index(row, ResultsModel::OccupancyColumn).data().toString();
            if (r.presetKey == QLatin1String("tf32-wgmma-tma")) {
                sawTma = true;
                QCOMPARE(r.occupancyLimiter, std::optional(OccupancyLimiter::Registers));
                QCOMPARE(cell, QStringLiteral("14 % (limited by shared mem)"));
            }
            if (r.presetKey == QLatin1String("fp32-tuned")) // 247 registers bind alone
                QCOMPARE(cell, QStringLiteral("13 % (limited by registers)"));
        }
        QVERIFY(sawTma);
    }

    // File > Export .csv / .json: whole or not at all (a full disk keeps the earlier export).
    void exportOnAFullDiskKeepsTheOldFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("csv") << "results.csv";
        QTest::newRow("json") << "results.json";
    }
    void exportOnAFullDiskKeepsTheOldFile()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        for (int i = 0; i < 50; ++i)
            m_session->addOrUpdate(run(QStringLiteral("r%1").arg(i), "naive", 3.0));
        QVERIFY(isResultsExport(path));
        QCOMPARE(exportResults(path, *m_model, *m_session), std::nullopt);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray old = f.readAll();
        f.close();
        m_session->addOrUpdate(run(QStringLiteral("new"), "naive", 3.0));
        simulateFullDiskAfter(100);
        const std::optional<QString> error = exportResults(path, *m_model, *m_session);
        simulateFullDiskAfter(-1);
        QVERIFY(error);
        QVERIFY2(error->contains(QStringLiteral("the disk is full")), qPrintable(*error));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), old);
    }

private:
    std::unique_ptr<Session> m_session;
    std::unique_ptr<ResultsModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

QTEST_MAIN(TestResultsModel)
#include "tst_results_model.moc"
