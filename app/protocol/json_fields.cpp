#include "json_fields.h"

#include <cmath>
#include <limits>

namespace gemmscope::protocol::detail {

void Reader::wrongType(const char *key, const char *what)
{
    fail(QStringLiteral("Field \"%1\" must be %2.").arg(QLatin1String(key), QLatin1String(what)));
}

void Reader::outOfRange(const char *key, const QString &limit)
{
    fail(QStringLiteral("Field \"%1\" is out of range (%2).").arg(QLatin1String(key), limit));
}

QString Reader::string(const char *key)
{
    return optString(key).value_or(QString());
}

std::optional<QString> Reader::optString(const char *key, const char *what)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isString()) {
        wrongType(key, what);
        return std::nullopt;
    }
    return v.toString();
}

QString Reader::requiredString(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined()) {
        fail(QStringLiteral("Field \"%1\" is missing.").arg(QLatin1String(key)));
        return {};
    }
    if (!v.isString()) {
        wrongType(key, "a string");
        return {};
    }
    return v.toString();
}

std::optional<long long> Reader::optInt64(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    const double d = v.toDouble();
    if (!v.isDouble() || d != std::floor(d)) {
        wrongType(key, "an integer");
        return std::nullopt;
    }
    // Within 2^53, where a JSON number is still exact (and the cast defined). A whole number past
    // it is an integer, only too large: said so, with the limit.
    constexpr double kExact = 9007199254740992.0;
    if (!(std::abs(d) <= kExact)) {
        outOfRange(key,
                   d > 0 ? QStringLiteral("max 9007199254740992") : QStringLiteral("min -9007199254740992"));
        return std::nullopt;
    }
    return static_cast<long long>(d);
}

std::optional<int> Reader::optInt(const char *key)
{
    const std::optional<long long> v = optInt64(key);
    if (!v)
        return std::nullopt;
    if (*v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) {
        outOfRange(key, *v > 0 ? QStringLiteral("max %1").arg(std::numeric_limits<int>::max())
                               : QStringLiteral("min %1").arg(std::numeric_limits<int>::min()));
        return std::nullopt;
    }
    return int(*v);
}

std::optional<int> Reader::optIntInRange(const char *key, int min, int max)
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_json.value(QLatin1String(key));
    const double d = v.toDouble();
    if (!v.isDouble() || d != std::floor(d) || d < min || d > max) {
        fail(QStringLiteral("Field \"%1\" must be a whole number from %2 to %3.")
                 .arg(QLatin1String(key))
                 .arg(min)
                 .arg(max));
        return std::nullopt;
    }
    return int(d);
}

std::optional<double> Reader::optDouble(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isDouble()) {
        wrongType(key, "a number");
        return std::nullopt;
    }
    return v.toDouble();
}

std::optional<bool> Reader::optBool(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isBool()) {
        wrongType(key, "true or false");
        return std::nullopt;
    }
    return v.toBool();
}

std::optional<QJsonObject> Reader::optObject(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isObject()) {
        wrongType(key, "an object");
        return std::nullopt;
    }
    return v.toObject();
}

std::optional<QJsonArray> Reader::optArray(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isArray()) {
        wrongType(key, "an array");
        return std::nullopt;
    }
    return v.toArray();
}

QList<double> Reader::nonNegativeNumbers(const char *key, const char *what)
{
    QList<double> numbers;
    if (const auto array = optArray(key))
        for (const QJsonValue &v : *array) {
            if (!v.isDouble() || v.toDouble() < 0) {
                fail(QStringLiteral("Field \"%1\" must be a list of %2.")
                         .arg(QLatin1String(key), QLatin1String(what)));
                return {};
            }
            numbers << v.toDouble();
        }
    return numbers;
}

std::optional<ParamValues> Reader::optParams(const char *key)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isObject()) {
        wrongType(key, "an object of integers");
        return std::nullopt;
    }
    const QJsonObject object = v.toObject();
    ParamValues params;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const double d = it.value().toDouble();
        if (!it.value().isDouble() || d != std::floor(d)) {
            fail(QStringLiteral("Parameter %1 must be an integer.").arg(it.key()));
            continue;
        }
        if (std::abs(d) > 1e9) { // whole, but no tile parameter is that large (and int holds it)
            fail(QStringLiteral("Parameter %1 is out of range (%2).")
                     .arg(it.key(),
                          d > 0 ? QStringLiteral("max 1000000000") : QStringLiteral("min -1000000000")));
            continue;
        }
        params[it.key().toStdString()] = int(d);
    }
    return params;
}

std::optional<ProblemSize> Reader::optSize(const char *key, bool required)
{
    const QJsonValue v = m_json.value(QLatin1String(key));
    if ((v.isUndefined() || v.isNull()) && !required)
        return std::nullopt;
    if (!v.isObject()) {
        wrongType(key, "an object {\"m\":..,\"n\":..,\"k\":..}");
        return std::nullopt;
    }
    const QJsonObject object = v.toObject();
    for (const char *dim : {"m", "n", "k"})
        if (!object.contains(QLatin1String(dim))) {
            fail(QStringLiteral("Field \"%1.%2\" is missing.").arg(QLatin1String(key), QLatin1String(dim)));
            return std::nullopt;
        }
    Reader size(object);
    ProblemSize out;
    out.m = size.optInt64("m").value_or(0);
    out.n = size.optInt64("n").value_or(0);
    out.k = size.optInt64("k").value_or(0);
    QString error;
    if (!size.finish(&error))
        fail(QStringLiteral("In \"%1\": %2").arg(QLatin1String(key), error));
    return out;
}

} // namespace gemmscope::protocol::detail
