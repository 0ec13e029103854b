#include "request_fields.h"

#include "runner_error.h"

#include <cmath>

namespace gemmscope::runner {

namespace {
[[noreturn]] void bad(const QString &key, const char *what)
{
    throw RunnerError(ErrorKind::ProtocolError,
                      QStringLiteral("Field \"%1\" %2.").arg(key, QString::fromLatin1(what)));
}
} // namespace

QString requireString(const QJsonObject &request, const QString &key)
{
    const QJsonValue v = request.value(key);
    if (v.isUndefined())
        bad(key, "is missing");
    if (!v.isString())
        bad(key, "must be a string");
    return v.toString();
}

QString optionalString(const QJsonObject &request, const QString &key, const QString &fallback)
{
    const QJsonValue v = request.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isString())
        bad(key, "must be a string");
    return v.toString();
}

long long optionalInt(const QJsonObject &request, const QString &key, long long fallback)
{
    const QJsonValue v = request.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d) || std::abs(d) > 9e15)
        bad(key, "must be an integer");
    return (long long)d;
}

std::optional<int> optionalIntInRange(const QJsonObject &request, const QString &key, int min, int max)
{
    if (!request.contains(key))
        return std::nullopt;
    const QJsonValue v = request.value(key);
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d) || d < min || d > max)
        throw RunnerError(
            ErrorKind::ProtocolError,
            QStringLiteral("Field \"%1\" must be a whole number from %2 to %3.").arg(key).arg(min).arg(max));
    return int(d);
}

bool optionalBool(const QJsonObject &request, const QString &key, bool fallback)
{
    const QJsonValue v = request.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isBool())
        bad(key, "must be true or false");
    return v.toBool();
}

QJsonObject optionalObject(const QJsonObject &request, const QString &key)
{
    const QJsonValue v = request.value(key);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isObject())
        bad(key, "must be an object");
    return v.toObject();
}

ProblemSize parseSize(const QJsonObject &request)
{
    if (!request.value(QStringLiteral("size")).isObject())
        bad(QStringLiteral("size"), "must be an object {\"m\":..,\"n\":..,\"k\":..}");
    const QJsonObject s = request.value(QStringLiteral("size")).toObject();
    for (const char *dim : {"m", "n", "k"})
        if (s.value(QString::fromLatin1(dim)).isUndefined())
            bad(QStringLiteral("size.") + QString::fromLatin1(dim), "is missing");
    return ProblemSize{optionalInt(s, QStringLiteral("m"), 0), optionalInt(s, QStringLiteral("n"), 0),
                       optionalInt(s, QStringLiteral("k"), 0)};
}

TimingOptions parseTiming(const QJsonObject &request)
{
    const QJsonObject t = optionalObject(request, QStringLiteral("timing"));
    TimingOptions o;
    o.warmup = int(std::clamp<long long>(optionalInt(t, QStringLiteral("warmup"), o.warmup), 0, 1000));
    const QJsonValue budget = t.value(QStringLiteral("budget_ms"));
    if (!budget.isUndefined() && !budget.isDouble())
        bad(QStringLiteral("timing.budget_ms"), "must be a number");
    o.budgetMs = std::clamp(budget.toDouble(o.budgetMs), 0.0, 3.6e6);
    o.minReps = int(std::clamp<long long>(optionalInt(t, QStringLiteral("min_reps"), o.minReps), 1, 100000));
    o.maxReps = int(std::clamp<long long>(optionalInt(t, QStringLiteral("max_reps"), o.maxReps), 1, 100000));
    o.flushL2 = optionalBool(t, QStringLiteral("flush_l2"), o.flushL2);
    return o;
}

QJsonObject sizeJson(const ProblemSize &size)
{
    return QJsonObject{{QStringLiteral("m"), double(size.m)},
                       {QStringLiteral("n"), double(size.n)},
                       {QStringLiteral("k"), double(size.k)}};
}

} // namespace gemmscope::runner
