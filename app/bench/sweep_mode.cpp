#include "sweep_mode.h"

#include "bench_console.h"
#include "file_write.h"
#include "size_sweep_summary.h"
#include "sweep_run.h"
#include "sweep_summary.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

namespace gemmscope::bench {

namespace {

// The grid: rows are the y axis, columns the x axis; each cell TFLOP/s, "inv" (the catalog refused
// every configuration), "WRONG", the first failure's kind, or "-" (not answered).
QString gridTable(const SweepPlan &plan, const SweepSummary &s)
{
    QString text =
        QStringLiteral("%1 \\ %2")
            .arg(QString::fromStdString(plan.spec.y.param), QString::fromStdString(plan.spec.x.param))
            .leftJustified(10);
    for (int x : plan.xValues)
        text += QString::number(x).rightJustified(9);
    text += QLatin1Char('\n');
    for (std::size_t yi = 0; yi < plan.yValues.size(); ++yi) {
        text += QString::number(plan.yValues[yi]).leftJustified(10);
        for (std::size_t xi = 0; xi < plan.xValues.size(); ++xi) {
            const SweepCellSummary &c = s.cells[int(yi * plan.xValues.size() + xi)];
            QString v = c.invalid() ? QStringLiteral("inv")
                        : c.best    ? QString::number(c.best->tflops, 'f', 2) + (c.spills() ? "s" : "")
                        : c.wrongResults > 0       ? QStringLiteral("WRONG")
                        : !c.failureKind.isEmpty() ? c.failureKind.left(8)
                                                   : QStringLiteral("-");
            if (c.cell == s.bestCell)
                v = QLatin1Char('*') + v;
            text += v.rightJustified(9);
        }
        text += QLatin1Char('\n');
    }
    return text;
}

// A size sweep: one row per size, one column per series (TFLOP/s; "inv" refused by the catalog,
// "WRONG", a failure's kind, "-" not answered; "~" marks a size whose last wave barely started).
QString sizeTable(const SweepPlan &plan, const SizeSweepSummary &s)
{
    QString text = QStringLiteral("size").leftJustified(18);
    for (std::size_t i = 0; i < plan.spec.series.size(); ++i)
        text += seriesLabel(plan, int(i)).rightJustified(14);
    text += QLatin1Char('\n');
    const std::size_t nSizes = plan.spec.sizes.size();
    for (std::size_t zi = 0; zi < nSizes; ++zi) {
        const ProblemSize &z = plan.spec.sizes[zi];
        text += QStringLiteral("%1x%2x%3").arg(z.m).arg(z.n).arg(z.k).leftJustified(18);
        for (std::size_t si = 0; si < plan.spec.series.size(); ++si) {
            const SizeSweepPoint &p = s.points[int(si * nSizes + zi)];
            const QString v = !p.invalidReason.isEmpty() ? QStringLiteral("inv")
                              : p.run                    ? QString::number(p.run->tflops, 'f', 2)
                              : p.failureKind == protocol::errorKindName(protocol::ErrorKind::WrongResult)
                                  ? QStringLiteral("WRONG")
                              : !p.failureKind.isEmpty() ? p.failureKind.left(12)
                                                         : QStringLiteral("-");
            text += (p.waveStep ? QStringLiteral("~") + v : v).rightJustified(14);
        }
        text += QLatin1Char('\n');
    }
    return text;
}

} // namespace

namespace {

// Without --journal the journal goes beside the JSON (so an interrupted sweep can be resumed), or
// into a scratch folder when there is no JSON either.
QString journalPathOf(const SweepBenchOptions &options, const QTemporaryDir &scratch)
{
    return !options.journalPath.isEmpty() ? options.journalPath
           : !options.jsonPath.isEmpty()  ? options.jsonPath + QStringLiteral(".gsweep")
                                          : scratch.filePath(QStringLiteral("sweep.gsweep"));
}

// The sweep the journal holds, resumed, or a new one; empty after saying why the journal cannot be
// resumed. --json naming the journal is refused before this, with every other output that would
// destroy an input (sweep_command.cpp, refuseOutput).
std::optional<SweepData> openSweep(const QString &journal, const SweepSpec &spec)
{
    SweepData sweep;
    if (!QFileInfo::exists(journal)) {
        sweep.id = newSweepId();
        sweep.spec = spec;
        sweep.created = QDateTime::currentDateTimeUtc();
        return sweep;
    }
    QString error;
    QStringList problems;
    std::optional<SweepData> saved = SweepJournal::read(journal, &error, &problems);
    if (!saved) {
        printError(error);
        return std::nullopt;
    }
    for (const QString &p : problems)
        printError(p);
    if (!isSameSweep(saved->spec, spec)) { // the same values in another order are the same sweep
        printError(QStringLiteral("%1 holds another sweep (%2); give another --journal to start this one.")
                       .arg(journal, saved->title()));
        return std::nullopt;
    }
    print(QStringLiteral("Resuming %1: %2 runs already answered.\n").arg(journal).arg(saved->runs.size()));
    return saved;
}

// What a running sweep says as it goes: every tenth answer, each runner's state, the scheduler's
// words, journal and scheduler failures; the event loop ends with the sweep.
class SweepReporter {
public:
    explicit SweepReporter(const QList<RunnerCommand> &runners) : m_runners(runners) {}

