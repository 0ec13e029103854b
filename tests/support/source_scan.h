// Test helper for the tests that read the source tree (tst_field_spelling, tst_vocabulary): a
// file of it as text, and the string literals of a line outside its // comment.
#pragma once

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace gemmscope::test {

inline QString sourceRoot()
{
    return QDir(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../..")).canonicalPath();
}

// A file of the tree, `relative` to its root; empty where it cannot be read.
inline QString readSource(const QString &relative)
{
    QFile file(QDir(sourceRoot()).filePath(relative));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// The line without its // comment (a "//" inside a string or character literal is code).
inline QString withoutComment(const QString &line)
{
    QChar quote;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (!quote.isNull()) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == quote)
                quote = QChar();
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
        } else if (c == QLatin1Char('/') && i + 1 < line.size() && line[i + 1] == QLatin1Char('/')) {
            return line.left(i);
        }
    }
    return line;
}

// The contents of each "…" literal in `code`, escapes kept as written.
inline QStringList stringLiteralsIn(const QString &code)
{
    static const QRegularExpression literal(QStringLiteral("\"((?:[^\"\\\\]|\\\\.)*)\""));
    QStringList literals;
    for (const QRegularExpressionMatch &m : literal.globalMatch(code))
        literals << m.captured(1);
    return literals;
}

} // namespace gemmscope::test
