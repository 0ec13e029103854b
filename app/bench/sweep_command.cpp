#include "sweep_command.h"

#include "file_write.h"

#include <QCoreApplication>

namespace gemmscope::bench {

namespace {

// The runners of --runner-template x --hosts x --runners; the sentence for a bad template.
std::optional<OptionError> addRunners(const BenchCommandLine &commandLine, int count,
                                      QList<RunnerCommand> &out)
{
    const BenchOptions &o = commandLine.options;
    QString error;
    QStringList templates = commandLine.values(o.runnerTemplate);
    if (templates.isEmpty())
        templates << QStringLiteral("{runner}");
    QStringList hosts = commandLine.value(o.hosts).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (hosts.isEmpty())
        hosts << QString();
    const QString runner = findRunner(commandLine.value(o.runner));
    for (const QString &t : templates) {
        for (const QString &host : hosts) {
            for (int i = 0; i < count; ++i) {
                RunnerTemplateValues values;
                values.gpu = values.index = QString::number(i);
                values.host = host.trimmed();
                values.runner = runner;
                const std::optional<RunnerCommand> c = parseRunnerTemplate(t, values, &error);
                if (!c)
                    return OptionError{QStringLiteral("--runner-template: ") + error};
                out << *c;
            }
        }
    }
    return std::nullopt;
}

// --slurm's partition, GPUs per runner and time limit; --detach only with --slurm.
std::optional<OptionError> readSlurm(const BenchCommandLine &commandLine, SweepCommand &command)
{
    const BenchOptions &o = commandLine.options;
    if (commandLine.isSet(o.detach) && !commandLine.isSet(o.slurm))
        return OptionError{
            QStringLiteral("--detach needs --slurm: only a Slurm batch job runs a sweep without "
                           "this process.")};
    if (!commandLine.isSet(o.slurm))
        return std::nullopt;
    QString error;
    const auto gpus =
        wholeNumber(commandLine.value(o.gpusPerRunner), 0, 64, QStringLiteral("--gpus-per-runner"), &error);
    if (!gpus)
        return OptionError{error};
    SlurmOptions slurm;
    slurm.partition = commandLine.value(o.partition);
    slurm.gpusPerRunner = int(*gpus);
    slurm.timeLimit = commandLine.value(o.timeLimit);
    command.options.slurm = slurm;
    command.detach = commandLine.isSet(o.detach);
    return std::nullopt;
}

} // namespace

std::optional<OptionError> readSweepPool(const BenchCommandLine &commandLine, const QString &budgetText,
                                         SweepCommand &command)
{
    const BenchOptions &o = commandLine.options;
    QString error;
    SweepBenchOptions &options = command.options;
    const auto budget =
        wholeNumber(budgetText, 0, 3600000, QStringLiteral("--budget-ms (milliseconds)"), &error);
    const auto count =
        budget ? wholeNumber(commandLine.value(o.runners), 1, 64, QStringLiteral("--runners"), &error)
               : std::nullopt;
    const auto window =
        count ? wholeNumber(commandLine.value(o.window), 0, 4096, QStringLiteral("--window"), &error)
              : std::nullopt;
    if (!window)
        return OptionError{error};
    options.spec.budgetMs = int(*budget);
    options.spec.flushL2 = commandLine.isSet(o.flush);
    if (const SweepPlan plan = planSweep(options.spec); !plan.ok())
        return OptionError{QString::fromStdString(plan.error)};
    if (auto refused = addRunners(commandLine, int(*count), options.runners))
        return refused;
    // Outputs are checked before an hour of measuring: not a device, pipe or socket, and the JSON
    // never the journal it resumes from (--json F --journal F replaced the journal).
    const QString jsonPath = commandLine.value(o.json);
    if (!jsonPath.isEmpty()) {
        if (const auto refused =
                refuseOutput(jsonPath, {.followSymlinks = true, .inputs = {commandLine.value(o.journal)}}))
            return OptionError{QStringLiteral("--json: ") + *refused};
    }
    options.window = int(*window);
    options.journalPath = commandLine.value(o.journal);
    options.jsonPath = jsonPath;
    return readSlurm(commandLine, command);
}

int SweepCommand::run() const
{
    if (detach)
        return submitDetachedSweep(options, int(options.runners.size()),
                                   QCoreApplication::arguments().mid(1));
    return runSweep(options);
}

} // namespace gemmscope::bench
