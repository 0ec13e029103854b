// The Sweep view offscreen: a sweep in the session is drawn as a heatmap, exports to real PNG,
// PDF, SVG, CSV and JSON files, says the catalog's sentence on a refused cell, names the best cell,
// and a click on a cell hands its configuration to the window; a sweep started from the view on
// a scripted stand-in runner finishes, lands in the session and in its journal. And the
// embedded default session's recorded H200 sweeps are shown on first open, the empty state is
// text, Start without a runner is off with its reason, Export writes the print layout, a clicked
// cell says what it loaded, and text from files is plain text in every label.
#include "custom_stage.h"
#include "empty_state.h"
#include "session.h"
#include "size_sweep_chart.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "support/scoped_env.h"
#include "support/small_sweep_spec.h"
#include "support/stand_in_runner.h"
#include "support/sweep_point_run.h"
#include "sweep_journals.h"
#include "sweep_view.h"

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
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
    base.stage = stageIdOf(QStringLiteral("cublas_fp32"));
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
        r.stage = stageIdOf(QStringLiteral("final"));
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
            r.occupancyLimiter = OccupancyLimiter::Registers;
        }
        sweep.runs << r;
    }
    return sweep;
}

// The embedded default session (resources/default_session.json, the file compiled into the
// application) read from the source tree.
const QString kDefaultSession =
    QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json");

} // namespace

class TestSweepView : public QObject {
    Q_OBJECT
private slots:
    void drawsTheSessionsSweepAndExports();
    void hoverExplainsRefusedCells();
    void clickLoadsTheCellsConfiguration();
    void sweepStartedFromTheViewFinishes();
    void embeddedSessionShowsRecordedSweepsOnFirstOpen();
    void emptyStateIsTextNotAColourMap();
    void startIsOffWithItsReasonWithoutARunner();
    void exportWritesThePrintLayout();
    void cellClickSaysWhatItLoaded();
    void textFromFilesIsPlainInEveryLabel();
    void aUsersKernelIsSweptOnceThePanelHasIt();
    void formNamesTheValuesItKeepsFixed();
    void sizeFieldSpellsTheSizeAsTheWindowDoes();
    void cellMarksSitUnderTheHeatmap();
    void shownListSaysTheWholeTitle();
    void emptyStateIsAStartPage();
    void fewCellsKeepASizeManyFillThePlot();
    void cellsNameTheRestOfTheirBestRun();
    void printTitleAndFooterAreWhole();
    void colourScaleIsLevelWithTheGrid();

private:
    QTemporaryDir m_dir;
};

