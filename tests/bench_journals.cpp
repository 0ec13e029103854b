// bench_journals: the sweep journals' start-up and resume benchmarks (docs/reliability.md).
// Not a test (nothing here is timed against a limit); it prints what it measured.
//
//   bench_journals start  [journals=10] [runs=20000]   a journal folder of finished sweeps: how long
//                                                       the window's thread is blocked while the grid
//                                                       and size views look at it (twice each, as the
//                                                       window does), and when the scan is done
//                                                       (then a fresh process opens it again: the
//                                                       next start)
//   bench_journals big [repeats=20]                     one unfinished journal of 20,000 x repeats runs
//   bench_journals quit [journals=4] [repeats=5]        that many unfinished journals of 20,000 x repeats
//                                                       runs; a fresh process starts reading them as the
//                                                       window does and quits after 1 s: how long it
//                                                       lives on after its event loop ended
//   bench_journals resume [sizes=2000]                 a half-done 2-series size sweep resumed on
//                                                       the scripted stand-in runner: through the
//                                                       size view (the GUI path) and through SweepRun
//                                                       alone (the bench's path); wall time and the
//                                                       longest event-loop stall, of the start and
//                                                       while it ran, and the slowest events
//                                                       (BENCH_JOURNALS_AUTOSAVE=1: with the session's
//                                                       autosave, as the window has it)
//
// Uses only API that predates the fixes, so the same file measures the code before them.
#include "event_timing_application.h"
#include "session.h"
#include "size_sweep_view.h"
#include "support/controlled_sweep_views.h"
#include "sweep_record.h"
#include "sweep_run.h"
#include "sweep_view.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <memory>
#include <sys/resource.h>

// The scripted stand-in runner (tests/support/stand_in_runner.py).
#include "support/result_event_record.h"
#include "support/stand_in_runner.h"
static QString standInScript(const QString &)
{
    return gemmscope::test::standInRunnerPath();
}

using namespace gemmscope;

namespace {

// Measures the longest gap between event-loop turns (a 5 ms timer's ticks).
class StallMeter {
public:
    StallMeter()
    {
        m_clock.start();
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { m_max = std::max(m_max, m_clock.restart()); });
        m_timer.start();
    }
    qint64 maxMs() const { return m_max; }
    void reset()
    {
        m_clock.restart();
        m_max = 0;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_max = 0;
};

void waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

// A result as the runner sends it (the stand-in's shape), as a run.
RunRecord resultRun(const SweepPoint &p, int n)
{
    QJsonObject params;
    for (const auto &[name, value] : p.params)
        params.insert(QString::fromStdString(name), value);
    const double median = 0.5 + (n % 13) * 0.01;
    const QJsonObject event{
        {"event", "result"},
        {"id", QStringLiteral("r%1").arg(n)},
        {"stage", QString::fromStdString(p.stage.str())},
        {"params", params},
        {"size", QJsonObject{{"m", double(p.size.m)}, {"n", double(p.size.n)}, {"k", double(p.size.k)}}},
        {"gpu", QJsonObject{{"name", "NVIDIA H200"}, {"arch", "sm_90"}, {"uuid", "GPU-1"}}},
        {"timing", QJsonObject{{"median_ms", median},
                               {"p20_ms", median},
                               {"p80_ms", median},
                               {"min_ms", median},
                               {"count", 20}}},
        {"tflops", p.size.tflopsAt(median)},
        {"verify", QJsonObject{{"reference", "cublas_fp32_pedantic"},
                               {"rel_error", 1e-7},
                               {"tolerance", 1e-5},
                               {"passed", true}}},
        {"compiled",
         QJsonObject{{"registers", 128},
                     {"static_smem_bytes", 4096},
                     {"occupancy",
                      QJsonObject{{"blocks_per_sm", 1}, {"fraction", 0.125}, {"limiter", "registers"}}}}},
        {"timestamp", "2026-12-01T00:00:00Z"}};
    RunRecord r = fromResultEvent(event);
    r.host = QStringLiteral("node-1");
    return r;
}

SweepSpec sizeSpec(int sizes)
{
    SweepSpec spec;
    spec.kind = SweepKind::Sizes;
    spec.series = {{StageId::CublasFp32, {}, "cublas_fp32"},
                   {findPreset("worklog-8")->stage, findPreset("worklog-8")->params, "worklog-8"}};
    for (int i = 0; i < sizes; ++i) // M and N from 128 to 12800, every size distinct
        spec.sizes.push_back(
            {128LL * (1 + i % 100), 128LL * (1 + (i / 100) % 100), 1024LL + 128 * (i / 10000)});
    spec.stage = spec.series.front().stage;
    spec.size = sizes > 0 ? spec.sizes.front() : ProblemSize{};
    spec.budgetMs = 1;
    return spec;
}

// A sweep of `points` valid points with the first `answered` of them finished.
SweepData sweepWith(const QString &id, const SweepSpec &spec, int answered)
{
    SweepData sweep;
    sweep.id = id;
    sweep.spec = spec;
    sweep.created = QDateTime::currentDateTimeUtc();
    const SweepPlan plan = planSweep(spec);
    int n = 0;
    for (const SweepPoint &p : plan.points)
        if (p.valid() && n < answered)
            sweep.runs << resultRun(p, n++);
    return sweep;
}

// The journal as SweepJournal writes it, without an fsync per line (this is set-up).
void writeJournal(const QString &path, const SweepData &sweep)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return;
    SweepData header = sweep;
    header.runs.clear();
    f.write(
        QJsonDocument(QJsonObject{{"format", "gemmscope-sweep"}, {"version", 1}, {"sweep", toJson(header)}})
            .toJson(QJsonDocument::Compact) +
        '\n');
    for (const RunRecord &r : sweep.runs)
        f.write(QJsonDocument(QJsonObject{{"run", toJson(r)}}).toJson(QJsonDocument::Compact) + '\n');
}

