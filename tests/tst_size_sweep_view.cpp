// The Sweep tab's problem-size mode offscreen: a size sweep in the session is drawn (a curve per
// series on a log-2 size axis, a legend, ▽ where the last wave barely started, explained in the
// note and on hover), exports to real PNG, PDF, SVG, CSV and JSON files; a size sweep started
// from the view on the scripted stand-in runner finishes into the session and its journal. And
// after a GUI crash: journals in the folder are offered at start-up, with their finished cells, in
// both modes of the tab, and sweep progress reaches the autosave.
#include "file_kind.h"
#include "plot_theme.h"
#include "run_color.h"
#include "runtime_series.h"
#include "session.h"
#include "size_series_name.h"
#include "size_sweep_chart.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "support/long_size_sweep.h"
#include "support/many_series_sweep.h"
#include "support/scripted_sweep_control.h"
#include "support/stand_in_runner.h"
#include "support/sweep_point_run.h"
#include "sweep_file.h"
#include "sweep_journals.h"
#include "sweep_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QListWidget>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

SweepSpec sizeSpec()
{
    SweepSpec spec;
    spec.kind = SweepKind::Sizes;
    const Preset *p = findPreset("worklog-8");
    spec.series = {{p->stage, p->params, p->key}, {StageId::CublasFp32, {}, "cublas_fp32"}};
    spec.sizes = sizeSweepSizes(SizeShape::Square, 256, 4096, true);
    spec.sizes.push_back({70000, 70000, 70000}); // refused by the catalog for both
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    spec.budgetMs = 5;
    return spec;
}

// The SM count that makes the 1024 size end with a last wave of one block (1.0x waves).
int smsForAStepAt1024()
{
    const Preset *p = findPreset("worklog-8");
    return int(launchBlocks(p->stage, p->params, {1024, 1024, 1024})) - 1;
}

// A size sweep answered as a GPU would; `answered` of its valid points (all by default).
SweepData recordedSizeSweep(int answered = 1000)
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-sizes-test");
    sweep.spec = sizeSpec();
    sweep.created = QDateTime::currentDateTimeUtc();
    const SweepPlan plan = planSweep(sweep.spec);
    int n = 0;
    for (const SweepPoint &p : plan.points) {
        if (!p.valid() || n >= answered)
            continue;
        RunRecord r;
        r.runId = QStringLiteral("s%1").arg(++n);
        test::setPointConfiguration(r, p);
        r.status = RunStatus::Ok;
        r.origin = QStringLiteral("measured");
        const double peak = r.stage == StageId::CublasFp32 ? 50 : 35;
        r.tflops = peak * double(p.size.m) / double(p.size.m + 1024); // rises with size
        r.medianMs = 2.0 * double(p.size.m) * double(p.size.n) * double(p.size.k) / (r.tflops * 1e9);
        r.count = 10;
        r.gpuName = QStringLiteral("NVIDIA H200");
        r.gpuUuid = QStringLiteral("GPU-1");
        r.host = QStringLiteral("node");
        r.smCount = smsForAStepAt1024();
        if (r.stage != StageId::CublasFp32)
            r.blocksPerSm = 1;
        sweep.runs << r;
    }
    return sweep;
}

const QString kDefaultSession =
    QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json");

// Whether an axis' labelled ticks stand apart: each label's centre is further from the next one's
// than half their widths together (plus a few pixels).
bool tickLabelsApart(QCPAxis *axis)
{
    const QFontMetrics metrics(axis->tickLabelFont());
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 1; i < ticks.size() && i < labels.size(); ++i) {
        const double gap = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
        const double needed =
            axis->orientation() == Qt::Horizontal
                ? (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i - 1])) / 2.0
                : metrics.height();
        if (gap < needed + 4)
            return false;
    }
    return true;
}

// Lets the view draw a running sweep (at its own pace) until it shows `answered` points; false
// when it did not within 30 s.
bool drawnUpTo(const SizeSweepView &view, int answered)
{
    const bool drawn = QTest::qWaitFor([&] { return view.summary().answered >= answered; }, 30000);
    QApplication::processEvents(); // the replot it queued
    return drawn;
}

