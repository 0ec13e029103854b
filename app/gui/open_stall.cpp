#include "open_stall.h"

#include "event_timing_application.h"
#include "measured_window.h"
#include "parameter_panel.h"
#include "session.h"
#include "stall_meter.h"

#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>

namespace gemmscope {

namespace {

// The panel on the first profile's configuration: every profile view folds it.
void showFirstProfile(MainWindow &window)
{
    const QList<StoredProfile> &profiles = window.session()->profiles();
    if (profiles.isEmpty())
        return;
    const protocol::ProfileEvent &p = profiles.first().event;
    RunConfig config = window.parameterPanel()->config();
    config.stage = stageIdOf(p.stage);
    config.params = p.params;
    config.size = p.size;
    config.presetKey.clear();
    window.parameterPanel()->setConfig(config);
}

} // namespace

int measureOpenStall(EventTimingApplication &app, const QString &sessionFile)
{
    MainWindow window(measuredWindowOptions());
    showForMeasuring(window);
    UiStallMeter meter;
    QElapsedTimer clock;
    int exitCode = 0;
    double openedMs = 0;
    const auto finish = [&] {
        window.showView(QStringLiteral("Kernel"));
        QTimer::singleShot(300, &window, [&] {
            window.showView(QStringLiteral("Counters"));
            QTimer::singleShot(700, &window, [&] {
                meter.stop();
                app.stopNoting();
                QTextStream(stdout) << QStringLiteral(
                                           "open-stall: %1 profiles, %2 notices, opened in %3 ms; samples=%4 "
                                           "max_ms=%5 p99_ms=%6\n")
                                           .arg(window.session()->profiles().size())
                                           .arg(window.session()->notices().size())
                                           .arg(openedMs, 0, 'f', 0)
                                           .arg(meter.samples())
                                           .arg(meter.maxStallMs(), 0, 'f', 1)
                                           .arg(meter.percentileStallMs(0.99), 0, 'f', 1);
                for (const QString &notice : window.session()->notices())
                    QTextStream(stdout) << "open-stall: notice: " << notice.left(300) << '\n';
                QTextStream(stdout) << QStringLiteral("open-stall: the longest stall (%1-%2 ms), its events "
                                                      "over 5 ms:\n")
                                           .arg(meter.longestGapStartMs(), 0, 'f', 1)
                                           .arg(meter.longestGapEndMs(), 0, 'f', 1)
                                    << app.reportBetween(meter.longestGapStartMs(), meter.longestGapEndMs(),
                                                         5);
                app.quit();
            });
        });
    };
    // The window has settled; the measurement starts, and the session opens a moment later.
    QTimer::singleShot(500, &window, [&] {
        meter.start();
        app.startNoting(1);
        clock.start();
        QTimer::singleShot(50, &window, [&] {
            window.openSessionInBackground(sessionFile, [&](bool opened, const QString &error) {
                if (!opened) {
                    QTextStream(stderr) << "gemmscope: " << error << '\n';
                    exitCode = 1;
                }
                openedMs = double(clock.nsecsElapsed()) / 1e6 - 50;
                showFirstProfile(window);
                finish();
            });
        });
    });
    app.exec();
    return exitCode;
}

} // namespace gemmscope