    // Declared before `run`, the reporter outlives it and every signal its destructor sends.
    void watch(SweepRun &run)
    {
        m_run = &run;
        QObject::connect(&run, &SweepRun::progressChanged,
                         [this](int answered, int total, double eta) { progress(answered, total, eta); });
        QObject::connect(
            &run, &SweepRun::runnerStatusChanged, [this](int runner, bool available, const QString &reason) {
                print(QStringLiteral("runner %1 (%2): %3\n")
                          .arg(runner)
                          .arg(runner < m_runners.size() ? m_runners[runner].label : QStringLiteral("local"),
                               available ? reason : QStringLiteral("unavailable: ") + reason));
            });
        QObject::connect(&run, &SweepRun::journalError, [](const QString &m) { printError(m); });
        // A pending job says why it waits instead of looking hung; a refusal is Slurm's own words.
        QObject::connect(&run, &SweepRun::schedulerStatusChanged, [this](const QString &status) {
            if (status != m_lastStatus)
                print(QStringLiteral("%1\n").arg(m_lastStatus = status));
        });
        QObject::connect(&run, &SweepRun::schedulerFailed, [](const QString &m) { printError(m); });
        QObject::connect(&run, &SweepRun::finished, [this](bool cancelled) {
            m_cancelled = cancelled;
            QCoreApplication::quit();
        });
    }
    bool cancelled() const { return m_cancelled; }

private:
    void progress(int answered, int total, double eta)
    {
        if (answered == m_lastPrinted || (answered % 10 != 0 && answered != total))
            return;
        m_lastPrinted = answered;
        print(QStringLiteral("[%1/%2] %3 s%4\n")
                  .arg(answered)
                  .arg(total)
                  .arg(m_run->wallSeconds(), 0, 'f', 1)
                  .arg(eta >= 0 ? QStringLiteral(", about %1 s left").arg(eta, 0, 'f', 0) : QString()));
    }

