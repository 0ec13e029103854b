// Benchmark (not a CTest test): how long the window's UI thread stalls while runs arrive in a
// session of N runs, per workspace: 20 runs, one every 100 ms (a ladder's pace at small sizes),
// measured as --measure-ui-stall does (a 5 ms timer's longest gap and its 99th percentile).
//   build/tests/bench_window_refresh [N]     (default 10000; the runs repeat the H200 ladder)
#include "main_window.h"
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

using namespace gemmscope;

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int count = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 10000;
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

    MainWindow window(MainWindow::Options{.startRunner = false, .restoreSettings = false, .autosave = false});
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
    const RunRecord templateRun = window.session()->runs().first();
    for (Workspace workspace : kWorkspaces) {
        window.workspaces()->setCurrent(workspace);
        QApplication::processEvents();
        UiStallMeter meter;
        meter.start();
        QEventLoop loop;
        for (int i = 0; i < 20; ++i)
            QTimer::singleShot(100 * i, &window, [&, i] {
                RunRecord run = templateRun;
                run.runId = QStringLiteral("new-%1-%2").arg(Workspaces::key(workspace)).arg(i);
                window.session()->addOrUpdate(run);
            });
        QTimer::singleShot(100 * 20 + 1500, &loop, &QEventLoop::quit); // the paced refreshes too
        loop.exec();
        meter.stop();
        QTextStream(stdout) << QStringLiteral("%1: 20 runs arriving in %2 runs: max stall %3 ms, p99 %4 ms\n")
                                   .arg(Workspaces::title(workspace))
                                   .arg(count)
                                   .arg(meter.maxStallMs(), 0, 'f', 1)
                                   .arg(meter.percentileStallMs(0.99), 0, 'f', 1);
    }
    return 0;
}