// What the window does with a journal folder at start: both views look at it, then again after
// an autosave was recovered. Prints how long the window's thread was blocked.
void openFolder(const QString &folder, const char *what)
{
    StallMeter stall;
    QElapsedTimer clock;
    clock.start();
    Session session;
    test::ControlledSweepView grid(&session);
    test::ControlledSizeSweepView sizes(&session);
    grid.setJournalDirectory(folder);
    sizes.setJournalDirectory(folder);
    grid.setJournalDirectory(folder);
    sizes.setJournalDirectory(folder);
    const qint64 blocked = clock.elapsed();
    waitUntil([&] { return !session.sweeps().isEmpty(); }, 600000);
    const qint64 offered = clock.elapsed();
    std::printf("  %s: window's thread blocked %.2f s; unfinished sweep offered after %.2f s; longest "
                "stall %.2f s\n",
                what, blocked / 1000.0, offered / 1000.0, std::max(blocked, stall.maxMs()) / 1000.0);
    std::fflush(stdout);
}

int startBench(int journals, int runs)
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("sweeps"));
    QDir().mkpath(folder);
    qint64 bytes = 0;
    for (int j = 0; j < journals; ++j) {
        SweepSpec spec = sizeSpec(runs / 2);
        spec.budgetMs = 1 + j; // ten different sweeps
        const SweepData done = sweepWith(QStringLiteral("sweep-done-%1").arg(j), spec, runs);
        const QString path = QDir(folder).filePath(done.id + QStringLiteral(".gsweep"));
        writeJournal(path, done);
        bytes += QFileInfo(path).size();
        if (j == 0)
            std::printf("  each: %d runs\n", int(done.runs.size()));
    }
    const SweepData open = sweepWith(QStringLiteral("sweep-open"), sizeSpec(50), 10);
    writeJournal(QDir(folder).filePath(open.id + QStringLiteral(".gsweep")), open);
    std::printf("start: %d finished journals of %d runs (%.0f MB) and 1 unfinished\n", journals, runs,
                double(bytes) / 1e6);
    std::fflush(stdout);
    openFolder(folder, "first start");
    const int left = int(QDir(folder).entryList({QStringLiteral("*.gsweep")}, QDir::Files).size());
    std::printf("  journals left in the folder for the next start: %d\n", left);
    std::fflush(stdout);
    // The next start: a fresh process, as the next window would be.
    QProcess next;
    next.setProcessChannelMode(QProcess::ForwardedChannels);
    next.start(QCoreApplication::applicationFilePath(), {QStringLiteral("open"), folder});
    next.waitForFinished(-1);
    return 0;
}

