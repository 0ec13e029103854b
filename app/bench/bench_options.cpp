#include "bench_options.h"

#include "stage_catalog.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <limits>
#include <utility>

namespace gemmscope::bench {

BenchCommandLine::BenchCommandLine()
{
    m_parser.setApplicationDescription(
        QStringLiteral("Benchmarks the matmul ladder through gemmscope-runner."));
    m_parser.addHelpOption();
    const BenchOptions &o = options;
    m_parser.addOptions({o.size,     o.stages,   o.budget, o.flush,    o.json,      o.seed,
                         o.runner,   o.minReps,  o.warmup, o.counters, o.build,     o.maxBlocks,
                         o.carveout, o.listJobs, o.regime, o.maxNoise, o.threshold, o.noBaseline,
                         o.rounding, o.profile,  o.period, o.bursts,   o.kernel,    o.params});
    m_parser.addOptions({o.sweep,         o.stage,     o.x,          o.y,          o.xValues,
                         o.yValues,       o.rest,      o.fixed,      o.runners,    o.runnerTemplate,
                         o.hosts,         o.window,    o.journal,    o.byRatio,    o.sizeSweep,
                         o.sizes,         o.sizeRange, o.powersOnly, o.slurm,      o.partition,
                         o.gpusPerRunner, o.timeLimit, o.detach,     o.sweepStatus});
}

void BenchCommandLine::process(const QCoreApplication &app)
{
    m_parser.process(app);
}

bool BenchCommandLine::parse(const QStringList &arguments, QString *error)
{
    if (m_parser.parse(arguments))
        return true;
    *error = m_parser.errorText();
    return false;
}

BenchMode BenchCommandLine::mode() const
{
    if (isSet(options.sweepStatus))
        return BenchMode::SweepStatus;
    if (isSet(options.sizeSweep))
        return BenchMode::SizeSweep;
    if (isSet(options.sweep))
        return BenchMode::Sweep;
    return isSet(options.profile) ? BenchMode::Profile : BenchMode::Ladder;
}

namespace {

// --size MxNxK as the catalog takes it: more digits than 64 bits read as the largest number, which
// the catalog refuses with its limit.
std::optional<ProblemSize> problemSize(const QString &text, QString *error)
{
    const auto match = QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)x(\\d+)$")).match(text);
    if (!match.hasMatch()) {
        *error = QStringLiteral("--size must look like 8192x4096x6144, not \"%1\".").arg(text);
        return std::nullopt;
    }
    ProblemSize size;
    for (auto [dim, digits] : {std::pair{&size.m, match.captured(1)}, std::pair{&size.n, match.captured(2)},
                               std::pair{&size.k, match.captured(3)}}) {
        bool ok = false;
        *dim = digits.toLongLong(&ok);
        if (!ok)
            *dim = std::numeric_limits<long long>::max();
    }
    if (const auto reasons = violations(StageId::CublasFp32, {}, size); !reasons.empty()) {
        *error = QStringLiteral("--size %1: %2").arg(text, QString::fromStdString(reasons.front()));
        return std::nullopt;
    }
    return size;
}

} // namespace

Parsed<RunBasics> parseRunBasics(const BenchCommandLine &commandLine)
{
    const BenchOptions &o = commandLine.options;
    QString error;
    const auto size = problemSize(commandLine.value(o.size), &error);
    if (!size)
        return OptionError{error};
    const auto budgetMs = wholeNumber(commandLine.value(o.budget), 0, 3600000,
                                      QStringLiteral("--budget-ms (milliseconds)"), &error);
    const auto minReps =
        budgetMs ? wholeNumber(commandLine.value(o.minReps), 1, 100000, QStringLiteral("--min-reps"), &error)
                 : std::nullopt;
    const auto warmup =
        minReps ? wholeNumber(commandLine.value(o.warmup), 0, 1000, QStringLiteral("--warmup"), &error)
                : std::nullopt;
    const auto seed = warmup ? wholeNumber(commandLine.value(o.seed), 0, std::numeric_limits<int>::max(),
                                           QStringLiteral("--seed"), &error)
                             : std::nullopt;
    if (!seed)
        return OptionError{error};
    const QString build = commandLine.value(o.build);
    if (protocol::buildKindFromName(build) == protocol::BuildKind::Unknown)
        return OptionError{QStringLiteral("--build must be %1, not \"%2\".")
                               .arg(protocol::buildKindNames().join(QStringLiteral(" or ")), build)};
    return RunBasics{*size, int(*budgetMs), int(*minReps), int(*warmup), int(*seed), build};
}

std::optional<QString> tf32Rounding(const BenchCommandLine &commandLine, QString *error)
{
    const QString rounding = commandLine.value(commandLine.options.rounding);
    if (protocol::tf32RoundingFromName(rounding) != protocol::Tf32Rounding::Unknown)
        return rounding;
    *error = QStringLiteral("--tf32-rounding must be %1, not \"%2\".")
                 .arg(protocol::tf32RoundingNames().join(QStringLiteral(" or ")), rounding);
    return std::nullopt;
}

std::optional<long long> wholeNumber(const QString &text, long long min, long long max, const QString &option,
                                     QString *error)
{
    bool ok = false;
    const long long value = text.trimmed().toLongLong(&ok);
    if (!ok || value < min || value > max) {
        *error = QStringLiteral("%1 must be a whole number from %2 to %3, not \"%4\".")
                     .arg(option)
                     .arg(min)
                     .arg(max)
                     .arg(text);
        return std::nullopt;
    }
    return value;
}

std::optional<int> intValue(const QString &text, const QString &option, QString *error)
{
    const QString trimmed = text.trimmed();
    bool ok = false;
    const int value = trimmed.toInt(&ok);
    if (ok)
        return value;
    static const QRegularExpression digits(QStringLiteral("^[+-]?\\d+$"));
    if (digits.match(trimmed).hasMatch())
        *error = QStringLiteral("%1: %2 is out of range (%3).")
                     .arg(option, trimmed,
                          trimmed.startsWith(QLatin1Char('-'))
                              ? QStringLiteral("min %1").arg(std::numeric_limits<int>::min())
                              : QStringLiteral("max %1").arg(std::numeric_limits<int>::max()));
    return std::nullopt;
}

std::optional<std::vector<int>> intList(const QString &text, const QString &option, QString *error)
{
    std::vector<int> values;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        error->clear();
        const std::optional<int> value = intValue(part, option, error);
        if (!value) {
            if (error->isEmpty())
                *error = QStringLiteral("%1 takes whole numbers separated by commas, not \"%2\".")
                             .arg(option, text);
            return std::nullopt;
        }
        values.push_back(*value);
    }
    return values;
}

QString findRunner(const QString &given)
{
    if (!given.isEmpty())
        return given;
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/gemmscope-runner");
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QStringLiteral("gemmscope-runner"); // from PATH
}

} // namespace gemmscope::bench
