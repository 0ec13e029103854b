#include "runner_command.h"

#include <QRegularExpression>

namespace gemmscope {

namespace {

// Splits like a POSIX shell's word splitting and quote removal, and nothing more.
std::optional<QStringList> splitWords(const QString &text, QString *error)
{
    QStringList words;
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('\'')) {
            const qsizetype end = text.indexOf(QLatin1Char('\''), i + 1);
            if (end < 0) {
                *error = QStringLiteral("The runner template has a ' without its closing '.");
                return std::nullopt;
            }
            word += text.mid(i + 1, end - i - 1);
            inWord = true;
            i = end;
        } else if (c == QLatin1Char('"')) {
            qsizetype j = i + 1;
            for (; j < text.size() && text[j] != QLatin1Char('"'); ++j) {
                if (text[j] == QLatin1Char('\\') && j + 1 < text.size() &&
                    (text[j + 1] == QLatin1Char('"') || text[j + 1] == QLatin1Char('\\')))
                    ++j;
                word += text[j];
            }
            if (j >= text.size()) {
                *error = QStringLiteral("The runner template has a \" without its closing \".");
                return std::nullopt;
            }
            inWord = true;
            i = j;
        } else if (c == QLatin1Char('\\')) {
            if (i + 1 >= text.size()) {
                *error = QStringLiteral("The runner template ends with a lone backslash.");
                return std::nullopt;
            }
            word += text[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else if (QStringLiteral(";|&<>`$").contains(c)) {
            *error =
                QStringLiteral("The runner template contains '%1' outside quotes: it is started without a "
                               "shell, so pipes, redirections, variables and command lists do not work there "
                               "(quote the character if it is meant literally).")
                    .arg(c);
            return std::nullopt;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

bool substitute(QString &word, const RunnerTemplateValues &values, QString *error)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{([a-z]+)\\}"));
    QString out;
    qsizetype last = 0;
    for (auto it = placeholder.globalMatch(word); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString name = m.captured(1);
        QString value;
        if (name == QLatin1String("gpu"))
            value = values.gpu;
        else if (name == QLatin1String("host"))
            value = values.host;
        else if (name == QLatin1String("index"))
            value = values.index;
        else if (name == QLatin1String("runner"))
            value = values.runner;
        else {
            *error = QStringLiteral(
                         "The runner template names {%1}; it knows {gpu}, {host}, {index} and {runner}.")
                         .arg(name);
            return false;
        }
        if (value.isEmpty()) {
            *error =
                QStringLiteral("The runner template uses {%1}, but no value was given for it.").arg(name);
            return false;
        }
        out += word.mid(last, m.capturedStart() - last) + value;
        last = m.capturedEnd();
    }
    word = out + word.mid(last);
    return true;
}

QString quoted(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=@,+%{}-]+$"));
    return plain.match(word).hasMatch()
               ? word
               : QLatin1Char('\'') + QString(word).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                     QLatin1Char('\'');
}

} // namespace

std::optional<RunnerCommand> parseRunnerTemplate(const QString &templateText,
                                                 const RunnerTemplateValues &values, QString *error)
{
    QString sink;
    QString &why = error ? *error : sink;
    static const QRegularExpression hostName(QStringLiteral("^([A-Za-z0-9._-]+@)?[A-Za-z0-9._:-]+$"));
    if (!values.host.isEmpty() &&
        (!hostName.match(values.host).hasMatch() || values.host.startsWith(QLatin1Char('-')))) {
        why = QStringLiteral(
                  "\"%1\" is not a host name: a host is [user@]name with letters, digits, '.', '-', '_' "
                  "or ':', and does not start with '-'.")
                  .arg(values.host);
        return std::nullopt;
    }
    if (!values.gpu.isEmpty() &&
        !QRegularExpression(QStringLiteral("^[0-9A-Za-z,:-]+$")).match(values.gpu).hasMatch()) {
        why = QStringLiteral("\"%1\" is not a GPU: give its index (0, 1, ...) or its UUID.").arg(values.gpu);
        return std::nullopt;
    }
    const std::optional<QStringList> split = splitWords(templateText, &why);
    if (!split)
        return std::nullopt;
    QStringList words = *split;
    RunnerCommand command;
    static const QRegularExpression assignment(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$"),
                                               QRegularExpression::DotMatchesEverythingOption);
    qsizetype first = 0;
    for (; first < words.size(); ++first) {
        const QRegularExpressionMatch m = assignment.match(words[first]);
        if (!m.hasMatch())
            break;
        QString value = m.captured(2);
        if (!substitute(value, values, &why))
            return std::nullopt;
        command.environment.insert(m.captured(1), value);
    }
    words = words.mid(first);
    if (words.isEmpty()) {
        why = QStringLiteral("The runner template names no program to start.");
        return std::nullopt;
    }
    if (!values.host.isEmpty() && !templateText.contains(QStringLiteral("{host}"))) {
        why = QStringLiteral("A host (\"%1\") was given, but the runner template has no {host}: its runner "
                             "would start on this machine, not on %1. Put {host} where the host goes, e.g. "
                             "'ssh {host} gemmscope-runner'.")
                  .arg(values.host);
        return std::nullopt;
    }
    for (QString &w : words)
        if (!substitute(w, values, &why))
            return std::nullopt;
    command.program = words.takeFirst();
    command.arguments = words;
    command.host = values.host;
    QStringList shown;
    for (auto it = command.environment.cbegin(); it != command.environment.cend(); ++it)
        shown << it.key() + QLatin1Char('=') + quoted(it.value());
    shown << quoted(command.program);
    for (const QString &a : command.arguments)
        shown << quoted(a);
    command.label = shown.join(QLatin1Char(' '));
    return command;
}

std::optional<QString> runnerPoolProblem(qsizetype runners)
{
    if (runners <= kMaxRunnersPerSweep)
        return std::nullopt;
    return QStringLiteral("The sweep would start %1 runners; GemmScope starts at most %2 per sweep (runner "
                          "templates x hosts x runners per host). Use fewer hosts or runners per host.")
        .arg(runners)
        .arg(kMaxRunnersPerSweep);
}

std::optional<QList<RunnerCommand>> runnerCommandsPerGpu(const QString &templateText, int count,
                                                         const QString &runnerPath, QString *error)
{
    QList<RunnerCommand> commands;
    if (count > kMaxRunnersPerSweep) {
        if (error)
            *error = *runnerPoolProblem(count);
        return std::nullopt;
    }
    for (int i = 0; i < count; ++i) {
        RunnerTemplateValues values;
        values.gpu = values.index = QString::number(i);
        values.runner = runnerPath;
        std::optional<RunnerCommand> c = parseRunnerTemplate(templateText, values, error);
        if (!c)
            return std::nullopt;
        commands << *c;
    }
    return commands;
}

} // namespace gemmscope
