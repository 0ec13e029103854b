// A JSON value as a user should read it in a refusal: `1.5`, `"1"`, `null`, or "missing" —
// what was received, never a placeholder such as -1 that toInt() returns for anything but an int.
#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QString>
#include <optional>

namespace gemmscope {

inline QString describeJsonValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Undefined:
        return QObject::tr("missing");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::String: {
        const QString text = value.toString();
        return QStringLiteral("\"%1\"").arg(text.size() > 40 ? text.left(40) + QStringLiteral("...") : text);
    }
    case QJsonValue::Array:
        return QObject::tr("a list");
    case QJsonValue::Object:
        return QObject::tr("an object");
    }
    return {};
}

// The value as a whole number when it is exactly one (1, 1.0), else nothing.
inline std::optional<int> exactInt(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!(d >= -2147483648.0 && d <= 2147483647.0) || double(int(d)) != d)
        return std::nullopt;
    return int(d);
}

// Why a file is not JSON: the parser's reason and where in the file (`offset`, its bytes).
inline QString invalidJsonSentence(const QJsonParseError &parseError, qsizetype offset)
{
    return QObject::tr("The file is not valid JSON (%1 at byte %2); it may be truncated or corrupt.")
        .arg(parseError.errorString())
        .arg(offset);
}

// A file's bytes as one JSON object (a session, a bench file), or the sentence why they are not.
inline std::optional<QJsonObject> parseJsonObject(const QByteArray &bytes, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = invalidJsonSentence(parseError, parseError.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QObject::tr("The file holds JSON but not a GemmScope object.");
        return std::nullopt;
    }
    return doc.object();
}

} // namespace gemmscope