// One large unfinished journal: every point of a 10,000-size sweep answered `repeats` times, but
// one. The window's thread, the time until it is offered, and (from /usr/bin/time) the memory.
int bigBench(int repeats)
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("sweeps"));
    QDir().mkpath(folder);
    const SweepSpec spec = sizeSpec(10000);
    const QString path = QDir(folder).filePath(QStringLiteral("sweep-big.gsweep"));
    {
        SweepData big = sweepWith(QStringLiteral("sweep-big"), spec, 20000);
        big.runs.removeLast(); // unfinished: one point left
        const QList<RunRecord> once = big.runs;
        for (int r = 1; r < repeats; ++r)
            big.runs += once;
        writeJournal(path, big);
        std::printf("big: one unfinished journal of %d runs (%.0f MB)\n", int(big.runs.size()),
                    double(QFileInfo(path).size()) / 1e6);
        std::fflush(stdout);
    }
    if (qEnvironmentVariableIsSet("BENCH_JOURNALS_KEEP")) { // for `read`
        QFile::copy(path, qEnvironmentVariable("BENCH_JOURNALS_KEEP"));
        return 0;
    }
    // Opened by a fresh process, so that its peak memory is the start's alone.
    QProcess next;
    next.setProcessChannelMode(QProcess::ForwardedChannels);
    next.start(QCoreApplication::applicationFilePath(), {QStringLiteral("open"), folder});
    next.waitForFinished(-1);
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    std::printf("  peak memory of that start: %.2f GB\n", double(usage.ru_maxrss) / 1e6);
    return 0;
}

// Starts the scan as the window does, quits the event loop after `delayMs` and prints how long the
// process takes from there to the end of its application object (what a closed window waits for).
int quitOpenFolder(int &argc, char **argv, const QString &folder, int delayMs)
{
    auto app = std::make_unique<QApplication>(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QElapsedTimer sinceQuit;
    {
        Session session;
        test::ControlledSweepView grid(&session);
        test::ControlledSizeSweepView sizes(&session);
        grid.setJournalDirectory(folder);
        sizes.setJournalDirectory(folder);
        QTimer::singleShot(delayMs, app.get(), [&] {
            sinceQuit.start();
            QCoreApplication::quit();
        });
        app->exec();
    }
    app.reset();
    std::printf("  quit %.1f s after the start: the process ended %.2f s after its event loop\n",
                delayMs / 1000.0, sinceQuit.elapsed() / 1000.0);
    return 0;
}

int quitBench(int journals, int repeats)
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("sweeps"));
    QDir().mkpath(folder);
    SweepData big = sweepWith(QStringLiteral("sweep-big"), sizeSpec(10000), 20000);
    big.runs.removeLast(); // unfinished: the scan reads it whole, and every start does
    const QList<RunRecord> once = big.runs;
    for (int r = 1; r < repeats; ++r)
        big.runs += once;
    qint64 bytes = 0;
    for (int j = 0; j < journals; ++j) {
        const QString path = QDir(folder).filePath(QStringLiteral("sweep-big-%1.gsweep").arg(j));
        writeJournal(path, big);
        bytes += QFileInfo(path).size();
    }
    std::printf("quit: %d unfinished journals of %d runs (%.0f MB)\n", journals, int(big.runs.size()),
                double(bytes) / 1e6);
    std::fflush(stdout);
    QProcess next;
    next.setProcessChannelMode(QProcess::ForwardedChannels);
    QElapsedTimer whole;
    whole.start();
    next.start(QCoreApplication::applicationFilePath(), {QStringLiteral("quit-open"), folder});
    next.waitForFinished(-1);
    std::printf("  that process ran %.2f s in all\n", whole.elapsed() / 1000.0);
    return 0;
}

