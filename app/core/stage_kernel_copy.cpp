#include "stage_kernel_copy.h"

#include "kernel_sources.h"
#include "stage_catalog.h"

#include <QStringList>

namespace gemmscope {

namespace {

long long ceilDiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

QString paramLine(const ParamSpec &p)
{
    QString values;
    if (!p.choices.empty()) {
        QStringList choices;
        for (int c : p.choices)
            choices << QString::number(c);
        values = QStringLiteral("{%1}").arg(choices.join(QStringLiteral(", ")));
    } else {
        values = QStringLiteral("%1..%2").arg(p.min).arg(p.max);
        if (p.step > 1)
            values += QStringLiteral(" step %1").arg(p.step);
    }
    return QStringLiteral("param %1 %2 default %3")
        .arg(QString::fromStdString(p.name).leftJustified(3), values)
        .arg(p.defaultValue);
}

// The grid as ceil_div(<dimension>, tile) when the stage's launch follows that pattern at every
// size tried; empty when it does not.
QString gridAxis(const StageInfo &stage, const ParamValues &params, bool xAxis)
{
    const auto grid = [&](long long extent) {
        ProblemSize size{.m = 4096, .n = 4096, .k = 4096};
        (xAxis ? size.n : size.m) = extent;
        const LaunchGeometry g = launchGeometry(stage.id, params, size);
        return xAxis ? g.gridX : g.gridY;
    };
    const long long at4096 = grid(4096);
    if (at4096 <= 0)
        return {};
    if (at4096 == 1 && grid(37) == 1 && grid(100000) == 1)
        return QStringLiteral("1");
    if (4096 % at4096 != 0)
        return {};
    const long long tile = 4096 / at4096;
    for (long long extent : {1LL, 37LL, 1000LL, 4097LL, 12345LL})
        if (grid(extent) != ceilDiv(extent, tile))
            return {};
    return QStringLiteral("ceil_div(%1, %2)").arg(xAxis ? QLatin1Char('N') : QLatin1Char('M')).arg(tile);
}

QStringList launchLines(const StageInfo &stage, QStringList *notes)
{
    const ParamValues params = defaultParams(stage.id);
    const ProblemSize size{.m = 4096, .n = 4096, .k = 4096};
    const LaunchGeometry g = launchGeometry(stage.id, params, size);
    QStringList lines;
    lines << (g.blockY > 1 ? QStringLiteral("block     %1, %2").arg(g.blockX).arg(g.blockY)
                           : QStringLiteral("block     %1").arg(g.blockX));
    const QString x = gridAxis(stage, params, true);
    const QString y = gridAxis(stage, params, false);
    if (!x.isEmpty() && !y.isEmpty()) {
        lines << QStringLiteral("grid      %1, %2").arg(x, y);
    } else {
        lines << QStringLiteral("grid      %1, %2").arg(g.gridX).arg(g.gridY);
        *notes << QStringLiteral(
            "The grid is written for 4096³ only: its launch is not a simple "
            "ceil_div of N and M; write it as an expression of M, N and the parameters.");
    }
    lines << QStringLiteral("shared    %1").arg(g.staticSmemBytes);
    if (g.dynamicSmemBytes > 0)
        lines << QStringLiteral("dynamic_shared %1").arg(g.dynamicSmemBytes);
    return lines;
}

} // namespace

StageKernelCopy stageKernelCopy(const StageInfo &stage)
{
    const std::string_view source = embeddedKernelSource(stage.sourceFile);
    if (stage.isLibrary || source.empty())
        return {};
    QStringList defaults;
    for (const ParamSpec &p : stage.params)
        defaults << QStringLiteral("%1=%2").arg(QString::fromStdString(p.name)).arg(p.defaultValue);
    QStringList notes;
    const QStringList launch = launchLines(stage, &notes);
    if (stage.transposedB || stage.tensorMaps)
        notes << QStringLiteral(
                     "This stage reads B transposed%1; a custom kernel is launched with (A, B, C, M, "
                     "N, K) as given, so change its loads of B before running it.")
                     .arg(stage.tensorMaps ? QStringLiteral(" through tensor maps") : QString());
    if (stage.model.constraints)
        notes << QStringLiteral(
            "The stage's own constraints live in the catalog's code: add them as `require` "
            "lines (e.g. require BM % TM == 0).");

    QStringList text;
    text << QStringLiteral("// A copy of the stage \"%1\" (%2) to change as you like.")
                .arg(QString::fromStdString(stage.title), QString::fromStdString(stage.key));
    text << QStringLiteral("// The parameter block below was written from the stage's parameters. Its block, "
                           "grid and shared")
         << QStringLiteral("// lines were computed for the default parameters (%1) as a starting point:")
                .arg(defaults.join(QLatin1Char(' ')))
         << QStringLiteral("// check them, and write them as expressions of the parameters (block BN / TN, "
                           "BM / TM) so that")
         << QStringLiteral("// other values launch right.");
    for (const QString &note : notes)
        text << QStringLiteral("// ") + note;
    text << QStringLiteral("/* gemmscope:kernel");
    text << QStringLiteral("name      %1").arg(QString::fromStdString(stage.kernelName));
    text << QStringLiteral("title     Copy of %1").arg(QString::fromStdString(stage.title));
    text << QStringLiteral("precision %1")
                .arg(stage.precision == Precision::Tf32 ? QStringLiteral("tf32") : QStringLiteral("fp32"));
    for (const ParamSpec &p : stage.params)
        text << paramLine(p);
    text << launch;
    text << QStringLiteral("*/");
    return {.text = text.join(QLatin1Char('\n')) + QLatin1Char('\n') +
                    QString::fromUtf8(source.data(), qsizetype(source.size())),
            .fileName = QString::fromStdString(stage.key) + QStringLiteral("_copy.cuh"),
            .derivedFrom = QString::fromStdString(stage.key)};
}

} // namespace gemmscope
