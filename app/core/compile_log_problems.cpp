#include "compile_log_problems.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gemmscope {

namespace {

// A longer line is looked at only this far: the patterns below are anchored at its start, and a
// message is cut to kMaxProblemMessageLength anyway.
constexpr qsizetype kMaxLineLookedAt = 4096;
constexpr int kMaxLineNumber = 100'000'000;

QString cleanMessage(QStringView text)
{
    QString message;
    message.reserve(std::min<qsizetype>(text.size(), kMaxProblemMessageLength + 1));
    for (QChar c : text) {
        if (message.size() > kMaxProblemMessageLength)
            break;
        if (c == QLatin1Char('\t'))
            message += QLatin1Char(' ');
        else if (c.isPrint() || c.isSpace())
            message += c;
    }
    message = message.trimmed();
    if (message.size() > kMaxProblemMessageLength) {
        message.truncate(kMaxProblemMessageLength);
        message += QChar(0x2026); // …
    }
    return message;
}

KernelProblem::Severity severityOf(QStringView word)
{
    return word.startsWith(QLatin1String("warning"), Qt::CaseInsensitive) ? KernelProblem::Severity::Warning
                                                                          : KernelProblem::Severity::Error;
}

int lineNumber(QStringView digits)
{
    bool ok = false;
    const qlonglong n = digits.left(10).toLongLong(&ok);
    return ok && n > 0 && n <= kMaxLineNumber ? int(n) : 0;
}

// One line of the log as a problem, or false when it is not the start of one.
bool parseLine(const QString &line, KernelProblem *problem)
{
    // NVRTC (EDG): `name(12): error: text`, `name(12): warning #177-D: text`, `name(12): catastrophic
    // error: text`; the file name may hold spaces, never a '(' before its line number.
    static const QRegularExpression edg(QStringLiteral(
        R"(^([^()\r\n]{1,512}?)\((\d{1,12})\):\s*(catastrophic error|fatal error|error|warning)(?:\s*#[\w-]+)?\s*:\s?(.*)$)"));
    // clang-style, as some toolkits' NVRTC front ends write it: `name:12:5: error: text`.
    static const QRegularExpression clang(QStringLiteral(
        R"(^([^:\r\n]{1,512}):(\d{1,12}):(?:\d{1,9}:)?\s*(fatal error|error|warning)\s*:\s?(.*)$)"));
    // ptxas (and nvlink) lines carry no source line: `ptxas error   : text`, `ptxas fatal : text`.
    static const QRegularExpression tool(
        QStringLiteral(R"(^(ptxas|nvlink)\s+(error|fatal|warning)\s*:\s?(.*)$)"));
    static const QRegularExpression bare(
        QStringLiteral(R"(^(?:At end of source:\s*)?(error|warning)\s*:\s?(.*)$)"));

    if (const QRegularExpressionMatch m = edg.match(line); m.hasMatch()) {
        *problem = {.file = m.captured(1).trimmed(),
                    .line = lineNumber(m.capturedView(2)),
                    .message = cleanMessage(m.capturedView(4)),
                    .severity = severityOf(m.capturedView(3))};
        return true;
    }
    if (const QRegularExpressionMatch m = clang.match(line); m.hasMatch()) {
        *problem = {.file = m.captured(1).trimmed(),
                    .line = lineNumber(m.capturedView(2)),
                    .message = cleanMessage(m.capturedView(4)),
                    .severity = severityOf(m.capturedView(3))};
        return true;
    }
    if (const QRegularExpressionMatch m = tool.match(line); m.hasMatch()) {
        *problem = {.file = {},
                    .line = 0,
                    .message = cleanMessage(m.captured(1) + QLatin1String(": ") + m.captured(3)),
                    .severity = severityOf(m.capturedView(2))};
        return true;
    }
    if (const QRegularExpressionMatch m = bare.match(line); m.hasMatch()) {
        *problem = {.file = {},
                    .line = 0,
                    .message = cleanMessage(m.capturedView(2)),
                    .severity = severityOf(m.capturedView(1))};
        return true;
    }
    return false;
}

} // namespace

QList<KernelProblem> compileLogProblems(QStringView log)
{
    QList<KernelProblem> problems;
    int leftOut = 0;
    qsizetype start = 0;
    while (start < log.size()) {
        qsizetype end = log.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = log.size();
        QStringView line = log.mid(start, std::min(end - start, kMaxLineLookedAt));
        start = end + 1;
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        KernelProblem problem;
        if (!parseLine(line.toString(), &problem) || problem.message.isEmpty())
            continue;
        if (problems.size() >= kMaxLogProblems - 1)
            ++leftOut;
        else if (!problems.contains(problem)) // NVRTC repeats a message for each instantiation
            problems.append(problem);
    }
    if (leftOut > 0)
        problems.append({.file = {},
                         .line = 0,
                         .message = QCoreApplication::translate("KernelProblems",
                                                                "%n more problem(s) in the compile log are "
                                                                "not listed; the first ones are shown.",
                                                                nullptr, leftOut),
                         .severity = KernelProblem::Severity::Error});
    return problems;
}

QString problemCountText(const QList<KernelProblem> &problems)
{
    const auto errors = std::count_if(problems.begin(), problems.end(), [](const KernelProblem &p) {
        return p.severity == KernelProblem::Severity::Error;
    });
    const int warnings = int(problems.size() - errors);
    const QString errorText =
        QCoreApplication::translate("KernelProblems", "%n error(s)", nullptr, int(errors));
    const QString warningText =
        QCoreApplication::translate("KernelProblems", "%n warning(s)", nullptr, warnings);
    if (errors == 0 && warnings == 0)
        return QCoreApplication::translate("KernelProblems", "No problems");
    if (warnings == 0)
        return errorText;
    if (errors == 0)
        return warningText;
    return errorText + QStringLiteral(", ") + warningText;
}

} // namespace gemmscope