// What two summaries of one plan say point by point (the numbers a chart, its tooltips and the
// exports show).
bool sameSummary(const SizeSweepSummary &a, const SizeSweepSummary &b, QString *why)
{
    if (a.answered != b.answered || a.valid != b.valid || a.gpus != b.gpus ||
        a.points.size() != b.points.size()) {
        *why = QStringLiteral("answered %1/%2, valid %3/%4, gpus %5/%6, points %7/%8")
                   .arg(a.answered)
                   .arg(b.answered)
                   .arg(a.valid)
                   .arg(b.valid)
                   .arg(a.gpus.join(','), b.gpus.join(','))
                   .arg(a.points.size())
                   .arg(b.points.size());
        return false;
    }
    for (qsizetype i = 0; i < a.points.size(); ++i) {
        const SizeSweepPoint &p = a.points[i], &q = b.points[i];
        const bool same = p.series == q.series && p.sizeIndex == q.sizeIndex &&
                          p.invalidReason == q.invalidReason && p.run.has_value() == q.run.has_value() &&
                          (!p.run || p.run->runId == q.run->runId) && p.pctOfCublas == q.pctOfCublas &&
                          p.failureKind == q.failureKind && p.failureMessage == q.failureMessage &&
                          p.waveStep == q.waveStep && p.waves.has_value() == q.waves.has_value();
        if (!same) {
            *why = QStringLiteral("point %1 differs").arg(i);
            return false;
        }
    }
    return true;
}

} // namespace

