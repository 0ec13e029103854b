// The Sweep view offscreen: a sweep in the session is drawn as a heatmap, exports to real PNG,
// PDF, SVG, CSV and JSON files, says the catalog's sentence on a refused cell, names the best cell,
// and a click on a cell hands its configuration to the window; a sweep started from the view on
// a scripted stand-in runner finishes, lands in the session and in its journal.
#include "session.h"
#include "support/small_sweep_spec.h"
#include "support/sweep_stand_in.h"
#include "sweep_journals.h"
#include "sweep_view.h"

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

// A sweep whose runs answered as a GPU would: a baseline, and each valid point ok (BM = 128 wrong).
SweepData recordedSweep()
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-test");
    sweep.spec = smallSweepSpec();
    const SweepPlan plan = planSweep(sweep.spec);
    RunRecord base;
    base.runId = QStringLiteral("b");
    base.stage = QStringLiteral("cublas_fp32");
    base.m = base.n = base.k = 512;
    base.status = RunStatus::Ok;
    base.origin = QStringLiteral("measured");
    base.medianMs = 0.1;
    base.count = 10;
    base.tflops = ProblemSize{512, 512, 512}.tflopsAt(0.1);
    base.gpuName = QStringLiteral("NVIDIA H200");
    base.gpuUuid = QStringLiteral("GPU-1");
    base.host = QStringLiteral("node");
    sweep.runs << base;
    int n = 0;
    for (const SweepPoint &p : plan.points) {
        if (!p.valid())
            continue;
        RunRecord r = base;
        r.runId = QStringLiteral("p%1").arg(++n);
        r.stage = QStringLiteral("final");
        for (const auto &[name, value] : p.params)
            r.params.insert(QString::fromStdString(name), value);
        if (p.params.at("BM") == 128) {
            r.status = RunStatus::Failed;
            r.errorKind = QStringLiteral("wrong_result");
            r.errorMessage = QStringLiteral("C differs from cuBLAS.");
        } else {
            r.medianMs = 0.1 + 0.01 * n;
            r.tflops = ProblemSize{512, 512, 512}.tflopsAt(r.medianMs);
            r.registers = 100;
            r.spillStoreBytes = p.params.at("TM") == 8 ? 8 : 0;
            r.occupancy = 0.25;
            r.occupancyLimiter = QStringLiteral("registers");
        }
        sweep.runs << r;
    }
    return sweep;
}

} // namespace

class TestSweepView : public QObject {
    Q_OBJECT
private slots:
    void drawsTheSessionsSweepAndExports();
    void hoverExplainsRefusedCells();
    void clickLoadsTheCellsConfiguration();
    void sweepStartedFromTheViewFinishes();

private:
    QTemporaryDir m_dir;
};

