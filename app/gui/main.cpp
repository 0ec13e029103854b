// gemmscope: the desktop application, plus headless commands for scripts and CI.
#include "event_timing_application.h"
#include "file_open.h"
#include "help_text_color.h"
#include "main_window.h"
#include "open_stall.h"
#include "open_timing.h"
#include "parameter_panel.h"
#include "session.h"
#include "session_render.h"
#include "settings_file.h"
#include "stall_meter.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

using namespace gemmscope;

namespace {

int importBench(const QString &bench, const QString &out)
{
    QTextStream err(stderr);
    if (out.isEmpty()) {
        err << "gemmscope: --import-bench needs --save FILE\n";
        return 2;
    }
    QString error;
    // Another GemmScope file is named as what it is, with where it opens.
    const FileSniff sniff = sniffGemmScopeFile(bench, &error);
    if (error.isEmpty() && sniff.kind != FileKind::Bench &&
        (sniff.kind == FileKind::Session || sniff.kind == FileKind::ResultsExport ||
         isSweepKind(sniff.kind))) {
        err << "gemmscope: " << bench << " is " << describeFileKind(sniff.kind)
            << (sniff.kind == FileKind::Session
                    ? QStringLiteral("; open it directly: gemmscope %1").arg(bench)
                    : QStringLiteral(", not a bench file; open it in the window: "
                                     "gemmscope %1")
                          .arg(bench))
            << '\n';
        return 1;
    }
    error.clear();
    Session session;
    session.setAutosavePath({}); // a command-line conversion leaves the user's autosave alone
    QStringList notices;         // what the bench left out (a profile past the limits)
    if (!session.importBench(bench, &error, &notices) || !session.saveAs(out, &error)) {
        err << "gemmscope: " << error << '\n';
        return 1;
    }
    for (const QString &notice : std::as_const(notices))
        err << "gemmscope: " << notice << '\n';
    QTextStream(stdout) << "Wrote " << session.runs().size() << " runs to " << out << '\n';
    return 0;
}

int render(const QString &file, const QString &outDir)
{
    QString error;
    QStringList skipped; // pages with nothing true to show, and why
    const QStringList written = renderSession(file, outDir, &error, &skipped);
    if (!error.isEmpty()) {
        QTextStream(stderr) << "gemmscope: " << error << '\n';
        return 1;
    }
    for (const QString &path : written)
        QTextStream(stdout) << path << '\n';
    for (const QString &line : std::as_const(skipped))
        QTextStream(stdout) << line << '\n';
    return 0;
}

// Runs the ladder through the real window (results land in its table and charts) while a 5 ms
// timer measures the UI thread's longest stall, and prints the events that took longer than 8 ms
// (what to fix when the stall is long). Optionally saves a screenshot of the window and the
// session of the ladder's runs afterwards (how docs/ gets its GPU screenshot).
int measureUiStall(EventTimingApplication &app, long long n, const QString &screenshotPath,
                   const QString &sessionPath, const QString &preloadPath)
{
    MainWindow window(MainWindow::Options{
        .startRunner = true, .restoreSettings = false, .autosavePath = {}, .autosave = false});
    UiStallMeter meter;
    int exitCode = 0;
    QStringList ladder; // the ladder's run ids: a preloaded session's runs are not counted
    // The ladder starts once the runner is ready and the window has opened (any preloaded session
    // in it), whichever comes last. The status comes from the window (relayed in this thread by its
    // event loop), connected before the session opens: the runner client's own signal is queued from
    // its thread and reaches only the connections made before it was sent, and the runner was ready
    // while a 10,000-run session still loaded (the measurement waited forever).
    bool runnerReady = false, windowSettled = false, started = false;
    const auto startLadder = [&] {
        if (!runnerReady || !windowSettled || started)
            return;
        started = true;
        meter.start();
        app.startNoting(0.5); // the report lists those over 8 ms; a stall's own, all
        ladder = window.runLadder({n, n, n});
    };
    QObject::connect(&window, &MainWindow::runnerStatusChanged, &window,
                     [&](bool available, const QString &why) {
                         if (!available) {
                             QTextStream(stderr) << "gemmscope: running is off: " << why << '\n';
                             exitCode = 1;
                             app.quit();
                             return;
                         }
                         runnerReady = true;
                         startLadder();
                     });
    if (!preloadPath.isEmpty()) { // a big session loaded first: the stall with its runs in every view
        QString error;
        if (!window.openSession(preloadPath, &error)) {
            QTextStream(stderr) << "gemmscope: " << error << '\n';
            return 1;
        }
    }
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1600, 1000);
    window.show();
    // The window's first layout and paint (with a preloaded session: every view filled from all its
    // runs) happen once, when it opens; the ladder's measurement starts after them.
    QTimer::singleShot(500, &window, [&] {
        windowSettled = true;
        startLadder();
    });
    QObject::connect(&window, &MainWindow::ladderFinished, &app, [&] {
        meter.stop();
        app.stopNoting();
        int ok = 0, failed = 0;
        for (const QString &id : std::as_const(ladder))
            if (const RunRecord *r = window.session()->find(id))
                (r->isOk() ? ok : failed)++;
        QTextStream(stdout) << QStringLiteral(
                                   "ui-stall: runs ok=%1 failed=%2 size=%3 session_runs=%4 samples=%5 "
                                   "max_ms=%6 p99_ms=%7\n")
                                   .arg(ok)
                                   .arg(failed)
                                   .arg(n)
                                   .arg(window.session()->runs().size())
                                   .arg(meter.samples())
                                   .arg(meter.maxStallMs(), 0, 'f', 2)
                                   .arg(meter.percentileStallMs(0.99), 0, 'f', 2);
        const QString slowest = app.reportBetween(0, -1, 8);
        if (!slowest.isEmpty())
            QTextStream(stdout) << "ui-stall: events over 8 ms (since the ladder started):\n" << slowest;
        QTextStream(stdout) << QStringLiteral(
                                   "ui-stall: the longest stall (%1-%2 ms), its events over 0.5 ms:\n")
                                   .arg(meter.longestGapStartMs(), 0, 'f', 1)
                                   .arg(meter.longestGapEndMs(), 0, 'f', 1)
                            << app.reportBetween(meter.longestGapStartMs(), meter.longestGapEndMs(), 0.5);
        // The charts replot on a queued event: let them catch up before the picture is taken.
        QTimer::singleShot(500, &window, [&, screenshotPath, sessionPath] {
            if (!screenshotPath.isEmpty() && !window.grab().save(screenshotPath)) {
                QTextStream(stderr) << "gemmscope: could not write the screenshot " << screenshotPath << '\n';
                exitCode = 1;
            }
            QString error;
            if (!sessionPath.isEmpty() && !window.session()->saveAs(sessionPath, &error)) {
                QTextStream(stderr) << "gemmscope: " << error << '\n';
                exitCode = 1;
            }
            app.quit();
        });
    });
    app.exec();
    return exitCode;
}

