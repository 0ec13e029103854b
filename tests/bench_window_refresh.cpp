// Benchmark (not a CTest test): how long the window's UI thread stalls while runs arrive in a
// session of N runs, per workspace, measured as --measure-ui-stall does (a 5 ms timer's longest
// gap and its 99th percentile). Two scenarios per workspace:
//   arrive — 20 finished runs, one every 100 ms (a ladder's pace at small sizes);
//   ladder — a ladder's life as the runner reports it: 23 queued runs added at once, then each in
//            turn marked running, given a preliminary median 50 ms later and finished 50 ms after.
//   build/tests/bench_window_refresh [N] [workspace]  (N: 10000 by default, the runs repeat the H200
//                                                      ladder; workspace: ladder, kernel, ... or all)
#include "event_timing_application.h"
#include "main_window.h"
#include "plot_chart.h"
#include "run_view.h"
#include "session.h"
#include "stall_meter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

struct Stall {
    double maxMs = 0, p99Ms = 0;
};

// Runs the event loop for `totalMs` while `schedule` has queued its session changes, and returns the
// stall measured meanwhile.
template <typename Schedule> Stall measure(int totalMs, Schedule schedule)
{
    UiStallMeter meter;
    meter.start();
    QEventLoop loop;
    schedule();
    QTimer::singleShot(totalMs, &loop, &QEventLoop::quit);
    loop.exec();
    meter.stop();
    return {meter.maxStallMs(), meter.percentileStallMs(0.99)};
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    EventTimingApplication app(argc, argv);
    const bool noteSlow = qEnvironmentVariableIntValue("GEMMSCOPE_BENCH_SLOW") == 1;
    const int count = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 10000;
    const QString only = argc > 2 ? QString::fromLatin1(argv[2]) : QStringLiteral("all");
    QFile source(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"));
    if (!source.open(QIODevice::ReadOnly))
        return 1;
    QJsonObject session = QJsonDocument::fromJson(source.readAll()).object();
    const QJsonArray ladder = session.value(QStringLiteral("runs")).toArray();
    QJsonArray runs;
    for (int i = 0; i < count; ++i) {
        QJsonObject run = ladder.at(i % ladder.size()).toObject();
        run[QStringLiteral("run_id")] = QStringLiteral("big%1").arg(i);
        runs.append(run);
    }
    session[QStringLiteral("runs")] = runs;
    QTemporaryDir dir;
    QFile out(dir.filePath(QStringLiteral("big.json")));
    if (!out.open(QIODevice::WriteOnly))
        return 1;
    out.write(QJsonDocument(session).toJson(QJsonDocument::Compact));
    out.close();

    MainWindow window(MainWindow::Options{
        .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
    QString error;
    QElapsedTimer clock;
    clock.start();
    if (!window.openSession(out.fileName(), &error)) {
        QTextStream(stderr) << error << '\n';
        return 1;
    }
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();
    QTextStream(stdout) << QStringLiteral("open+show %1 runs: %2 ms\n").arg(count).arg(clock.elapsed());
    // The recorded ladder, one run of each stage: what a ladder run adds.
    QList<RunRecord> ladderRuns;
    for (int i = 0; i < std::min<int>(count, int(ladder.size())); ++i)
        ladderRuns << window.session()->runs().at(i);
    Session *s = window.session();
    // What one refill costs each view, and one replot each chart: where a stall comes from.
    for (RunView *view : window.views()) {
        QElapsedTimer took;
        took.start();
        view->setRuns(s->runs());
        const qint64 fill = took.nsecsElapsed();
        qint64 replot = -1;
        if (auto *chart = dynamic_cast<PlotChart *>(view)) {
            took.start();
            chart->customPlot()->replot();
            replot = took.nsecsElapsed();
        }
        QTextStream(stdout) << QStringLiteral("  %1: setRuns %2 ms%3\n")
                                   .arg(view->viewName())
                                   .arg(fill / 1e6, 0, 'f', 2)
                                   .arg(replot < 0
                                            ? QString()
                                            : QStringLiteral(", replot %1 ms").arg(replot / 1e6, 0, 'f', 2));
    }
    for (Workspace workspace : kWorkspaces) {
        if (only != QLatin1String("all") && only != Workspaces::key(workspace))
            continue;
        window.workspaces()->setCurrent(workspace);
        QApplication::processEvents();
        const QString key = Workspaces::key(workspace);
        // How often each chart was drawn again from all its runs meanwhile (0: only in place).
        const auto rebuilds = [&window] {
            QStringList counts;
            for (RunView *view : window.views())
                if (auto *chart = dynamic_cast<PlotChart *>(view))
                    counts << QString::number(chart->rebuildCount());
            return counts;
        };
        const QStringList rebuildsBefore = rebuilds();
        if (noteSlow)
            app.startNoting(4);
        const Stall arrive = measure(100 * 20 + 1500, [&] { // the paced refreshes too
            for (int i = 0; i < 20; ++i)
                QTimer::singleShot(100 * i, &window, [&, i] {
                    RunRecord run = ladderRuns.first();
                    run.runId = QStringLiteral("new-%1-%2").arg(key).arg(i);
                    s->addOrUpdate(run);
                });
        });
        const Stall life = measure(100 * int(ladderRuns.size()) + 1500, [&] {
            QTimer::singleShot(0, &window, [&] {
                for (int i = 0; i < ladderRuns.size(); ++i) {
                    RunRecord queued = ladderRuns[i];
                    queued.runId = QStringLiteral("ladder-%1-%2").arg(key).arg(i);
                    queued.status = RunStatus::Queued;
                    queued.medianMs = 0;
                    queued.tflops = 0;
                    s->addOrUpdate(queued);
                }
            });
            for (int i = 0; i < ladderRuns.size(); ++i) {
                const QString id = QStringLiteral("ladder-%1-%2").arg(key).arg(i);
                QTimer::singleShot(100 * i + 1, &window, [s, id] {
                    RunRecord running = *s->find(id);
                    running.status = RunStatus::Running;
                    s->addOrUpdate(running);
                });
                QTimer::singleShot(100 * i + 50, &window, [s, id, ms = ladderRuns[i].medianMs] {
                    RunRecord running = *s->find(id);
                    running.preliminaryMedianMs = ms;
                    s->addOrUpdate(running);
                });
                QTimer::singleShot(100 * i + 99, &window, [s, id, finished = ladderRuns[i]] {
                    RunRecord done = finished;
                    done.runId = id;
                    s->addOrUpdate(done);
                });
            }
        });
        QTextStream(stdout) << QStringLiteral("%1, %2 runs: 20 arriving max %3 / p99 %4 ms; a ladder's life "
                                              "max %5 / p99 %6 ms\n")
                                   .arg(Workspaces::title(workspace))
                                   .arg(count)
                                   .arg(arrive.maxMs, 0, 'f', 1)
                                   .arg(arrive.p99Ms, 0, 'f', 1)
                                   .arg(life.maxMs, 0, 'f', 1)
                                   .arg(life.p99Ms, 0, 'f', 1);
        app.stopNoting();
        QTextStream(stdout) << QStringLiteral("    charts' full rebuilds before / after: %1 / %2\n")
                                   .arg(rebuildsBefore.join(QLatin1Char(' ')),
                                        rebuilds().join(QLatin1Char(' ')));
        QTextStream(stdout) << app.report();
    }
    return 0;
}