class TestSizeSweepView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the default journal folder is not the user's
        QVERIFY(smsForAStepAt1024() > 1);
    }

    void drawsCurvesWithWaveMarksAndExports()
    {
        Session session;
        test::ControlledSizeSweepView view(&session);
        view.setJournalDirectory(m_dir.filePath("none"));
        view.resize(1000, 720);
        view.show();
        session.setSweep(recordedSizeSweep());
        QVERIFY(view.shownSweep());
        const SizeSweepSummary &s = view.summary();
        QCOMPARE(s.points.size(), 2 * 10);
        QCOMPARE(s.answered, 18);
        // Exactly the 1024 size of worklog-8 ends with a one-block wave; cuBLAS has no tile model.
        int marked = 0;
        for (const SizeSweepPoint &p : s.points)
            if (p.waveStep) {
                ++marked;
                QCOMPARE(p.size.m, 1024LL);
                QCOMPARE(p.waves->lastWaveBlocks, 1LL);
                QCOMPARE(p.waves->lastWaveSms, 1);
            }
        QCOMPARE(marked, 1);
        QCOMPARE(view.chart()->markedSteps(), 1);
        QCustomPlot *plot = view.chart()->plot();
        plot->replot();
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(plot->legend->visible());
        QVERIFY(plot->legend->itemCount() >= 3); // two series and the ▽ mark
        const QString note = view.chart()->noteText();
        // The series by the table's short name ("8"), not the preset's key ("worklog-8").
        QVERIFY2(note.contains(QStringLiteral("▽ 8 at 1024³")) &&
                     note.contains(QStringLiteral("the last wave runs 1 of %1 SMs").arg(smsForAStepAt1024())),
                 qPrintable(note));
        // Hover: the marked point explains itself; a refused size says the catalog's sentence.
        int markedIndex = -1, refusedIndex = -1;
        for (int i = 0; i < s.points.size(); ++i) {
            if (s.points[i].waveStep)
                markedIndex = i;
            if (!s.points[i].invalidReason.isEmpty())
                refusedIndex = i;
        }
        const auto [hit, tip] = view.chart()->pointAt(*view.chart()->pointPixel(markedIndex));
        QCOMPARE(hit, markedIndex);
        QVERIFY2(tip.contains(QStringLiteral("barely started")) && tip.contains(QStringLiteral("TFLOP/s")),
                 qPrintable(tip));
        const auto [refusedHit, refusedTip] = view.chart()->pointAt(*view.chart()->pointPixel(refusedIndex));
        QCOMPARE(refusedHit, refusedIndex);
        QVERIFY2(refusedTip.contains(s.points[refusedIndex].invalidReason), qPrintable(refusedTip));
        if (const QString shots = qEnvironmentVariable("GEMMSCOPE_SHOT_DIR"); !shots.isEmpty())
            for (const QSize size : {QSize(1280, 800), QSize(900, 640)}) {
                view.resize(size);
                plot->replot();
                view.grab().save(shots + QStringLiteral("/size_sweep_%1.png").arg(size.width()));
            }
        for (const char *name : {"sizes.png", "sizes.pdf", "sizes.svg", "sizes.csv", "sizes.json"}) {
            const QString path = m_dir.filePath(name);
            const auto error = view.exportTo(path);
            QVERIFY2(!error, qPrintable(error.value_or(QString())));
            QVERIFY2(QFileInfo(path).size() > 200, name);
        }
        QImage png(m_dir.filePath("sizes.png"));
        QVERIFY(!png.isNull() && png.width() > 100);
        QFile csv(m_dir.filePath("sizes.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        QCOMPARE(text.split('\n', Qt::SkipEmptyParts).size(), 21); // header + 20 points
        QVERIFY(text.contains(QStringLiteral(",invalid,")));
        QVERIFY(text.contains(QStringLiteral(",yes,")));
        QFile json(m_dir.filePath("sizes.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(json.readAll()).object().value("format").toString(),
                 QStringLiteral("gemmscope-size-sweep"));
    }

    void sizeSweepStartedFromTheViewFinishes()
    {
        const QString script = test::standInRunnerPath();
        if (script.isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        Session session;
        test::ControlledSizeSweepView view(&session);
        view.setJournalDirectory(m_dir.filePath("size-journals"));
        view.setRunnerTemplate(QStringLiteral("python3 ") + script, 2);
        view.setSeries({QStringLiteral("worklog-8"), QStringLiteral("cublas_fp32")});
        view.setSizes(SizeShape::WorklogAspect, 256, 2048, true);
        const SweepSpec spec = view.spec();
        QCOMPARE(spec.series.size(), std::size_t(2));
        QCOMPARE(spec.sizes.front().n, 128LL);
        QString error;
        QVERIFY2(view.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 30000);
        QCOMPARE(session.sweeps().size(), 1);
        const SweepData &sweep = session.sweeps().first();
        QVERIFY(unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty());
        QCOMPARE(sweep.runs.size(), int(2 * spec.sizes.size())); // no baseline: cuBLAS is a series
        for (const RunRecord &r : sweep.runs) {
            QCOMPARE(r.host, QStringLiteral("fakehost"));
            QCOMPARE(r.smCount, 132); // from the stand-in's ready event
        }
        // Finished: its journal (named by its plan) was archived once the session held it.
        const auto journal = SweepJournal::read(journalArchiveDirectory(view.journalDirectory()) + "/" +
                                                    sweepJournalFileName(sweep.spec),
                                                &error);
        QVERIFY2(journal, qPrintable(error));
        QCOMPARE(journal->runs.size(), sweep.runs.size());
        QCOMPARE(view.summary().answered, int(sweep.runs.size()));
    }

    // kill -9 of the GUI: the session never saw the sweep; its journal holds the finished cells.
    void journaledSweepsAreOfferedAtStart()
    {
        const QString dir = m_dir.filePath("crashed");
        QVERIFY(QDir().mkpath(dir));
        SweepData sizes = recordedSizeSweep(5); // 5 of 18 answered
        SweepJournal journal;
        QString error;
        QVERIFY2(journal.create(dir + "/" + sizes.id + ".gsweep", sizes, &error), qPrintable(error));
        journal.close();
        // A parameter sweep, half done, journaled run by run as the pool writes it.
        SweepData grid;
        grid.id = QStringLiteral("sweep-grid-crashed");
        grid.spec.stage = StageId::Final;
        grid.spec.x = {"BM", {64, 128}};
        grid.spec.y = {"BN", {64, 128}};
        grid.spec.size = {512, 512, 512};
        grid.created = QDateTime::currentDateTimeUtc();
        QVERIFY(journal.create(dir + "/" + grid.id + ".gsweep", grid, &error));
        const SweepPlan plan = planSweep(grid.spec);
        RunRecord done;
        done.runId = QStringLiteral("g1");
        done.stage = stageIdOf(QStringLiteral("final"));
        for (const auto &[name, value] : plan.points.front().params)
            done.params.insert(QString::fromStdString(name), value);
        done.m = done.n = done.k = 512;
        done.status = RunStatus::Ok;
        done.medianMs = 0.5;
        done.count = 5;
        done.tflops = ProblemSize{512, 512, 512}.tflopsAt(0.5);
        QVERIFY(journal.append(done, &error));
        journal.close();
        // A finished sweep is not offered again.
        SweepData finished = recordedSizeSweep();
        finished.id = QStringLiteral("sweep-finished");
        QVERIFY(journal.create(dir + "/" + finished.id + ".gsweep", finished, &error));
        journal.close();

        Session session;
        const QString autosave = m_dir.filePath("autosave.json");
        session.setAutosavePath(autosave);
        test::ControlledSweepView gridView(&session);
        gridView.setJournalDirectory(dir);
        test::ControlledSizeSweepView sizeView(&session);
        sizeView.setJournalDirectory(dir);
        QTRY_COMPARE(session.sweeps().size(), 2); // the folder is read in a worker thread
        QVERIFY(gridView.shownSweep());
        QCOMPARE(gridView.shownSweep()->id, grid.id);
        QCOMPARE(gridView.summary().answeredPoints, 1); // its finished cell
        QVERIFY(sizeView.shownSweep());
        QCOMPARE(sizeView.shownSweep()->id, sizes.id);
        QCOMPARE(sizeView.summary().answered, 5);
        QVERIFY2(sizeView.statusText().contains(QStringLiteral("unfinished")),
                 qPrintable(sizeView.statusText()));
        // The sweeps reached the session's autosave (within its second).
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(autosave), 5000);
        QFile f(autosave);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const SessionParse parsed = parseSessionJson(f.readAll());
        QVERIFY2(parsed.data, qPrintable(parsed.error));
        QCOMPARE(parsed.data->sweeps.size(), 2);

        // Resume continues the size sweep with only its unfinished cells.
        const QString script = test::standInRunnerPath();
        if (script.isEmpty())
            return;
        sizeView.setRunnerTemplate(
            QStringLiteral("FAKE_LOG=%1 python3 %2").arg(m_dir.filePath("resume.log"), script));
        QVERIFY2(sizeView.resume(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!sizeView.isRunning(), 30000);
        QCOMPARE(sizeView.summary().answered, 18);
        QFile log(m_dir.filePath("resume.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(log.readAll()).split('\n', Qt::SkipEmptyParts).size(), 18 - 5);
    }

    // In the Sweep workspace (about 980x650 beside the parameter panel at 1280x800,
    // 1140x750 at 1440x900, 1600x900 at 1920x1080) each chart's plot area keeps at least half the
    // view's height, and the size axis' labels stand apart (a 50 px strip with overlapping ticks
    // before).
    void plotsKeepHalfTheViewAtWorkspaceSizes()
    {
        Session session;
        test::ControlledSizeSweepView sizes(&session);
        test::ControlledSweepView grid(&session);
        QString error;
        QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
        QVERIFY(sizes.shownSweep() && grid.shownSweep());
        for (const QSize &workspace : {QSize(980, 650), QSize(1140, 750), QSize(1600, 900)}) {
            for (QWidget *view : {static_cast<QWidget *>(&sizes), static_cast<QWidget *>(&grid)}) {
                view->resize(workspace);
                view->show();
            }
            QApplication::processEvents();
            QCustomPlot *sizePlot = sizes.chart()->plot();
            sizePlot->replot(QCustomPlot::rpImmediateRefresh);
            grid.plot()->replot(QCustomPlot::rpImmediateRefresh);
            const int sizeHeight = sizePlot->axisRect()->rect().height();
            const int gridHeight = grid.plot()->axisRect()->rect().height();
            QVERIFY2(
                sizeHeight >= workspace.height() / 2,
                qPrintable(QStringLiteral("size plot %1 px of %2").arg(sizeHeight).arg(workspace.height())));
            QVERIFY2(
                gridHeight >= workspace.height() / 2,
                qPrintable(QStringLiteral("heatmap %1 px of %2").arg(gridHeight).arg(workspace.height())));
            QVERIFY(tickLabelsApart(sizePlot->xAxis));
            QVERIFY(tickLabelsApart(sizePlot->yAxis));
            if (const QString shots = qEnvironmentVariable("GEMMSCOPE_SHOT_DIR"); !shots.isEmpty()) {
                const QString at = QStringLiteral("%1x%2").arg(workspace.width()).arg(workspace.height());
                sizes.grab().save(shots + QStringLiteral("/size_sweep_view-%1.png").arg(at));
                grid.grab().save(shots + QStringLiteral("/sweep_view-%1.png").arg(at));
            }
        }
    }

    // A size sweep of 10,000 series renders in time linear in the series. A
    // functional check with a generous bound (it takes about 0.6 s here, and took more than five
    // minutes when the legend was laid out again per series); bench_size_sweep_render measures.
    void tenThousandSeriesRender()
    {
        const SweepData sweep = manySeriesSizeSweep(10000);
        Session session;
        test::ControlledSizeSweepView view(&session);
        view.resize(1600, 900);
        view.show();
        QElapsedTimer timer;
        timer.start();
        session.setSweep(sweep);
        view.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const qint64 ms = timer.elapsed();
        qInfo("10,000 series (%lld runs): shown and drawn in %lld ms",
              static_cast<long long>(sweep.runs.size()), static_cast<long long>(ms));
        QCOMPARE(view.summary().points.size(), 20000);
        QVERIFY(view.summary().answered > 10000);
        QVERIFY(view.chart()->plot()->graphCount() >= 10000);
        // The legend names the first series and one "… more" entry, not 10,000 rows.
        QCPLegend *legend = view.chart()->plot()->legend;
        int entries = 0; // the grid's cells, less the empty ones its columns leave
        for (int i = 0; i < legend->itemCount(); ++i)
            entries += legend->item(i) != nullptr;
        QVERIFY2(entries <= SizeSweepChart::kLegendSeries + 3, qPrintable(QString::number(entries)));
        QVERIFY2(ms < 60000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    }

    // A running sweep is drawn from the runs answered since its last drawing; what it shows then
    // is what drawing the sweep whole shows: every point, % of cuBLAS from a baseline that answered
    // after its kernel's point, a configuration's failure, a runner's failure (its point runs again).
    void runningSweepDrawnRunByRunShowsWhatAWholeDrawingShows()
    {
        const SweepData full = longSizeSweep(60);
        QList<RunRecord> baselines, kernel;
        for (const RunRecord &r : full.runs)
            (r.stage == StageId::CublasFp32 ? baselines : kernel) << r;
        SweepData started = full;
        started.runs = baselines.mid(0, baselines.size() / 2); // the smaller sizes' baselines
        QList<RunRecord> answers = kernel + baselines.mid(baselines.size() / 2); // theirs after
        RunRecord crashed = answers[3]; // a runner's failure: its point waits for another answer
        crashed.runId += QStringLiteral("-crashed");
        crashed.status = RunStatus::Failed;
        crashed.errorKind = QStringLiteral("runner_crashed");
        answers.insert(3, crashed);
        answers[10].status = RunStatus::Failed; // the configuration's own failure: finished
        answers[10].errorKind = QStringLiteral("compile_error");
        answers[10].errorMessage = QStringLiteral("ptxas: too many registers");

        test::ScriptedSweepControl control(SweepKind::Sizes);
        SizeSweepView view(&control);
        view.resize(1000, 700);
        view.show();
        control.begin(started);
        int answered = int(started.runs.size());
        for (qsizetype i = 0; i < answers.size(); ++i) {
            control.answer(answers[i]);
            answered += isFinishedRun(answers[i]);
            if (i % 7 == 6 || i + 1 == answers.size()) // drawn every few answers, as paced
                QVERIFY(drawnUpTo(view, answered));
        }
        QVERIFY(control.isRunning()); // still the running sweep's drawings
        SweepData whole = started;
        whole.runs += answers;
        const SizeSweepSummary expected = summarizeSizeSweep(planSweep(whole.spec), whole.runs);
        QString why;
        QVERIFY2(sameSummary(view.summary(), expected, &why), qPrintable(why));
        // The largest size's kernel point answered before its baseline: its % of cuBLAS came later.
        const auto largest = std::find_if(
            view.summary().points.begin(), view.summary().points.end(),
            [&](const SizeSweepPoint &p) { return p.run && p.run->runId == kernel.last().runId; });
        QVERIFY(largest != view.summary().points.end() && largest->pctOfCublas.has_value());

        // The same sweep drawn whole, in another view: the same curves, marks and note.
        test::ScriptedSweepControl other(SweepKind::Sizes);
        SizeSweepView wholeView(&other);
        wholeView.showSweep(whole);
        QCustomPlot *live = view.chart()->plot(), *drawn = wholeView.chart()->plot();
        QCOMPARE(live->graphCount(), drawn->graphCount());
        for (int g = 0; g < drawn->graphCount(); ++g) {
            QCOMPARE(live->graph(g)->dataCount(), drawn->graph(g)->dataCount());
            for (int i = 0; i < drawn->graph(g)->dataCount(); ++i) {
                QCOMPARE(live->graph(g)->data()->at(i)->key, drawn->graph(g)->data()->at(i)->key);
                QCOMPARE(live->graph(g)->data()->at(i)->value, drawn->graph(g)->data()->at(i)->value);
            }
        }
        QCOMPARE(view.chart()->markedSteps(), wholeView.chart()->markedSteps());
        QCOMPARE(view.chart()->noteText(), wholeView.chart()->noteText());
        QCOMPARE(live->yAxis->range().upper, drawn->yAxis->range().upper);

        // Its end brings its last answers (not drawn yet) the same way.
        RunRecord last = full.runs.last(); // measured again, slower: its point moves
        last.runId += QStringLiteral("-again");
        last.tflops *= 0.9;
        last.medianMs /= 0.9;
        control.answer(last);
        control.end();
        whole.runs << last;
        QVERIFY2(sameSummary(view.summary(), summarizeSizeSweep(planSweep(whole.spec), whole.runs), &why),
                 qPrintable(why));
        wholeView.showSweep(whole);
        QCOMPARE(view.chart()->noteText(), wholeView.chart()->noteText());
    }

    // The event loop stalled longer the longer a running size sweep grew (0.2 s at 500 sizes, 0.8 s
    // at 5,000): each drawing summarised, re-added and redrew every point. Now a drawing adds the
    // points answered since the last one to the curves it keeps: the work of a drawing is counted
    // in points here, not timed.
    void runningSweepDrawingAddsOnlyTheNewPoints()
    {
        const SweepData full = longSizeSweep(2000);
        SweepData started = full;
        started.runs = full.runs.mid(0, full.runs.size() / 2);
        test::ScriptedSweepControl control(SweepKind::Sizes);
        SizeSweepView view(&control);
        view.resize(1000, 700);
        view.show();
        control.begin(started);
        QCustomPlot *plot = view.chart()->plot();
        QList<QPointer<QCPGraph>> curves;
        QList<const void *> data;
        for (int g = 0; g < plot->graphCount(); ++g) {
            curves << plot->graph(g);
            data << plot->graph(g)->data().data();
        }
        const auto drawnPoints = [&] {
            int points = 0;
            for (const QPointer<QCPGraph> &g : curves)
                points += g ? g->dataCount() : 0;
            return points;
        };
        int answered = int(started.runs.size()), points = drawnPoints();
        qsizetype next = started.runs.size();
        for (int drawing = 0; drawing < 5; ++drawing) {
            for (int a = 0; a < 10; ++a)
                control.answer(full.runs.at(next++));
            answered += 10;
            QVERIFY(drawnUpTo(view, answered));
            for (int g = 0; g < curves.size(); ++g) {
                QVERIFY2(curves[g], "a drawing replaced the curves (it drew every point again)");
                QCOMPARE(static_cast<const void *>(curves[g]->data().data()), data[g]);
            }
            const int now = drawnPoints();
            QVERIFY2(now - points >= 10 && now - points <= 10 + 2, // a ▽ may come with a point
                     qPrintable(QStringLiteral("%1 points drawn for 10 answers").arg(now - points)));
            points = now;
        }
        QCOMPARE(view.summary().answered, answered);
        // Its end draws the answers it had not drawn yet, and no other.
        control.answer(full.runs.at(next++));
        control.end();
        QCOMPARE(view.summary().answered, answered + 1);
        for (const QPointer<QCPGraph> &g : curves)
            QVERIFY2(g, "the sweep's end drew every point again");
        QCOMPARE(drawnPoints() - points, 1);
    }

    // The recorded size sweep holds five series: the form lists those five (not every preset), named
    // as the results table's Stage column names their runs, with the stage's name beside; its range
    // is the sweep's, so that Start repeats it. Every preset is one tick away, for a new sweep.
    void formListsTheShownSweepsSeries()
    {
        Session session;
        test::ControlledSizeSweepView sizes(&session);
        sizes.resize(980, 650);
        sizes.show();
        auto *list = sizes.findChild<QListWidget *>(QStringLiteral("sizeSweepSeries"));
        QVERIFY(list);
        const auto shownRows = [list] {
            QStringList rows;
            for (int i = 0; i < list->count(); ++i)
                if (!list->item(i)->isHidden())
                    rows << list->item(i)->text();
            return rows;
        };
        QCOMPARE(qsizetype(shownRows().size()), qsizetype(presets().size())); // no sweep: choose from all
        QString error;
        QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
        QVERIFY(sizes.shownSweep());
        const std::vector<SizeSeries> &series = sizes.shownSweep()->spec.series;
        QCOMPARE(series.size(), std::size_t(5));
        const QStringList rows = shownRows();
        QCOMPARE(rows.size(), 5);
        for (const SizeSeries &s : series) {
            const QString key = QString::fromStdString(s.label);
            const QString code = shortPresetLabel(key);
            QVERIFY2(!code.isEmpty(), qPrintable(key));
            // The table's code first ("8", "+tuned", "cuBLAS FP32"), then the stage's name.
            const auto named = std::find_if(rows.cbegin(), rows.cend(), [&](const QString &row) {
                return row == sizeSeriesName(s, SeriesNaming::WithStageName) && row.startsWith(code) &&
                       row.size() > code.size() + 4;
            });
            QVERIFY2(named != rows.cend(), qPrintable(code + " in " + rows.join(" | ")));
            QVERIFY2(!named->contains(key), qPrintable(*named)); // never the preset's key
        }
        QCOMPARE(sizes.checkedSeries().size(), 5);
        // As high as its five rows, not a third of the view: the form under it had that much less.
        QApplication::processEvents();
        QVERIFY2(list->height() <= 7 * list->sizeHintForRow(0) + 12,
                 qPrintable(QString::number(list->height())));
        // The legend names the curves the same way, and the note the marked sizes.
        QCustomPlot *plot = sizes.chart()->plot();
        for (int i = 0; i < int(series.size()); ++i)
            QCOMPARE(plot->graph(i)->name(),
                     sizeSeriesName(series[std::size_t(i)], SeriesNaming::WithStageName));
        QVERIFY(sizes.chart()->markedSteps() > 0);
        for (const SizeSeries &s : series)
            QVERIFY2(
                !sizes.chart()->noteText().contains(QString::fromStdString(s.label) + QStringLiteral(" at ")),
                qPrintable(sizes.chart()->noteText()));
        // The range says the sweep's sizes (256³ … 8192³ with midpoints), not a default.
        const SweepSpec again = sizes.spec();
        QCOMPARE(again.sizes, sizes.shownSweep()->spec.sizes);
        // Every preset, for a new sweep, when asked for.
        auto *all = sizes.findChild<QCheckBox *>(QStringLiteral("sizeSweepAllSeries"));
        QVERIFY(all && all->isVisible());
        all->setChecked(true);
        QCOMPARE(qsizetype(shownRows().size()), qsizetype(presets().size()));
        QCOMPARE(sizes.checkedSeries().size(), 5); // still the sweep's five ticked
    }

    // The list of series beside the chart, the chart's legend and its note name the curves in one
    // order, the ladder's, as the Ladder's chart and table order these kernels' runs. The embedded example's
    // size sweep holds its series in another (the TF32 wgmma stage first): the legend kept that
    // while the list followed the catalog's presets (cuBLAS FP32 after the tensor-core stages).
    void listAndLegendInLadderOrder()
    {
        Session session;
        test::ControlledSizeSweepView sizes(&session);
        sizes.resize(980, 650);
        sizes.show();
        auto *list = sizes.findChild<QListWidget *>(QStringLiteral("sizeSweepSeries"));
        QVERIFY(list);
        // The shown rows' names and their runs' places on the ladder.
        const auto shownRows = [list](QList<std::pair<int, int>> *ranks) {
            QStringList rows;
            for (int i = 0; i < list->count(); ++i)
                if (const QListWidgetItem *item = list->item(i); !item->isHidden()) {
                    rows << item->text();
                    const Preset *preset = findPreset(item->data(Qt::UserRole).toString().toStdString());
                    RunRecord run;
                    run.stage = preset->stage;
                    run.presetKey = QString::fromStdString(preset->key);
                    *ranks << ladderRank(run);
                }
            return rows;
        };
        QList<std::pair<int, int>> ranks;
        QCOMPARE(qsizetype(shownRows(&ranks).size()), qsizetype(presets().size())); // no sweep: all
        QVERIFY(std::is_sorted(ranks.begin(), ranks.end()));
        QString error;
        QVERIFY2(session.loadDefault(&error, kDefaultSession), qPrintable(error));
        QVERIFY(sizes.shownSweep());
        const std::vector<SizeSeries> &series = sizes.shownSweep()->spec.series;
        QCOMPARE(series.size(), std::size_t(5));
        ranks.clear();
        const QStringList rows = shownRows(&ranks);
        QCOMPARE(rows.size(), 5);
        QVERIFY2(std::is_sorted(ranks.begin(), ranks.end()), qPrintable(rows.join(" | ")));
        // The FP32 baseline after the FP32 stages and before the tensor-core ones, as on the Ladder.
        const auto rowOf = [&rows](const char *key) {
            for (qsizetype i = 0; i < rows.size(); ++i)
                if (rows[i].startsWith(shortPresetLabel(QString::fromLatin1(key))))
                    return i;
            return qsizetype(-1);
        };
        QVERIFY2(rowOf("fp32-tuned") >= 0 && rowOf("fp32-tuned") < rowOf("cublas_fp32") &&
                     rowOf("cublas_fp32") < rowOf("tf32-wgmma"),
                 qPrintable(rows.join(" | ")));
        // The legend: the same names in the same order, then the marks' entries.
        QStringList legend;
        QCustomPlot *plot = sizes.chart()->plot();
        for (int i = 0; i < plot->legend->itemCount() && legend.size() < rows.size(); ++i)
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
                legend << item->plottable()->name();
        QCOMPARE(legend, rows);
        // The note names the marked sizes in that order too ("▽ +tuned at 3072³: ...").
        QList<qsizetype> noted;
        for (const QString &line : sizes.chart()->noteText().split(QLatin1Char('\n')))
            for (const SizeSeries &s : series)
                if (line.trimmed().startsWith(
                        QStringLiteral("▽ %1 at ").arg(sizeSeriesName(s, SeriesNaming::Short))))
                    noted << rows.indexOf(sizeSeriesName(s, SeriesNaming::WithStageName));
        QVERIFY2(noted.size() >= 2 && std::is_sorted(noted.begin(), noted.end()),
                 qPrintable(sizes.chart()->noteText()));
    }

    // Each curve in the colour the Ladder's runtime chart and the roofline give its preset's runs
    // (run_color.h): "+tuned" its shade of the pipelined stage's blue, not the stage's navy; cuBLAS
    // in its grey. Curves stay apart: no two with the same colour and the same dash pattern.
    void seriesWearTheirPresetsLadderColour()
    {
        Session session;
        test::ControlledSizeSweepView view(&session);
        view.resize(1440, 900);
        view.show();
        session.setSweep(recordedSquareSweep());
        QVERIFY(view.shownSweep());
        const std::vector<SizeSeries> &series = view.shownSweep()->spec.series;
        QCOMPARE(series.size(), std::size_t(5));
        QCustomPlot *plot = view.chart()->plot();
        QSet<QString> looks;
        bool tunedSeen = false;
        for (std::size_t i = 0; i < series.size(); ++i) {
            RunRecord run; // a run of the series' preset, as the Ladder draws it
            run.stage = series[i].stage;
            run.presetKey = QString::fromStdString(series[i].label);
            const QPen pen = plot->graph(int(i))->pen();
            QVERIFY2(pen.color() == runColor(run),
                     qPrintable(QStringLiteral("%1: %2, the Ladder's %3")
                                    .arg(run.presetKey, pen.color().name(), runColor(run).name())));
            looks.insert(pen.color().name() + QString::number(int(pen.style())));
            if (run.presetKey == QLatin1String("fp32-tuned")) {
                tunedSeen = true;
                QVERIFY(presetShade(run) > 0); // a preset of its stage past the first: a shade of it
                QVERIFY(pen.color() != stageColor(run.stageKey()));
            }
        }
        QVERIFY(tunedSeen);
        QCOMPARE(looks.size(), qsizetype(series.size()));
    }

    // The sweep's 1.5x sizes (768, 1536, 3072, 6144) labelled on the axis as the powers of two
    // are: the note speaks of "+tuned at 3072³". At the workspace's size in a 1280x800 window (and
    // in a narrow one, where labels are left out rather than overprinted) no two labels touch.
    void everySweptSizeLabelledOnTheAxis()
    {
        Session session;
        test::ControlledSizeSweepView view(&session);
        session.setSweep(recordedSquareSweep());
        QVERIFY(view.shownSweep());
        QList<double> swept;
        for (const ProblemSize &size : view.shownSweep()->spec.sizes)
            swept << SizeSweepChart::sizeCoordinate(size);
        QVERIFY2(swept.contains(3072) && swept.contains(6144), "the recorded sweep has its 1.5x sizes");
        QCustomPlot *plot = view.chart()->plot();
        for (const QSize &workspace : {QSize(1440, 900), QSize(1140, 750), QSize(700, 500)}) {
            view.resize(workspace);
            view.show();
            QApplication::processEvents();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const QVector<double> ticks = plot->xAxis->tickVector();
            const QVector<QString> labels = plot->xAxis->tickVectorLabels();
            const QString shown = QStringList(labels.begin(), labels.end()).join(QLatin1Char(' '));
            QVERIFY2(tickLabelsApart(plot->xAxis), qPrintable(shown));
            if (workspace.width() < 1000) { // thinned: the powers of two stay
                QVERIFY2(ticks.contains(1024) && ticks.contains(4096), qPrintable(shown));
                continue;
            }
            for (const double size : swept)
                QVERIFY2(ticks.contains(size), qPrintable(QStringLiteral("%1 unlabelled at %2 px: %3")
                                                              .arg(size)
                                                              .arg(workspace.width())
                                                              .arg(shown)));
            QVERIFY2(labels.contains(QStringLiteral("3K")) && labels.contains(QStringLiteral("768")),
                     qPrintable(shown));
        }
    }

private:
    static SweepData recordedSquareSweep()
    {
        QFile file(
            QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/sweeps-2026-11-30/size-sweep-square.json"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("the recorded size sweep cannot be read");
        QString error;
        const std::optional<SweepData> sweep =
            sweepFromFileJson(FileKind::BenchSizeSweep, file.readAll(), &error, nullptr);
        if (!sweep)
            qFatal("%s", qPrintable(error));
        return *sweep;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSizeSweepView)
#include "tst_size_sweep_view.moc"
