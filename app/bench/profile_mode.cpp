#include "profile_mode.h"

#include "bench_console.h"
#include "bench_file.h"
#include "events.h"
#include "file_write.h"
#include "profile_analysis.h"
#include "requests.h"
#include "stage_catalog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QLocale>

namespace gemmscope::bench {

namespace {

constexpr int kTop = 5; // stall reasons and source lines printed per stage

QString sizeText(const ProblemSize &s)
{
    return QStringLiteral("%1x%2x%3").arg(s.m).arg(s.n).arg(s.k);
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(share * 100.0, 5, 'f', 1);
}

// A row of the bench's hot list: a source line (the views' folding, profile_analysis.h), or an
// instruction of a kernel without a line table (cuBLAS, the B transpose).
struct HotRow {
    QString where; // "final.cuh:41", or "pc 0x0670 LDS.128 ..."
    double samples = 0, share = 0;
    QString topReason;
};

QList<HotRow> hotRows(const protocol::ProfileEvent &p)
{
    QList<HotRow> rows;
    for (const LineProfile &l : foldOntoLines(p))
        rows.append({QStringLiteral("%1:%2").arg(l.file).arg(l.line), l.samples, l.share,
                     l.reasons.isEmpty() ? QString() : l.reasons.first().key});
    for (const InstructionHeat &h : instructionHeat(p)) {
        if (h.instruction->line > 0 || h.samples <= 0)
            continue;
        QString where = QStringLiteral("pc 0x%1").arg(h.instruction->pc, 4, 16, QLatin1Char('0'));
        if (!h.instruction->sass.isEmpty())
            where += QLatin1Char(' ') + h.instruction->sass;
        rows.append({where, h.samples, h.share, h.reasons.isEmpty() ? QString() : h.reasons.first().key});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const HotRow &a, const HotRow &b) { return a.samples > b.samples; });
    return rows;
}

// The figures of one profile, as the bench prints them.
QString describe(const ProfileTarget &target, const protocol::ProfileEvent &p)
{
    const QLocale c = QLocale::c();
    QString text = QStringLiteral("  %1 at %2 on %3: ").arg(target.label, sizeText(p.size), p.gpu.name);
    text += p.durationMs ? QStringLiteral("%1 ms").arg(*p.durationMs, 0, 'f', 1)
                         : QStringLiteral("duration unknown");
    const StallBreakdown breakdown = stallBreakdown(p);
    // CUPTI's count where the event has it (it includes samples of no instruction of the kernel).
    const double total = p.totalSamples.value_or(breakdown.totalSamples);
    text += QStringLiteral(", %1 samples").arg(c.toString(total, 'f', 0));
    if (p.droppedSamples && *p.droppedSamples > 0)
        text += QStringLiteral(" (%1 dropped)").arg(c.toString(*p.droppedSamples, 'f', 0));
    if (p.samplingPeriod)
        text += QStringLiteral(", one every 2^%1 cycles").arg(*p.samplingPeriod);
    text += QLatin1Char('\n');
    if (p.samplingBufferFull)
        text += QStringLiteral("  The sampling buffer overflowed: samples were lost, the shares may lean.\n");
    if (!p.stallsError.isEmpty())
        text += QStringLiteral("  Stall sampling: %1\n").arg(p.stallsError);
    const QList<ReasonShare> &reasons = breakdown.reasons;
    if (!reasons.isEmpty()) {
        text += QStringLiteral("  Top stall reasons:\n");
        for (qsizetype i = 0; i < std::min<qsizetype>(kTop, reasons.size()); ++i)
            text += QStringLiteral("    %1  %2\n").arg(reasons[i].key, -28).arg(percent(reasons[i].share));
        const QList<HotRow> lines = hotRows(p);
        const bool anyLine = std::any_of(p.instructions.begin(), p.instructions.end(),
                                         [](const protocol::ProfileInstruction &i) { return i.line > 0; });
        text += anyLine
                    ? QStringLiteral("  Top source lines (samples, share, top reason):\n")
                    : QStringLiteral("  No source lines (the kernel has no line table); top instructions:\n");
        for (qsizetype i = 0; i < std::min<qsizetype>(kTop, lines.size()); ++i)
            text += QStringLiteral("    %1  %2  %3  %4\n")
                        .arg(lines[i].where, -36)
                        .arg(c.toString(lines[i].samples, 'f', 0), 12)
                        .arg(percent(lines[i].share))
                        .arg(lines[i].topReason);
    }
    if (!p.instructionsError.isEmpty())
        text += QStringLiteral("  Per-instruction metrics: %1\n").arg(p.instructionsError);
    if (!p.limiters.isEmpty()) {
        text += QStringLiteral("  Limiters:\n");
        for (auto it = p.limiters.cbegin(); it != p.limiters.cend(); ++it)
            text += QStringLiteral("    %1  %2\n").arg(it.key(), -60).arg(it.value(), 0, 'g', 6);
    }
    if (!p.limitersError.isEmpty())
        text += QStringLiteral("  Limiters: %1\n").arg(p.limitersError);
    return text;
}

} // namespace

