#include "profile_stalls.h"

#include "stall_reasons.h"

#include <QHash>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace gemmscope {

using protocol::ProfileEvent;
using protocol::ProfileInstruction;
using namespace profile_values;

namespace {

int reasonOrder(const QString &key)
{
    const qsizetype at = knownStallReasonKeys().indexOf(key);
    return at < 0 ? int(knownStallReasonKeys().size()) : int(at);
}

QString topText(const QList<ReasonShare> &reasons, int count)
{
    QStringList parts;
    for (const ReasonShare &r : reasons) {
        if (parts.size() >= count || r.samples <= 0)
            break;
        // The share first: where a table cell is too narrow, the end of the words goes, never the number.
        parts << QStringLiteral("%1 % %2").arg(percent(r.share), stallReasonName(r.key));
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace

QString shareText(double share)
{
    const double p = 100.0 * (std::isfinite(share) ? share : 0.0);
    if (p > 0 && p < 0.05)
        return QStringLiteral("<0.1 %");
    return (p >= 9.95 || p == 0 ? QString::number(p, 'f', 0) : QString::number(p, 'f', 1)) +
           QStringLiteral(" %");
}

std::optional<double> usableCount(double value)
{
    if (!std::isfinite(value) || value < 0)
        return std::nullopt;
    return value;
}

QList<ReasonShare> sortedReasons(const QMap<QString, double> &samples, double total)
{
    QList<ReasonShare> list;
    for (auto it = samples.constBegin(); it != samples.constEnd(); ++it)
        if (const double n = usable(it.value()); n > 0)
            list.append({it.key(), n, total > 0 ? n / total : 0.0});
    std::stable_sort(list.begin(), list.end(), [](const ReasonShare &a, const ReasonShare &b) {
        if (a.samples != b.samples)
            return a.samples > b.samples;
        const int oa = reasonOrder(a.key), ob = reasonOrder(b.key);
        return oa != ob ? oa < ob : a.key < b.key;
    });
    return list;
}

StallBreakdown stallBreakdown(const ProfileEvent &profile)
{
    QMap<QString, double> byReason;
    StallBreakdown b;
    for (const ProfileInstruction &i : profile.instructions)
        for (auto it = i.stalls.constBegin(); it != i.stalls.constEnd(); ++it)
            if (const double n = usable(it.value()); n > 0) {
                byReason[it.key()] += n;
                b.totalSamples += n;
            }
    b.reasons = sortedReasons(byReason, b.totalSamples);
    return b;
}

QString StallBreakdown::sentence() const
{
    if (totalSamples <= 0 || reasons.isEmpty())
        return {};
    const ReasonShare &top = reasons.first();
    QString text = QStringLiteral("Most samples: %1 (%2 % of samples)")
                       .arg(stallReasonName(top.key), percent(top.share));
    if (reasons.size() > 1) {
        const ReasonShare &next = reasons.at(1);
        text += QStringLiteral(", then %1 (%2 %)").arg(stallReasonName(next.key), percent(next.share));
    }
    return text + QLatin1Char('.');
}

QString LineProfile::topReasonsText(int count) const
{
    return topText(reasons, count);
}

QString InstructionHeat::topReasonsText(int count) const
{
    return topText(reasons, count);
}

QList<LineProfile> foldOntoLines(const ProfileEvent &profile, double *unattributedSamples)
{
    double total = 0, unattributed = 0;
    QHash<QPair<QString, int>, qsizetype> index;
    QList<LineProfile> lines;
    for (const ProfileInstruction &i : profile.instructions) {
        const double samples = samplesOf(i);
        total += samples;
        if (i.line <= 0) {
            unattributed += samples;
            continue;
        }
        const QPair<QString, int> key{i.file, i.line};
        qsizetype at = index.value(key, -1);
        if (at < 0) {
            at = lines.size();
            index.insert(key, at);
            LineProfile l;
            l.file = i.file;
            l.line = i.line;
            lines.append(l);
        }
        LineProfile &l = lines[at];
        l.samples += samples;
        ++l.instructions;
        l.pcs.append(i.pc);
        for (auto it = i.stalls.constBegin(); it != i.stalls.constEnd(); ++it)
            if (const double n = usable(it.value()); n > 0)
                l.byReason[it.key()] += n;
    }
    for (LineProfile &l : lines) {
        l.share = total > 0 ? l.samples / total : 0.0;
        l.reasons = sortedReasons(l.byReason, l.samples);
        std::sort(l.pcs.begin(), l.pcs.end());
    }
    std::stable_sort(lines.begin(), lines.end(), [](const LineProfile &a, const LineProfile &b) {
        if (a.samples != b.samples)
            return a.samples > b.samples;
        return a.file != b.file ? a.file < b.file : a.line < b.line;
    });
    if (unattributedSamples)
        *unattributedSamples = unattributed;
    return lines;
}

QList<InstructionHeat> instructionHeat(const ProfileEvent &profile)
{
    double total = 0;
    for (const ProfileInstruction &i : profile.instructions)
        total += samplesOf(i);
    QList<InstructionHeat> list;
    list.reserve(profile.instructions.size());
    for (const ProfileInstruction &i : profile.instructions) {
        InstructionHeat h;
        h.instruction = &i;
        h.samples = samplesOf(i);
        h.share = total > 0 ? h.samples / total : 0.0;
        h.reasons = sortedReasons(i.stalls, h.samples);
        list.append(h);
    }
    return list;
}

QString mainFunction(const ProfileEvent &profile)
{
    QMap<QString, double> samples;
    QMap<QString, int> count;
    for (const ProfileInstruction &i : profile.instructions) {
        samples[i.function] += samplesOf(i);
        ++count[i.function];
    }
    QString best;
    for (auto it = samples.constBegin(); it != samples.constEnd(); ++it)
        if (best.isNull() || it.value() > samples.value(best) ||
            (it.value() == samples.value(best) && count.value(it.key()) > count.value(best)))
            best = it.key();
    return best;
}

std::optional<long long> sassLineOffset(const QString &line)
{
    static const QRegularExpression offset(QStringLiteral(R"(^\s*/\*([0-9a-fA-F]{1,16})\*/\s+\S)"));
    const QRegularExpressionMatch m = offset.match(line);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const long long value = m.captured(1).toLongLong(&ok, 16);
    return ok ? std::optional<long long>(value) : std::nullopt;
}

} // namespace gemmscope
