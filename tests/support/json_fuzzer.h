// The structural JSON generator of the seeded bad-input suites (tst_bad_inputs, tst_journal_inputs):
// hostile values, structural mutations of a valid seed, byte damage of its text, and noise.
#pragma once

#include "fuzz_random.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <climits>
#include <random>

namespace gemmscope::testsupport {

class Fuzzer : public testsupport::FuzzRandom {
public:
    using FuzzRandom::FuzzRandom;

    // Values a hostile file holds where a number, a string or an object was expected.
    QJsonValue nastyValue()
    {
        static const QList<QJsonValue> values = {0,
                                                 -1,
                                                 1,
                                                 2,
                                                 1.5,
                                                 -0.0,
                                                 1e300,
                                                 -1e300,
                                                 5e-324,
                                                 2147483647.0,
                                                 2147483648.0,
                                                 4294967296.0,
                                                 9007199254740993.0,
                                                 -2147483649.0,
                                                 65535,
                                                 65536,
                                                 1024,
                                                 16,
                                                 64,
                                                 255,
                                                 256,
                                                 QJsonValue(QJsonValue::Null),
                                                 true,
                                                 false,
                                                 QString(),
                                                 QStringLiteral("16"),
                                                 QStringLiteral("1"),
                                                 QStringLiteral("nan"),
                                                 QStringLiteral("inf"),
                                                 QStringLiteral("<h1>big</h1><img src=\"/etc/passwd\">"),
                                                 QStringLiteral("\u202e\u0000tab\tnew\nline"),
                                                 QString(2000, QLatin1Char('x')),
                                                 QJsonArray{1, 2, 3},
                                                 QJsonObject{{"m", 1}},
                                                 QJsonArray{},
                                                 QJsonObject{}};
        if (chance(15))
            return double(std::uniform_int_distribution<long long>(LLONG_MIN / 2, LLONG_MAX / 2)(rng()));
        if (chance(10))
            return below(2000) - 1000;
        return values[below(int(values.size()))];
    }

    // One structural mutation somewhere in the tree: delete, replace, retype, or add a key.
    QJsonValue mutate(const QJsonValue &value, int depth = 0)
    {
        if (value.isObject() && !value.toObject().isEmpty() && depth < 6 && chance(70)) {
            QJsonObject o = value.toObject();
            const QStringList keys = o.keys();
            const QString key = keys[below(int(keys.size()))];
            switch (below(5)) {
            case 0:
                o.remove(key);
                break;
            case 1:
                o.insert(key, nastyValue());
                break;
            case 2:
                o.insert(QStringLiteral("%1_extra").arg(below(5)), nastyValue());
                break;
            default:
                o.insert(key, mutate(o.value(key), depth + 1));
                break;
            }
            return o;
        }
        if (value.isArray() && !value.toArray().isEmpty() && depth < 6 && chance(70)) {
            QJsonArray a = value.toArray();
            const int i = below(int(a.size()));
            switch (below(4)) {
            case 0:
                a.removeAt(i);
                break;
            case 1:
                a.append(a.at(i)); // a duplicate: same run id twice
                break;
            default:
                a[i] = mutate(a.at(i), depth + 1);
                break;
            }
            return a;
        }
        return nastyValue();
    }

    // Byte-level damage of serialized JSON: truncation, a flipped byte, inserted garbage.
    QByteArray damage(QByteArray bytes)
    {
        if (bytes.isEmpty())
            return bytes;
        switch (below(4)) {
        case 0:
            bytes.truncate(below(int(bytes.size())));
            break;
        case 1:
            bytes[below(int(bytes.size()))] = char(below(256));
            break;
        case 2:
            bytes.insert(below(int(bytes.size())), QByteArray("\",]}{:\\u0000\xff\xfe", below(12) + 1));
            break;
        default:
            bytes = bytes.repeated(2);
            break;
        }
        return bytes;
    }

    // A document: the seed mutated 1-4 times, sometimes damaged as text, sometimes pure noise.
    QByteArray document(const QJsonObject &seed)
    {
        if (chance(3))
            return noise(200);
        QJsonValue v = seed;
        for (int n = below(4) + 1; n > 0; --n)
            v = mutate(v);
        QByteArray bytes = QJsonDocument(v.isObject() ? v.toObject() : seed).toJson(QJsonDocument::Compact);
        return chance(20) ? damage(bytes) : bytes;
    }
};

// A refusal is a sentence a user can read: not empty, not a placeholder, ends like a sentence.
inline bool isSentence(const QString &text)
{
    const QString t = text.trimmed();
    return t.size() >= 12 &&
           (t.endsWith(QLatin1Char('.')) || t.endsWith(QLatin1Char(')')) || t.endsWith(QLatin1Char('"')));
}

} // namespace gemmscope::testsupport