    SweepRun *m_run = nullptr;
    const QList<RunnerCommand> &m_runners;
    int m_lastPrinted = -1;
    QString m_lastStatus;
    bool m_cancelled = false;
};

// What this invocation measured (a resumed sweep's earlier runs not counted).
struct SweepTotals {
    double wall = 0;
    int runners = 1;
    int validAnswered = 0, failed = 0;
    double busy = 0; // GPU kernel seconds the runners report
    double perMinute = 0, busyFraction = 0;
};

SweepTotals totalsOf(const SweepPlan &plan, const QList<RunRecord> &thisRun, double wall, int runnerCount)
{
    SweepTotals t;
    t.wall = wall;
    for (const RunRecord &r : thisRun) {
        if (plan.spec.kind == SweepKind::Grid && r.stage == StageId::CublasFp32)
            continue;
        t.validAnswered += r.isOk() ? 1 : 0;
        t.failed += r.isOk() ? 0 : 1;
    }
    t.busy = gpuKernelSeconds(thisRun);
    t.runners = std::max(1, runnerCount);
    t.perMinute = wall > 0 ? t.validAnswered / wall * 60.0 : 0;
    t.busyFraction = wall > 0 ? t.busy / (wall * t.runners) : 0;
    return t;
}

void printSizeSweep(const SweepPlan &plan, const SizeSweepSummary &summary)
{
    print(QStringLiteral("\nTFLOP/s (inv: refused by the catalog, WRONG: wrong result, ~: the last wave "
                         "barely started, wave quantization)\n"));
    print(sizeTable(plan, summary));
    for (const QString &note : sizeSweepWaveNotes(plan, summary))
        print(QStringLiteral("~ %1\n").arg(note));
    for (const SizeSweepPoint &p : summary.points)
        if (!p.invalidReason.isEmpty())
            print(QStringLiteral("inv %1 at %2x%3x%4: %5\n")
                      .arg(seriesLabel(plan, p.series))
                      .arg(p.size.m)
                      .arg(p.size.n)
                      .arg(p.size.k)
                      .arg(p.invalidReason));
}

void printGridSweep(const SweepPlan &plan, const SweepSummary &summary, const QList<RunRecord> &runs)
{
    print(QStringLiteral("\nTFLOP/s (* best, s spills, inv: refused by the catalog, WRONG: wrong result)\n"));
    print(gridTable(plan, summary));
    for (const RunRecord &r : runs)
        if (r.isOk() && r.stage == StageId::CublasFp32)
            print(QStringLiteral("cuBLAS FP32 on %1 %2 (%3): %4 ms, %5 TFLOP/s\n")
                      .arg(r.host, r.gpuName, r.gpuUuid.left(12))
                      .arg(r.medianMs, 0, 'f', 3)
                      .arg(r.tflops, 0, 'f', 2));
    if (summary.bestCell < 0)
        return;
    const SweepCellSummary &b = summary.cells[summary.bestCell];
    print(QStringLiteral("Best: %1 %2 ms, %3 TFLOP/s%4 on %5 %6\n")
              .arg(formatRunParams(*b.best))
              .arg(b.best->medianMs, 0, 'f', 3)
              .arg(b.best->tflops, 0, 'f', 2)
              .arg(b.pctOfCublas
                       ? QStringLiteral(" (%1 % of cuBLAS on that GPU)").arg(*b.pctOfCublas, 0, 'f', 1)
                       : QString())
              .arg(b.best->host, b.best->gpuName));
}

void printTotals(const SweepTotals &t)
{
    print(QStringLiteral(
              "Wall %1 s on %2 runner(s): %3 valid configurations timed (%4 per minute), %5 failed; GPU "
              "busy %6 % (kernel time the runners report / (wall x runners))\n")
              .arg(t.wall, 0, 'f', 1)
              .arg(t.runners)
              .arg(t.validAnswered)
              .arg(t.perMinute, 0, 'f', 0)
              .arg(t.failed)
              .arg(100.0 * t.busyFraction, 0, 'f', 1));
}

// The sweep's JSON: the summary of its kind, how it ran, and every run.
QJsonObject sweepJson(const SweepBenchOptions &options, QJsonObject doc, const SweepTotals &t,
                      const QList<RunRecord> &runs)
{
    const bool sizes = options.spec.kind == SweepKind::Sizes;
    doc["format"] =
        sizes ? QStringLiteral("gemmscope-bench-size-sweep") : QStringLiteral("gemmscope-bench-sweep");
    doc["date"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    doc["command"] = QCoreApplication::arguments().join(QLatin1Char(' '));
    QJsonArray runnerLabels;
    for (const RunnerCommand &c : options.runners)
        runnerLabels.append(c.label);
    doc["runners"] = runnerLabels;
    doc["window"] = options.window;
    doc["wall_s"] = t.wall;
    doc["valid_configurations_timed"] = t.validAnswered;
    doc["failed"] = t.failed;
    doc["configurations_per_minute"] = t.perMinute;
    doc["gpu_kernel_s"] = t.busy;
    doc["gpu_busy_fraction"] = t.busyFraction;
    doc["gpu_busy_definition"] = QStringLiteral(
        "sum over successful runs of (timed repetitions + warm-up + 1 verification launch) x "
        "median kernel time, divided by wall time x runners; a lower bound (excludes the cuBLAS "
        "reference, input generation, L2 flushes)");
    QJsonArray all;
    for (const RunRecord &r : runs)
        all.append(toJson(r));
    doc["runs"] = all;
    return doc;
}

// Never over the journal this sweep reads and appends to; whole or not at all.
bool writeSweepJson(const QString &path, const QJsonObject &doc, const QString &journal)
{
    if (const FileWrite written = writeFileAtomically(path, QJsonDocument(doc).toJson(),
                                                      {.followSymlinks = true, .inputs = {journal}});
        !written) {
        printError(written.error + QStringLiteral(" The runs are in the journal %1.").arg(journal));
        return false;
    }
    print(QStringLiteral("Wrote %1\n").arg(path));
    return true;
}

// The report of a finished sweep: its table, totals and JSON. Exit status as runSweep's.
int reportSweep(const SweepBenchOptions &options, const SweepPlan &plan, const SweepRun &run,
                int previousRuns, bool cancelled, const QString &journal)
{
    const double wall = run.wallSeconds();
    const QList<RunRecord> &runs = run.sweep().runs;
    const SweepTotals totals = totalsOf(plan, runs.mid(previousRuns), wall, run.runnerCount());
    const SweepSummary summary = summarizeSweep(plan, runs, options.byRatio);
    const bool sizes = plan.spec.kind == SweepKind::Sizes;
    const SizeSweepSummary sizeSummary = sizes ? summarizeSizeSweep(plan, runs) : SizeSweepSummary{};
    if (sizes)
        printSizeSweep(plan, sizeSummary);
    else
        printGridSweep(plan, summary, runs);
    printTotals(totals);
    if (!options.jsonPath.isEmpty()) {
        const QJsonObject summaryJson =
            sizes ? sizeSweepJson(plan, sizeSummary) : sweepCellsJson(plan, summary);
        if (!writeSweepJson(options.jsonPath, sweepJson(options, summaryJson, totals, runs), journal))
            return 1;
    }
    if (cancelled || !unfinishedPoints(plan, runs).isEmpty()) {
        printError(
            QStringLiteral(
                "%1 configurations could not be run; run the same command with --journal %2 to resume.")
                .arg(unfinishedPoints(plan, runs).size())
                .arg(journal));
        return 3;
    }
    return 0;
}

} // namespace

int runSweep(const SweepBenchOptions &options)
{
    QTemporaryDir scratch;
    const QString journal = journalPathOf(options, scratch);
    if (const std::optional<QString> problem = runnerPoolProblem(options.runners.size())) {
        printError(*problem);
        return 1;
    }
    std::optional<SweepData> sweep = openSweep(journal, options.spec);
    if (!sweep)
        return 1;
    const int previousRuns = int(sweep->runs.size());
    SweepRun::Options runOptions;
    runOptions.runners = options.runners;
    runOptions.window = options.window;
    runOptions.journalPath = journal;
    runOptions.slurm = options.slurm;
    SweepReporter reporter(options.runners);
    SweepRun run(*sweep, runOptions);
    reporter.watch(run);
    const SweepPlan plan = planSweep(options.spec);
    if (!plan.ok()) {
        printError(QString::fromStdString(plan.error));
        return 1;
    }
    print(QStringLiteral(
              "Sweep %1: %2 cells, %3 configurations, %4 valid (the catalog refuses %5 before any run)\n")
              .arg(sweep->title())
              .arg(plan.cells.size())
              .arg(plan.points.size())
              .arg(plan.validPointCount())
              .arg(plan.points.size() - plan.validPointCount()));
    const std::unique_ptr<QObject> signals_ =
        options.slurm ? cancelOnSignals([&run] { run.cancel(); }) : std::unique_ptr<QObject>();
    QString error;
    if (!run.start(&error)) {
        printError(error);
        return 1;
    }
    if (run.isRunning())
        QCoreApplication::exec();
    return reportSweep(options, plan, run, previousRuns, reporter.cancelled(), journal);
}

} // namespace gemmscope::bench