void TestSweepView::drawsTheSessionsSweepAndExports()
{
    Session session;
    SweepView view(&session);
    view.resize(900, 650);
    view.show();
    session.setSweep(recordedSweep());
    QVERIFY(view.shownSweep());
    QCOMPARE(view.summary().cells.size(), 16);
    QVERIFY(view.summary().bestCell >= 0);
    QVERIFY2(view.bestText().startsWith(QStringLiteral("Best: ")), qPrintable(view.bestText()));
    int wrong = 0, spills = 0;
    for (const SweepCellSummary &c : view.summary().cells) {
        wrong += c.wrongResults > 0;
        spills += c.spills();
    }
    QVERIFY(wrong > 0);
    QVERIFY(spills > 0);
    view.plot()->replot();
    if (const QString shots = qEnvironmentVariable("GEMMSCOPE_SHOT_DIR"); !shots.isEmpty())
        view.grab().save(shots + "/sweep_view.png"); // to look at it (not a check)
    for (const char *name : {"h.png", "h.pdf", "h.svg", "cells.csv", "cells.json"}) {
        const QString path = m_dir.filePath(name);
        const auto error = view.exportTo(path);
        QVERIFY2(!error, qPrintable(error.value_or(QString())));
        QVERIFY2(QFileInfo(path).size() > 200, name);
    }
    QFile csv(m_dir.filePath("cells.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 17); // header + 16 cells
    QVERIFY(lines.join('\n').contains(QStringLiteral("invalid")));
    QVERIFY(lines.join('\n').contains(QStringLiteral("wrong_result")));
    // % of cuBLAS: the same cells, the baseline of the same GPU.
    view.setShowRatio(true);
    const SweepCellSummary &best = view.summary().cells[view.summary().bestCell];
    QVERIFY(best.pctOfCublas);
    QCOMPARE(*best.pctOfCublas, 100.0 * 0.1 / best.best->medianMs);
    // The sweep is in the session file.
    const SessionParse parsed = parseSessionJson(serializeSession(session.data()));
    QVERIFY2(parsed.data, qPrintable(parsed.error));
    QCOMPARE(parsed.data->sweeps.size(), 1);
    QCOMPARE(parsed.data->sweeps.first().runs.size(), recordedSweep().runs.size());
}

void TestSweepView::hoverExplainsRefusedCells()
{
    Session session;
    SweepView view(&session);
    view.resize(900, 650);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view) || true);
    session.setSweep(recordedSweep());
    view.plot()->replot();
    int refused = -1;
    for (const SweepCellSummary &c : view.summary().cells)
        if (c.invalid())
            refused = c.cell;
    QVERIFY(refused >= 0);
    const auto [cell, tip] = view.cellAt(view.cellCenter(refused));
    QCOMPARE(cell, refused);
    const QString sentence = view.summary().cells[refused].invalidReason;
    QVERIFY(!sentence.isEmpty());
    QVERIFY2(tip.contains(sentence), qPrintable(tip));
    const int bestCell = view.summary().bestCell;
    const auto [hit, numbers] = view.cellAt(view.cellCenter(bestCell));
    QCOMPARE(hit, bestCell);
    QVERIFY2(numbers.contains(QStringLiteral("TFLOP/s")) && numbers.contains(QStringLiteral("% of cuBLAS")),
             qPrintable(numbers));
}

void TestSweepView::clickLoadsTheCellsConfiguration()
{
    Session session;
    SweepView view(&session);
    view.resize(900, 650);
    view.show();
    session.setSweep(recordedSweep());
    view.plot()->replot();
    QSignalSpy chosen(&view, &SweepView::configurationChosen);
    const int best = view.summary().bestCell;
    const QPoint at = view.cellCenter(best).toPoint();
    QTest::mousePress(view.plot(), Qt::LeftButton, {}, at);
    QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, at);
    QCOMPARE(chosen.size(), 1);
    const RunConfig config = chosen.first().first().value<RunConfig>();
    QCOMPARE(config.stage, StageId::Final);
    QCOMPARE(config.params, paramValuesOf(*view.summary().cells[best].best));
    QCOMPARE(config.size, (ProblemSize{512, 512, 512}));
}

void TestSweepView::sweepStartedFromTheViewFinishes()
{
    const QString script = writeSweepStandIn(m_dir.path());
    if (script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    Session session;
    SweepView view(&session);
    view.setJournalDirectory(m_dir.filePath("journals"));
    view.setRunnerTemplate(QStringLiteral("python3 ") + script, 2);
    view.setSpec(smallSweepSpec());
    QSignalSpy state(&view, &SweepView::sweepStateChanged);
    QString error;
    QVERIFY2(view.start(&error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 30000);
    QCOMPARE(session.sweeps().size(), 1);
    const SweepData &sweep = session.sweeps().first();
    QVERIFY(unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty());
    // Finished: its journal (named by its plan) was archived once the session held it.
    const auto journal = SweepJournal::read(
        journalArchiveDirectory(view.journalDirectory()) + "/" + sweepJournalFileName(sweep.spec), &error);
    QVERIFY2(journal, qPrintable(error));
    QCOMPARE(journal->runs.size(), sweep.runs.size());
    QVERIFY(view.summary().bestCell >= 0);
    // Nothing left to resume.
    QVERIFY(!view.resume(&error));
    QVERIFY2(error.contains(QStringLiteral("nothing to resume")), qPrintable(error));
}

QTEST_MAIN(TestSweepView)
#include "tst_sweep_view.moc"
