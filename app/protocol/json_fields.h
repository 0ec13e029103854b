// Typed reads of JSON fields for the codec (app/protocol only). Each records the first field of
// the wrong type in a Reader, so a fromJson reads on and reports one sentence at the end.
#pragma once

#include "stage_types.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace gemmscope::protocol::detail {

class Reader {
public:
    explicit Reader(const QJsonObject &json) : m_json(json) {}

    bool has(const char *key) const { return m_json.contains(QLatin1String(key)); }
    bool isNull(const char *key) const { return m_json.value(QLatin1String(key)).isNull(); }

    QString string(const char *key);
    // `what` completes "Field \"key\" must be ..." when the value is not a string.
    std::optional<QString> optString(const char *key, const char *what = "a string");
    // A field every request of its type carries: "Field \"key\" is missing." when absent.
    QString requiredString(const char *key);
    std::optional<int> optInt(const char *key);
    // Present (null included): a whole number from min to max, else one sentence giving the range.
    std::optional<int> optIntInRange(const char *key, int min, int max);
    std::optional<long long> optInt64(const char *key);
    std::optional<double> optDouble(const char *key);      // absent or null: empty
    std::optional<bool> optBool(const char *key);          // absent or null: empty
    std::optional<QJsonObject> optObject(const char *key); // absent or null: empty
    std::optional<QJsonArray> optArray(const char *key);
    // A list of numbers, none negative (absent or null: empty); `what` completes "Field \"key\" must
    // be a list of ..." otherwise.
    QList<double> nonNegativeNumbers(const char *key, const char *what);
    std::optional<ParamValues> optParams(const char *key);
    // {"m":..,"n":..,"k":..} with all three; `required`: absent is an error too.
    std::optional<ProblemSize> optSize(const char *key, bool required = false);

    void fail(const QString &message)
    {
        if (m_error.isEmpty())
            m_error = message;
    }
    // True when every field read had its documented type; else false with the sentence in `error`.
    bool finish(QString *error) const
    {
        if (error)
            *error = m_error;
        return m_error.isEmpty();
    }

private:
    void wrongType(const char *key, const char *what);
    void outOfRange(const char *key, const QString &limit); // "Field \"x\" is out of range (max N)."
    const QJsonObject &m_json;
    QString m_error;
};

// Writers: an empty optional writes nothing.
template <typename T> void putOpt(QJsonObject &json, const char *key, const std::optional<T> &value)
{
    if (value)
        json.insert(QLatin1String(key), *value);
}
inline void putNonEmpty(QJsonObject &json, const char *key, const QString &value)
{
    if (!value.isEmpty())
        json.insert(QLatin1String(key), value);
}
// A list of numbers as a JSON array (the reader's twin: Reader::nonNegativeNumbers).
inline QJsonArray numbersToJson(const QList<double> &numbers)
{
    QJsonArray array;
    for (const double number : numbers)
        array.append(number);
    return array;
}
// An empty optional writes null (fields the protocol always carries, null when unknown).
inline QJsonValue orNull(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

} // namespace gemmscope::protocol::detail
