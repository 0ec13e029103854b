#include "profile_summary.h"

#include <QHash>
#include <algorithm>

namespace gemmscope {

double totalSamples(const protocol::ProfileEvent &profile)
{
    if (profile.totalSamples && *profile.totalSamples > 0)
        return *profile.totalSamples;
    double sum = 0;
    for (const protocol::ProfileInstruction &i : profile.instructions)
        sum += i.samples();
    return sum;
}

QList<StallShare> stallShares(const protocol::ProfileEvent &profile)
{
    QMap<QString, double> byReason;
    double sum = 0;
    for (const protocol::ProfileInstruction &i : profile.instructions)
        for (auto it = i.stalls.cbegin(); it != i.stalls.cend(); ++it) {
            byReason[it.key()] += it.value();
            sum += it.value();
        }
    QList<StallShare> out;
    for (auto it = byReason.cbegin(); it != byReason.cend(); ++it)
        out.append({it.key(), it.value(), sum > 0 ? it.value() / sum : 0.0});
    std::stable_sort(out.begin(), out.end(),
                     [](const StallShare &a, const StallShare &b) { return a.samples > b.samples; });
    return out;
}

QString SampledLine::where() const
{
    if (!file.isEmpty() && line > 0)
        return QStringLiteral("%1:%2").arg(file).arg(line);
    QString text = QStringLiteral("pc 0x%1").arg(pc, 4, 16, QLatin1Char('0'));
    if (!sass.isEmpty())
        text += QLatin1Char(' ') + sass;
    return text;
}

QList<SampledLine> sampledLines(const protocol::ProfileEvent &profile)
{
    QList<SampledLine> lines;
    QHash<QString, qsizetype> index; // "file:line" or "function@pc" -> position in `lines`
    for (const protocol::ProfileInstruction &i : profile.instructions) {
        const bool hasLine = !i.file.isEmpty() && i.line > 0;
        const QString key = hasLine ? QStringLiteral("%1:%2").arg(i.file).arg(i.line)
                                    : QStringLiteral("%1@%2").arg(i.function).arg(i.pc);
        auto found = index.constFind(key);
        if (found == index.constEnd()) {
            SampledLine l;
            if (hasLine) {
                l.file = i.file;
                l.line = i.line;
            }
            l.pc = i.pc;
            l.sass = i.sass;
            found = index.insert(key, lines.size());
            lines.append(l);
        }
        SampledLine &l = lines[*found];
        if (i.pc < l.pc) {
            l.pc = i.pc;
            l.sass = i.sass;
        }
        for (auto it = i.stalls.cbegin(); it != i.stalls.cend(); ++it) {
            l.stalls[it.key()] += it.value();
            l.samples += it.value();
        }
    }
    const double total = totalSamples(profile);
    for (SampledLine &l : lines) {
        l.share = total > 0 ? l.samples / total : 0.0;
        double best = -1;
        for (auto it = l.stalls.cbegin(); it != l.stalls.cend(); ++it)
            if (it.value() > best) {
                best = it.value();
                l.topReason = it.key();
            }
    }
    std::stable_sort(lines.begin(), lines.end(), [](const SampledLine &a, const SampledLine &b) {
        if (a.samples != b.samples)
            return a.samples > b.samples;
        return a.file != b.file ? a.file < b.file : a.line != b.line ? a.line < b.line : a.pc < b.pc;
    });
    return lines;
}

} // namespace gemmscope
