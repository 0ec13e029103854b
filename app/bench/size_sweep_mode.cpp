#include "size_sweep_mode.h"

#include "stage_catalog.h"

#include <QRegularExpression>

namespace gemmscope::bench {

namespace {

// The series from --stages, as the ladder reads them.
std::optional<OptionError> readSeries(const QString &stagesText, SweepSpec &spec)
{
    for (const QString &raw : stagesText.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = raw.trimmed();
        if (const Preset *p = findPreset(key.toStdString()))
            spec.series.push_back({p->stage, p->params, p->key});
        else if (const StageInfo *st = findStage(key.toStdString()))
            spec.series.push_back({st->id, st->isLibrary ? ParamValues{} : defaultParams(st->id), st->key});
        else
            return OptionError{
                QStringLiteral("--stages: \"%1\" is neither a preset nor a stage key.").arg(key)};
    }
    if (spec.series.empty())
        return OptionError{
            QStringLiteral("--size-sweep needs --stages, e.g. --stages worklog-8,cublas_fp32.")};
    return std::nullopt;
}

// --sizes square or aspect over --size-range (with the midpoints unless --powers-only).
std::optional<OptionError> readShapedSizes(const BenchCommandLine &commandLine, const QString &shape,
                                           SweepSpec &spec)
{
    const BenchOptions &o = commandLine.options;
    const auto range =
        QRegularExpression(QStringLiteral("^(\\d+)-(\\d+)$")).match(commandLine.value(o.sizeRange).trimmed());
    const long long from = range.hasMatch() ? range.captured(1).toLongLong() : 0;
    const long long to = range.hasMatch() ? range.captured(2).toLongLong() : 0;
    if (from < 1 || to < from || to > (1LL << 20))
        return OptionError{QStringLiteral("--size-range must look like 256-16384 (1 to 1048576), not \"%1\".")
                               .arg(commandLine.value(o.sizeRange))};
    spec.sizes =
        sizeSweepSizes(shape == QLatin1String("square") ? SizeShape::Square : SizeShape::WorklogAspect, from,
                       to, !commandLine.isSet(o.powersOnly));
    return std::nullopt;
}

// --sizes as a list of N (square) and MxNxK.
std::optional<OptionError> readListedSizes(const QString &sizesText, SweepSpec &spec)
{
    for (const QString &part : sizesText.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto m =
            QRegularExpression(QStringLiteral("^(\\d+)(?:x(\\d+)x(\\d+))?$")).match(part.trimmed());
        if (!m.hasMatch())
            return OptionError{QStringLiteral("--sizes: \"%1\" is not N or MxNxK.").arg(part)};
        const long long a = m.captured(1).toLongLong();
        spec.sizes.push_back(m.captured(2).isEmpty()
                                 ? ProblemSize{a, a, a}
                                 : ProblemSize{a, m.captured(2).toLongLong(), m.captured(3).toLongLong()});
    }
    return std::nullopt;
}

} // namespace

Parsed<SweepCommand> parseSizeSweep(const BenchCommandLine &commandLine)
{
    const BenchOptions &o = commandLine.options;
    SweepCommand command;
    SweepSpec &spec = command.options.spec;
    spec.kind = SweepKind::Sizes;
    if (auto refused = readSeries(commandLine.value(o.stages), spec))
        return *refused;
    const QString sizesText = commandLine.value(o.sizes).trimmed();
    const bool shaped = sizesText == QLatin1String("square") || sizesText == QLatin1String("aspect");
    if (auto refused =
            shaped ? readShapedSizes(commandLine, sizesText, spec) : readListedSizes(sizesText, spec))
        return *refused;
    if (spec.sizes.empty())
        return OptionError{QStringLiteral("--size-sweep has no sizes: check --sizes and --size-range.")};
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    const QString budgetText =
        commandLine.isSet(o.budget) ? commandLine.value(o.budget) : QStringLiteral("30");
    if (auto refused = readSweepPool(commandLine, budgetText, command))
        return *refused;
    return command;
}

} // namespace gemmscope::bench