std::optional<QList<ProfileTarget>> profileTargets(const QString &list, QString *error)
{
    QList<ProfileTarget> targets;
    QStringList baselines;
    for (const QString &raw : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = raw.trimmed();
        ProfileTarget t{key, {}, {}};
        if (const Preset *p = findPreset(key.toStdString())) {
            t.stage = QString::fromStdString(stageInfo(p->stage).key);
            t.params = p->params;
        } else if (const StageInfo *s = findStage(key.toStdString())) {
            t.stage = key;
            t.params = s->isLibrary ? ParamValues{} : defaultParams(s->id);
        } else {
            *error = QStringLiteral("--stages: \"%1\" is neither a preset nor a stage key.").arg(key);
            return std::nullopt;
        }
        const StageInfo &info = stageInfo(StageId(t.stage.toStdString()));
        const QString baseline = QString::fromStdString(
            (info.precision == Precision::Tf32 ? StageId::CublasTf32 : StageId::CublasFp32).str());
        if (!baselines.contains(baseline))
            baselines << baseline;
        targets << t;
    }
    if (targets.isEmpty()) {
        *error = QStringLiteral("--profile needs --stages, e.g. --stages fp32-tuned,tf32-wgmma-tma.");
        return std::nullopt;
    }
    for (const QString &baseline : baselines) // after the stages, unless listed among them
        if (std::none_of(targets.begin(), targets.end(),
                         [&](const ProfileTarget &t) { return t.stage == baseline; }))
            targets << ProfileTarget{baseline, baseline, {}};
    return targets;
}

QJsonObject profileJob(const QString &id, const ProfileTarget &target, const ProfileBenchOptions &options)
{
    protocol::ProfileJob job;
    job.id = id;
    job.stage = target.stage;
    job.params = target.params;
    job.size = options.size;
    job.seed = options.seed;
    const StageInfo *stage = findStage(target.stage.toStdString());
    if (stage && !stage->isLibrary) { // cuBLAS has one build and no rounding choice
        if (protocol::buildKindFromName(options.build) == protocol::BuildKind::ScalarShared)
            job.build = options.build;
        if (stage->precision == Precision::Tf32)
            job.tf32Rounding = options.tf32Rounding;
    }
    job.samplingPeriod = options.samplingPeriod;
    return protocol::toJson(job);
}

