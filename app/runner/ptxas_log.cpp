#include "ptxas_log.h"

#include <QRegularExpression>
#include <QStringList>

namespace gemmscope::runner {

// The log has, per entry function (CUDA 12/13 wording):
//   ptxas info    : Compiling entry function '_Z5naiveILi32EEvPKfS1_Pfiii' for 'sm_90'
//   ptxas info    : Function properties for _Z5naiveILi32EEvPKfS1_Pfiii
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 32 registers, used 1 barriers, 4096 bytes smem, 400 bytes cmem[0]
// A function's block runs from its "Compiling entry function" line to the next one.
PtxasInfo parsePtxasLog(const QString &log, const QString &loweredName)
{
    static const QRegularExpression entry(QStringLiteral("Compiling entry function '([^']+)'"));
    static const QRegularExpression frame(
        QStringLiteral("(\\d+) bytes stack frame, (\\d+) bytes spill stores, (\\d+) bytes spill loads"));
    static const QRegularExpression used(QStringLiteral("Used (\\d+) registers"));
    static const QRegularExpression smem(QStringLiteral("(\\d+) bytes smem"));

    // Split the log into per-function sections.
    QStringList names;
    QList<QString> sections;
    auto it = entry.globalMatch(log);
    QList<qsizetype> starts;
    while (it.hasNext()) {
        const auto m = it.next();
        names << m.captured(1);
        starts << m.capturedStart();
    }
    for (int i = 0; i < starts.size(); ++i) {
        const qsizetype end = i + 1 < starts.size() ? starts[i + 1] : log.size();
        sections << log.mid(starts[i], end - starts[i]);
    }
    if (sections.isEmpty())
        sections << log; // an unexpected wording: still try the whole text

    QString section = sections.first();
    if (!loweredName.isEmpty())
        for (int i = 0; i < names.size(); ++i)
            if (names[i] == loweredName)
                section = sections[i];

    PtxasInfo info;
    if (const auto m = used.match(section); m.hasMatch()) {
        info.found = true;
        info.registers = m.captured(1).toInt();
    }
    if (const auto m = frame.match(section); m.hasMatch()) {
        info.stackFrameBytes = m.captured(1).toInt();
        info.spillStoreBytes = m.captured(2).toInt();
        info.spillLoadBytes = m.captured(3).toInt();
    }
    if (const auto m = smem.match(section); m.hasMatch())
        info.staticSmemBytes = m.captured(1).toInt();
    return info;
}

} // namespace gemmscope::runner
