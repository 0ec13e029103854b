#include "open_timing.h"

#include "event_timing_application.h"
#include "measured_window.h"
#include "open_actions.h"
#include "session.h"
#include "stall_meter.h"
#include "view_registry.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTableView>
#include <QTextStream>
#include <QTimer>

#include <dlfcn.h>
#include <sys/resource.h>
#include <time.h>

namespace gemmscope {

namespace {

// The CPU time the process has used, all threads, in ms: on a machine shared with other work the
// wall times above vary with its load; this varies much less.
double processCpuMs()
{
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    const auto ms = [](const timeval &t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

// The CPU time of the calling thread in ms: a workspace switch runs on the UI thread alone, and on
// a machine shared with other work its wall time says more about the load than about the switch.
double threadCpuMs()
{
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return -1;
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// The process's resident memory in MiB, `field` VmHWM (the peak) or VmRSS (now), or -1 where
// /proc does not say.
double memoryMib(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QRegularExpressionMatch m =
        QRegularExpression(QLatin1String(field) + QStringLiteral(":\\s*(\\d+) kB"))
            .match(QString::fromLatin1(status.readAll()));
    return m.hasMatch() ? m.captured(1).toDouble() / 1024 : -1;
}

// Which malloc the process runs on, as the numbers depend on it (app/gui/CMakeLists.txt): jemalloc
// is the one that answers to mallctl.
const char *allocatorName()
{
    return dlsym(RTLD_DEFAULT, "mallctl") ? "jemalloc" : "glibc malloc";
}

// Calls `painted` at the first paint of `widget` from now on.
class FirstPaint : public QObject {
public:
    FirstPaint(QWidget *widget, std::function<void()> painted) : m_painted(std::move(painted))
    {
        widget->installEventFilter(this);
    }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_painted) {
            watched->removeEventFilter(this);
            std::exchange(m_painted, {})();
        }
        return false;
    }

private:
    std::function<void()> m_painted;
};

} // namespace

int measureOpen(EventTimingApplication &app, const QString &file)
{
    MainWindow window(measuredWindowOptions());
    showForMeasuring(window);
    UiStallMeter meter;
    QElapsedTimer clock;
    double readMs = -1, shownMs = -1, paintedMs = -1, doneMs = -1, viewsMs = -1;
    const ViewRegistry *registry = window.findChild<ViewRegistry *>();
    double cpuAtOpenMs = 0, readCpuMs = -1, paintedCpuMs = -1; // CPU time since the open
    std::unique_ptr<FirstPaint> firstPaint;
    const auto sinceOpen = [&clock] { return double(clock.nsecsElapsed()) / 1e6; };
    // The worker's read (file, kind, parse) done: what is left is the window's.
    QObject::connect(window.findChild<FileOpener *>(), &FileOpener::readingFinished, &window, [&] {
        if (readMs < 0) {
            readMs = sinceOpen();
            readCpuMs = processCpuMs() - cpuAtOpenMs;
        }
    });
    QObject::connect(window.session(), &Session::reset, &window, [&] {
        if (shownMs >= 0)
            return;
        shownMs = double(clock.nsecsElapsed()) / 1e6;
        firstPaint = std::make_unique<FirstPaint>(window.resultsView()->viewport(), [&] {
            paintedMs = double(clock.nsecsElapsed()) / 1e6;
            paintedCpuMs = processCpuMs() - cpuAtOpenMs;
        });
    });
    const auto switchWorkspaces = [&] {
        QTextStream out(stdout);
        QString cpuLine = QStringLiteral("open: switch_cpu_ms");
        out << "open: switch_ms";
        for (const char *name : {"Kernel", "Counters", "Sweep", "Ladder", "Counters", "Ladder"}) {
            QElapsedTimer t;
            t.start();
            const double cpuBefore = threadCpuMs();
            window.showView(QString::fromLatin1(name));
            window.repaint(); // shown and painted, as the user sees it
            QCoreApplication::processEvents();
            out << ' ' << name << '=' << QString::number(double(t.nsecsElapsed()) / 1e6, 'f', 1);
            cpuLine +=
                QStringLiteral(" %1=%2").arg(QLatin1String(name)).arg(threadCpuMs() - cpuBefore, 0, 'f', 1);
        }
        out << '\n' << cpuLine << " (the UI thread's CPU time)";
        // The peak holds the file's text while it is read; what stays is the session itself.
        out << QStringLiteral("\nopen: peak_rss_mib=%1 rss_after_mib=%2 allocator=%3\n")
                   .arg(memoryMib("VmHWM"), 0, 'f', 0)
                   .arg(memoryMib("VmRSS"), 0, 'f', 0)
                   .arg(QLatin1String(allocatorName()));
        app.quit();
    };
    int exitCode = 0;
    QTimer::singleShot(500, &window, [&] { // the window has settled
        meter.start();
        app.startNoting(1);
        clock.start();
        cpuAtOpenMs = processCpuMs();
        window.openCommandLine({file}, [&](const QStringList &failures) {
            QTextStream(stderr) << "gemmscope: " << failures.join(QLatin1Char(' ')) << '\n';
            exitCode = 1;
        });
        // openCommandLine's callback runs only on failures: the open is done when the session holds
        // the file's runs and its synchronous updates returned (Session::reset's handlers).
        QObject::connect(
            window.session(), &Session::reset, &window, [&] { doneMs = sinceOpen(); }, Qt::QueuedConnection);
        const auto waitForPaint = std::make_shared<std::function<void()>>();
        // Then until every view has the runs: a large session reaches them one view a turn.
        *waitForPaint = [&, waitForPaint] {
            const bool viewsWait = registry && registry->feedingNewSession();
            if ((paintedMs < 0 || shownMs < 0 || viewsWait) && clock.elapsed() < 600000) {
                QTimer::singleShot(20, &window, *waitForPaint);
                return;
            }
            viewsMs = sinceOpen();
            QTimer::singleShot(300, &window, [&] { // what the opened session queued
                meter.stop();
                app.stopNoting();
                QTextStream(stdout)
                    << QStringLiteral("open: %1 runs; read_ms=%7 shown_ms=%2 first_paint_ms=%3 "
                                      "done_ms=%8 views_ms=%9 max_stall_ms=%4 p99_ms=%5 samples=%6\n")
                           .arg(window.session()->runs().size())
                           .arg(shownMs, 0, 'f', 0)
                           .arg(paintedMs, 0, 'f', 0)
                           .arg(meter.maxStallMs(), 0, 'f', 1)
                           .arg(meter.percentileStallMs(0.99), 0, 'f', 1)
                           .arg(meter.samples())
                           .arg(readMs, 0, 'f', 0)
                           .arg(doneMs, 0, 'f', 0)
                           .arg(viewsMs, 0, 'f', 0)
                    << QStringLiteral("open: cpu_ms read=%1 first_paint=%2 (all threads, since the open)\n")
                           .arg(readCpuMs, 0, 'f', 0)
                           .arg(paintedCpuMs, 0, 'f', 0)
                    << QStringLiteral("open: the longest stall (%1-%2 ms), its events over 5 ms:\n")
                           .arg(meter.longestGapStartMs(), 0, 'f', 1)
                           .arg(meter.longestGapEndMs(), 0, 'f', 1)
                    << app.reportBetween(meter.longestGapStartMs(), meter.longestGapEndMs(), 5);
                switchWorkspaces();
            });
        };
        (*waitForPaint)();
    });
    app.exec();
    return exitCode;
}

} // namespace gemmscope