int resumeBench(int sizeCount)
{
    QTemporaryDir dir;
    const QString script = standInScript(dir.path());
    if (script.isEmpty()) {
        std::printf("python3 is needed\n");
        return 1;
    }
    SweepSpec spec = sizeSpec(0); // square sizes growing from 64 by 8: a long, smooth curve
    for (int i = 0; i < sizeCount; ++i)
        spec.sizes.push_back({64LL + 8 * i, 64LL + 8 * i, 64LL + 8 * i});
    spec.size = spec.sizes.front();
    const int valid = int(planSweep(spec).validPointCount());
    const SweepData half = sweepWith(QStringLiteral("sweep-half"), spec, valid / 2);
    std::printf("resume: %d square sizes x 2 series, %d valid points, %d answered\n", sizeCount, valid,
                int(half.runs.size()));

    { // The GUI path: the size view, its session, its chart.
        Session session;
        if (qEnvironmentVariableIsSet("BENCH_JOURNALS_AUTOSAVE")) // as the window has it: once a second
            session.setAutosavePath(dir.filePath(QStringLiteral("autosave.json")));
        session.setSweep(half);
        test::ControlledSizeSweepView view(&session);
        view.resize(1200, 800);
        view.show();
        view.setJournalDirectory(dir.filePath(QStringLiteral("gui")));
        view.setRunnerTemplate(QStringLiteral("python3 ") + script, 1);
        view.showSweep(half);
        StallMeter stall;
        QElapsedTimer clock;
        clock.start();
        QString error;
        if (!view.resume(&error)) {
            std::printf("  GUI resume refused: %s\n", qPrintable(error));
            return 1;
        }
        // The start (plan, journal of the runs so far) is once per sweep; what follows is per answer.
        const qint64 startMs = clock.elapsed();
        StallMeter running;
        auto *app = static_cast<EventTimingApplication *>(QCoreApplication::instance());
        app->startNoting(20);
        waitUntil([&] { return !view.isRunning(); }, 600000);
        app->stopNoting();
        std::printf("  GUI (size view): %.2f s, longest event-loop stall %.2f s, %d runs in the session\n",
                    clock.elapsed() / 1000.0, std::max(stall.maxMs(), startMs) / 1000.0,
                    int(session.sweeps().first().runs.size()));
        std::printf("    the start took %.2f s; while it ran: longest stall %.2f s; its slowest events:\n%s",
                    startMs / 1000.0, running.maxMs() / 1000.0, qPrintable(app->report(4)));
    }
    { // The bench's path: SweepRun alone.
        SweepRun::Options options;
        RunnerCommand c;
        c.program = QStringLiteral("python3");
        c.arguments = {script};
        c.label = QStringLiteral("stand-in");
        options.runners << c;
        options.journalPath = dir.filePath(QStringLiteral("bench.gsweep"));
        SweepRun run(half, options);
        StallMeter stall;
        QElapsedTimer clock;
        clock.start();
        QString error;
        if (!run.start(&error)) {
            std::printf("  bench resume refused: %s\n", qPrintable(error));
            return 1;
        }
        waitUntil([&] { return !run.isRunning(); }, 600000);
        std::printf("  bench (SweepRun): %.2f s, longest event-loop stall %.2f s, %d runs\n",
                    clock.elapsed() / 1000.0, stall.maxMs() / 1000.0, int(run.sweep().runs.size()));
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 2 && QByteArray(argv[1]) == "quit-open") // its own application object, timed to its end
        return quitOpenFolder(argc, argv, QString::fromLocal8Bit(argv[2]), 1000);
    EventTimingApplication app(argc, argv); // names the events of a stall
    QStandardPaths::setTestModeEnabled(true);
    const QStringList args = app.arguments();
    const auto number = [&](int i, int fallback) { return args.size() > i ? args[i].toInt() : fallback; };
    if (args.value(1) == QLatin1String("start"))
        return startBench(number(2, 10), number(3, 20000));
    if (args.value(1) == QLatin1String("open")) {
        openFolder(args.value(2), "next start");
        return 0;
    }
    if (args.value(1) == QLatin1String("read")) { // one journal read, on this thread
        QElapsedTimer clock;
        clock.start();
        const auto journal = SweepJournal::read(args.value(2));
        std::printf("  read %d runs in %.2f s\n", journal ? int(journal->runs.size()) : -1,
                    clock.elapsed() / 1000.0);
        return 0;
    }
    if (args.value(1) == QLatin1String("big"))
        return bigBench(number(2, 20));
    if (args.value(1) == QLatin1String("quit"))
        return quitBench(number(2, 4), number(3, 5));
    if (args.value(1) == QLatin1String("resume"))
        return resumeBench(number(2, 2000));
    std::printf("usage: bench_journals start [journals] [runs] | big [repeats] | quit [journals] [repeats] | "
                "resume [sizes]\n");
    return 2;
}