void TestSweepView::drawsTheSessionsSweepAndExports()
{
    Session session;
    test::ControlledSweepView view(&session);
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
    test::ControlledSweepView view(&session);
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
    test::ControlledSweepView view(&session);
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
    const QString script = test::standInRunnerPath();
    if (script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    Session session;
    test::ControlledSweepView view(&session);
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

void TestSweepView::embeddedSessionShowsRecordedSweepsOnFirstOpen()
{
    // As the window does: the views first, then the default session.
    Session session;
    test::ControlledSweepView grid(&session);
    test::ControlledSizeSweepView sizes(&session);
    QVERIFY(!grid.shownSweep() && !sizes.shownSweep());
    QString error;
    QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
    QCOMPARE(session.sweeps().size(), 2);
    // The parameter sweep: the recorded TM x TN slice, every accepted configuration answered.
    QVERIFY(grid.shownSweep());
    QCOMPARE(grid.shownSweep()->spec.kind, SweepKind::Grid);
    QVERIFY(grid.summary().validPoints > 10);
    QCOMPARE(grid.summary().answeredPoints, grid.summary().validPoints);
    QVERIFY(grid.summary().bestCell >= 0);
    const SweepCellSummary &best = grid.summary().cells[grid.summary().bestCell];
    QCOMPARE(formatRunParams(*best.best), QStringLiteral("BM=128 BN=128 BK=24 TM=4 TN=16"));
    QVERIFY(best.pctOfCublas); // the recorded cuBLAS baseline of the same runner session
    // Which cuBLAS, and its time: the sweep's own run, not a Ladder session's.
    const double cublasMs = best.best->medianMs * *best.pctOfCublas / 100;
    QVERIFY2(
        grid.bestText().contains(QStringLiteral("%1 % of this sweep's cuBLAS FP32 run on that GPU, %2 ms")
                                     .arg(*best.pctOfCublas, 0, 'f', 1)
                                     .arg(cublasMs, 0, 'f', 3)),
        qPrintable(grid.bestText()));
    // Where and when it was measured, on first open.
    grid.resize(980, 650);
    grid.show();
    const QLabel *summary = grid.findChild<QLabel *>(QStringLiteral("sweepBest"));
    QVERIFY(summary && summary->isVisible());
    QVERIFY2(summary->text().contains(QStringLiteral("NVIDIA H200 (machine “vm”)")) &&
                 summary->text().contains(QStringLiteral("2026-11-30")),
             qPrintable(summary->text()));
    QVERIFY(grid.plot()->isVisible());
    // The Shown list names the stage as the catalog does, not by its key ("final: TM x TN, ...").
    const auto *list = grid.findChild<QComboBox *>(QStringLiteral("sweepList"));
    QVERIFY(list);
    QCOMPARE(list->currentText(), QStringLiteral("__restrict__ and #pragma unroll: TM × TN at 4096³"));
    QCOMPARE(list->itemData(list->currentIndex(), Qt::ToolTipRole).toString(), list->currentText());
    // The size sweep: 5 series x 11 sizes, all answered, the wave steps marked.
    QVERIFY(sizes.shownSweep());
    QCOMPARE(sizes.shownSweep()->spec.kind, SweepKind::Sizes);
    QCOMPARE(sizes.summary().answered, 55);
    QVERIFY(sizes.chart()->markedSteps() > 0);
    QVERIFY(sizes.chart()->plot()->graphCount() >= 5);
    QVERIFY2(sizes.chart()->noteText().contains(QStringLiteral("2026-11-30")),
             qPrintable(sizes.chart()->noteText()));
}

void TestSweepView::emptyStateIsTextNotAColourMap()
{
    Session session;
    test::ControlledSweepView grid(&session);
    grid.resize(980, 650);
    grid.show();
    QVERIFY(!grid.shownSweep());
    // No colour map at all: the chart's place holds a sentence on what a sweep is and how to get one.
    QVERIFY(!grid.plot()->isVisible());
    QVERIFY(!grid.showsHeatmap());
    const QLabel *empty = grid.findChild<QLabel *>(QStringLiteral("sweepEmpty"));
    QVERIFY(empty && empty->isVisible());
    for (const char *words : {"parameter sweep", "Start", "recorded"})
        QVERIFY2(empty->text().contains(QLatin1String(words)), words);
    // The next step as a button, not only prose: File > Open for a sweep file, in both views; and
    // one Start, the form's (a second one in the empty pane read as another thing to start).
    test::ControlledSizeSweepView sizesFirst(&session);
    sizesFirst.show();
    for (QWidget *view : {static_cast<QWidget *>(&grid), static_cast<QWidget *>(&sizesFirst)}) {
        auto *open = view->findChild<QPushButton *>(QStringLiteral("emptyStateOpen"));
        QVERIFY(open && open->isVisible());
        QSignalSpy opened(view, SIGNAL(openFileRequested()));
        open->click();
        QCOMPARE(opened.count(), 1);
        QStringList starts;
        for (const QPushButton *button : view->findChildren<QPushButton *>())
            if (button->isVisible() && button->text().contains(QStringLiteral("Start")))
                starts << button->objectName();
        QCOMPARE(starts, QStringList{view == &grid ? QStringLiteral("sweepStart")
                                                   : QStringLiteral("sizeSweepStart")});
    }
    // Nothing to export: a sentence, not a screen grab of buttons.
    const auto error = grid.exportTo(m_dir.filePath("empty.png"));
    QVERIFY(error);
    QVERIFY(!QFileInfo::exists(m_dir.filePath("empty.png")));

    test::ControlledSizeSweepView sizes(&session);
    sizes.resize(980, 650);
    sizes.show();
    QVERIFY(!sizes.chart()->plot()->isVisible());
    QVERIFY(!sizes.chart()->showsPlot());
    QVERIFY2(sizes.chart()->emptyText().contains(QStringLiteral("size sweep")),
             qPrintable(sizes.chart()->emptyText()));
    QVERIFY(sizes.exportTo(m_dir.filePath("empty-sizes.svg")));
    if (const QString shots = qEnvironmentVariable("GEMMSCOPE_SHOT_DIR"); !shots.isEmpty()) {
        grid.grab().save(shots + "/sweep_view-empty.png"); // to look at (not a check)
        sizes.resize(600, 700);                            // a narrow pane: the controls above the chart
        QApplication::processEvents();
        sizes.grab().save(shots + "/size_sweep_view-empty-narrow.png");
    }
}

void TestSweepView::startIsOffWithItsReasonWithoutARunner()
{
    const test::ScopedEnv noRunner("GEMMSCOPE_RUNNER", "/nonexistent/gemmscope-runner");
    Session session;
    test::ControlledSweepView grid(&session);
    test::ControlledSizeSweepView sizes(&session);
    for (QWidget *view : {static_cast<QWidget *>(&grid), static_cast<QWidget *>(&sizes)}) {
        view->resize(980, 650);
        view->show();
        const QString prefix = view == &grid ? QStringLiteral("sweep") : QStringLiteral("sizeSweep");
        auto *start = view->findChild<QPushButton *>(prefix + QStringLiteral("Start"));
        QVERIFY(start);
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains(QStringLiteral("no GPU runner")), qPrintable(start->toolTip()));
        auto *why = view->findChild<QLabel *>(prefix + QStringLiteral("StartOff"));
        QVERIFY(why && why->isVisible());
        QVERIFY2(why->text().contains(QStringLiteral("/nonexistent/gemmscope-runner")),
                 qPrintable(why->text()));
        QVERIFY(!view->findChild<QPushButton *>(prefix + QStringLiteral("Resume"))->isEnabled());
    }
    QString error;
    QVERIFY(!grid.start(&error));
    QVERIFY2(error.startsWith(QStringLiteral("Start is off")) && !error.contains(QStringLiteral("()")),
             qPrintable(error));
    // A template that does not need a local runner (ssh, a script) turns it on again.
    grid.setRunnerTemplate(QStringLiteral("ssh gpu-host gemmscope-runner"));
    QVERIFY(grid.findChild<QPushButton *>(QStringLiteral("sweepStart"))->isEnabled());
    QVERIFY(grid.startOffReason().isEmpty());
    // The window's own reason (its runner said there is no GPU) holds back the local runner only.
    grid.setRunningOff(QStringLiteral("the runner found no NVIDIA GPU."));
    QVERIFY(grid.startOffReason().isEmpty());
    const test::ScopedEnv someRunner("GEMMSCOPE_RUNNER",
                                     QCoreApplication::applicationFilePath().toLocal8Bit());
    grid.setRunnerTemplate(QStringLiteral("{runner}"));
    auto *start = grid.findChild<QPushButton *>(QStringLiteral("sweepStart"));
    QVERIFY(!start->isEnabled());
    QVERIFY2(start->toolTip().contains(QStringLiteral("no NVIDIA GPU")), qPrintable(start->toolTip()));
    QVERIFY(grid.startOffReason().contains(QStringLiteral("no NVIDIA GPU")));
}

void TestSweepView::exportWritesThePrintLayout()
{
    Session session;
    test::ControlledSweepView grid(&session);
    test::ControlledSizeSweepView sizes(&session);
    QString error;
    QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
    for (QWidget *view : {static_cast<QWidget *>(&grid), static_cast<QWidget *>(&sizes)}) {
        view->resize(700, 500); // the print layout does not depend on the window
        view->show();
    }
    // Both are RunViews, which the window registers and exports (Ctrl+E).
    const QList<RunView *> views{&grid, &sizes};
    for (RunView *view : views) {
        QVERIFY(!view->viewName().isEmpty());
        const QString base =
            m_dir.filePath(view == views.first() ? QStringLiteral("heatmap") : QStringLiteral("sizes"));
        for (const char *suffix : {".png", ".svg", ".pdf"}) {
            const QString path = base + QLatin1String(suffix);
            const auto failure = view->exportTo(path);
            QVERIFY2(!failure, qPrintable(failure.value_or(QString())));
            QVERIFY2(QFileInfo(path).size() > 2000, qPrintable(path));
        }
        // The PNG is the print layout (1200x800 at 2x), not the widget as it is on screen.
        const QImage png(base + QStringLiteral(".png"));
        QCOMPARE(png.size(), QSize(2400, 1600));
        QFile svg(base + QStringLiteral(".svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(svg.readAll());
        const QString title =
            view == views.first() ? QStringLiteral("Sweep: ") : QStringLiteral("Problem sizes");
        QVERIFY2(text.contains(title), qPrintable(title));
        QVERIFY(text.contains(QStringLiteral("measured on NVIDIA H200 (machine “vm”)")));
        QFile pdf(base + QStringLiteral(".pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        if (const QString shots = qEnvironmentVariable("GEMMSCOPE_SHOT_DIR"); !shots.isEmpty())
            QFile::copy(base + QStringLiteral(".png"),
                        shots + QLatin1Char('/') + QFileInfo(base).fileName() + QStringLiteral("-print.png"));
    }
    // The chart on screen is back as it was: no title or footer rows left in its layout.
    QCOMPARE(grid.plot()->plotLayout()->rowCount(), 1);
}

void TestSweepView::cellClickSaysWhatItLoaded()
{
    Session session;
    test::ControlledSweepView view(&session);
    QString error;
    QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
    RunConfig panel; // the panel's configuration: another size and budget than the sweep's
    panel.stage = StageId::Final;
    panel.size = {8192, 4096, 6144};
    panel.timing.budgetMs = 1000;
    view.setBaseConfig(panel);
    view.resize(980, 650);
    view.show();
    view.plot()->replot();
    QVERIFY(view.loadedText().isEmpty());
    QSignalSpy chosen(&view, &SweepView::configurationChosen);
    const QPoint at = view.cellCenter(view.summary().bestCell).toPoint();
    QTest::mousePress(view.plot(), Qt::LeftButton, {}, at);
    QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, at);
    QCOMPARE(chosen.size(), 1);
    const QString loaded = view.loadedText();
    QVERIFY2(loaded.startsWith(
                 QStringLiteral("Loaded final BM=128 BN=128 BK=24 TM=4 TN=16 at 4096³, budget 30 ms")),
             qPrintable(loaded));
    QVERIFY2(loaded.contains(QStringLiteral("size 8192x4096x6144")) &&
                 loaded.contains(QStringLiteral("1000 ms")),
             qPrintable(loaded));
    QVERIFY(view.findChild<QLabel *>(QStringLiteral("sweepLoaded"))->isVisible());
}

void TestSweepView::textFromFilesIsPlainInEveryLabel()
{
    // A host name that is markup: an <img> that would block the UI thread if it were rendered.
    const QString hostile = QStringLiteral("<img src=\"/dev/zero\"><b>node</b>");
    SweepData grid = recordedSweep();
    for (RunRecord &r : grid.runs)
        r.host = hostile;
    SweepData sizes;
    sizes.id = QStringLiteral("sizes-hostile");
    sizes.spec.kind = SweepKind::Sizes;
    sizes.spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"}};
    sizes.spec.sizes = {{1024, 1024, 1024}};
    RunRecord r = grid.runs.first(); // the cuBLAS baseline at 512: re-sized
    r.m = r.n = r.k = 1024;
    sizes.runs << r;
    Session session;
    test::ControlledSweepView gridView(&session);
    test::ControlledSizeSweepView sizeView(&session);
    session.setSweep(grid);
    session.setSweep(sizes);
    QVERIFY(gridView.shownSweep() && sizeView.shownSweep());
    int seen = 0;
    for (QWidget *view : {static_cast<QWidget *>(&gridView), static_cast<QWidget *>(&sizeView)})
        for (const QLabel *label : view->findChildren<QLabel *>())
            if (label->text().contains(QStringLiteral("<img"))) {
                ++seen;
                QVERIFY2(label->textFormat() == Qt::PlainText, qPrintable(label->objectName()));
            }
    QVERIFY(seen >= 2); // the heatmap's summary and the size chart's note name the host
}

// A user's kernel with two parameters joins the form's stages when the panel is set to it, and the
// sweep's axes are its parameters.
void TestSweepView::aUsersKernelIsSweptOnceThePanelHasIt()
{
    const std::string text = "/* gemmscope:kernel\nname gemmscope::swept\ntitle Swept kernel\n"
                             "param BM 8..64 step 8 default 16\nparam BN 8..64 step 8 default 16\n"
                             "block BN, BM\ngrid ceil_div(N, BN), ceil_div(M, BM)\n*/\n";
    const CustomStageParse parsed = registerCustomKernel({text, "swept.cuh", ""});
    QVERIFY(parsed.stage);
    Session session;
    test::ControlledSweepView view(&session);
    auto *stage = view.findChild<QComboBox *>(QStringLiteral("sweepStage"));
    QVERIFY(stage->findData(QString::fromStdString(parsed.stage->key)) < 0);
    RunConfig panel;
    panel.stage = parsed.stage->id;
    panel.params = defaultParams(parsed.stage->id);
    view.setBaseConfig(panel);
    QCOMPARE(stage->currentData().toString(), QString::fromStdString(parsed.stage->key));
    QCOMPARE(stage->currentText(), QStringLiteral("Swept kernel (your kernel)"));
    auto *x = view.findChild<QComboBox *>(QStringLiteral("sweepX"));
    QStringList axes;
    for (int i = 0; i < x->count(); ++i)
        axes << x->itemText(i);
    QVERIFY2(axes.join(QLatin1Char(',')).contains(QStringLiteral("BM")), qPrintable(axes.join(',')));
    view.setBaseConfig(panel); // listed once
    QCOMPARE(stage->findText(QStringLiteral("Swept kernel (your kernel)")), stage->currentIndex());
}

// The parameter panel is hidden in the Sweep workspace, so the form says the values it keeps
// fixed ("the panel's values" pointed at a panel not on screen), and follows the axes chosen.
void TestSweepView::formNamesTheValuesItKeepsFixed()
{
    Session session;
    test::ControlledSweepView view(&session);
    RunConfig configured;
    configured.stage = StageId::Coalesced;
    configured.params = defaultParams(StageId::Coalesced);
    configured.params["BK"] = 16;
    view.setBaseConfig(configured);
    auto *rest = view.findChild<QComboBox *>(QStringLiteral("sweepRest"));
    auto *x = view.findChild<QComboBox *>(QStringLiteral("sweepX"));
    auto *y = view.findChild<QComboBox *>(QStringLiteral("sweepY"));
    QCOMPARE(x->currentText(), QStringLiteral("BM"));
    QCOMPARE(y->currentText(), QStringLiteral("BN"));
    QCOMPARE(rest->itemText(0), QStringLiteral("fixed: BK=16 TM=%1 TN=%2")
                                    .arg(configured.params.at("TM"))
                                    .arg(configured.params.at("TN")));
    y->setCurrentIndex(y->findText(QStringLiteral("BK")));
    QCOMPARE(rest->itemText(0), QStringLiteral("fixed: BN=%1 TM=%2 TN=%3")
                                    .arg(configured.params.at("BN"))
                                    .arg(configured.params.at("TM"))
                                    .arg(configured.params.at("TN")));
    const QString origin = view.findChild<QLabel *>(QStringLiteral("sweepOrigin"))->text();
    QVERIFY2(origin.contains(QStringLiteral("Alt+0")) &&
                 !origin.contains(QStringLiteral("follows the parameter panel")),
             qPrintable(origin));
    // Another stage than the configured one keeps that stage's defaults, and says so.
    auto *stage = view.findChild<QComboBox *>(QStringLiteral("sweepStage"));
    QVERIFY(stage->findData(QStringLiteral("naive")) >= 0);
    stage->setCurrentIndex(stage->findData(QStringLiteral("naive")));
    QCOMPARE(rest->itemText(0), QStringLiteral("fixed (the stage's defaults)"));
}

// The Size field writes a size as every other view does ("4096³", "8192x4096x6144") and takes
// what users type: one number, the three written out, or the window's own text.
void TestSweepView::sizeFieldSpellsTheSizeAsTheWindowDoes()
{
    Session session;
    test::ControlledSweepView grid(&session);
    auto *size = grid.findChild<QLineEdit *>(QStringLiteral("sweepSize"));
    QVERIFY(size);
    QCOMPARE(size->text(), QString::fromUtf8("4096³"));
    QCOMPARE(grid.spec().size, (ProblemSize{4096, 4096, 4096}));
    SweepSpec spec = grid.spec();
    spec.size = ProblemSize{8192, 4096, 6144};
    grid.setSpec(spec);
    QCOMPARE(size->text(), QStringLiteral("8192x4096x6144"));
    spec.size = ProblemSize{2048, 2048, 2048};
    grid.setSpec(spec);
    QCOMPARE(size->text(), QString::fromUtf8("2048³"));
    const std::pair<const char *, ProblemSize> typed[] = {{"4096", {4096, 4096, 4096}},
                                                          {"4096x4096x4096", {4096, 4096, 4096}},
                                                          {"8192x4096x6144", {8192, 4096, 6144}}};
    for (const auto &[text, expected] : typed) {
        size->setText(QString::fromUtf8(text));
        QCOMPARE(grid.spec().size, expected);
    }
    // A text it cannot read stops Start with the sentence that says what it takes.
    size->setText(QStringLiteral("8192x4096"));
    grid.setRunnerTemplate(QStringLiteral("ssh gpu-host gemmscope-runner")); // Start on: the form speaks
    QString error;
    QVERIFY(!grid.start(&error));
    QVERIFY2(error.contains(QStringLiteral("8192x4096x6144")), qPrintable(error));
}

// The heatmap's key beside the heatmap at the size the Sweep workspace has at 1280x800, not at the
// foot of the form's scrolling column (it was below the fold there).
void TestSweepView::cellMarksSitUnderTheHeatmap()
{
    Session session;
    test::ControlledSweepView grid(&session);
    grid.resize(980, 650);
    grid.show();
    session.setSweep(recordedSweep());
    QApplication::processEvents();
    const auto *legend = grid.findChild<QLabel *>(QStringLiteral("sweepLegend"));
    QVERIFY(legend && legend->isVisible());
    QVERIFY2(legend->text().contains(QStringLiteral("Cell marks")), qPrintable(legend->text()));
    for (const QWidget *w = legend; w; w = w->parentWidget())
        QVERIFY2(!qobject_cast<const QScrollArea *>(w), "the key is in the form's scrolling column");
    const QRect key(legend->mapTo(&grid, QPoint(0, 0)), legend->size());
    QVERIFY2(grid.rect().contains(key), qPrintable(QStringLiteral("key at %1,%2 %3x%4")
                                                       .arg(key.x())
                                                       .arg(key.y())
                                                       .arg(key.width())
                                                       .arg(key.height())));
    const QRect heatmap(grid.plot()->mapTo(&grid, QPoint(0, 0)), grid.plot()->size());
    QVERIFY(key.top() >= heatmap.bottom());                                          // under it
    QVERIFY(key.top() - heatmap.bottom() < 3 * legend->fontMetrics().lineSpacing()); // next to it
    QVERIFY(key.left() < heatmap.center().x() && key.right() > heatmap.center().x());
    // Its lines fit its height: nothing of it cut.
    QVERIFY(legend->height() >= legend->heightForWidth(legend->width()));
}

// The Shown list over the chart, as wide as its title (a stage's name made it longer than the
// form's column); the whole title in its tooltip; hidden while the session holds no sweep.
void TestSweepView::shownListSaysTheWholeTitle()
{
    Session session;
    test::ControlledSweepView grid(&session);
    test::ControlledSizeSweepView sizes(&session);
    for (QWidget *view : {static_cast<QWidget *>(&grid), static_cast<QWidget *>(&sizes)}) {
        view->resize(980, 650);
        view->show();
    }
    const auto *row = grid.findChild<QWidget *>(QStringLiteral("sweepListRow"));
    QVERIFY(row);
    QVERIFY(!row->isVisible()); // nothing to choose from
    QString error;
    QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
    QApplication::processEvents();
    for (const char *name : {"sweepList", "sizeSweepList"}) {
        const auto *list =
            (QByteArray(name) == "sweepList" ? static_cast<QWidget *>(&grid) : static_cast<QWidget *>(&sizes))
                ->findChild<QComboBox *>(QLatin1String(name));
        QVERIFY2(list && list->isVisible(), name);
        const QString title = list->currentText();
        QVERIFY2(title.size() > 40, qPrintable(title)); // longer than the form's column held
        const int textWidth = list->fontMetrics().horizontalAdvance(title);
        QVERIFY2(list->width() > textWidth, qPrintable(QStringLiteral("%1: %2 px for a title of %3 px")
                                                           .arg(QLatin1String(name))
                                                           .arg(list->width())
                                                           .arg(textWidth)));
        QVERIFY2(list->toolTip().contains(title.toHtmlEscaped()), qPrintable(list->toolTip()));
    }
}

// No sweep: a start page, not four lines in a corner: a heading, the sentence, and the ways to
// look at one as buttons each beside what it does (File > Open with its keys).
void TestSweepView::emptyStateIsAStartPage()
{
    Session session;
    test::ControlledSweepView grid(&session);
    grid.resize(1400, 900);
    grid.show();
    QApplication::processEvents();
    auto *empty = grid.findChild<EmptyState *>(QStringLiteral("sweepEmptyState"));
    QVERIFY(empty && empty->isVisible());
    QVERIFY(!empty->heading().isEmpty());
    auto *open = empty->findChild<QPushButton *>(QStringLiteral("emptyStateOpen"));
    QVERIFY(open && open->isVisible());
    const QString keys = QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText);
    QVERIFY2(empty->stepText(open).contains(keys), qPrintable(empty->stepText(open)));
    QVERIFY(!empty->stepText(empty->offerButton()).isEmpty()); // the recorded sweeps, said
    // The block in the middle of the pane, its top a little down.
    const QRect text(empty->textLabel()->mapTo(empty, QPoint(0, 0)), empty->textLabel()->size());
    QVERIFY2(text.left() > empty->width() / 8, qPrintable(QString::number(text.left())));
    QVERIFY2(std::abs(text.center().x() - empty->width() / 2) < empty->width() / 10,
             qPrintable(QString::number(text.center().x())));
    QVERIFY2(text.top() > empty->height() / 10, qPrintable(QString::number(text.top())));
}

// The colour bar spans the grid's height, level with it, at a few sizes and with the title over the
// cells: it ran from above the title to below the axis' label (the no-context review).
void TestSweepView::colourScaleIsLevelWithTheGrid()
{
    Session session;
    test::ControlledSweepView view(&session);
    view.show();
    session.setSweep(recordedSweep());
    QVERIFY(view.shownSweep());
    for (const QSize size : {QSize(900, 650), QSize(700, 420), QSize(1400, 800)}) {
        view.resize(size);
        QApplication::processEvents();
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        auto *scale = view.plot()->findChild<QCPColorScale *>();
        QVERIFY(scale);
        const QRect grid = view.plot()->axisRect()->rect();
        const QRect bar = scale->axis()->axisRect()->rect();
        QVERIFY2(std::abs(bar.top() - grid.top()) <= 1 && std::abs(bar.bottom() - grid.bottom()) <= 1,
                 qPrintable(QStringLiteral("%1x%2: grid %3-%4, colour bar %5-%6")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(grid.top())
                                .arg(grid.bottom())
                                .arg(bar.top())
                                .arg(bar.bottom())));
    }
}

QTEST_MAIN(TestSweepView)
#include "tst_sweep_view.moc"

namespace {

// A sweep of the final stage over these BM and BN values (none run: every cell drawn, grey).
SweepData gridOf(const std::vector<int> &bm, const std::vector<int> &bn)
{
    SweepData sweep;
    sweep.id = QStringLiteral("grid-%1x%2").arg(bm.size()).arg(bn.size());
    sweep.spec = smallSweepSpec();
    sweep.spec.x = {"BM", bm};
    sweep.spec.y = {"BN", bn};
    sweep.spec.fixed = {{"BK", 8}, {"TM", 4}, {"TN", 4}};
    return sweep;
}

} // namespace

// A 2 x 2 sweep drew four slabs over the whole pane: its cells keep a sensible size, square, the
// grid centred with its axes and colour scale; a grid of many cells still fills the plot.
void TestSweepView::fewCellsKeepASizeManyFillThePlot()
{
    Session session;
    test::ControlledSweepView view(&session);
    view.resize(980, 650);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto cellSize = [&view] {
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QCPAxis *x = view.plot()->xAxis, *y = view.plot()->yAxis;
        return QSizeF(std::abs(x->coordToPixel(1) - x->coordToPixel(0)),
                      std::abs(y->coordToPixel(1) - y->coordToPixel(0)));
    };
    session.setSweep(gridOf({64, 128}, {64, 128}));
    QApplication::processEvents();
    QVERIFY(view.showsHeatmap());
    QVERIFY2(view.plot()->width() > 3 * SweepView::kMaxCellPx, "a pane with room to spare");
    const QSizeF few = cellSize();
    QVERIFY2(few.width() <= SweepView::kMaxCellPx + 1 && few.height() <= SweepView::kMaxCellPx + 1,
             qPrintable(QStringLiteral("%1 x %2 px").arg(few.width()).arg(few.height())));
    QVERIFY2(std::abs(few.width() - few.height()) <= 1,
             qPrintable(QStringLiteral("%1 x %2 px").arg(few.width()).arg(few.height())));
    // Centred: as much room left of the axis rect as right of the colour scale.
    const QRect axes = view.plot()->axisRect()->outerRect();
    QCPLayoutElement *scale = view.plot()->plotLayout()->element(0, 1);
    QVERIFY(scale);
    const int left = axes.left(), right = view.plot()->width() - scale->outerRect().right();
    QVERIFY2(left > 20 && std::abs(left - right) <= 2,
             qPrintable(QStringLiteral("%1 | %2").arg(left).arg(right)));
    // Every legal BM and BN (8 x 8): the cells share the whole plot, under the cap.
    const SweepData everyTile = gridOf({}, {});
    session.setSweep(everyTile);
    view.showSweep(everyTile); // the shown sweep stays until another is chosen
    QApplication::processEvents();
    const QSizeF many = cellSize();
    QCOMPARE(int(view.plan().xValues.size()), 8);
    QVERIFY2(many.width() < SweepView::kMaxCellPx && many.height() < SweepView::kMaxCellPx,
             qPrintable(QStringLiteral("%1 x %2 px").arg(many.width()).arg(many.height())));
    QCOMPARE(view.plot()->plotLayout()->margins(), QMargins());
    QVERIFY(view.plot()->axisRect()->outerRect().left() < 20);
}

namespace {

// A sweep "best over the rest" of BM x BN, every parameter set answered, the fastest BK, TM and TN
// unlike from cell to cell.
SweepData bestOverTheRest()
{
    SweepData sweep;
    sweep.id = QStringLiteral("best-over-rest");
    sweep.spec = smallSweepSpec();
    sweep.spec.x = {"BM", {64, 128}};
    sweep.spec.y = {"BN", {64, 128}};
    sweep.spec.fixed.clear();
    sweep.spec.rest = SweepRest::BestOverRest;
    const SweepPlan plan = planSweep(sweep.spec);
    int n = 0;
    for (const SweepPoint &p : plan.points) {
        if (!p.valid())
            continue;
        RunRecord r;
        r.runId = QStringLiteral("p%1").arg(++n);
        test::setPointConfiguration(r, p);
        r.status = RunStatus::Ok;
        r.origin = QStringLiteral("measured");
        const auto at = [&p](const char *name) { return p.params.at(name); };
        r.tflops =
            1 + (at("BK") * 7 + at("TM") * 3 + at("TN") * 5 + at("BM") / 32 * 11 + at("BN") / 32 * 13) % 17;
        r.medianMs = ProblemSize{512, 512, 512}.flops() / (r.tflops * 1e12) * 1e3;
        r.count = 10;
        r.gpuName = QStringLiteral("NVIDIA H200");
        r.host = QStringLiteral("node");
        sweep.runs << r;
    }
    return sweep;
}

// The text drawn in the heatmap's cell (x, y), and where.
QCPItemText *cellLabel(QCustomPlot *plot, int x, int y)
{
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            text && text->clipToAxisRect() && text->position->coords() == QPointF(x, y))
            return text;
    return nullptr;
}

} // namespace

// Each cell of a sweep "best over the rest" names, under its value, the BK, TM and TN its value
// came from (a reviewer found only the hover said it), and the title over the grid says that a
// cell holds the best over them; a cell too small for the names leaves them out, never cut.
void TestSweepView::cellsNameTheRestOfTheirBestRun()
{
    Session session;
    test::ControlledSweepView view(&session);
    view.resize(980, 650);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    session.setSweep(bestOverTheRest());
    QApplication::processEvents();
    QVERIFY(view.showsHeatmap());
    view.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QSet<QString> named;
    for (const SweepCellSummary &c : view.summary().cells) {
        QVERIFY(c.best);
        ParamValues rest = paramValuesOf(*c.best);
        rest.erase("BM");
        rest.erase("BN");
        const QString expected = QString::fromStdString(formatParams(rest)); // "BK=8 TM=4 TN=4"
        QVERIFY(expected.contains(QStringLiteral("BK=")) && expected.contains(QStringLiteral("TN=")));
        const QCPItemText *label = cellLabel(view.plot(), c.x == 64 ? 0 : 1, c.y == 64 ? 0 : 1);
        QVERIFY(label);
        const QStringList lines = label->text().split(QLatin1Char('\n'));
        // Under the value, on one line or broken between names (no marks in this sweep).
        QVERIFY2(lines.size() >= 2 && lines.mid(1).join(QLatin1Char(' ')) == expected,
                 qPrintable(label->text() + " / " + expected));
        named.insert(expected);
    }
    QVERIFY2(named.size() > 1, "each cell its own best");
    // The title over the grid: what a cell holds, between the grid's top and the plot's.
    QCPItemText *title = nullptr;
    for (int i = 0; i < view.plot()->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(view.plot()->item(i)); text && !text->clipToAxisRect())
            title = text;
    QVERIFY(title);
    const QString said = title->text().simplified();
    QVERIFY2(said.contains(QStringLiteral("best over")), qPrintable(said));
    for (const char *name : {"BK", "TM", "TN"})
        QVERIFY2(said.contains(QLatin1String(name)), qPrintable(said));
    const QRect grid = view.plot()->axisRect()->rect();
    const QPointF top = title->topLeft->pixelPosition(), bottom = title->bottomRight->pixelPosition();
    QVERIFY2(top.y() >= 0 && bottom.y() <= grid.top() + 1,
             qPrintable(QStringLiteral("%1..%2 over %3").arg(top.y()).arg(bottom.y()).arg(grid.top())));
    QVERIFY2(top.x() >= grid.left() - 2 && bottom.x() <= grid.right() + 2,
             qPrintable(QStringLiteral("%1..%2 over %3..%4")
                            .arg(top.x())
                            .arg(bottom.x())
                            .arg(grid.left())
                            .arg(grid.right())));
    // A pane too small for the names: each cell keeps its value, and no line is wider than its cell.
    view.resize(560, 420);
    QApplication::processEvents();
    view.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const double cellWidth =
        std::abs(view.plot()->xAxis->coordToPixel(1) - view.plot()->xAxis->coordToPixel(0));
    const double cellHeight =
        std::abs(view.plot()->yAxis->coordToPixel(1) - view.plot()->yAxis->coordToPixel(0));
    for (const SweepCellSummary &c : view.summary().cells) {
        const QCPItemText *label = cellLabel(view.plot(), c.x == 64 ? 0 : 1, c.y == 64 ? 0 : 1);
        QVERIFY(label);
        const QFontMetrics metrics(label->font());
        const QStringList lines = label->text().split(QLatin1Char('\n'));
        for (const QString &line : lines)
            QVERIFY2(metrics.horizontalAdvance(line) <= cellWidth,
                     qPrintable(QStringLiteral("%1 in %2 px").arg(line).arg(cellWidth)));
        if (lines.size() > 1) // the value alone may fill a tiny cell; the names never overfill it
            QVERIFY(lines.size() * metrics.lineSpacing() <= cellHeight);
        QVERIFY(label->text().contains(QString::number(c.best->tflops, 'f', 1)));
    }
}

// The print layout's title and footer rows (sweep_print_layout.h) are as wide as their text: the
// margins that keep a few cells small on screen squeezed them to the grid's width, which cut them
// at both ends in every export of a small sweep.
void TestSweepView::printTitleAndFooterAreWhole()
{
    Session session;
    test::ControlledSweepView view(&session);
    view.resize(980, 650);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    session.setSweep(bestOverTheRest());
    QApplication::processEvents();
    QVERIFY(view.showsHeatmap());
    int printRows = 0;
    QStringList cut;
    const auto connection =
        connect(view.plot(), &QCustomPlot::afterLayout, view.plot(), [&view, &printRows, &cut] {
            QCPLayoutGrid *grid = view.plot()->plotLayout();
            for (int row = 0; row < grid->rowCount(); ++row)
                if (auto *text = qobject_cast<QCPTextElement *>(grid->element(row, 0))) {
                    ++printRows;
                    if (text->outerRect().width() <
                            static_cast<QCPLayoutElement *>(text)->minimumOuterSizeHint().width() ||
                        text->outerRect().left() < 0 ||
                        text->outerRect().right() > view.plot()->viewport().right() + 1)
                        cut << text->text().left(40);
                }
        });
    const QString path = m_dir.filePath(QStringLiteral("print.png"));
    const auto error = view.exportTo(path);
    disconnect(connection);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QVERIFY2(printRows >= 2, "the title and the footer were laid out");
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral(" | "))));
    // The cells stay capped on screen after the export.
    view.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(std::abs(view.plot()->xAxis->coordToPixel(1) - view.plot()->xAxis->coordToPixel(0)) <=
            SweepView::kMaxCellPx + 1);
}
