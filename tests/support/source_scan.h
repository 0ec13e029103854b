// Test helper for the tests that read the source tree (tst_field_spelling, tst_vocabulary): a
// file of it as text, and the string literals of a line outside its // comment.
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <functional>

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

// Calls `visit` with each string literal outside a // comment in the C++ files under `folders`
// (relative to the root, with their subfolders): the file's relative path, the 1-based line, the
// literal. Returns how many files were read, so that a test can tell an empty walk from a clean one.
inline int
forEachLiteral(const QStringList &folders,
               const std::function<void(const QString &path, int line, const QString &literal)> &visit)
{
    const QDir root(sourceRoot());
    int files = 0;
    for (const QString &folder : folders) {
        QDirIterator it(root.filePath(folder), {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = root.relativeFilePath(it.next());
            ++files;
            const QStringList lines = readSource(path).split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i)
                for (const QString &literal : stringLiteralsIn(withoutComment(lines[i])))
                    visit(path, int(i + 1), literal);
        }
    }
    return files;
}

} // namespace gemmscope::test