int runProfiles(RunnerSession &runner, const QJsonObject &gpu, const QList<ProfileTarget> &targets,
                const ProfileBenchOptions &options)
{
    BenchFile bench;
    bench.date = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    bench.command = options.command;
    bench.gpu = gpu;
    bench.size = options.size;
    int failed = 0, n = 0;
    for (const ProfileTarget &t : targets) {
        ++n;
        print(QStringLiteral("[%1/%2] profiling %3 ...\n").arg(n).arg(targets.size()).arg(t.label));
        QString error;
        if (!runner.running() && !runner.start(&error)) {
            printError(QStringLiteral("Could not restart the runner: ") + error);
            ++failed;
            continue;
        }
        const QJsonObject event = runner.request(profileJob(QStringLiteral("p%1").arg(n), t, options));
        const std::optional<protocol::Event> decoded = protocol::decodeEvent(event);
        if (const auto *profile = decoded ? std::get_if<protocol::ProfileEvent>(&*decoded) : nullptr) {
            print(describe(t, *profile));
            bench.profileEvents.append(event);
            if (!profile->stallsError.isEmpty() && !profile->instructionsError.isEmpty() &&
                !profile->limitersError.isEmpty())
                ++failed; // nothing could be collected
            continue;
        }
        ++failed;
        protocol::ErrorEvent failure;
        protocol::fromJson(event, failure);
        printError(QStringLiteral("  %1 could not be profiled (%2): %3")
                       .arg(t.label, protocol::errorKindName(failure.kind), failure.message));
        if (protocol::runnerEndsAfter(failure.kind))
            printError(QStringLiteral("  %1: the runner exits; restarting it for the next stage.")
                           .arg(protocol::errorKindName(failure.kind)));
    }
    if (!options.jsonPath.isEmpty()) {
        // Replaced whole or left as it was (a full disk never leaves half a file), exit status 1.
        if (const FileWrite written = writeFileAtomically(options.jsonPath, serializeBench(bench));
            !written) {
            printError(written.error);
            return 1;
        }
        print(QStringLiteral("Wrote %1\n").arg(options.jsonPath));
    }
    if (failed > 0) {
        printError(QStringLiteral("%1 of %2 stages could not be profiled.").arg(failed).arg(targets.size()));
        return 3;
    }
    return 0;
}

Parsed<ProfileCommand> ProfileCommand::parse(const BenchCommandLine &commandLine)
{
    const BenchOptions &o = commandLine.options;
    const Parsed<RunBasics> basics = parseRunBasics(commandLine);
    if (const auto *refused = std::get_if<OptionError>(&basics))
        return *refused;
    const RunBasics &run = std::get<RunBasics>(basics);
    ProfileCommand command;
    ProfileBenchOptions &po = command.options;
    po.size = run.size;
    po.seed = run.seed;
    po.build = run.build;
    QString error;
    const std::optional<QString> rounding = tf32Rounding(commandLine, &error);
    if (!rounding)
        return OptionError{error};
    po.tf32Rounding = *rounding;
    if (commandLine.isSet(o.period)) {
        const auto period =
            wholeNumber(commandLine.value(o.period), 5, 31, QStringLiteral("--sampling-period"), &error);
        if (!period)
            return OptionError{error};
        po.samplingPeriod = int(*period);
    }
    po.jsonPath = commandLine.value(o.json);
    po.command = QCoreApplication::arguments().join(QLatin1Char(' '));
    const auto targets = profileTargets(commandLine.value(o.stages), &error);
    if (!targets)
        return OptionError{error};
    command.targets = *targets;
    command.sizeText = commandLine.value(o.size);
    command.runnerPath = findRunner(commandLine.value(o.runner));
    command.listJobs = commandLine.isSet(o.listJobs);
    return command;
}

int ProfileCommand::run() const
{
    if (listJobs) {
        int n = 0;
        for (const ProfileTarget &t : targets)
            print(QString::fromUtf8(QJsonDocument(profileJob(QStringLiteral("p%1").arg(++n), t, options))
                                        .toJson(QJsonDocument::Compact)) +
                  QLatin1Char('\n'));
        return 0;
    }
    if (!options.jsonPath.isEmpty()) {
        if (const auto refused = refuseOutput(options.jsonPath)) {
            printError(QStringLiteral("--json: ") + *refused);
            return 1;
        }
    }
    RunnerSession runner(runnerPath);
    int exitCode = 0;
    const std::optional<protocol::GpuInfo> gpu = startWithGpu(runner, &exitCode);
    if (!gpu)
        return exitCode;
    print(QStringLiteral("GPU: %1 (%2), profiling at %3\n").arg(gpu->name, gpu->arch, sizeText));
    return runProfiles(runner, protocol::toJson(*gpu), targets, options);
}

} // namespace gemmscope::bench
