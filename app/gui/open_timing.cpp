#include "open_timing.h"

#include "event_timing_application.h"
#include "measured_window.h"
#include "session.h"
#include "stall_meter.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTableView>
#include <QTextStream>
#include <QTimer>

namespace gemmscope {

namespace {

// The process's peak resident memory in MiB (VmHWM), or -1 where /proc does not say.
double peakMemoryMib()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("VmHWM:\\s*(\\d+) kB"))
                                          .match(QString::fromLatin1(status.readAll()));
    return m.hasMatch() ? m.captured(1).toDouble() / 1024 : -1;
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
    double shownMs = -1, paintedMs = -1;
    std::unique_ptr<FirstPaint> firstPaint;
    QObject::connect(window.session(), &Session::reset, &window, [&] {
        if (shownMs >= 0)
            return;
        shownMs = double(clock.nsecsElapsed()) / 1e6;
        firstPaint = std::make_unique<FirstPaint>(window.resultsView()->viewport(),
                                                  [&] { paintedMs = double(clock.nsecsElapsed()) / 1e6; });
    });
    const auto switchWorkspaces = [&] {
        QTextStream out(stdout);
        out << "open: switch_ms";
        for (const char *name : {"Kernel", "Counters", "Sweep", "Ladder", "Counters", "Ladder"}) {
            QElapsedTimer t;
            t.start();
            window.showView(QString::fromLatin1(name));
            window.repaint(); // shown and painted, as the user sees it
            QCoreApplication::processEvents();
            out << ' ' << name << '=' << QString::number(double(t.nsecsElapsed()) / 1e6, 'f', 1);
        }
        out << QStringLiteral("\nopen: peak_rss_mib=%1\n").arg(peakMemoryMib(), 0, 'f', 0);
        app.quit();
    };
    int exitCode = 0;
    QTimer::singleShot(500, &window, [&] { // the window has settled
        meter.start();
        app.startNoting(1);
        clock.start();
        window.openCommandLine({file}, [&](const QStringList &failures) {
            QTextStream(stderr) << "gemmscope: " << failures.join(QLatin1Char(' ')) << '\n';
            exitCode = 1;
        });
        const auto waitForPaint = std::make_shared<std::function<void()>>();
        *waitForPaint =
            [&, waitForPaint] {
                if (paintedMs < 0 && clock.elapsed() < 600000) {
                    QTimer::singleShot(20, &window, *waitForPaint);
                    return;
                }
                QTimer::singleShot(300, &window, [&] { // what the opened session queued
                    meter.stop();
                    app.stopNoting();
                    QTextStream(stdout)
                        << QStringLiteral("open: %1 runs; shown_ms=%2 first_paint_ms=%3 max_stall_ms=%4 "
                                          "p99_ms=%5 samples=%6\n")
                               .arg(window.session()->runs().size())
                               .arg(shownMs, 0, 'f', 0)
                               .arg(paintedMs, 0, 'f', 0)
                               .arg(meter.maxStallMs(), 0, 'f', 1)
                               .arg(meter.percentileStallMs(0.99), 0, 'f', 1)
                               .arg(meter.samples())
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
