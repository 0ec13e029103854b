#include "grid_sweep_mode.h"

#include "stage_catalog.h"

#include <QRegularExpression>

namespace gemmscope::bench {

namespace {

// --fixed NAME=value,...: the values of the parameters off the axes.
std::optional<OptionError> readFixed(const QString &text, SweepSpec &spec)
{
    for (const QString &pair : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString error;
        const QStringList kv = pair.split(QLatin1Char('='));
        const std::optional<int> value =
            kv.size() == 2 ? intValue(kv[1], QStringLiteral("--fixed ") + kv[0].trimmed(), &error)
                           : std::nullopt;
        if (!value)
            return OptionError{
                !error.isEmpty()
                    ? error
                    : QStringLiteral("--fixed takes NAME=value pairs separated by commas, not \"%1\".")
                          .arg(pair)};
        spec.fixed[kv[0].trimmed().toStdString()] = *value;
    }
    return std::nullopt;
}

// --x, --y and their values, --rest and --fixed.
std::optional<OptionError> readAxes(const BenchCommandLine &commandLine, SweepSpec &spec)
{
    const BenchOptions &o = commandLine.options;
    QString error;
    spec.x.param = commandLine.value(o.x).toStdString();
    spec.y.param = commandLine.value(o.y).toStdString();
    const auto xs = intList(commandLine.value(o.xValues), QStringLiteral("--x-values"), &error);
    const auto ys =
        xs ? intList(commandLine.value(o.yValues), QStringLiteral("--y-values"), &error) : std::nullopt;
    if (!ys)
        return OptionError{error};
    spec.x.values = *xs;
    spec.y.values = *ys;
    const QString rest = commandLine.value(o.rest);
    if (rest != QLatin1String("fixed") && rest != QLatin1String("best"))
        return OptionError{QStringLiteral("--rest must be fixed or best.")};
    spec.rest = rest == QLatin1String("best") ? SweepRest::BestOverRest : SweepRest::Fixed;
    return readFixed(commandLine.value(o.fixed), spec);
}

} // namespace

Parsed<SweepCommand> parseGridSweep(const BenchCommandLine &commandLine)
{
    const BenchOptions &o = commandLine.options;
    SweepCommand command;
    SweepSpec &spec = command.options.spec;
    spec.stage = StageId(commandLine.value(o.stage).toStdString());
    if (!findStage(spec.stage.key()))
        return OptionError{
            QStringLiteral("--stage: there is no stage \"%1\".").arg(commandLine.value(o.stage))};
    if (auto refused = readAxes(commandLine, spec))
        return *refused;
    const QString sizeText = commandLine.value(o.size);
    const auto m = QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)x(\\d+)$")).match(sizeText);
    if (!m.hasMatch())
        return OptionError{QStringLiteral("--size must look like 4096x4096x4096, not \"%1\".").arg(sizeText)};
    spec.size = {m.captured(1).toLongLong(), m.captured(2).toLongLong(), m.captured(3).toLongLong()};
    command.options.byRatio = commandLine.isSet(o.byRatio);
    if (auto refused = readSweepPool(commandLine, commandLine.value(o.budget), command))
        return *refused;
    return command;
}

} // namespace gemmscope::bench
