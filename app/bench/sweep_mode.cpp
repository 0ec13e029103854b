#include "sweep_mode.h"

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
#include <cstdio>

namespace gemmscope::bench {

namespace {

void out(const QString &text)
{
    std::fputs(text.toLocal8Bit().constData(), stdout);
    std::fflush(stdout);
}

void err(const QString &text)
{
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

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
                              : p.failureKind == QLatin1String("wrong_result") ? QStringLiteral("WRONG")
                              : !p.failureKind.isEmpty()                       ? p.failureKind.left(12)
                                                                               : QStringLiteral("-");
            text += (p.waveStep ? QStringLiteral("~") + v : v).rightJustified(14);
        }
        text += QLatin1Char('\n');
    }
    return text;
}

} // namespace

int runSweep(const SweepBenchOptions &options)
{
    QTemporaryDir scratch;
    SweepData sweep;
    // Without --journal the journal goes beside the JSON (so an interrupted sweep can be resumed),
    // or into a scratch folder when there is no JSON either.
    const QString journal = !options.journalPath.isEmpty() ? options.journalPath
                            : !options.jsonPath.isEmpty()  ? options.jsonPath + QStringLiteral(".gsweep")
                                                           : scratch.filePath(QStringLiteral("sweep.gsweep"));
    if (const std::optional<QString> problem = runnerPoolProblem(options.runners.size())) {
        err(*problem);
        return 1;
    }
    // --json naming the journal is refused before this, with every other output that would
    // destroy an input (main.cpp, refuseOutput).
    if (QFileInfo::exists(journal)) {
        QString error;
        QStringList problems;
        std::optional<SweepData> saved = SweepJournal::read(journal, &error, &problems);
        if (!saved) {
            err(error);
            return 1;
        }
        for (const QString &p : problems)
            err(p);
        if (!isSameSweep(saved->spec, options.spec)) { // the same values in another order are the same sweep
            err(QStringLiteral("%1 holds another sweep (%2); give another --journal to start this one.")
                    .arg(journal, saved->title()));
            return 1;
        }
        sweep = *saved;
        out(QStringLiteral("Resuming %1: %2 runs already answered.\n").arg(journal).arg(sweep.runs.size()));
    } else {
        sweep.id = newSweepId();
        sweep.spec = options.spec;
        sweep.created = QDateTime::currentDateTimeUtc();
    }
    const int previousRuns = int(sweep.runs.size());

    SweepRun::Options runOptions;
    runOptions.runners = options.runners;
    runOptions.window = options.window;
    runOptions.journalPath = journal;
    runOptions.slurm = options.slurm;
    SweepRun run(sweep, runOptions);
    QString error;
    int lastPrinted = -1;
    QObject::connect(&run, &SweepRun::progressChanged, [&](int answered, int total, double eta) {
        if (answered == lastPrinted || (answered % 10 != 0 && answered != total))
            return;
        lastPrinted = answered;
        out(QStringLiteral("[%1/%2] %3 s%4\n")
                .arg(answered)
                .arg(total)
                .arg(run.wallSeconds(), 0, 'f', 1)
                .arg(eta >= 0 ? QStringLiteral(", about %1 s left").arg(eta, 0, 'f', 0) : QString()));
    });
    QObject::connect(&run, &SweepRun::runnerStatusChanged,
                     [&](int runner, bool available, const QString &reason) {
                         out(QStringLiteral("runner %1 (%2): %3\n")
                                 .arg(runner)
                                 .arg(runner < options.runners.size() ? options.runners[runner].label
                                                                      : QStringLiteral("local"),
                                      available ? reason : QStringLiteral("unavailable: ") + reason));
                     });
    QObject::connect(&run, &SweepRun::journalError, [](const QString &m) { err(m); });
    // A pending job says why it waits instead of looking hung; a refusal is Slurm's own words.
    QString lastStatus;
    QObject::connect(&run, &SweepRun::schedulerStatusChanged, [&](const QString &status) {
        if (status != lastStatus)
            out(QStringLiteral("%1\n").arg(lastStatus = status));
    });
    QObject::connect(&run, &SweepRun::schedulerFailed, [](const QString &m) { err(m); });
    bool cancelled = false;
    QObject::connect(&run, &SweepRun::finished, [&](bool c) {
        cancelled = c;
        QCoreApplication::quit();
    });
    const SweepPlan plan = planSweep(options.spec);
    if (!plan.ok()) {
        err(QString::fromStdString(plan.error));
        return 1;
    }
    out(QStringLiteral(
            "Sweep %1: %2 cells, %3 configurations, %4 valid (the catalog refuses %5 before any run)\n")
            .arg(sweep.title())
            .arg(plan.cells.size())
            .arg(plan.points.size())
            .arg(plan.validPointCount())
            .arg(plan.points.size() - plan.validPointCount()));
    const std::unique_ptr<QObject> signals_ =
        options.slurm ? cancelOnSignals([&run] { run.cancel(); }) : std::unique_ptr<QObject>();
    if (!run.start(&error)) {
        err(error);
        return 1;
    }
    if (run.isRunning())
        QCoreApplication::exec();
    const double wall = run.wallSeconds();

    const QList<RunRecord> &runs = run.sweep().runs;
    const QList<RunRecord> thisRun = runs.mid(previousRuns);
    const SweepSummary summary = summarizeSweep(plan, runs, options.byRatio);
    int validAnswered = 0, failed = 0;
    for (const RunRecord &r : thisRun) {
        if (plan.spec.kind == SweepKind::Grid && r.stage == StageId::CublasFp32)
            continue;
        validAnswered += r.isOk() ? 1 : 0;
        failed += r.isOk() ? 0 : 1;
    }
    const double busy = gpuKernelSeconds(thisRun);
    const int runners = std::max(1, run.runnerCount());
    const double perMinute = wall > 0 ? validAnswered / wall * 60.0 : 0;
    const double busyFraction = wall > 0 ? busy / (wall * runners) : 0;

    const bool sizes = plan.spec.kind == SweepKind::Sizes;
    const SizeSweepSummary sizeSummary = sizes ? summarizeSizeSweep(plan, runs) : SizeSweepSummary{};
    if (sizes) {
        out(QStringLiteral("\nTFLOP/s (inv: refused by the catalog, WRONG: wrong result, ~: the last wave "
                           "barely started, wave quantization)\n"));
        out(sizeTable(plan, sizeSummary));
        for (const QString &note : sizeSweepWaveNotes(plan, sizeSummary))
            out(QStringLiteral("~ %1\n").arg(note));
        for (const SizeSweepPoint &p : sizeSummary.points)
            if (!p.invalidReason.isEmpty())
                out(QStringLiteral("inv %1 at %2x%3x%4: %5\n")
                        .arg(seriesLabel(plan, p.series))
                        .arg(p.size.m)
                        .arg(p.size.n)
                        .arg(p.size.k)
                        .arg(p.invalidReason));
    } else {
        out(QStringLiteral(
            "\nTFLOP/s (* best, s spills, inv: refused by the catalog, WRONG: wrong result)\n"));
        out(gridTable(plan, summary));
    }
    for (const RunRecord &r : runs)
        if (!sizes && r.isOk() && r.stage == StageId::CublasFp32)
            out(QStringLiteral("cuBLAS FP32 on %1 %2 (%3): %4 ms, %5 TFLOP/s\n")
                    .arg(r.host, r.gpuName, r.gpuUuid.left(12))
                    .arg(r.medianMs, 0, 'f', 3)
                    .arg(r.tflops, 0, 'f', 2));
    if (!sizes && summary.bestCell >= 0) {
        const SweepCellSummary &b = summary.cells[summary.bestCell];
        out(QStringLiteral("Best: %1 %2 ms, %3 TFLOP/s%4 on %5 %6\n")
                .arg(formatRunParams(*b.best))
                .arg(b.best->medianMs, 0, 'f', 3)
                .arg(b.best->tflops, 0, 'f', 2)
                .arg(b.pctOfCublas
                         ? QStringLiteral(" (%1 % of cuBLAS on that GPU)").arg(*b.pctOfCublas, 0, 'f', 1)
                         : QString())
                .arg(b.best->host, b.best->gpuName));
    }
    out(QStringLiteral(
            "Wall %1 s on %2 runner(s): %3 valid configurations timed (%4 per minute), %5 failed; GPU "
            "busy %6 % (kernel time the runners report / (wall x runners))\n")
            .arg(wall, 0, 'f', 1)
            .arg(runners)
            .arg(validAnswered)
            .arg(perMinute, 0, 'f', 0)
            .arg(failed)
            .arg(100.0 * busyFraction, 0, 'f', 1));

    if (!options.jsonPath.isEmpty()) {
        QJsonObject doc = sizes ? sizeSweepJson(plan, sizeSummary) : sweepCellsJson(plan, summary);
        doc["format"] =
            sizes ? QStringLiteral("gemmscope-bench-size-sweep") : QStringLiteral("gemmscope-bench-sweep");
        doc["date"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        doc["command"] = QCoreApplication::arguments().join(QLatin1Char(' '));
        QJsonArray runnerLabels;
        for (const RunnerCommand &c : options.runners)
            runnerLabels.append(c.label);
        doc["runners"] = runnerLabels;
        doc["window"] = options.window;
        doc["wall_s"] = wall;
        doc["valid_configurations_timed"] = validAnswered;
        doc["failed"] = failed;
        doc["configurations_per_minute"] = perMinute;
        doc["gpu_kernel_s"] = busy;
        doc["gpu_busy_fraction"] = busyFraction;
        doc["gpu_busy_definition"] = QStringLiteral(
            "sum over successful runs of (timed repetitions + warm-up + 1 verification launch) x "
            "median kernel time, divided by wall time x runners; a lower bound (excludes the cuBLAS "
            "reference, input generation, L2 flushes)");
        QJsonArray all;
        for (const RunRecord &r : runs)
            all.append(toJson(r));
        doc["runs"] = all;
        // Never over the journal this sweep reads and appends to; whole or not at all.
        if (const FileWrite written = writeFileAtomically(options.jsonPath, QJsonDocument(doc).toJson(),
                                                          {.followSymlinks = true, .inputs = {journal}});
            !written) {
            err(written.error + QStringLiteral(" The runs are in the journal %1.").arg(journal));
            return 1;
        }
        out(QStringLiteral("Wrote %1\n").arg(options.jsonPath));
    }
    if (cancelled || !unfinishedPoints(plan, runs).isEmpty()) {
        err(QStringLiteral(
                "%1 configurations could not be run; run the same command with --journal %2 to resume.")
                .arg(unfinishedPoints(plan, runs).size())
                .arg(journal));
        return 3;
    }
    return 0;
}

} // namespace gemmscope::bench