// The commands that never show a window run on the offscreen platform, so they work over ssh and
// in CI without a display (QApplication aborts when it cannot reach one). The window itself, and
// --measure-ui-stall (--measure-open-stall) where a display exists, keep the platform the user has.
void chooseHeadlessPlatform(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        return;
    const bool display = qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        const bool headless = arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
                              arg == "--version" || arg.startsWith("--import-bench") ||
                              arg.startsWith("--render-session");
        if (headless || (!display && (arg == "--measure-ui-stall" || arg.startsWith("--measure-open")))) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    chooseHeadlessPlatform(argc, argv);
    EventTimingApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("GemmScope"));
    QApplication::setOrganizationName(QStringLiteral("GemmScope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("GemmScope: the CUDA matmul optimization ladder, measured."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption importOption(
        QStringLiteral("import-bench"),
        QStringLiteral("Convert a gemmscope-bench JSON into a session (needs --save)."),
        QStringLiteral("bench.json"));
    const QCommandLineOption saveOption(
        QStringLiteral("save"),
        QStringLiteral("Where --import-bench (or --measure-ui-stall) writes the session."),
        QStringLiteral("session.json"));
    const QCommandLineOption renderOption(
        QStringLiteral("render-session"),
        QStringLiteral("Render every chart of a session to PNG, SVG and PDF, headless."),
        QStringLiteral("FILE"));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("Output folder of --render-session."),
                                       QStringLiteral("DIR"), QStringLiteral("."));
    const QCommandLineOption stallOption(
        QStringLiteral("measure-ui-stall"),
        QStringLiteral("Run the ladder and print the UI thread's max/p99 stall in ms."));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QStringLiteral("Problem size N (N x N x N) for --measure-ui-stall."),
                                        QStringLiteral("N"), QStringLiteral("1024"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("With --measure-ui-stall: save the main window as PNG after the ladder."),
        QStringLiteral("file.png"));
    const QCommandLineOption openStallOption(
        QStringLiteral("measure-open-stall"),
        QStringLiteral("Open this session as File > Open does, show its first profile and print the UI "
                       "thread's longest stall in ms."),
        QStringLiteral("session.json"));
    const QCommandLineOption openTimingOption(
        QStringLiteral("measure-open"),
        QStringLiteral("Open this file as the command line does and print when it was shown and first "
                       "painted, the UI thread's longest stall, each workspace switch in ms and the peak "
                       "memory."),
        QStringLiteral("FILE"));
    const QCommandLineOption preloadOption(
        QStringLiteral("preload"),
        QStringLiteral("With --measure-ui-stall: open this session first (a big one: the stall at scale)."),
        QStringLiteral("session.json"));
    // For screenshots and demonstrations: open on a preset, a workspace or a tab of the Kernel one.
    const QCommandLineOption presetOption(
        QStringLiteral("preset"), QStringLiteral("Start with this preset configured (tf32-wgmma-tma)."),
        QStringLiteral("KEY"));
    const QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QStringLiteral("Start on this workspace or Kernel tab (\"Counters\", \"Bank conflicts\")."),
        QStringLiteral("TITLE"));
    const QCommandLineOption workspaceOption(
        QStringLiteral("workspace"),
        QStringLiteral("Start on this workspace: ladder, kernel, counters, sweep or editor."),
        QStringLiteral("NAME"));
    parser.addOptions({importOption, saveOption, renderOption, outOption, stallOption, sizeOption,
                       screenshotOption, presetOption, tabOption, workspaceOption, preloadOption,
                       openStallOption, openTimingOption});
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QStringLiteral("Files to open: sessions, bench, sweep and size-sweep JSON, sweep journals "
                       "(.gsweep), exported results."),
        QStringLiteral("[files...]"));
    parser.process(app);

    if (parser.isSet(importOption))
        return importBench(parser.value(importOption), parser.value(saveOption));
    if (parser.isSet(renderOption))
        return render(parser.value(renderOption), parser.value(outOption));
    // The commands above keep no settings. The window's (and the stall measurement's recent files)
    // go through a private copy: a link, a pipe or a huge file at the settings' name is left alone
    // and the window starts on defaults, saying why.
    const SettingsFile settings;
    if (parser.isSet(openTimingOption))
        return measureOpen(app, parser.value(openTimingOption));
    if (parser.isSet(openStallOption))
        return measureOpenStall(app, parser.value(openStallOption));
    if (parser.isSet(stallOption)) {
        bool ok = false;
        const long long n = parser.value(sizeOption).toLongLong(&ok);
        if (!ok || n < 1) {
            QTextStream(stderr) << "gemmscope: --size needs a positive integer\n";
            return 2;
        }
        return measureUiStall(app, n, parser.value(screenshotOption), parser.value(saveOption),
                              parser.value(preloadOption));
    }

    keepPlaceholderTextReadable(); // a field's placeholder is help text too
    MainWindow window;
    const QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty()) {
        // Any file GemmScope writes, read off the UI thread as File > Open does: the window shows
        // while a large file is read; a file that cannot be opened is said in the window.
        window.openCommandLine(positional, [](const QStringList &failures) {
            for (const QString &failure : failures)
                QTextStream(stderr) << "gemmscope: " << failure << '\n';
        });
    } else {
        window.loadDefaultSession(); // a user without a GPU sees the published numbers at once
    }
    if (parser.isSet(presetOption) && !window.parameterPanel()->applyPreset(parser.value(presetOption)))
        QTextStream(stderr) << "gemmscope: no preset " << parser.value(presetOption) << '\n';
    if (parser.isSet(workspaceOption) && !window.showView(parser.value(workspaceOption)))
        QTextStream(stderr) << "gemmscope: no workspace " << parser.value(workspaceOption) << '\n';
    if (parser.isSet(tabOption) && !window.showView(parser.value(tabOption)))
        QTextStream(stderr) << "gemmscope: no tab " << parser.value(tabOption) << '\n';
    window.show();
    QTimer::singleShot(0, &window, &MainWindow::offerAutosaveRecovery);
    return app.exec();
}
