// gemmscope-runner: serves docs/protocol.md on stdin/stdout. The only place that ends the
// process with a status other than 0: after a device fault (3), because a sticky CUDA error
// cannot be recovered inside this process.
#include "cache_dir.h"
#include "compile_ahead.h"
#include "event_sink.h"
#include "runner_service.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gemmscope-runner"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GEMMSCOPE_RUNNER_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "GemmScope's GPU process: JSON-lines requests on stdin, events on stdout (docs/protocol.md)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption cacheDir(
        QStringLiteral("cache-dir"),
        QStringLiteral("Compile and ceilings cache (default: $GEMMSCOPE_CACHE_DIR, "
                       "else the user cache directory)."),
        QStringLiteral("dir"));
    parser.addOption(cacheDir);
    const QCommandLineOption compileThreads(
        QStringLiteral("compile-threads"),
        QStringLiteral("Threads that compile queued jobs' kernels ahead while the GPU runs earlier "
                       "jobs; 0 compiles each kernel in its job (default: $GEMMSCOPE_COMPILE_THREADS, "
                       "else the number of hardware threads)."),
        QStringLiteral("n"));
    parser.addOption(compileThreads);
    // What a profile job's child process is and how long it may take: the protocol's limits by
    // default; tests name a stand-in child and limits they can wait for.
    const QCommandLineOption profileChild(
        QStringLiteral("profile-child"),
        QStringLiteral("The program a profile job starts as its child (default: this runner)."),
        QStringLiteral("program"));
    parser.addOption(profileChild);
    const QCommandLineOption profileSilence(
        QStringLiteral("profile-silence-ms"),
        QStringLiteral("How long a profile child may say nothing before it is stopped (default: %1).")
            .arg(gemmscope::protocol::kProfileSilenceLimitMs),
        QStringLiteral("ms"));
    parser.addOption(profileSilence);
    const QCommandLineOption profileTime(
        QStringLiteral("profile-time-limit-ms"),
        QStringLiteral("How long a profile child may take to answer, however much it says (default: %1).")
            .arg(gemmscope::protocol::kProfileTimeLimitMs),
        QStringLiteral("ms"));
    parser.addOption(profileTime);
    const QCommandLineOption profileInProcess(
        QString::fromLatin1(gemmscope::runner::kProfileInProcessOption),
        QStringLiteral("Run profile jobs in this process (what a runner passes the child it profiles in)."));
    parser.addOption(profileInProcess);
    parser.process(app);
    gemmscope::runner::ProfileChildOptions profiles;
    profiles.program = parser.value(profileChild);
    profiles.inThisProcess = parser.isSet(profileInProcess);
    for (const auto &[option, limit] : {std::pair{&profileSilence, &profiles.silenceLimitMs},
                                        std::pair{&profileTime, &profiles.timeLimitMs}}) {
        if (!parser.isSet(*option))
            continue;
        bool ok = false;
        *limit = parser.value(*option).toInt(&ok);
        if (!ok || *limit <= 0) {
            std::fprintf(stderr,
                         "gemmscope-runner: --%s takes a whole number of milliseconds > 0, not \"%s\"\n",
                         qPrintable(option->names().constFirst()), qPrintable(parser.value(*option)));
            return 2;
        }
    }
    int threads = gemmscope::runner::CompileAhead::defaultThreads();
    if (parser.isSet(compileThreads)) {
        bool ok = false;
        threads = parser.value(compileThreads).toInt(&ok);
        if (!ok || threads < 0) {
            std::fprintf(stderr,
                         "gemmscope-runner: --compile-threads takes a whole number >= 0, not \"%s\"\n",
                         qPrintable(parser.value(compileThreads)));
            return 2;
        }
    }

    std::ios::sync_with_stdio(false);
    gemmscope::runner::StdoutEventSink sink(stdout);
    gemmscope::runner::RunnerService service(gemmscope::runner::resolveCacheDir(parser.value(cacheDir)), sink,
                                             threads);
    service.setProfileChildOptions(profiles);
    const int code = service.serve(std::cin);
    std::fflush(stdout);
    std::fflush(stderr);
    if (code != 0) {
        std::fprintf(stderr, "gemmscope-runner: a sticky GPU fault ended this process (status %d)\n", code);
        // The reader thread may sit in a blocking read and the CUDA context is poisoned: end now,
        // without static destructors that would touch either.
        std::_Exit(code);
    }
    return 0;
}
