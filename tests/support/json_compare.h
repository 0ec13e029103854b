// Test helper: JSON equality with numbers compared by value (152.0 and 152 are one number, as
// a codec that writes integers and a recording that stored doubles must agree), objects key by
// key and arrays element by element. On a difference, `where` names its path ("/compiled/registers").
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

inline bool sameJson(const QJsonValue &a, const QJsonValue &b, QString *where, const QString &path = {})
{
    if (a.isDouble() && b.isDouble()) {
        if (a.toDouble() == b.toDouble())
            return true;
    } else if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        QStringList keys = oa.keys() + ob.keys();
        keys.removeDuplicates();
        for (const QString &k : keys)
            if (!sameJson(oa.value(k), ob.value(k), where, path + QLatin1Char('/') + k))
                return false;
        return true;
    } else if (a.isArray() && b.isArray()) {
        const QJsonArray aa = a.toArray(), ab = b.toArray();
        if (aa.size() == ab.size()) {
            for (qsizetype i = 0; i < aa.size(); ++i)
                if (!sameJson(aa[i], ab[i], where, path + QStringLiteral("[%1]").arg(i)))
                    return false;
            return true;
        }
    } else if (a == b) {
        return true;
    }
    *where = path.isEmpty() ? QStringLiteral("/") : path;
    return false;
}
