#include "profile_limits.h"

#include <QJsonArray>
#include <QLocale>
#include <QObject>
#include <QSet>
#include <optional>

namespace gemmscope {

namespace {

QString countText(qsizetype n)
{
    return QLocale().toString(qlonglong(n));
}

// The first string or member name in `value` longer than kMaxProfileTextChars: where it is ("its
// \"sass\"") and its length. Each string is looked at once; the walk stops at the first one.
struct LongText {
    QString where;
    qsizetype length = 0;
};

std::optional<LongText> firstLongText(const QJsonValue &value, const QString &field)
{
    if (value.isString()) {
        const qsizetype length = value.toString().size();
        if (length > kMaxProfileTextChars)
            return LongText{QObject::tr("its \"%1\"").arg(field), length};
    } else if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            if (auto found = firstLongText(item, field))
                return found;
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key().size() > kMaxProfileTextChars)
                return LongText{QObject::tr("a name in its \"%1\"").arg(field), it.key().size()};
            // A member's name, shortened: it is quoted in the sentence.
            if (auto found = firstLongText(it.value(), it.key().left(40)))
                return found;
        }
    }
    return std::nullopt;
}

// "at most 50,000, and a real kernel's has a few thousand": the limit and what is usual, after
// the count that broke it.
QString tooMany(qsizetype found, const QString &what, int limit, const QString &usual)
{
    return QObject::tr("it holds %1 %2; GemmScope reads profiles of at most %3, and %4")
        .arg(countText(found), what, countText(limit), usual);
}

} // namespace

QString tooManyInstructions(qsizetype count)
{
    return tooMany(count, QObject::tr("instructions"), kMaxProfileInstructions,
                   QObject::tr("a real kernel's has a few thousand"));
}

QString profileOverLimits(const QJsonObject &event)
{
    const QJsonArray instructions = event.value("instructions").toArray();
    if (instructions.size() > kMaxProfileInstructions)
        return tooManyInstructions(instructions.size());
    const QJsonObject limiters = event.value("limiters").toObject();
    if (limiters.size() > kMaxProfileLimiters)
        return tooMany(limiters.size(), QObject::tr("kernel-wide figures"), kMaxProfileLimiters,
                       QObject::tr("a real one has about twenty"));
    QSet<QString> lines, functions;
    for (qsizetype i = 0; i < instructions.size(); ++i) {
        const QJsonObject instruction = instructions[i].toObject();
        const qsizetype figures =
            instruction.value("stalls").toObject().size() + instruction.value("metrics").toObject().size();
        if (figures > kMaxProfileFiguresPerInstruction)
            return QObject::tr("its instruction %1 holds %2 figures; GemmScope reads at most %3 per "
                               "instruction, and a real one has about a dozen")
                .arg(countText(i + 1), countText(figures), countText(kMaxProfileFiguresPerInstruction));
        // A name longer than the limit is said below, as what it is.
        const QString function = instruction.value("function").toString();
        if (function.size() <= kMaxProfileTextChars)
            functions.insert(function);
        if (functions.size() > kMaxProfileFunctions)
            return tooMany(functions.size(), QObject::tr("functions (or more)"), kMaxProfileFunctions,
                           QObject::tr("a real kernel's has one or two"));
        const int line = instruction.value("line").toInt();
        const QString file = instruction.value("file").toString();
        if (line > 0 && file.size() <= kMaxProfileTextChars)
            lines.insert(file + QLatin1Char(':') + QString::number(line));
        if (lines.size() > kMaxProfileSourceLines)
            return tooMany(lines.size(), QObject::tr("source lines (or more)"), kMaxProfileSourceLines,
                           QObject::tr("a real kernel's has a few dozen"));
    }
    if (const std::optional<LongText> text = firstLongText(event, QStringLiteral("profile")))
        return QObject::tr("%1 is %2 characters long; GemmScope reads texts of at most %3 in a profile, and "
                           "the longest real one is a kernel's name of a few hundred")
            .arg(text->where, countText(text->length), countText(kMaxProfileTextChars));
    return {};
}

} // namespace gemmscope
